/// What the TCX writer puts around the track points.
public struct TCXWriterOptions: Sendable, Hashable {
  /// The activity's `Sport` attribute (`Running`, `Biking` or `Other` in the schema).
  public var sport: String

  public init(sport: String = "Other") {
    self.sport = sport
  }
}

extension FeedWriter {
  /// Garmin Training Center (TCX v2, `.tcx` to `write(_:as:into:)`): one `Activity` with one
  /// `Lap` holding one `Track` per capture session (a device starts a new `Track` when recording
  /// resumes), each `Trackpoint` with `Time` (UTC, `Z`; milliseconds only when the time has
  /// them), `Position` (`LatitudeDegrees`, `LongitudeDegrees`) and `AltitudeMeters` when known,
  /// indented the way Garmin's exporter indents them. No-fix epochs are not written.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeTCX(
    _ fixes: some Sequence<SyntheticFix>, options: TCXWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    out.text(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n  <Activities>\n    <Activity Sport=\""
    )
    try out.xmlEscaped(options.sport, into: &sink)
    out.text("\">\n")
    var openSession: Int?
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      let fractionDigits = fix.milliseconds % 1000 == 0 ? 0 : 3
      if openSession == nil {
        out.text("      <Id>")
        out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fractionDigits)
        out.text("</Id>\n      <Lap StartTime=\"")
        out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fractionDigits)
        out.text("\">\n        <Intensity>Active</Intensity>\n        <TriggerMethod>Manual</TriggerMethod>\n")
      }
      if fix.session != openSession {
        if openSession != nil { out.text("        </Track>\n") }
        out.text("        <Track>\n")
        openSession = fix.session
      }
      let sample = fix.sample
      out.text("          <Trackpoint>\n            <Time>")
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: fractionDigits)
      out.text("</Time>\n            <Position>\n              <LatitudeDegrees>")
      out.fixed(sample.latitude, decimals: 7)
      out.text("</LatitudeDegrees>\n              <LongitudeDegrees>")
      out.fixed(sample.longitude, decimals: 7)
      out.text("</LongitudeDegrees>\n            </Position>\n")
      if let altitude = sample.altitude {
        out.text("            <AltitudeMeters>")
        out.fixed(altitude, decimals: 1)
        out.text("</AltitudeMeters>\n")
      }
      out.text("          </Trackpoint>\n")
    }
    try out.reserveRecord(into: &sink)
    if openSession != nil { out.text("        </Track>\n      </Lap>\n") }
    out.text("    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n")
    return out
  }
}
