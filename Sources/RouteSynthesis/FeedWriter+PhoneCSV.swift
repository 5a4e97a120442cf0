extension FeedWriter {
  /// CSV in the layout phone logging apps export most (issue #16 item 8):
  ///
  ///     time,latitude,longitude,accuracy,speed,course,session
  ///     2026-03-02T08:15:30.000Z,51.5072178,-0.1275862,8.0,12.34,123.4,1
  ///
  /// ISO 8601 UTC times always with milliseconds, degrees to 7 decimals, accuracy to 0.1 m
  /// (−1.0 when invalid), speed in m/s to 0.01, course to 0.1° (empty when standing), and the
  /// capture session as its ordinal from 1 (empty for legacy rows; no column when
  /// `includesSessionColumn` is false). No altitude. About 65 bytes a row. No-fix epochs are not
  /// written.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  @discardableResult
  public static func writePhoneExportCSV(
    _ fixes: some Sequence<SyntheticFix>, into sink: inout some SynthesisByteSink,
    options: CSVWriterOptions = .phoneExport
  ) throws(SynthesisWriteError) -> Int {
    var out = OutputBuffer()
    defer { out.release() }
    out.text("time,latitude,longitude,accuracy,speed,course")
    if options.includesSessionColumn { out.text(",session") }
    out.lineEnd(crlf: options.usesCRLF)
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      let sample = fix.sample
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: 3)
      out.csvPositionFields(sample)
      if options.includesSessionColumn {
        out.byte(0x2C)
        if sample.captureSession != nil { out.unsigned(UInt64(max(0, fix.session))) }
      }
      out.lineEnd(crlf: options.usesCRLF)
    }
    try out.flush(into: &sink)
    return out.total
  }
}
