// libFuzzer entry point for `CSVColumnMapping(parsing:)`: the first line is a `--columns` spec, the rest a CSV feed read with it.
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzColumnsOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .columns)
}
