extension FeedFormat {
  /// The JSON format a document starting with `{` at `start` is, from the quoted names in the
  /// prefix; nil when none is recognised (detection then goes on as for text).
  ///
  /// GeoJSON: a `"type"` of `"FeatureCollection"`, `"Feature"` or a geometry type, or a
  /// `"features"`, `"geometry"` or `"coordinates"` member name. Names are looked for as quoted
  /// strings anywhere in the prefix (the type often comes last, after the features).
  ///
  /// - Complexity: O(*n*) in the prefix length per name looked for.
  static func jsonFormat(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> FeedFormat? {
    let geoJSONNames: [StaticString] = [
      "\"FeatureCollection\"", "\"Feature\"", "\"features\"", "\"geometry\"", "\"coordinates\"",
      "\"LineString\"", "\"MultiLineString\"", "\"Point\"",
    ]
    for name in geoJSONNames where contains(name, in: bytes, from: start) { return .geojson }
    return nil
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
