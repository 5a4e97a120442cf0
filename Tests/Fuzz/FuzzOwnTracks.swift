// libFuzzer entry point for the OwnTracks Recorder reader (format forced to owntracks).
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOwnTracksOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .owntracks)
}
