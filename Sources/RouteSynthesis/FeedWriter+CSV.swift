import RouteMileage

/// The CSV layout: the canonical header, with or without the session column.
public struct CSVWriterOptions: Sendable, Hashable {
  /// Write `capture_session_id` (a UUID per capture session; empty for legacy rows).
  public var includesSessionColumn: Bool
  /// CR LF instead of LF after each row.
  public var usesCRLF: Bool
  /// Which columns, in which order (see `CSVWriterColumns`).
  public var columns: CSVWriterColumns

  public init(includesSessionColumn: Bool = true, usesCRLF: Bool = false, columns: CSVWriterColumns = .canonical) {
    self.includesSessionColumn = includesSessionColumn
    self.usesCRLF = usesCRLF
    self.columns = columns
  }

  /// `timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude,capture_session_id`.
  public static let canonical = CSVWriterOptions()
  /// The same without `capture_session_id`: an older recorder's export; every row is legacy.
  public static let legacy = CSVWriterOptions(includesSessionColumn: false)
  /// `time,latitude,longitude,accuracy,speed,course,session`: the layout phone logging apps
  /// export most (see `CSVWriterColumns.phoneExport`).
  public static let phoneExport = CSVWriterOptions(columns: .phoneExport)
}

/// The column sets the CSV writer knows.
public enum CSVWriterColumns: Sendable, Hashable {
  /// `timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude[,capture_session_id]`.
  case canonical
  /// `time,latitude,longitude,accuracy,speed,course[,session]`: ISO 8601 with milliseconds,
  /// no altitude, the session as a small number.
  case phoneExport
}

extension FeedWriter {
  /// CSV with a header row (`.csv` to `write(_:as:into:)`), in one of two layouts; no-fix
  /// epochs are not written.
  ///
  /// `.canonical`: ISO 8601 UTC times (`Z`; milliseconds only when the time has them), degrees
  /// to 7 decimals, accuracy to 0.1 m (−1.0 when invalid), speed in m/s to 0.01, course in
  /// degrees to 0.1 (empty when standing), altitude to 0.1 m, then the session UUID.
  ///
  /// `.phoneExport`, the layout phone logging apps export most:
  ///
  ///     time,latitude,longitude,accuracy,speed,course,session
  ///     2026-03-02T08:15:30.000Z,51.5072178,-0.1275862,8.0,12.34,123.4,1
  ///
  /// the same fields but times always with milliseconds, no altitude, and the capture session
  /// as its ordinal from 1. About 65 bytes a row.
  ///
  /// Either way a legacy row's session cell is empty, and there is no session column when
  /// `includesSessionColumn` is false.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeCSV(
    _ fixes: some Sequence<SyntheticFix>, options: CSVWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    let phoneExport = options.columns == .phoneExport
    if phoneExport {
      out.text("time,latitude,longitude,accuracy,speed,course")
      if options.includesSessionColumn { out.text(",session") }
    } else {
      out.text("timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude")
      if options.includesSessionColumn { out.text(",capture_session_id") }
    }
    out.lineEnd(crlf: options.usesCRLF)
    // The session's UUID, formatted once per session.
    var uuidTag: UInt64?
    var uuidText = [UInt8](repeating: 0, count: 36)
    for fix in fixes where fix.hasFix {
      try out.reserveRecord(into: &sink)
      let sample = fix.sample
      out.iso8601(milliseconds: fix.milliseconds, fractionDigits: phoneExport || fix.milliseconds % 1000 != 0 ? 3 : 0)
      out.csvPositionFields(sample)
      if !phoneExport {
        out.byte(0x2C)
        if let altitude = sample.altitude { out.fixed(altitude, decimals: 1) }
      }
      if options.includesSessionColumn {
        out.byte(0x2C)
        if sample.captureSession != nil {
          if phoneExport {
            out.unsigned(UInt64(max(0, fix.session)))
          } else if uuidTag != fix.sessionTag {
            uuidTag = fix.sessionTag
            let start = out.count
            out.uuid(fix.sessionTag)
            for index in 0..<36 { uuidText[index] = out.base[start + index] }
          } else {
            for byte in uuidText { out.byte(byte) }
          }
        }
      }
      out.lineEnd(crlf: options.usesCRLF)
    }
    return out
  }
}

extension OutputBuffer {
  @inline(__always)
  mutating func lineEnd(crlf: Bool) {
    if crlf { byte(0x0D) }
    byte(0x0A)
  }

  /// A version-4-shaped UUID drawn from `tag`: `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`.
  mutating func uuid(_ tag: UInt64) {
    var mixer = SplitMix64(seed: tag)
    let low = mixer.next()
    hex(tag >> 32, digits: 8)
    byte(0x2D)
    hex((tag >> 16) & 0xFFFF, digits: 4)
    byte(0x2D)
    hex(0x4000 | (tag & 0x0FFF), digits: 4)
    byte(0x2D)
    hex(0x8000 | ((low >> 48) & 0x3FFF), digits: 4)
    byte(0x2D)
    hex(low & 0xFFFF_FFFF_FFFF, digits: 12)
  }
}

extension OutputBuffer {
  /// `,latitude,longitude,accuracy,speed,course` as both CSV layouts write them after the time:
  /// degrees to 7 decimals, accuracy to 0.1 m, speed to 0.01 m/s, course to 0.1°, an absent
  /// value as an empty cell.
  mutating func csvPositionFields(_ sample: RouteSample) {
    byte(0x2C)
    fixed(sample.latitude, decimals: 7)
    byte(0x2C)
    fixed(sample.longitude, decimals: 7)
    byte(0x2C)
    if let accuracy = sample.horizontalAccuracy { fixed(accuracy, decimals: 1) }
    byte(0x2C)
    if let speed = sample.speed { fixed(speed, decimals: 2) }
    byte(0x2C)
    if let course = sample.course { fixed(course, decimals: 1) }
  }
}
