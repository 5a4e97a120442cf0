// libFuzzer entry point for the FIT reader (format forced to FIT; gzip-compressed input is
// decompressed first, as every feed is). Built by run-fuzzers.sh with FuzzSupport.swift and
// FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFITOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .fit)
}
