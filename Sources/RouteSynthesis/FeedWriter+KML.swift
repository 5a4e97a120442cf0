/// What the KML writer puts around the track.
public struct KMLWriterOptions: Sendable, Hashable {
  /// The `Document`'s and `Placemark`'s `name`.
  public var name: String

  public init(name: String = "Synthetic drive") {
    self.name = name
  }
}

extension FeedWriter {
  /// KML 2.2 with Google's `gx` extension (`.kml` to `write(_:as:into:)`): one `Placemark`
  /// holding a `gx:MultiTrack` with one `gx:Track` per capture session, each fix written as its
  /// `when` (UTC, `Z`; milliseconds only when the time has them) followed by its
  /// `gx:coord` (`longitude latitude altitude`, altitude 0 when unknown), interleaved the way
  /// OpenTracks writes them, so a streaming writer needs no list of the track's times. No-fix
  /// epochs are not written.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeKML(
    _ fixes: some Sequence<SyntheticFix>, options: KMLWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    out.text(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n  <Document>\n    <name>"
    )
    try out.xmlEscaped(options.name, into: &sink)
    out.text("</name>\n    <Placemark>\n      <name>")
    try out.xmlEscaped(options.name, into: &sink)
    out.text("</name>\n      <gx:MultiTrack>\n        <altitudeMode>absolute</altitudeMode>\n")
    var openSession: Int?
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      if fix.session != openSession {
        if openSession != nil { out.text("        </gx:Track>\n") }
        out.text("        <gx:Track>\n")
        openSession = fix.session
      }
      let sample = fix.sample
      out.text("          <when>")
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fix.milliseconds % 1000 == 0 ? 0 : 3)
      out.text("</when>\n          <gx:coord>")
      out.fixed(sample.longitude, decimals: 7)
      out.byte(UInt8(ascii: " "))
      out.fixed(sample.latitude, decimals: 7)
      out.byte(UInt8(ascii: " "))
      out.fixed(sample.altitude ?? 0, decimals: 1)
      out.text("</gx:coord>\n")
    }
    try out.reserveRecord(into: &sink)
    if openSession != nil { out.text("        </gx:Track>\n") }
    out.text("      </gx:MultiTrack>\n    </Placemark>\n  </Document>\n</kml>\n")
    return out
  }
}
