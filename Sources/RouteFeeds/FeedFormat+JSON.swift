extension FeedFormat {
  /// The JSON format a document starting at `start` (a `{` or `[`) is, decided in one place by
  /// the first member names it shows; nil when it is none the readers know.
  ///
  /// - `{` whose first member is `locations` (`Records.json`), `semanticSegments`, `rawSignals`
  ///   or `userLocationProfile` (the Android on-device Timeline export) or `timelineObjects` (a
  ///   Semantic Location History month): Google location history, `.takeout`.
  /// - `[` whose first element is an object whose first member is `startTime`, `endTime`,
  ///   `visit`, `activity`, `timelinePath` or `timelineMemory` (the iOS Timeline export):
  ///   `.takeout`.
  ///
  /// - Complexity: O(*n*) in the prefix length.
  static func jsonFormat(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> FeedFormat? {
    var index = start
    func skipWhitespace() {
      while index < bytes.count, bytes[index].isASCIIWhitespace { index += 1 }
    }
    /// The member name at `index` (after an opening brace), without escapes.
    func firstMemberName() -> UnsafeBufferPointer<UInt8>? {
      guard index < bytes.count, bytes[index] == 0x7B else { return nil }
      index += 1
      skipWhitespace()
      guard index < bytes.count, bytes[index] == .asciiQuote else { return nil }
      let nameStart = index + 1
      guard let end = bytes[nameStart...].firstIndex(of: .asciiQuote) else { return nil }
      return UnsafeBufferPointer(rebasing: bytes[nameStart..<end])
    }
    func isOneOf(_ name: UnsafeBufferPointer<UInt8>, _ candidates: [StaticString]) -> Bool {
      candidates.contains { candidate in
        name.elementsEqual(UnsafeBufferPointer(start: candidate.utf8Start, count: candidate.utf8CodeUnitCount))
      }
    }
    guard index < bytes.count else { return nil }
    if bytes[index] == 0x5B {
      index += 1
      skipWhitespace()
      guard let name = firstMemberName() else { return nil }
      return isOneOf(name, ["startTime", "endTime", "visit", "activity", "timelinePath", "timelineMemory"]) ? .takeout : nil
    }
    guard let name = firstMemberName() else { return nil }
    return isOneOf(name, ["locations", "semanticSegments", "rawSignals", "userLocationProfile", "timelineObjects"]) ? .takeout : nil
  }
}
