// libFuzzer entry point for the bare JSON tokenizer and the DOM built on it (chunk invariance,
// offsets, DOM agreement: FeedInvariants.violations(ofJSON:)).
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .json)
}
