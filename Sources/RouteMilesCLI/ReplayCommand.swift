#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork
import Synchronization

/// Set by SIGINT during a replay, so Ctrl-C ends the shift instead of killing the process.
let replayInterrupted = Atomic<Bool>(false)

/// `routemiles replay FEED`: a recorded drive played back as a live shift.
enum ReplayCommand {
  static let name = "replay"
  /// Accepted `--speed` factors: slower than 1/1000 would not finish; faster than a million is `max`.
  static let speedRange = 0.001...1_000_000.0
  /// The longest span of positions (first to last arrival) replayed without `--allow-long-span`:
  /// a replay plays one shift, and a feed spanning more than a week is a history of many (a
  /// Takeout export, a logger's year), whose replay at any factor would run for hours or days.
  static let longestSpan = 7 * 86_400.0
  static let usage = "routemiles replay [options] FEED"
  static let help = """
    USAGE: \(usage)

    Plays a recorded drive back as if it were being captured now. A capture loop releases the
    feed's positions in the order they would have arrived (by arrival time where the feed has
    one, by timestamp otherwise) at feed time scaled by --speed, runs each through the capture filter and writes
    the retained samples to the store in batches, one transaction per --batch-seconds of shift
    time. A display loop refreshes ActiveRouteMeasurement against the store every --refresh
    seconds of shift time and redraws a live card; the mileage figure on the card changes at most
    once per --route-update seconds (counts and state changes show at once). At the end, or on
    Ctrl-C, the shift ends and two figures are printed: the last live figure and the final figure
    measured from the stored rows in one pass; for an in-order feed with no faults they are
    identical, and the replay says so, or says why not. After Ctrl-C a --store shift is kept as
    interrupted (listed so by `shifts`, its figure partial) and the exit status is 130.

    A feed whose positions span more than 7 days is refused (exit 1) unless --allow-long-span.

    On a terminal the card redraws in place; otherwise, or with --json, one JSON line per update
    (fields in docs/replay.md).

    Timing:
      --speed FACTOR|max      Shift seconds per real second (default 1; max = no waiting).
      --refresh SECONDS       Display refresh interval, shift time (default 2).
      --route-update SECONDS  Least time between changes of the card's figure (default 30).
      --batch-seconds SECONDS Capture batch interval, shift time (default 5).
      --allow-long-span       Replay a feed whose positions span more than 7 days (refused
                              otherwise). At max speed, idle time is skipped: no update is
                              emitted where nothing changed.

    Store:
      --store PATH            Keep the shift in this SQLite store (default: in memory).

    Faults on purpose:
      --discard-batches P     Roll back a random fraction P of batches after they were measured.
      --seed N                Seed for --discard-batches (default 1).
      --interrupt-at SECONDS  End capture at this shift time, as a killed app: the unsaved batch
                              is lost and capture resumes in a new session after --relaunch-after.
      --relaunch-after SECONDS  Downtime of the interruption (default 30).

    Output:
      --json                  JSON Lines even on a terminal.

    \(MeasureOptions.help)

    \(MeasureOptions.timelineHelp)
    """

  struct Settings {
    var speed: Double?  // nil = max
    var refresh = 2.0
    var routeUpdate = 30.0
    var batchSeconds = 5.0
    var discardFraction = 0.0
    var seed: UInt64 = 1
    var interruptAt: Double?
    var relaunchAfter = 30.0
    var json = false
    var allowLongSpan = false
  }

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(MeasureOptions.timelineValueOptions).union([
        "speed", "refresh", "route-update", "batch-seconds", "store", "discard-batches", "seed",
        "interrupt-at", "relaunch-after",
      ]),
      flags: MeasureOptions.flagOptions.union(MeasureOptions.timelineFlagOptions).union(["help", "json", "allow-long-span"]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    let options = try MeasureOptions(arguments)
    if options.settings.recordingChoice != nil {
      // A live feed has no recordings to choose between: it is what one device sends.
      throw .usage("replay plays a feed as one live device; --track and --device are for measure, batch, import and pipe", command: name)
    }
    guard options.settings.filter != nil else {
      throw .usage("replay captures through the filter; --no-filter does not apply", command: name)
    }
    guard arguments.operands.count == 1, let feedPath = arguments.operands.first else {
      throw .usage("replay plays exactly one feed", command: name)
    }
    var settings = Settings()
    if let speed = arguments.value("speed") {
      if speed == "max" {
        settings.speed = nil
      } else {
        guard let factor = Double(speed), factor.isFinite, factor >= ReplayCommand.speedRange.lowerBound,
          factor <= ReplayCommand.speedRange.upperBound
        else {
          throw .usage(
            "--speed needs a factor from 0.001 to 1000000 (shift seconds per real second) or 'max', not '\(speed)'",
            command: name)
        }
        settings.speed = factor
      }
    } else {
      settings.speed = 1
    }
    func positive(_ option: String) throws(CLIError) -> Double? {
      guard let value = try arguments.double(option, minimum: 0) else { return nil }
      guard value > 0 else { throw .usage("--\(option) must be more than 0", command: name) }
      return value
    }
    settings.refresh = try positive("refresh") ?? settings.refresh
    settings.routeUpdate = try arguments.double("route-update", minimum: 0) ?? settings.routeUpdate
    settings.batchSeconds = try positive("batch-seconds") ?? settings.batchSeconds
    if let fraction = try arguments.double("discard-batches", minimum: 0) {
      guard fraction <= 1 else { throw .usage("--discard-batches is a fraction from 0 to 1", command: name) }
      settings.discardFraction = fraction
    }
    settings.seed = UInt64(try arguments.integer("seed", minimum: 0) ?? 1)
    settings.interruptAt = try arguments.double("interrupt-at", minimum: 0)
    if arguments.value("relaunch-after") != nil, settings.interruptAt == nil {
      throw .usage("--relaunch-after is the downtime of an interruption: it needs --interrupt-at SECONDS", command: name)
    }
    settings.relaunchAfter = try arguments.double("relaunch-after", minimum: 0) ?? settings.relaunchAfter
    settings.json = arguments.has("json") || !console.outputIsTerminal
    settings.allowLongSpan = arguments.has("allow-long-span")

    let source: FileByteSource
    do {
      source = try FileByteSource(path: feedPath)
    } catch {
      throw .failure("\(feedPath): \(error)")
    }
    let store: RouteStore
    if let path = arguments.value("store") {
      store = try openStore(path)
    } else {
      do {
        store = try RouteStore.inMemory()
      } catch {
        throw .failure("\(error)")
      }
    }
    let record: ShiftTimelineFile.Record?
    do {
      record = try options.timelineRecord(forFeed: feedPath)
    } catch {
      throw .failure("\(error)")
    }
    var replay = LiveReplay(
      feedPath: feedPath, source: source, options: options, settings: settings, store: store, console: console,
      record: record)
    replay.storePath = arguments.value("store")
    replayInterrupted.store(false, ordering: .relaxed)
    // A parent may have started us with SIGINT blocked (a test runner's thread does): unblock
    // it, or Ctrl-C would never reach the replay.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    let previous = signal(SIGINT) { _ in replayInterrupted.store(true, ordering: .relaxed) }
    defer { signal(SIGINT, previous) }
    do {
      return try replay.run()
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("\(feedPath): \(error)")
    }
  }
}

/// A seeded generator (SplitMix64) for reproducible faults.
struct ReplayRandom {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// The capture loop, the display loop and the card, against one store connection.
struct LiveReplay {
  let feedPath: String
  let options: MeasureOptions
  let settings: ReplayCommand.Settings
  let store: RouteStore
  /// The `--store` path; nil for the in-memory store.
  var storePath: String?
  let console: Console
  var puller: FeedRecordPuller<FileByteSource>
  var arrivals = ArrivalOrderSorter()
  var ingest: ShiftIngest<KeepRetainedSamples>
  var random: ReplayRandom
  var shift: ShiftID?
  var live: ActiveRouteMeasurement?
  /// The shift's recorded timeline (`--timeline` or the sidecar), applied at its times; nil
  /// when there is none (the replay then starts the shift at the first fix and ends it at the last).
  let recordedTimeline: ShiftTimeline?
  /// The recorded events (shift and delivery) not applied yet, in recorded order, at the
  /// instants they were applied at (clamps included).
  var pendingEvents: ArraySlice<ShiftWorkEvent> = []
  /// Whether the recorded timeline holds deliveries: the card then carries them.
  let recordsDeliveries: Bool
  /// The shift's record as the live shift knows it now: its timeline and deliveries.
  var ledger = ShiftLedger()
  /// The timeline as the live shift knows it now (`ledger`'s, but for an end the replay adds
  /// itself while a recorded delivery is still open).
  var timeline = ShiftTimeline()
  var cadence = ShiftCardCadence()
  /// Whether the last refresh pushed a new card.
  var pushed = false
  var startTime = 0.0
  var clock = 0.0
  var batches = 0
  var discardedBatches = 0
  var storedSamples = 0
  var lostSamples = 0
  var notCaptured = 0
  var captureResumesAt: Double?
  var interruptDone = false
  /// The shift clock when `--interrupt-at` killed capture.
  var interruptedAt: Double?
  var drawnLines = 0
  /// Whether anything was captured, written or interrupted since the last refresh: at max
  /// speed, idle time is skipped only when nothing was.
  var changedSinceRefresh = true

  init(
    feedPath: String, source: FileByteSource, options: MeasureOptions, settings: ReplayCommand.Settings,
    store: RouteStore, console: Console, record: ShiftTimelineFile.Record? = nil
  ) {
    let recorded = record?.timeline
    recordedTimeline = recorded
    pendingEvents = (record?.events ?? [])[...]
    recordsDeliveries = !(record?.ledger.deliveries.isEmpty ?? true)
    self.feedPath = feedPath
    self.options = options
    self.settings = settings
    self.store = store
    self.console = console
    puller = FeedRecordPuller(source, format: options.inputFormat, options: options.settings.readerOptions(options.feedOptions))
    var ingestSettings = options.settings
    ingestSettings.window = nil
    // Capture runs only while the shift runs and is not parked: the capture service judges each
    // fix against the timeline, exactly as the one-pass measurement will.
    ingestSettings.timeline = recorded
    ingest = ShiftIngest(settings: ingestSettings, retained: KeepRetainedSamples())
    random = ReplayRandom(state: settings.seed)
    cadence.routeUpdateInterval = settings.routeUpdate
  }

  mutating func run() throws -> Int32 {
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
    if latest - earliest > ReplayCommand.longestSpan, !settings.allowLongSpan {
      throw CLIError.failure(Self.longSpanRefusal(feedPath, span: latest - earliest))
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
      return try finishWithoutRoute()
    }
    startTime = recordedTimeline?.start ?? options.settings.window?.start ?? first.timestamp
    clock = startTime
    let shift = try store.createShift(
      start: startTime, end: nil, source: feedPath, importedAt: wallClockSeconds(), status: .running)
    self.shift = shift
    live = ActiveRouteMeasurement(shift: shift, maximumSampleInterval: options.settings.maximumSampleInterval)
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
      if replayInterrupted.load(ordering: .relaxed) { break }
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
        if let interrupt = settings.interruptAt.map({ startTime + $0 }), !interruptDone { horizon = min(horizon, interrupt) }
        if waiting { horizon = min(horizon, nextBatch) }
        nextRefresh = Self.firstTick(nextRefresh, every: settings.refresh, atOrAfter: horizon)
        if !waiting { nextBatch = Self.firstTick(nextBatch, every: settings.batchSeconds, atOrAfter: horizon) }
      }
      var eventTime = min(recordTime, nextRefresh, nextBatch, pendingEvents.first?.at ?? .infinity)
      if let interrupt = settings.interruptAt.map({ startTime + $0 }), !interruptDone { eventTime = min(eventTime, interrupt) }
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

  /// The refusal of a feed whose positions span more than `ReplayCommand.longestSpan`.
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
    while remaining > 0, !replayInterrupted.load(ordering: .relaxed) {
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
    let lost = lostSamples
    let resumes = shiftSeconds(clock + settings.relaunchAfter)
    emitEvent("interrupt", extra: { json in
      json.set("lostSamples", lost)
      json.set("captureResumesAt", resumes)
    })
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
      emitEvent("discard", extra: { $0.set("samples", samples.count) })
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
        ? cadence.update(ledger: ledger, route: distance, at: clock, locale: options.locale)
        : cadence.update(timeline: timeline, route: distance, at: clock, locale: options.locale)) != nil
    draw()
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

  mutating func end() throws -> Int32 {
    try writeBatch()
    let stoppedByUser = replayInterrupted.load(ordering: .relaxed)
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
    guard let shift, let live else { return try finishWithoutRoute() }
    let window = recordedTimeline != nil ? timeline.window : options.settings.window
    if stoppedByUser {
      // Stopped before the end of its feed: kept as an interrupted shift (whole batches, not all
      // of the feed), listed `interrupted` with a partial figure, as an interrupted import is.
      try store.setStatus(.importing, of: shift)
    } else {
      try store.finishShift(shift, end: window?.end)
    }
    let final = try store.measure(shift: shift, maximumSampleInterval: options.settings.maximumSampleInterval)
    let liveDistance = live.distance
    let reason = ActiveRouteMeasurement.whyFinalDiffers(live: liveDistance, final: final)
    let identical = reason == nil
    let liveLine = RouteQuality(liveDistance, locale: options.locale).line
    let finalLine = RouteQuality(final, locale: options.locale).line
    if settings.json {
      var json = JSONObject()
      json.set("type", "end")
      json.set("shiftSeconds", shiftSeconds(clock))
      json.set("interrupted", replayInterrupted.load(ordering: .relaxed))
      json.set("captureInterrupted", interruptedAt != nil)
      json.set("liveLine", liveLine)
      json.set("finalLine", finalLine)
      json.set("liveMeters", liveDistance.meters)
      json.set("finalMeters", final.meters)
      json.set("liveFloorMeters", liveDistance.floorMeters)
      json.set("finalFloorMeters", final.floorMeters)
      json.set("identical", identical)
      json.set("reason", reason)
      json.set("shift", Int(shift.rawValue))
      json.set("batches", batches)
      json.set("discardedBatches", discardedBatches)
      json.set("storedSamples", storedSamples)
      json.set("lostSamples", lostSamples)
      json.set("notCaptured", notCaptured)
      var counters = JSONObject()
      counters.set("probes", live.counters.probes)
      counters.set("unchanged", live.counters.unchanged)
      counters.set("extensions", live.counters.extensions)
      counters.set("freshMeasurements", live.counters.freshMeasurements)
      counters.set("rowsFetched", live.counters.rowsFetched)
      json.set("refreshes", counters)
      console.out(json.text + "\n")
    } else {
      console.out("\nShift ended after \(DurationWords.clock(clock - startTime)).\n")
      for line in interruptionLines() { console.out("  \(line).\n") }
      console.out("  Last live figure:  \(liveLine)\n")
      console.out("  Final figure:      \(finalLine)  (measured from the stored rows in one pass)\n")
      if let liveFloor = RouteQuality(liveDistance, locale: options.locale).floorSentence,
        let finalFloor = RouteQuality(final, locale: options.locale).floorSentence
      {
        console.out("  Live floor:        \(liveFloor)\n")
        console.out("  Final floor:       \(finalFloor)\n")
      }
      console.out(identical ? "  The two figures are identical.\n" : "  They differ: \(reason ?? "")\n")
    }
    console.flush()
    if let failure = puller.failure {
      console.err("routemiles: \(MeasureOptions.describe(failure, in: feedPath))\n")
      return ExitCode.failure
    }
    if stoppedByUser { return ExitCode.interrupted }
    if let at = settings.interruptAt, !interruptDone {
      console.err(
        "routemiles: --interrupt-at \(at) is after the feed's last position (the shift ended after \(DurationWords.clock(clock - startTime))); no interruption was played\n")
      return ExitCode.usage
    }
    return ExitCode.success
  }

  mutating func finishWithoutRoute() throws -> Int32 {
    let measurement = ingest.measurement(format: puller.format)
    let line = RouteQuality(measurement.distance, locale: options.locale).line
    if settings.json {
      var json = JSONObject()
      json.set("type", "end")
      json.set("shiftSeconds", 0)
      json.set("liveLine", line)
      json.set("finalLine", line)
      json.set("liveFloorMeters", measurement.distance.floorMeters)
      json.set("finalFloorMeters", measurement.distance.floorMeters)
      json.set("identical", true)
      json.set("reason", nil as String?)
      console.out(json.text + "\n")
    } else {
      console.out("No timed position in the feed: nothing to replay.\n  \(line)\n")
    }
    if let failure = puller.failure {
      console.err("routemiles: \(MeasureOptions.describe(failure, in: feedPath))\n")
      return ExitCode.failure
    }
    return ExitCode.success
  }

  func shiftSeconds(_ time: Double) -> Double { ((time - startTime) * 1000).rounded() / 1000 }

  func emitEvent(_ type: String, extra: (inout JSONObject) -> Void) {
    guard settings.json else { return }
    var json = JSONObject()
    json.set("type", type)
    json.set("shiftSeconds", shiftSeconds(clock))
    extra(&json)
    console.out(json.text + "\n")
    console.flush()
  }

  /// What the card says about interruptions: capture killed by `--interrupt-at` (when, what
  /// was lost, when it resumed) and a replay stopped with Ctrl-C.
  func interruptionLines() -> [String] {
    var lines: [String] = []
    if let at = interruptedAt {
      let resumes = at + settings.relaunchAfter
      lines.append(
        "Capture interrupted at \(DurationWords.clock(at - startTime)) · \(options.locale.counted(lostSamples, "unsaved sample")) lost · "
          + (clock >= resumes
            ? "resumed at \(DurationWords.clock(resumes - startTime)) as a new capture session"
            : "resumes at \(DurationWords.clock(resumes - startTime))"))
    }
    if replayInterrupted.load(ordering: .relaxed) {
      lines.append(
        "Replay stopped with Ctrl-C at \(DurationWords.clock(clock - startTime)): "
          + (storePath != nil && shift != nil
            ? "\(shift!) is kept in the store as interrupted, its figure partial"
            : "the shift ended there"))
    }
    return lines
  }

  mutating func draw() {
    let measurement = ingest.measurement(format: puller.format)
    let report = measurement.report
    let shown = cadence.shownRoute
    let latest = cadence.latestRoute
    let quality = RouteQuality(shown, locale: options.locale)
    let card = cadence.card
    let working = timeline.workingDuration(asOf: clock)
    let finished = timeline.state(at: clock) == .ended
    if settings.json {
      var json = JSONObject()
      json.set("type", "update")
      json.set("shiftSeconds", shiftSeconds(clock))
      json.set("clock", DurationWords.clock(clock - startTime))
      json.set("feedTime", CivilTime.iso8601(clock))
      json.set("state", Self.stateWord(timeline.state(at: clock)))
      json.set("stateLine", card?.stateLine)
      json.set("workingSeconds", working)
      json.set("line", quality.line)
      json.set("routeLine", card?.routeLine ?? quality.line)
      json.set("parkedLine", card?.parkedLine)
      json.set("controls", strings: card?.controls.map(\.rawValue) ?? [])
      if recordsDeliveries {
        json.set("deliveryCountsLine", card?.deliveryCountsLine)
        json.set("deliveryStatusLine", card?.deliveryStatusLine)
        json.set("deliveryLines", strings: card?.deliveryLines.map { $0.text(at: clock) } ?? [])
        json.set("moreDeliveriesLine", card?.moreDeliveriesLine)
        json.set("stepRefusalLine", card?.stepRefusalLine)
        json.set("reminderLines", strings: card?.reminderLines ?? [])
      }
      json.set("pushed", pushed)
      json.set("meters", shown.isMeasured ? shown.meters : nil)
      json.set("liveMeters", latest.isMeasured ? latest.meters : nil)
      json.set("isMeasured", latest.isMeasured)
      json.set("isPartial", latest.isPartial)
      json.set("segmentCount", latest.contributingSegmentCount)
      json.set("gapCount", latest.gapCount)
      json.set("captured", report.retained - lostSamples)
      json.set("stored", storedSamples)
      json.set("rejected", report.rejectedCount)
      json.set("unreadable", report.errors)
      json.set("batches", batches)
      json.set("discardedBatches", discardedBatches)
      json.set("freshMeasurements", live?.counters.freshMeasurements ?? 0)
      json.set("captureInterrupted", interruptedAt != nil)
      json.set("stoppedByUser", replayInterrupted.load(ordering: .relaxed))
      console.out(json.text + "\n")
      console.flush()
      return
    }
    let locale = options.locale
    var lines = [
      "\(card?.stateLine ?? ShiftCard.inProgressLine) · \(DurationWords.clock(working))"
        + (card?.parkedLine.map { " · " + $0 } ?? ""),
      quality.line,
      latest.isMeasured
        ? "\(locale.counted(latest.contributingSegmentCount, "segment")) · \(locale.counted(latest.gapCount, "gap"))"
        : "",
      Self.samplesLine(
        captured: report.retained - lostSamples, rejected: report.rejectedCount, batches: batches, discarded: discardedBatches,
        locale: locale),
    ]
    lines.append(contentsOf: interruptionLines())
    if recordsDeliveries {
      lines.append(contentsOf: deliveryCardLines(card, finished: finished))
    }
    // The controls while the shift runs; the line is left blank once it has ended.
    lines.append(finished ? "" : (card?.controls ?? []).map { "[\($0.rawValue)]" }.joined(separator: " "))
    var text = ""
    if drawnLines > 0 { text += "\u{1B}[\(drawnLines)F" }
    for line in lines { text += "\u{1B}[2K" + line + "\n" }
    drawnLines = lines.count
    console.out(text)
    console.flush()
  }
}

extension LiveReplay {
  /// The card's line of counts: `Samples: 1,204 captured · 3 rejected · 1 batch (1 discarded)`.
  static func samplesLine(captured: Int, rejected: Int, batches: Int, discarded: Int, locale: MileageLocale) -> String {
    let count = locale.formattedCount
    return "Samples: \(count(captured)) captured · \(count(rejected)) rejected · \(locale.counted(batches, "batch"))"
      + (discarded > 0 ? " (\(count(discarded)) discarded)" : "")
  }

  /// The card's delivery lines as drawn: counts, the status line, one line per open delivery
  /// (clocks read now), the remainder, the reason for no step, and reminders with the note.
  /// A fixed number of lines while the shift runs, so the redrawn card does not jump.
  func deliveryCardLines(_ card: ShiftCard?, finished: Bool) -> [String] {
    guard let card else { return [] }
    var lines = [card.deliveryCountsLine ?? "", finished ? "" : card.deliveryStatusLine ?? card.stepRefusalLine ?? ""]
    if finished { return lines }
    let open = card.deliveryLines.map { $0.text(at: clock) }
    lines += open + Array(repeating: "", count: ShiftCard.maximumDeliveryLines - open.count)
    lines.append(card.moreDeliveriesLine ?? "")
    lines += card.reminderLines
    if !card.reminderLines.isEmpty { lines.append(ShiftCard.reminderNote) }
    return lines
  }

  /// The replay's word for a state: `inProgress` (running), `paused`, `parked`, `ended`.
  static func stateWord(_ state: ShiftTimeline.State) -> String {
    switch state {
    case .running, .notStarted: "inProgress"
    case .paused: "paused"
    case .parked: "parked"
    case .ended: "ended"
    }
  }
}
