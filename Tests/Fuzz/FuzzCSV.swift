// libFuzzer entry point for the CSV reader (format forced to CSV, header matching).
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .csv)
}
