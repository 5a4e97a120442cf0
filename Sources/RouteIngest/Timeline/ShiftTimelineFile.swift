import RouteFeeds
import RouteMileage
import ShiftWork

/// A timeline file: JSON Lines, one event per line, in the order the events were recorded.
///
///     {"at": "2025-11-04T08:00:00Z", "event": "start"}
///     {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1", "offer": "o1"}
///     {"at": "2025-11-04T08:25:00Z", "event": "arrive", "delivery": "d1"}
///     {"at": "2025-11-04T10:00:00Z", "event": "pause"}
///
/// Shift events are `start|pause|resume|park|drive|end`; delivery events are
/// `accept|arrive|pickup|deliver|cancel` with `"delivery"` (the file's own label, any string)
/// and, on `accept`, an optional `"offer"`; any delivery event may name its pickup place
/// (`"place": "Nowhere Noodles"`, usually on `accept`), cleaned up by `PickupPlaceName`. `at` is ISO 8601 as the
/// feeds accept it. Blank lines
/// are skipped and other members ignored. Every event is applied through `ShiftLedger` in
/// recorded order, so a line earlier than the line before it is clamped forward to that
/// instant and reported (`Record.clamps`), and a line the rules refuse is refused here, naming
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
      /// A delivery event without a `delivery` label (a string).
      case missingDelivery(String)
      /// `offer` is present but not a string.
      case badOffer
      /// `place` is present but not a string, or not a place name (empty, too long). The
      /// message never repeats the name.
      case badPlace(PickupPlaceName.Refusal?)
      /// The rules refuse the event; `collidesWithLine` is the other event's line.
      case refused(LedgerRefusal, collidesWithLine: Int?)
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
        case .badTime(let text):
          "\(subject): \"at\" must be an ISO 8601 time such as 2025-11-04T08:00:00Z, not '\(text)'"
        case .timeWithoutZone(let text):
          "\(subject): \"at\" time '\(text)' has no zone; write it in UTC with Z (2025-11-04T08:00:00Z) or with its offset (2025-11-04T09:00:00+01:00)"
        case .missingEvent: "\(subject) has no \"event\" (\(ShiftTimelineFile.eventNames))"
        case .unknownEvent(let text): "\(subject): unknown event '\(text)': use \(ShiftTimelineFile.eventNames)"
        case .missingDelivery(let event):
          "\(subject): \(event) has no \"delivery\" naming its delivery (a string such as \"d1\"): every delivery event names one"
        case .badOffer: "\(subject): \"offer\" must be a string naming the offer"
        case .badPlace(let refusal):
          "\(subject): \"place\" must be a string naming the pickup place" + (refusal.map { ": \($0)" } ?? "")
        case .refused(let refusal, let other):
          "the event on \(subject) is refused: \(refusal)"
            + (refusal.collidesWith.map { " at \(CivilTime.iso8601($0.at))" } ?? "")
            + (other.map { " on line \($0)" } ?? "")
        case .empty: "the timeline holds no event"
        }
      return "\(place): \(message)"
    }
  }

  /// Every event name the file takes, in words.
  static let eventNames = "start, pause, resume, park, drive, end, accept, arrive, pickup, deliver or cancel"

  /// A line applied later than recorded: `line` is its line, `clampedToLine` the line whose
  /// instant it took.
  public struct ClampedLine: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var clamp: Clamp
    public var clampedToLine: Int?

    public init(path: String, line: Int, clamp: Clamp, clampedToLine: Int?) {
      self.path = path
      self.line = line
      self.clamp = clamp
      self.clampedToLine = clampedToLine
    }

    /// `FILE:LINE: the pickup at … is earlier than line 4 (…): applied at … (a clock that moved back)`.
    public var description: String {
      let other = clampedToLine.map { "line \($0)" } ?? "the event before it"
      return "\(path):\(line): the \(clamp.recorded.name) at \(CivilTime.iso8601(clamp.recorded.at)) is earlier than "
        + "\(other) (\(clamp.clampedTo.name) at \(CivilTime.iso8601(clamp.clampedTo.at))): applied at "
        + "\(CivilTime.iso8601(clamp.appliedAt)), \(DurationWords.short(clamp.seconds)) later than recorded"
    }
  }

  /// A timeline file read: the shift's ledger (timeline and deliveries) and every clamp.
  public struct Record: Sendable, Hashable {
    public var ledger: ShiftLedger
    /// Lines applied later than recorded, in file order.
    public var clamps: [ClampedLine]
    /// Every event in recorded order, at the instant it was applied (what a replay plays).
    public var events: [ShiftWorkEvent]

    public var timeline: ShiftTimeline { ledger.timeline }
  }

  /// Parses a whole timeline file's bytes into its shift timeline (deliveries are checked and
  /// left out; `parseRecord` keeps them).
  ///
  /// - Parameter path: named in every error.
  /// - Complexity: O(*n*) in the bytes.
  public static func parse(_ bytes: [UInt8], path: String) throws(Failure) -> ShiftTimeline {
    try parseRecord(bytes, path: path).timeline
  }

  /// Parses a whole timeline file's bytes: shift and delivery events, applied in recorded order.
  ///
  /// - Parameter path: named in every error.
  /// - Complexity: O(*n*) in the bytes, plus the ledger's cost per event (O(1) for events in
  ///   recorded order, O(*d*) for a pause or an end over *d* deliveries).
  public static func parseRecord(_ bytes: [UInt8], path: String) throws(Failure) -> Record {
    var ledger = ShiftLedger()
    var clamps: [ClampedLine] = []
    var events: [ShiftWorkEvent] = []
    var eventLines: [Int] = []
    var deliveryLines: [DeliveryLineKey: Int] = [:]
    var previousLine: Int?
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
        let event = try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> ShiftWorkEvent in
          try parseEvent(UnsafeBufferPointer(rebasing: buffer[start..<last]), path: path, line: lineNumber)
        }
        let applied: [Clamp]
        do {
          applied = try ledger.applyRecorded(event)
        } catch {
          let other = error.collidesWith.flatMap { collided -> Int? in
            switch collided {
            case .shift(let shiftEvent): ledger.timeline.events.firstIndex(of: shiftEvent).map { eventLines[$0] }
            case .delivery(let deliveryEvent): deliveryLines[DeliveryLineKey(deliveryEvent)]
            }
          }
          throw Failure(path: path, line: lineNumber, rule: .refused(error, collidesWithLine: other))
        }
        for clamp in applied {
          let other =
            clamp.reason == .previousRecord
            ? previousLine : DeliveryLineKey(clamp.clampedTo).flatMap { deliveryLines[$0] }
          clamps.append(ClampedLine(path: path, line: lineNumber, clamp: clamp, clampedToLine: other))
        }
        events.append(event.moved(to: applied.last?.appliedAt ?? event.at))
        switch event {
        case .shift: eventLines.append(lineNumber)
        case .delivery(let deliveryEvent): deliveryLines[DeliveryLineKey(deliveryEvent)] = lineNumber
        }
        previousLine = lineNumber
      }
      start = end + 1
    }
    guard !ledger.timeline.events.isEmpty else { throw Failure(path: path, line: nil, rule: .empty) }
    return Record(ledger: ledger, clamps: clamps, events: events)
  }

  /// A delivery event's line is found by its delivery and kind (each happens once).
  struct DeliveryLineKey: Hashable {
    var delivery: String
    var kind: DeliveryEvent.Kind

    init(_ event: DeliveryEvent) {
      delivery = event.delivery
      kind = event.kind
    }

    init?(_ event: ShiftWorkEvent) {
      guard case .delivery(let deliveryEvent) = event else { return nil }
      self.init(deliveryEvent)
    }
  }

  static func parseEvent(_ line: UnsafeBufferPointer<UInt8>, path: String, line number: Int) throws(Failure)
    -> ShiftWorkEvent
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
    if let kind = ShiftTimeline.Event.Kind(rawValue: name) { return .shift(ShiftTimeline.Event(kind, at: time)) }
    guard let kind = DeliveryEvent.Kind(rawValue: name) else {
      throw Failure(path: path, line: number, rule: .unknownEvent(String(name.prefix(40))))
    }
    guard case .string(let delivery)? = value["delivery"] else {
      throw Failure(path: path, line: number, rule: .missingDelivery(name))
    }
    var offer: String?
    switch value["offer"] {
    case nil, .null?: offer = nil
    case .string(let label)?: offer = label
    default: throw Failure(path: path, line: number, rule: .badOffer)
    }
    var place: PickupPlaceName?
    switch value["place"] {
    case nil, .null?: place = nil
    case .string(let typed)?:
      do {
        place = try PickupPlaceName(typed)
      } catch {
        throw Failure(path: path, line: number, rule: .badPlace(error))
      }
    default: throw Failure(path: path, line: number, rule: .badPlace(nil))
    }
    return .delivery(
      DeliveryEvent(kind, at: time, delivery: delivery, offer: kind == .accept ? offer : nil, place: place))
  }

  /// Reads and parses the timeline file at `path` into its shift timeline.
  public static func read(path: String) throws(Failure) -> ShiftTimeline {
    try readRecord(path: path).timeline
  }

  /// Reads and parses the timeline file at `path`: its ledger and clamps.
  public static func readRecord(path: String) throws(Failure) -> Record {
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
    return try parseRecord(bytes, path: path)
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
