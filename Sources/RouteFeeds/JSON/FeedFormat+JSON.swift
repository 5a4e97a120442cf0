extension FeedFormat {
  /// The JSON format a document starting at `start` (a `{` or `[`) is: the one place that decides
  /// among the JSON formats; nil when none is recognised (detection then goes on as for text).
  ///
  /// 1. Google location history (`.takeout`), by the first member name: `{` whose first member
  ///    is `locations` (`Records.json`), `semanticSegments`, `rawSignals` or
  ///    `userLocationProfile` (the Android on-device Timeline export) or `timelineObjects` (a
  ///    Semantic Location History month); or `[` whose first element is an object whose first
  ///    member is `startTime`, `endTime`, `visit`, `activity`, `timelinePath` or `timelineMemory`
  ///    (the iOS Timeline export).
  /// 2. GeoJSON, for a `{` document: a `"type"` of `"FeatureCollection"`, `"Feature"` or a
  ///    geometry type, or a `"features"`, `"geometry"` or `"coordinates"` member name. Names are
  ///    looked for as quoted strings anywhere in the prefix (the type often comes last, after the
  ///    features).
  ///
  /// - Complexity: O(*n*) in the prefix length per name looked for.
  static func jsonFormat(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> FeedFormat? {
    if isTakeout(bytes, from: start) { return .takeout }
    guard start < bytes.count, bytes[start] == 0x7B else { return nil }
    let geoJSONNames: [StaticString] = [
      "\"FeatureCollection\"", "\"Feature\"", "\"features\"", "\"geometry\"", "\"coordinates\"",
      "\"LineString\"", "\"MultiLineString\"", "\"Point\"",
    ]
    for name in geoJSONNames where contains(name, in: bytes, from: start) { return .geojson }
    return nil
  }

  /// Whether the first member name (of the top-level object, or of the first element of a
  /// top-level array) is one only Google location history starts with.
  private static func isTakeout(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var index = start
    func skipWhitespace() {
      while index < bytes.count, bytes[index].isASCIIWhitespace { index += 1 }
    }
    /// The member name after the opening brace at `index`, without escapes.
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
    guard index < bytes.count else { return false }
    if bytes[index] == 0x5B {
      index += 1
      skipWhitespace()
      guard let name = firstMemberName() else { return false }
      return isOneOf(name, ["startTime", "endTime", "visit", "activity", "timelinePath", "timelineMemory"])
    }
    guard let name = firstMemberName() else { return false }
    return isOneOf(name, ["locations", "semanticSegments", "rawSignals", "userLocationProfile", "timelineObjects"])
  }

  private static func contains(_ text: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    let count = text.utf8CodeUnitCount
    let first = text.utf8Start[0]
    var index = start
    while index + count <= bytes.count {
      if bytes[index] == first {
        var offset = 1
        while offset < count, bytes[index + offset] == text.utf8Start[offset] { offset += 1 }
        if offset == count { return true }
      }
      index += 1
    }
    return false
  }
}
