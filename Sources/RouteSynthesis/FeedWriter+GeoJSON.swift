/// What the GeoJSON writer puts in each feature's `properties`.
public struct GeoJSONWriterOptions: Sendable, Hashable {
  /// `speed` (m/s) and `bearing` (degrees), as GPSLogger writes them, when the fix has them.
  public var includesMotion: Bool

  public init(includesMotion: Bool = true) {
    self.includesMotion = includesMotion
  }
}

extension FeedWriter {
  /// GeoJSON (RFC 7946; `.geojson` to `write(_:as:into:)`) as GPSLogger writes it: one
  /// `FeatureCollection`, one `Point` feature per fix on its own line, `properties` first
  /// (`time` in ISO 8601 UTC with `Z`, milliseconds only when the time has them; `accuracy` in
  /// metres, left out when invalid; optionally `speed` and `bearing`), then the geometry with
  /// longitude, latitude (7 decimals) and altitude (1 decimal) when known. No-fix epochs are not
  /// written. GeoJSON has no session marker: consecutive Point features are one capture
  /// session, so a capture gap shows only as a silence in the times.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeGeoJSON(
    _ fixes: some Sequence<SyntheticFix>, options: GeoJSONWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    out.text("{\"type\":\"FeatureCollection\",\"features\":[")
    var first = true
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      out.text(first ? "\n" : ",\n")
      first = false
      let sample = fix.sample
      out.text("{\"type\":\"Feature\",\"properties\":{\"time\":\"")
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fix.milliseconds % 1000 == 0 ? 0 : 3)
      out.byte(0x22)
      if let accuracy = sample.horizontalAccuracy, accuracy >= 0 {
        out.text(",\"accuracy\":")
        out.fixed(accuracy, decimals: 1)
      }
      if options.includesMotion {
        if let speed = sample.speed {
          out.text(",\"speed\":")
          out.fixed(speed, decimals: 2)
        }
        if let course = sample.course {
          out.text(",\"bearing\":")
          out.fixed(course, decimals: 1)
        }
      }
      out.text("},\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
      out.fixed(sample.longitude, decimals: 7)
      out.byte(0x2C)
      out.fixed(sample.latitude, decimals: 7)
      if let altitude = sample.altitude {
        out.byte(0x2C)
        out.fixed(altitude, decimals: 1)
      }
      out.text("]}}")
    }
    try out.reserveRecord(into: &sink)
    out.text("\n]}\n")
    return out
  }
}
