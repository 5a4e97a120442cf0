// Shared by every harness: runs the invariant checks of Tests/RouteFeedsTests/FeedInvariants.swift
// and traps on the first input that breaks one, so libFuzzer records it as a crasher.

/// Checks one input; a broken invariant ends the process with a trap whose message (on stderr,
/// beside libFuzzer's report) lists what broke.
func fuzzCheck(_ data: UnsafePointer<UInt8>?, _ size: Int, _ harness: FeedInvariants.Harness) -> CInt {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let problems = FeedInvariants.violations(of: bytes, harness: harness)
  if !problems.isEmpty {
    fatalError("invariant broken (\(harness.rawValue)):\n  " + problems.joined(separator: "\n  "))
  }
  return 0
}
