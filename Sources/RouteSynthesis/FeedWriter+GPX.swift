/// What the GPX writer puts around the points.
public struct GPXWriterOptions: Sendable, Hashable {
  /// The `<metadata><name>` and `<trk><name>`.
  public var name: String
  /// The `<metadata><desc>`, if any.
  public var description: String?
  /// The `creator` attribute.
  public var creator: String

  public init(name: String = "Synthetic drive", description: String? = nil, creator: String = "RouteSynthesis") {
    self.name = name
    self.description = description
    self.creator = creator
  }
}

extension FeedWriter {
  /// GPX 1.1 (`.gpx` to `write(_:as:into:)`): one `<trk>`, one `<trkseg>` per capture session
  /// (the schema's "a new segment when reception was lost or the receiver was off"), each point
  /// with `<ele>`, `<time>` (UTC, `Z`; milliseconds only when the time has them) and `<hdop>`
  /// (accuracy ÷ 5 m; left out for an invalid accuracy). No-fix epochs are not written: a GPX
  /// logger records nothing without a fix.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeGPX(
    _ fixes: some Sequence<SyntheticFix>, options: GPXWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    out.text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"")
    try out.xmlEscaped(options.creator, into: &sink)
    out.text(
      "\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n  <metadata>\n    <name>"
    )
    try out.xmlEscaped(options.name, into: &sink)
    out.text("</name>\n")
    if let description = options.description {
      try out.reserveRecord(into: &sink)
      out.text("    <desc>")
      try out.xmlEscaped(description, into: &sink)
      out.text("</desc>\n")
    }
    try out.reserveRecord(into: &sink)
    out.text("  </metadata>\n  <trk>\n    <name>")
    try out.xmlEscaped(options.name, into: &sink)
    out.text("</name>\n    <type>driving</type>\n")

    var openSession: Int?
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      if fix.session != openSession {
        if openSession != nil { out.text("    </trkseg>\n") }
        out.text("    <trkseg>\n")
        openSession = fix.session
      }
      let sample = fix.sample
      out.text("      <trkpt lat=\"")
      out.fixed(sample.latitude, decimals: 7)
      out.text("\" lon=\"")
      out.fixed(sample.longitude, decimals: 7)
      out.text("\">")
      if let altitude = sample.altitude {
        out.text("<ele>")
        out.fixed(altitude, decimals: 1)
        out.text("</ele>")
      }
      out.text("<time>")
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fix.milliseconds % 1000 == 0 ? 0 : 3)
      out.text("</time>")
      if let accuracy = sample.horizontalAccuracy, accuracy >= 0 {
        out.text("<hdop>")
        out.fixed(fix.hdop, decimals: 1)
        out.text("</hdop>")
      }
      out.text("</trkpt>\n")
    }
    try out.reserveRecord(into: &sink)
    if openSession != nil { out.text("    </trkseg>\n") }
    out.text("  </trk>\n</gpx>\n")
    return out
  }
}

extension OutputBuffer {
  /// `value` with `&`, `<`, `>` and `"` escaped.
  mutating func xmlEscaped(_ value: String, into sink: inout some SynthesisByteSink) throws(SynthesisWriteError) {
    for unit in value.utf8 {
      if count > Self.capacity - 8 { try flush(into: &sink) }
      switch unit {
      case UInt8(ascii: "&"): text("&amp;")
      case UInt8(ascii: "<"): text("&lt;")
      case UInt8(ascii: ">"): text("&gt;")
      case UInt8(ascii: "\""): text("&quot;")
      default: byte(unit)
      }
    }
  }
}
