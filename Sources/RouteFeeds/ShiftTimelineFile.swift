import RouteMileage

/// A timeline file: JSON Lines, one event per line, in time order.
///
///     {"at": "2025-11-04T08:00:00Z", "event": "start"}
///     {"at": "2025-11-04T10:00:00Z", "event": "pause"}
///
/// Events are `start|pause|resume|park|drive|end`; `at` is ISO 8601 as the feeds accept it.
/// Blank lines are skipped and members other than `at` and `event` are ignored. Every event is
/// applied through `ShiftTimeline`, so a file the lifecycle rules refuse is refused here, naming
/// the line of the refused event and the line of the event it collides with.
///
/// A feed's *sidecar* timeline is the file beside it named like the feed without its extension
/// plus `.timeline.jsonl`: `drive.csv` → `drive.timeline.jsonl`.
public enum ShiftTimelineFile {
  /// The suffix of a sidecar timeline.
  public static let sidecarSuffix = ".timeline.jsonl"

  /// Why a timeline file was refused; `description` is `FILE:LINE: rule`.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Rule: Sendable, Hashable {
      /// The file could not be opened or read.
      case unreadable(String)
      /// The line is not one JSON object.
      case notJSON(String)
      case notAnObject
      /// `at` is missing or not a string.
      case missingTime
      /// `at` is not an ISO 8601 time.
      case badTime(String)
      /// `at` has no zone (`Z` or an offset): its instant would depend on where it is read.
      case timeWithoutZone(String)
      /// `event` is missing or not a string.
      case missingEvent
      case unknownEvent(String)
      /// The lifecycle rules refuse the event; `collidesWithLine` is the other event's line.
      case refused(ShiftTimeline.Refusal, collidesWithLine: Int?)
      /// Not one event in the file.
      case empty
    }

    public var path: String
    public var line: Int?
    public var rule: Rule

    public init(path: String, line: Int?, rule: Rule) {
      self.path = path
      self.line = line
      self.rule = rule
    }

    public var description: String {
      let place = line.map { "\(path):\($0)" } ?? path
      let subject = line.map { "line \($0)" } ?? "the timeline"
      let message: String =
        switch rule {
        case .unreadable(let reason): "cannot read the timeline: \(reason)"
        case .notJSON(let reason): "\(subject) is not one JSON object: \(reason)"
        case .notAnObject:
          "\(subject) must be a JSON object such as {\"at\": \"2025-11-04T08:00:00Z\", \"event\": \"start\"}"
        case .missingTime: "\(subject) has no \"at\" time (a string such as \"2025-11-04T08:00:00Z\")"
        case .badTime(let text): "\(subject): \"at\" must be an ISO 8601 time such as 2025-11-04T08:00:00Z, not '\(text)'"
        case .timeWithoutZone(let text):
          "\(subject): \"at\" time '\(text)' has no zone; write it in UTC with Z (2025-11-04T08:00:00Z) or with its offset (2025-11-04T09:00:00+01:00)"
        case .missingEvent: "\(subject) has no \"event\" (start, pause, resume, park, drive or end)"
        case .unknownEvent(let text): "\(subject): unknown event '\(text)': use start, pause, resume, park, drive or end"
        case .refused(let refusal, let other):
          "the event on \(subject) is refused: \(refusal)"
            + (refusal.collidesWith.map { " at \(CivilTime.iso8601($0.at))" } ?? "")
            + (other.map { " on line \($0)" } ?? "")
        case .empty: "the timeline holds no event"
        }
      return "\(place): \(message)"
    }
  }

  /// Parses a whole timeline file's bytes.
  ///
  /// - Parameter path: named in every error.
  /// - Complexity: O(*n*) in the bytes.
  public static func parse(_ bytes: [UInt8], path: String) throws(Failure) -> ShiftTimeline {
    var timeline = ShiftTimeline()
    var eventLines: [Int] = []
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      lineNumber += 1
      var last = end
      if last > start, bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
      let isBlank = bytes[start..<last].allSatisfy { $0 == 0x20 || $0 == 0x09 }
      if !isBlank {
        let event = try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> ShiftTimeline.Event in
          try parseEvent(UnsafeBufferPointer(rebasing: buffer[start..<last]), path: path, line: lineNumber)
        }
        do {
          try timeline.apply(event)
        } catch {
          let other = error.collidesWith.flatMap { collided in
            timeline.events.firstIndex(of: collided).map { eventLines[$0] }
          }
          throw Failure(path: path, line: lineNumber, rule: .refused(error, collidesWithLine: other))
        }
        eventLines.append(lineNumber)
      }
      start = end + 1
    }
    guard !timeline.events.isEmpty else { throw Failure(path: path, line: nil, rule: .empty) }
    return timeline
  }

  static func parseEvent(_ line: UnsafeBufferPointer<UInt8>, path: String, line number: Int) throws(Failure)
    -> ShiftTimeline.Event
  {
    let value: JSONValue
    do {
      value = try JSONParser.parse(line)
    } catch {
      throw Failure(path: path, line: number, rule: .notJSON("invalid JSON: \(error.detail)"))
    }
    guard case .object = value else { throw Failure(path: path, line: number, rule: .notAnObject) }
    guard case .string(let timeText)? = value["at"] else { throw Failure(path: path, line: number, rule: .missingTime) }
    guard let time = ISO8601Parser.timestamp(timeText) else {
      throw Failure(path: path, line: number, rule: .badTime(String(timeText.prefix(40))))
    }
    guard ISO8601Parser.hasZone(timeText) else {
      throw Failure(path: path, line: number, rule: .timeWithoutZone(String(timeText.prefix(40))))
    }
    guard case .string(let name)? = value["event"] else { throw Failure(path: path, line: number, rule: .missingEvent) }
    guard let kind = ShiftTimeline.Event.Kind(rawValue: name) else {
      throw Failure(path: path, line: number, rule: .unknownEvent(String(name.prefix(40))))
    }
    return ShiftTimeline.Event(kind, at: time)
  }

  /// Reads and parses the timeline file at `path`.
  public static func read(path: String) throws(Failure) -> ShiftTimeline {
    var bytes: [UInt8] = []
    do {
      let reader = try FileByteSource(path: path)
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
      defer { buffer.deallocate() }
      while true {
        let count = try reader.read(into: buffer)
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
        // A timeline is tens of lines; anything this large is not one.
        guard bytes.count <= 16 << 20 else {
          throw Failure(path: path, line: nil, rule: .unreadable("larger than 16 MiB, not a timeline"))
        }
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(path: path, line: nil, rule: .unreadable("\(error)"))
    }
    return try parse(bytes, path: path)
  }

  /// The sidecar timeline's path for a feed: `dir/drive.csv` → `dir/drive.timeline.jsonl`; a
  /// gzipped feed's is its uncompressed name's (`drive.gpx.gz` → `drive.timeline.jsonl`).
  public static func sidecarPath(forFeed path: String) -> String {
    var path = Substring(path)
    if path.count > 3, path.suffix(3).lowercased() == ".gz", path.dropLast(3).last != "/" { path = path.dropLast(3) }
    let slash = path.lastIndex(of: "/")
    let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
    let name = path[nameStart...]
    // A leading dot is part of the name (".drive"), not an extension.
    let dot = name.dropFirst().lastIndex(of: ".")
    let stem = dot.map { path[..<$0] } ?? path[...]
    return String(stem) + sidecarSuffix
  }

  /// The file form of `timeline`, one event a line (what the store and SampleRoutes write).
  public static func text(_ timeline: ShiftTimeline) -> String {
    timeline.events.map { "{\"at\": \"\(CivilTime.iso8601($0.at))\", \"event\": \"\($0.kind.rawValue)\"}\n" }.joined()
  }
}
