/// What happened to a shift and when: started, paused and resumed, parked and driven again,
/// ended (seeds 000, 001, 004).
///
/// It is the one place the lifecycle rules live. Capture runs only while the shift runs and is
/// not parked, so the timeline says which stretches of time a route may come from
/// (`captureIntervals`), which it may not (`interruptions`: every pause and every park), and the
/// window a finished shift is measured against (`window` = [start, end]). Working time is elapsed
/// time less paused time; parked time is working time (seed 001: while parked "what has stopped
/// is the route").
///
/// Events are applied in time order; an event the rules do not permit is refused with a
/// `Refusal` naming the event it collides with, and leaves the timeline as it was.
///
/// Boundaries: a capture interval is closed, [resume, pause], like the window; an interruption is
/// the open stretch between them. A position recorded at the very instant of a pause or a resume
/// therefore belongs to the capture interval on that side.
///
/// - Complexity: applying an event is O(1); `placement(of:)` is O(log *k*) in the number of
///   events (callers walking positions cache the current capture interval, so a position costs
///   O(1) in practice); the durations are O(*k*).
public struct ShiftTimeline: Sendable, Hashable {
  /// One thing a driver did to the shift, at an instant (seconds since 1970, UTC).
  public struct Event: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
      case start, pause, resume, park, drive, end
    }

    public var kind: Kind
    public var at: Double

    public init(_ kind: Kind, at: Double) {
      self.kind = kind
      self.at = at
    }
  }

  /// Where the shift stands.
  public enum State: String, Sendable, Hashable {
    case notStarted, running, paused, parked, ended
  }

  /// A pause or a park: a stretch of the shift during which capture does not run.
  public struct Interruption: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      case pause, park
    }

    public var kind: Kind
    public var start: Double
    /// Nil while it is still open.
    public var end: Double?

    public init(kind: Kind, start: Double, end: Double?) {
      self.kind = kind
      self.start = start
      self.end = end
    }

    /// Seconds of it up to `instant` (0 before it began).
    public func duration(asOf instant: Double) -> Double {
      max(0, min(end ?? instant, instant) - start)
    }
  }

  /// A stretch when capture runs: the shift is running and not parked. Closed at both ends.
  public struct CaptureInterval: Sendable, Hashable {
    public var start: Double
    /// Nil while it is still open.
    public var end: Double?

    public init(start: Double, end: Double?) {
      self.start = start
      self.end = end
    }

    public func contains(_ instant: Double) -> Bool { instant >= start && instant <= (end ?? .infinity) }
  }

  /// Where an instant falls.
  public enum Placement: Sendable, Hashable {
    /// Before the start, or the shift has not started.
    case beforeStart
    /// After the end.
    case afterEnd
    case paused
    case parked
    /// Inside capture interval `index`.
    case capturing(Int)
  }

  /// An event the rules do not permit. `event` is the refused one; `collidesWith` is the event
  /// that made it impossible (nil only when there is none: an event before any start).
  public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Rule: String, Sendable, Hashable {
      /// Any event other than start before the shift started.
      case notStarted
      /// An event earlier than the start.
      case beforeStart
      /// A second start.
      case secondStart
      /// Any event after the end.
      case afterEnd
      /// An event earlier than the one before it.
      case outOfOrder
      case pauseWhilePaused
      case parkWhilePaused
      case parkWhileParked
      case resumeWhenNotPaused
      case driveWhenNotParked
    }

    public var rule: Rule
    public var event: Event
    public var collidesWith: Event?

    public init(_ rule: Rule, event: Event, collidesWith: Event?) {
      self.rule = rule
      self.event = event
      self.collidesWith = collidesWith
    }

    /// The rule in words, naming both events by kind (callers add times and lines).
    public var description: String {
      let other = collidesWith.map { "the \($0.kind.rawValue)" } ?? "no start"
      return switch rule {
      case .notStarted: "\(event.kind.rawValue) before the shift started: there is \(other)"
      case .beforeStart: "\(event.kind.rawValue) is earlier than the shift's start (it collides with \(other))"
      case .secondStart: "a second start: the shift already started (it collides with \(other))"
      case .afterEnd: "\(event.kind.rawValue) after the shift ended (it collides with \(other))"
      case .outOfOrder: "\(event.kind.rawValue) is earlier than the event before it (it collides with \(other))"
      case .pauseWhilePaused: "pause while the shift is already paused (it collides with \(other))"
      case .parkWhilePaused:
        "park while the shift is paused: a paused shift is never parked (it collides with \(other))"
      case .parkWhileParked: "park while the vehicle is already parked (it collides with \(other))"
      case .resumeWhenNotPaused: "resume when the shift is not paused (it collides with \(other))"
      case .driveWhenNotParked: "drive when the vehicle is not parked (it collides with \(other))"
      }
    }
  }

  /// Every event applied, in order.
  public private(set) var events: [Event] = []
  public private(set) var state: State = .notStarted
  public private(set) var interruptions: [Interruption] = []
  public private(set) var captureIntervals: [CaptureInterval] = []

  public init() {}

  /// Applies `events` in order.
  ///
  /// - Throws: the first `Refusal`.
  public init(_ events: some Sequence<Event>) throws(Refusal) {
    for event in events { try apply(event) }
  }

  /// The start instant, once started.
  public var start: Double? { events.first?.at }
  /// The end instant, once ended.
  public var end: Double? { state == .ended ? events.last?.at : nil }
  /// The instant a recorded shift's figures are read at: its end, or, for a shift still running
  /// when the file was written, its last event (the end, when there is one, is the last event);
  /// 0 before any event. O(1).
  public var readingInstant: Double { events.last?.at ?? 0 }
  /// The instant a recorded shift's figures are read at, given its last recorded position: its
  /// end once ended; while it runs (no `end` event — a timeline with only a start is a running
  /// shift), the later of its last event and the last position, since the shift was running
  /// when that position was recorded, so its working time runs to it. 0 before any event. O(1).
  public func readingInstant(lastPosition: Double?) -> Double {
    guard state != .ended, !events.isEmpty, let lastPosition, lastPosition.isFinite else { return readingInstant }
    return max(readingInstant, lastPosition)
  }
  /// [start, end] of an ended shift; nil while it runs (a running shift has no window).
  public var window: ShiftWindow? {
    guard let start, let end else { return nil }
    return ShiftWindow(start: start, end: end)
  }

  public var pauseCount: Int { interruptions.count { $0.kind == .pause } }
  public var parkCount: Int { interruptions.count { $0.kind == .park } }

  /// Applies one event, or refuses it and changes nothing.
  public mutating func apply(_ event: Event) throws(Refusal) {
    if let refusal = refusal(of: event) { throw refusal }
    let time = event.at
    switch event.kind {
    case .start:
      captureIntervals.append(CaptureInterval(start: time, end: nil))
      state = .running
    case .pause:
      if state == .parked { closeInterruption(at: time) } else { closeCapture(at: time) }
      interruptions.append(Interruption(kind: .pause, start: time, end: nil))
      state = .paused
    case .park:
      closeCapture(at: time)
      interruptions.append(Interruption(kind: .park, start: time, end: nil))
      state = .parked
    case .resume, .drive:
      closeInterruption(at: time)
      captureIntervals.append(CaptureInterval(start: time, end: nil))
      state = .running
    case .end:
      // Ending a paused shift closes the pause at the end instant; ending parked ends the park.
      if state == .running { closeCapture(at: time) } else { closeInterruption(at: time) }
      state = .ended
    }
    events.append(event)
  }

  /// The refusal `event` would meet now, or nil when it is permitted.
  public func refusal(of event: Event) -> Refusal? {
    let last = events.last
    if state == .ended { return Refusal(.afterEnd, event: event, collidesWith: last) }
    if event.kind == .start {
      guard event.at.isFinite else { return Refusal(.notStarted, event: event, collidesWith: nil) }
      return state == .notStarted ? nil : Refusal(.secondStart, event: event, collidesWith: events.first)
    }
    guard state != .notStarted else { return Refusal(.notStarted, event: event, collidesWith: nil) }
    if let first = events.first, !(event.at >= first.at) {
      return Refusal(.beforeStart, event: event, collidesWith: first)
    }
    if let last, event.at < last.at { return Refusal(.outOfOrder, event: event, collidesWith: last) }
    let opening = interruptions.last.map { Event($0.kind == .pause ? .pause : .park, at: $0.start) }
    switch (event.kind, state) {
    case (.pause, .paused): return Refusal(.pauseWhilePaused, event: event, collidesWith: opening)
    case (.park, .paused): return Refusal(.parkWhilePaused, event: event, collidesWith: opening)
    case (.park, .parked): return Refusal(.parkWhileParked, event: event, collidesWith: opening)
    case (.resume, .running), (.resume, .parked): return Refusal(.resumeWhenNotPaused, event: event, collidesWith: last)
    case (.drive, .running), (.drive, .paused): return Refusal(.driveWhenNotParked, event: event, collidesWith: last)
    default: return nil
    }
  }

  private mutating func closeCapture(at time: Double) {
    if let index = captureIntervals.indices.last, captureIntervals[index].end == nil {
      captureIntervals[index].end = time
    }
  }

  private mutating func closeInterruption(at time: Double) {
    if let index = interruptions.indices.last, interruptions[index].end == nil { interruptions[index].end = time }
  }

  /// Where `instant` falls: in capture interval *i*, in a pause, in a park, or outside [start, end].
  public func placement(of instant: Double) -> Placement {
    guard let start, instant >= start else { return .beforeStart }
    if let end, instant > end { return .afterEnd }
    // The last capture interval starting at or before `instant` (intervals are in time order).
    var low = 0
    var high = captureIntervals.count
    while low < high {
      let middle = (low + high) / 2
      if captureIntervals[middle].start <= instant { low = middle + 1 } else { high = middle }
    }
    if low > 0, captureIntervals[low - 1].contains(instant) { return .capturing(low - 1) }
    // Otherwise it lies in the last interruption that began at or before it.
    low = 0
    high = interruptions.count
    while low < high {
      let middle = (low + high) / 2
      if interruptions[middle].start <= instant { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return .beforeStart }
    return interruptions[low - 1].kind == .pause ? .paused : .parked
  }

  /// Where the shift stood at `instant` (the state after every event at or before it).
  public func state(at instant: Double) -> State {
    guard let start, instant >= start else { return .notStarted }
    if let end, instant >= end { return .ended }
    for interruption in interruptions.reversed() where instant >= interruption.start {
      if let end = interruption.end, instant >= end { return .running }
      return interruption.kind == .pause ? .paused : .parked
    }
    return .running
  }

  /// Seconds from the start to `instant` (or to the end, once ended); 0 before the start.
  public func elapsedDuration(asOf instant: Double) -> Double {
    guard let start else { return 0 }
    return max(0, min(end ?? instant, instant) - start)
  }

  /// Seconds paused up to `instant`. An open pause counts up to `instant`.
  public func pausedDuration(asOf instant: Double) -> Double {
    interruptions.reduce(0) { $0 + ($1.kind == .pause ? $1.duration(asOf: instant) : 0) }
  }

  /// Seconds parked up to `instant` (working time, but no route).
  public func parkedDuration(asOf instant: Double) -> Double {
    interruptions.reduce(0) { $0 + ($1.kind == .park ? $1.duration(asOf: instant) : 0) }
  }

  /// Working time: elapsed time less paused time (seed 001). Parked time is working time.
  public func workingDuration(asOf instant: Double) -> Double {
    max(0, elapsedDuration(asOf: instant) - pausedDuration(asOf: instant))
  }
}
