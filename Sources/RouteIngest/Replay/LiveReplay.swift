import RouteFeeds
import RouteMileage
import RouteStore
import ShiftWork
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// The live-shift engine behind `replay`: the capture loop and the display loop against one store
/// connection, and the card's cadence. What it shows goes to `observe`; the tool draws it.
public struct LiveReplay {
  /// The replay's timing and its faults on purpose.
  public struct Settings: Sendable {
    /// Shift seconds per real second; nil = as fast as possible.
    public var speed: Double?
    public var refresh = 2.0
    public var routeUpdate = 30.0
    public var batchSeconds = 5.0
    public var discardFraction = 0.0
    public var seed: UInt64 = 1
    public var interruptAt: Double?
    public var relaunchAfter = 30.0
    public var allowLongSpan = false

    public init() {}
  }

  /// What the engine shows as it goes: each refreshed card, a batch rolled back on purpose, and
  /// capture killed by `interruptAt`.
  public enum Event: Sendable {
    case update
    case discard(samples: Int)
    case interrupt(lostSamples: Int, resumesAt: Double)
  }

  /// How a replay ended.
  public enum Outcome: Sendable {
    /// The shift ended: the last live figure, the final figure measured from the stored rows in
    /// one pass, why they differ (nil when they are identical), and what the live refreshes did.
    case ended(
      shift: ShiftID, live: RouteDistance, final: RouteDistance, reason: String?,
      refreshes: ActiveRouteMeasurement.Counters)
    /// The feed held no timed position: nothing was stored or replayed.
    case nothingToReplay(FeedMeasurement)
  }

  /// Set by SIGINT during a replay, so Ctrl-C ends the shift instead of killing the process.
  public static let stopRequested = Atomic<Bool>(false)
  /// Accepted speed factors: slower than 1/1000 would not finish; faster than a million is `max`.
  public static let speedRange = 0.001...1_000_000.0
  /// The longest span of positions (first to last arrival) replayed without `allowLongSpan`:
  /// a replay plays one shift, and a feed spanning more than a week is a history of many (a
  /// Takeout export, a logger's year), whose replay at any factor would run for hours or days.
  public static let longestSpan = 7 * 86_400.0

  let feedPath: String
  let reading: FeedReading
  let locale: MileageLocale
  public let settings: Settings
  let store: RouteStore
  /// The `--store` path; nil for the in-memory store.
  public let storePath: String?
  let observe: (Event, LiveReplay) -> Void
  var puller: FeedRecordPuller<FileByteSource>
  var arrivals = ArrivalOrderSorter()
  var ingest: ShiftIngest<KeepRetainedSamples>
  var random: SplitMix64
  public private(set) var shift: ShiftID?
  public private(set) var live: ActiveRouteMeasurement?
  /// The shift's recorded timeline (`--timeline` or the sidecar), applied at its times; nil
  /// when there is none (the replay then starts the shift at the first fix and ends it at the last).
  let recordedTimeline: ShiftTimeline?
  /// The recorded events (shift and delivery) not applied yet, in recorded order, at the
  /// instants they were applied at (clamps included).
  var pendingEvents: ArraySlice<ShiftWorkEvent> = []
  /// Whether the recorded timeline holds deliveries: the card then carries them.
  public let recordsDeliveries: Bool
  /// The shift's record as the live shift knows it now: its timeline and deliveries.
  var ledger = ShiftLedger()
  /// The timeline as the live shift knows it now (`ledger`'s, but for an end the replay adds
  /// itself while a recorded delivery is still open).
  public private(set) var timeline = ShiftTimeline()
  public private(set) var cadence = ShiftCardCadence()
  /// Whether the last refresh pushed a new card.
  public private(set) var pushed = false
  public private(set) var startTime = 0.0
  public private(set) var clock = 0.0
  public private(set) var batches = 0
  public private(set) var discardedBatches = 0
  public private(set) var storedSamples = 0
  public private(set) var lostSamples = 0
  public private(set) var notCaptured = 0
  var captureResumesAt: Double?
  public private(set) var interruptDone = false
  /// The shift clock when `--interrupt-at` killed capture.
  public private(set) var interruptedAt: Double?
  /// Whether anything was captured, written or interrupted since the last refresh: at max
  /// speed, idle time is skipped only when nothing was.
  var changedSinceRefresh = true

  /// - Parameters:
  ///   - record: the shift's timeline file, applied at its times; nil for none.
  ///   - storePath: the store's path, said when Ctrl-C keeps the shift; nil for an in-memory store.
  ///   - observe: called with each event and the engine as it stands then, on this thread.
  public init(
    feedPath: String, source: FileByteSource, reading: FeedReading, locale: MileageLocale, settings: Settings,
    store: RouteStore, storePath: String?, record: ShiftTimelineFile.Record? = nil,
    observe: @escaping (Event, LiveReplay) -> Void
  ) {
    let recorded = record?.timeline
    recordedTimeline = recorded
    pendingEvents = (record?.events ?? [])[...]
    recordsDeliveries = !(record?.ledger.deliveries.isEmpty ?? true)
    self.feedPath = feedPath
    self.reading = reading
    self.locale = locale
    self.settings = settings
    self.store = store
    self.storePath = storePath
    self.observe = observe
    puller = FeedRecordPuller(
      source, format: reading.inputFormat, options: reading.settings.readerOptions(reading.feedOptions))
    var ingestSettings = reading.settings
    ingestSettings.window = nil
    // Capture runs only while the shift runs and is not parked: the capture service judges each
    // fix against the timeline, exactly as the one-pass measurement will.
    ingestSettings.timeline = recorded
    ingest = ShiftIngest(settings: ingestSettings, retained: KeepRetainedSamples())
    random = SplitMix64(seed: settings.seed)
    cadence.routeUpdateInterval = settings.routeUpdate
  }

  /// Plays the feed to its end (or to Ctrl-C) and ends the shift.
  ///
  /// - Throws: `ReplayRefusal` for a feed spanning more than `longestSpan`; a store's error.
  public mutating func run() throws -> Outcome {
    // A recorded feed is played in the order its positions would have arrived (see
    // `ArrivalOrderSorter`); records that are not positions carry no time and are counted at
    // the start.
    var arrivals = ArrivalOrderSorter()
    var earliest = Double.infinity
    var latest = -Double.infinity
    while let record = puller.next() {
      if case .position(let sample, let session, _) = record {
        try arrivals.append(sample, session: session)
        if let time = Self.time(of: record) {
          earliest = min(earliest, time)
          latest = max(latest, time)
        }
      } else {
        record.deliver(to: &ingest)
      }
    }
    self.arrivals = arrivals
    if latest - earliest > Self.longestSpan, !settings.allowLongSpan {
      throw ReplayRefusal(description: Self.longSpanRefusal(feedPath, span: latest - earliest))
    }
    var waiting: [FeedRecord] = []
    var first: RouteSample?
    while let record = try nextArrival() {
      waiting.append(record)
      if case .position(let sample, _, _) = record, sample.timestamp.isFinite {
        first = sample
        break
      }
    }
    guard let first else {
      for record in waiting { record.deliver(to: &ingest) }
      return .nothingToReplay(ingest.measurement(format: puller.format))
    }
    startTime = recordedTimeline?.start ?? reading.settings.window?.start ?? first.timestamp
    clock = startTime
    let shift = try store.createShift(
      start: startTime, end: nil, source: feedPath, importedAt: wallClockSeconds(), status: .running)
    self.shift = shift
    live = ActiveRouteMeasurement(shift: shift, maximumSampleInterval: reading.settings.maximumSampleInterval)
    if recordedTimeline == nil {
      try ledger.apply(ShiftTimeline.Event(.start, at: startTime))
      timeline = ledger.timeline
    } else {
      try applyDueEvents()
    }
    var nextRefresh = startTime + settings.refresh
    var nextBatch = startTime + settings.batchSeconds
    var pending: FeedRecord? = nil
    var queue = waiting[...]

    while true {
      if Self.stopRequested.load(ordering: .relaxed) { break }
      if pending == nil { pending = try queue.popFirst() ?? nextArrival() }
      guard let record = pending else { break }
      let recordTime = Self.time(of: record).map { max($0, clock) } ?? clock
      if settings.speed == nil, !changedSinceRefresh {
        // At max speed idle time is skipped: when nothing was captured, written or interrupted
        // since the last refresh, the next refresh is the first of its ticks at or after the
        // next thing that happens (a position, an event, the interruption, the card's held
        // figure falling due, the waiting samples' batch), and with no sample waiting, so is
        // the next batch. No update is emitted where nothing changed.
        let waiting = !ingest.retainedSink.samples.isEmpty
        var horizon = min(recordTime, pendingEvents.first?.at ?? .infinity, cadence.figureDueAt ?? .infinity)
        if let interrupt = settings.interruptAt.map({ startTime + $0 }), !interruptDone {
          horizon = min(horizon, interrupt)
        }
        if waiting { horizon = min(horizon, nextBatch) }
        nextRefresh = Self.firstTick(nextRefresh, every: settings.refresh, atOrAfter: horizon)
        if !waiting { nextBatch = Self.firstTick(nextBatch, every: settings.batchSeconds, atOrAfter: horizon) }
      }
      var eventTime = min(recordTime, nextRefresh, nextBatch, pendingEvents.first?.at ?? .infinity)
      if let interrupt = settings.interruptAt.map({ startTime + $0 }), !interruptDone {
        eventTime = min(eventTime, interrupt)
      }
      wait(until: eventTime)
      clock = eventTime
      if let interrupt = settings.interruptAt.map({ startTime + $0 }), !interruptDone, clock >= interrupt {
        interruptCapture()
      }
      // A fix at the very instant of a pause belongs to the stretch before it: release first.
      if recordTime <= clock {
        release(record)
        pending = nil
      }
      if let next = pendingEvents.first, next.at <= clock {
        try writeBatch()
        try applyDueEvents()
        // The shift is over: nothing after its end can be captured.
        if timeline.state == .ended { break }
      }
      if clock >= nextBatch {
        try writeBatch()
        nextBatch += settings.batchSeconds
      }
      if clock >= nextRefresh {
        try refresh(final: false)
        nextRefresh += settings.refresh
      }
    }
    return try end()
  }

  /// The first of the ticks `tick`, `tick + step`, … at or after `time`. O(1).
  static func firstTick(_ tick: Double, every step: Double, atOrAfter time: Double) -> Double {
    guard tick < time, time.isFinite else { return tick }
    return tick + ((time - tick) / step).rounded(.up) * step
  }

  /// The refusal of a feed whose positions span more than `longestSpan`.
  static func longSpanRefusal(_ feedPath: String, span: Double) -> String {
    let tenths = Int((span / 8_640).rounded(.down))
    return "\(feedPath): its positions span \(tenths / 10).\(tenths % 10) days (first to last); a replay plays one "
      + "shift, of at most 7 days: give --allow-long-span to replay it all"
  }

  /// The next position in arrival order.
  mutating func nextArrival() throws -> FeedRecord? {
    guard let next = try arrivals.next() else { return nil }
    return .position(next.sample, session: next.session, line: 0)
  }

  /// When a record reaches the capture service: its arrival time, or its timestamp when the
  /// feed has none.
  static func time(of record: FeedRecord) -> Double? {
    if case .position(let sample, _, _) = record {
      let time = sample.receivedAt ?? sample.timestamp
      if time.isFinite { return time }
    }
    return nil
  }

  /// Sleeps until the shift clock reaches `time`, at the chosen speed.
  func wait(until time: Double) {
    guard let speed = settings.speed, time > clock else { return }
    var remaining = (time - clock) / speed
    while remaining > 0, !Self.stopRequested.load(ordering: .relaxed) {
      let step = min(remaining, 0.25)
      var request = timespec(tv_sec: Int(step), tv_nsec: Int((step - Double(Int(step))) * 1e9))
      nanosleep(&request, nil)
      remaining -= step
    }
  }

  /// One record reaches the capture service (unless the app is "dead" after an interruption).
  mutating func release(_ record: FeedRecord) {
    if let resume = captureResumesAt, case .position(let sample, _, _) = record {
      if sample.timestamp < resume {
        notCaptured += 1
        return
      }
      captureResumesAt = nil
    }
    changedSinceRefresh = true
    record.deliver(to: &ingest)
  }

  /// Kills capture: the unsaved batch is lost, and after the downtime capture starts a new
  /// session.
  mutating func interruptCapture() {
    interruptDone = true
    changedSinceRefresh = true
    interruptedAt = clock
    lostSamples += ingest.retainedSink.samples.count
    ingest.retainedSink.samples.removeAll()
    ingest.interruptCapture()
    captureResumesAt = clock + settings.relaunchAfter
    observe(.interrupt(lostSamples: lostSamples, resumesAt: shiftSeconds(clock + settings.relaunchAfter)), self)
  }

  /// Writes the waiting samples as one batch: committed, or (a chosen fault) measured and then
  /// rolled back.
  mutating func writeBatch() throws {
    let samples = ingest.retainedSink.samples
    ingest.retainedSink.samples.removeAll(keepingCapacity: true)
    guard !samples.isEmpty, let shift else { return }
    changedSinceRefresh = true
    batches += 1
    let discard = settings.discardFraction > 0 && random.unit() < settings.discardFraction
    if discard {
      // Measured while in the store, then lost: the next refresh must notice.
      try store.appendSamplesThenRollBack(samples, to: shift) { _ = try live?.refresh(from: store) }
      discardedBatches += 1
      observe(.discard(samples: samples.count), self)
    } else {
      try store.appendSamples(samples, to: shift)
      storedSamples += samples.count
    }
  }

  mutating func refresh(final: Bool) throws {
    guard shift != nil, var live else { return }
    let distance = try live.refresh(from: store)
    self.live = live
    changedSinceRefresh = false
    pushed =
      (recordsDeliveries && ledger.timeline == timeline
        ? cadence.update(ledger: ledger, route: distance, at: clock, locale: locale)
        : cadence.update(timeline: timeline, route: distance, at: clock, locale: locale)) != nil
    observe(.update, self)
  }

  /// Applies the recorded events due by now, in order: the store keeps the timeline, the live
  /// walk measures against it, and the card goes out at once (a change of meaning, a delivery
  /// starting, advancing or finishing included).
  mutating func applyDueEvents() throws {
    var applied = false
    var shiftChanged = false
    while let next = pendingEvents.first, next.at <= clock {
      pendingEvents.removeFirst()
      try ledger.apply(next)
      applied = true
      if case .shift = next { shiftChanged = true }
    }
    guard applied, let shift else { return }
    if shiftChanged {
      timeline = ledger.timeline
      try store.setTimeline(timeline, of: shift)
      live?.applyTimeline(timeline)
    }
    if timeline.state != .ended { try refresh(final: false) }
  }

  /// Ends the shift once the feed has run out or Ctrl-C stopped it: the rest of the recorded
  /// timeline, the last batch, the final card, and the final figure from the stored rows.
  mutating func end() throws -> Outcome {
    try writeBatch()
    let stoppedByUser = Self.stopRequested.load(ordering: .relaxed)
    // The feed has run out: the rest of the recorded timeline happens now, at its times.
    if recordedTimeline != nil, let last = pendingEvents.last, !stoppedByUser {
      clock = max(clock, last.at)
      try applyDueEvents()
    }
    if timeline.state != .ended {
      let endEvent = ShiftTimeline.Event(.end, at: max(clock, ledger.readingInstant, timeline.events.last?.at ?? clock))
      // A recorded delivery still open refuses the end in the ledger: the card then keeps it in
      // progress, and the route is finished all the same.
      if (try? ledger.apply(endEvent)) != nil { timeline = ledger.timeline } else { try timeline.apply(endEvent) }
      // Ctrl-C ends the card's shift, not the stored one: nothing says the shift was over.
      if recordedTimeline != nil, !stoppedByUser, let shift {
        try store.setTimeline(timeline, of: shift)
        live?.applyTimeline(timeline)
      }
    }
    try refresh(final: true)
    guard let shift, let live else { return .nothingToReplay(ingest.measurement(format: puller.format)) }
    let window = recordedTimeline != nil ? timeline.window : reading.settings.window
    if stoppedByUser {
      // Stopped before the end of its feed: kept as an interrupted shift (whole batches, not all
      // of the feed), listed `interrupted` with a partial figure, as an interrupted import is.
      try store.setStatus(.importing, of: shift)
    } else {
      try store.finishShift(shift, end: window?.end)
    }
    let final = try store.measure(shift: shift, maximumSampleInterval: reading.settings.maximumSampleInterval)
    let liveDistance = live.distance
    let reason = ActiveRouteMeasurement.whyFinalDiffers(live: liveDistance, final: final)
    return .ended(shift: shift, live: liveDistance, final: final, reason: reason, refreshes: live.counters)
  }

  /// Seconds since the shift started, to the millisecond. O(1).
  public func shiftSeconds(_ time: Double) -> Double { ((time - startTime) * 1000).rounded() / 1000 }

  /// The feed's ingest so far: counts of records, retained and rejected positions. O(1).
  public var measurement: FeedMeasurement { ingest.measurement(format: puller.format) }

  /// Why reading the feed stopped partway, if it did.
  public var readFailure: FeedError? { puller.failure }

  /// Whether Ctrl-C stopped the replay.
  public var stoppedByUser: Bool { Self.stopRequested.load(ordering: .relaxed) }
}

/// A feed `replay` refuses to play, with the way to play it anyway.
public struct ReplayRefusal: Error, CustomStringConvertible {
  public let description: String
}
