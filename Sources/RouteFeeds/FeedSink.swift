import RouteMileage

/// Where a reader delivers what it decodes, record by record.
///
/// Readers are generic over their sink so the ingest stage's handling is specialised and inlined
/// into the scanning loop. Line numbers are 1-based and name the line where the record starts.
public protocol FeedSink {
  /// A decoded position.
  ///
  /// - Parameter session: the reader's own ordinal for the capture session the position belongs
  ///   to (a GPX `trkseg`, an NMEA recording run, a CSV session value); nil for a legacy row
  ///   without one. The ingest stage mints the real `CaptureSessionID`s from these.
  mutating func position(_ sample: RouteSample, session: Int?, line: Int)

  /// A record that is not a measurable position (a waypoint, a point with no time, a no-fix
  /// epoch). Reported under `rejected`.
  mutating func rejected(_ reason: FeedReason, line: Int)

  /// A record or line that could not be read. Reported under `errors`, with line numbers.
  mutating func unreadable(_ reason: FeedReason, line: Int)

  /// A line that is not a record at all (a proprietary NMEA sentence, a comment), counted so
  /// nothing read goes unaccounted, but not a record.
  mutating func ignored(_ reason: FeedReason, line: Int)

  /// A caveat on a record that was read all the same (an NMEA sentence without a checksum).
  /// Reported under `notes`; it is neither a record nor an error, so the accounting identity
  /// is untouched. Sinks that do not report can ignore it (the default does nothing).
  mutating func noted(_ reason: FeedReason, line: Int)

  /// Which recording a reader session belongs to (see `FeedRecording`), said once, before the
  /// session's first position. Sessions never named belong to the file's one unnamed
  /// recording. Sinks that do not separate recordings can ignore it (the default does nothing).
  mutating func recording(_ recording: FeedRecording, ofSession session: Int)
}

extension FeedSink {
  public mutating func noted(_ reason: FeedReason, line: Int) {}
  public mutating func recording(_ recording: FeedRecording, ofSession session: Int) {}
}
