// libFuzzer entry point for the NMEA 0183 reader (format forced to NMEA).
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEAOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .nmea)
}
