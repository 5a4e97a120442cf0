import RouteMileage

/// Reads one Recorder line's message into a position, or counts why not. The JSON is read by
/// the shared `JSONTokenizer` (`OwnTracksFields`), one line at a time.
///
/// - A `_type: location` message is a position: `lat` and `lon` (degrees, numbers) and `tst`
///   (the fix time, seconds since 1970; a number or a string of digits, as some clients send).
///   `acc` (metres) is the horizontal accuracy; `alt` (metres), `vel` (km/h, negative when
///   unknown) and `cog` (degrees, negative when unknown) are carried along. The Recorder's own
///   first column (when it stored the message) is not the fix time and is not used: phones
///   publish queued fixes late, and those fixes are still driven.
/// - Any other `_type` (`lwt`, `transition`, `waypoint`, `waypoints`, `card`, `status`, …) is
///   `ignored` as `otherMessageType`; a line whose column is not `*` as `otherRecorderColumn`;
///   a blank line as `blankLine`.
/// - Unreadable (with the line number): a line without the three columns (`notARecorderLine`),
///   JSON that does not parse or is not an object (`badJSON`), a message without `_type`
///   (`missingType`), a location without a numeric `lat`/`lon` (`badNumber`), a `tst` that is
///   not a number (`badTime`), a tracker name over 256 bytes (`badSession`).
/// - Rejected: a location without `tst` (`missingTime`).
struct OwnTracksMessage {
  /// Bytes; longer `tid`/`topic` values are not names but noise.
  static let maximumTrackerLength = 256

  /// Capture session ordinals by tracker, in order of first appearance.
  private var sessions = FirstSeenOrdinals<String>()

  mutating func interpret(_ raw: UnsafeBufferPointer<UInt8>, line number: Int, into sink: inout some FeedSink) {
    let trimmed = raw.trimmingASCIIWhitespace()
    guard !trimmed.isEmpty else {
      sink.ignored(.blankLine, line: number)
      return
    }
    guard let line = OwnTracksLine(trimmed) else {
      sink.unreadable(.notARecorderLine, line: number)
      return
    }
    guard line.column.count == 1, line.column[0] == UInt8(ascii: "*") else {
      sink.ignored(.recorderOtherColumn, line: number)
      return
    }
    guard let fields = OwnTracksFields(line.json) else {
      sink.unreadable(.recorderBadJSON, line: number)
      return
    }
    switch fields.type {
    case .absent:
      sink.unreadable(.recorderMissingType, line: number)
      return
    case .other:
      sink.ignored(.recorderOtherType, line: number)
      return
    case .location:
      break
    }
    guard let latitude = fields.latitude.value, let longitude = fields.longitude.value else {
      sink.unreadable(.badNumber, line: number)
      return
    }
    if fields.time == .absent || fields.time == .null {
      sink.rejected(.missingTime, line: number)
      return
    }
    guard let timestamp = fields.time.value else {
      sink.unreadable(.badTime, line: number)
      return
    }
    let tracker = fields.tid.map { "tid:" + $0 } ?? fields.topic.map { "topic:" + $0 } ?? ""
    guard tracker.utf8.count <= Self.maximumTrackerLength + 6 else {
      sink.unreadable(.csvBadSession, line: number)
      return
    }
    let speed = fields.speed.value.flatMap { $0 >= 0 ? $0 / 3.6 : nil }
    let course = fields.course.value.flatMap { $0 >= 0 && $0 <= 360 ? $0 : nil }
    let sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: fields.accuracy.value,
      speed: speed,
      course: course, altitude: fields.altitude.value)
    let session = session(tracker, into: &sink)
    sink.position(sample, session: session, line: number)
  }

  /// The session ordinal of a tracker, in order of first appearance; a new tracker is named to
  /// the sink as its recording (`FeedRecording.device`).
  private mutating func session(_ tracker: String, into sink: inout some FeedSink) -> Int {
    let (ordinal, isNew) = sessions.ordinal(of: tracker)
    // The tracker's ID as the file writes it (`tid`, else `topic`); none: the unnamed one.
    if isNew, let colon = tracker.firstIndex(of: ":") {
      sink.recording(.device(String(tracker[tracker.index(after: colon)...])), ofSession: ordinal)
    }
    return ordinal
  }
}

extension FeedReason {
  /// An OwnTracks Recorder line whose column is not `*` (a last-will `-` line, `info`, `msg`):
  /// not a published message.
  public static let recorderOtherColumn = FeedReason("otherRecorderColumn")
  /// An OwnTracks message that is not a location (`lwt`, `transition`, `waypoint`, `card`, …).
  public static let recorderOtherType = FeedReason("otherMessageType")
  /// A line that is not `timestamp column {json}`.
  public static let notARecorderLine = FeedReason("notARecorderLine")
  /// A message whose JSON does not parse, or is not an object.
  public static let recorderBadJSON = FeedReason("badJSON")
  /// A message without a `_type`.
  public static let recorderMissingType = FeedReason("missingType")
}
