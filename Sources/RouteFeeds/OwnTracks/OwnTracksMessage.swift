import RouteMileage

/// Reads one Recorder line's message into a position, or counts why not.
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
  private var sessions: [String: Int] = [:]
  private var lastTracker = ""
  private var lastSession = 0

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
    guard case .object(let members)? = try? JSONParser.parse(line.json) else {
      sink.unreadable(.recorderBadJSON, line: number)
      return
    }
    guard case .string(let type)? = members["_type"] else {
      sink.unreadable(.recorderMissingType, line: number)
      return
    }
    guard type == "location" else {
      sink.ignored(.recorderOtherType, line: number)
      return
    }
    guard case .number(let latitude)? = members["lat"], case .number(let longitude)? = members["lon"],
      latitude.isFinite, longitude.isFinite
    else {
      sink.unreadable(.badNumber, line: number)
      return
    }
    guard let time = members["tst"], time != .null else {
      sink.rejected(.missingTime, line: number)
      return
    }
    guard let timestamp = Self.number(time) else {
      sink.unreadable(.badTime, line: number)
      return
    }
    let tracker: String
    switch (members["tid"], members["topic"]) {
    case (.string(let tid)?, _): tracker = "tid:" + tid
    case (_, .string(let topic)?): tracker = "topic:" + topic
    default: tracker = ""
    }
    guard tracker.utf8.count <= Self.maximumTrackerLength + 6 else {
      sink.unreadable(.csvBadSession, line: number)
      return
    }
    let accuracy = members["acc"].flatMap(Self.number)
    let speed = members["vel"].flatMap(Self.number).flatMap { $0 >= 0 ? $0 / 3.6 : nil }
    let course = members["cog"].flatMap(Self.number).flatMap { $0 >= 0 && $0 <= 360 ? $0 : nil }
    let altitude = members["alt"].flatMap(Self.number)
    let sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, speed: speed,
      course: course, altitude: altitude)
    sink.position(sample, session: session(tracker), line: number)
  }

  /// The session ordinal of a tracker, in order of first appearance.
  private mutating func session(_ tracker: String) -> Int {
    if tracker == lastTracker, !sessions.isEmpty { return lastSession }
    let ordinal: Int
    if let known = sessions[tracker] {
      ordinal = known
    } else {
      ordinal = sessions.count
      sessions[tracker] = ordinal
    }
    lastTracker = tracker
    lastSession = ordinal
    return ordinal
  }

  /// A finite number, given as a JSON number or a string holding one (`"1440363922"`).
  static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let number): return number.isFinite ? number : nil
    case .string(let text):
      guard !text.isEmpty, text.utf8.count <= 32,
        text.utf8.allSatisfy({ $0.isASCIIDigit || $0 == .asciiMinus || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "+") }),
        let number = Double(text), number.isFinite
      else { return nil }
      return number
    default: return nil
    }
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
