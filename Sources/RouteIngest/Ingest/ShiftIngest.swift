import RouteFeeds
import RouteMileage

/// In which order the ingest stage judges a feed's positions. With the filter off, `.time` and
/// `.timeSorted` use the calculator's walk order (`RouteMileageCalculator.walkOrder`) instead of
/// `TimeOrderedSample`'s, and `.arrival` keeps every position for the calculator.
public enum IngestOrder: Sendable, Hashable {
  /// As delivered: a live feed (replay), whose arrival order is the order of capture.
  case arrival
  /// A recorded file, judged in time order, streamed while it is delivered in time order. At
  /// the first position earlier than one before it, `deliveredOutOfOrder` turns true and every
  /// later position is ignored: the caller starts again with `.timeSorted`.
  case time
  /// A recorded file, judged in time order: every position is buffered (spilled to disk past
  /// `IngestSettings.sortRunLimit`) and judged by `finish()`.
  case timeSorted
}

/// The ingest stage for one shift: reader → capture sessions minted → `RouteSampleFilter` →
/// `RouteMileageAccumulator`, streaming. The rules it applies are the domain's (the order, the
/// duplicate and time-outlier rules, the timeline's placement, the filter, the walk); it orders
/// the positions, counts what each rule says, and mints the capture sessions.
///
/// ## Recorded files are judged in time order
///
/// With `.time` or `.timeSorted` (the filter on), positions reach the filter in the total order
/// of `TimeOrderedSample.precedes` — timestamp, then every other field — whatever order they
/// were stored in, after two file rules that look at the sorted stream, both the domain's:
///
/// - `duplicate` (`TimeOrderedSample.repeats(_:)`): a position equal in every field (and reader
///   session) to the one before it is counted and dropped.
/// - `timeOutlier` (`TimeOutlierRule`): a position alone in its time cluster, more than
///   `timeOutlierSeparation` (24 h) from every other, in a file with a cluster of two or more.
///   Positions whose timestamp is not finite take no part; the filter rejects them.
///
/// Capture sessions are minted in that order too, as each reader session's first retained
/// candidate arrives, so the IDs do not depend on storage order either. The rules depend only
/// on the sorted stream, so any permutation of the same rows gives the same result. The one
/// exception: rows identical in every field but their reader session are ordered by the reader's
/// session ordinal, which follows storage order.
///
/// `.time` holds only the previous position and the pending single-position clusters: O(1)
/// memory. (Positions sharing a timestamp must arrive in `TimeOrderedSample` order to stream;
/// otherwise the file is sorted.) `.timeSorted`
/// holds at most `sortRunLimit` positions in memory and spills the rest.
///
/// With the filter off (see `ShiftIngest+Unfiltered.swift`), `.time` walks positions straight
/// into the accumulator while they arrive in the calculator's walk order, and `.timeSorted`
/// sorts them in walk order through the same spilling sorter: the calculator's figure in the
/// same bounded memory. Only `.arrival` keeps them (40 bytes each) for the calculator's sort.
public struct ShiftIngest<Retained: RetainedSampleSink>: FeedSink {
  /// What the ingest counted itself (records, reader rejections, errors, sessions, times);
  /// `report` adds the filter's counts.
  var counted = IngestReport()
  /// The capture filter; a default one, never consulted, when `filtering` is false. Not an
  /// optional: reading an optional filter copies it (and retains what it holds) on the
  /// per-position path.
  var filter: RouteSampleFilter
  /// Whether the settings had a filter (`IngestSettings.filter != nil`).
  let filtering: Bool
  /// False when the sink is `DiscardRetainedSamples` (`measure`): then a retained position is
  /// not copied out to it. The per-position path is not specialized for the sink (the readers
  /// call it across modules), so each call would cost a copy and a witness call for nothing.
  let keepsRetained: Bool
  /// The earliest and latest finite timestamps noted (`noteTime`), +∞ and −∞ before the first:
  /// plain numbers on the per-position path, the report's optionals when it is read.
  var earliestTime = Double.infinity
  var latestTime = -Double.infinity
  var accumulator: RouteMileageAccumulator
  /// Filter off, `.arrival` only: every position kept, for the calculator.
  var unfiltered: [RoutePosition] = []
  /// Filter off, `.time`: the last position walked.
  var lastWalked: RoutePosition?
  /// Filter off, `.timeSorted` with recordings apart: each recording's figure.
  var unfilteredSeparated: [RouteDistance]?
  /// Filter off: the positions retained in each recording, by its index in `spans`.
  var retainedByRecording: [Int] = []
  let calculator: RouteMileageCalculator
  let window: ShiftWindow?
  var minter = CaptureSessionMinter()
  /// Reader session ordinals in the order their first position came, each with the capture
  /// session minted for it (`sessionIDs[k]` for the k-th seen).
  var readerSessions = FirstSeenOrdinals<Int>()
  var sessionIDs: [CaptureSessionID] = []
  /// `sessionIDs[readerSessions.lastOrdinal]` while `readerSessions.lastKey` is not nil: a run
  /// of one reader session's positions reads it without an array access and its bounds check.
  var lastSessionID = CaptureSessionID(0)
  let timeline: ShiftTimeline?
  let hasTimeline: Bool
  var captureInterval: Int?

  public let order: IngestOrder
  /// True once a `.time` ingest met a position earlier than one delivered before it.
  public internal(set) var deliveredOutOfOrder = false
  /// `.time`: the last position passed on (valid once `holding`).
  var held = TimeOrderedSample.blank
  /// Whether `held` is valid and the stream still in order: false again once
  /// `deliveredOutOfOrder`, so the in-order case tests one flag.
  var holding = false
  var sorter: SpillingSampleSorter?
  var sortFailure: FeedError?
  var previousOrdered: TimeOrderedSample?
  var outliers: TimeOutlierRule<TimeOrderedSample>
  /// The file's recordings and their time spans (see `RecordingSpans`).
  var spans = RecordingSpans()
  /// The recording of each position kept with the filter off, beside `unfiltered`.
  var unfilteredRecordings: [Int32] = []
  let settings: IngestSettings
  /// The recordings measured apart, once `finish()` did (see `ShiftIngest+Recordings.swift`).
  var separated: SeparatedRecordings?
  /// Declared last: a stored property of the generic type puts every property after it at an
  /// offset known only at run time, which the unspecialized per-position path (the readers
  /// call it across modules) would look up on every access.
  public var retainedSink: Retained

  public init(settings: IngestSettings, retained: Retained, order: IngestOrder = .arrival) {
    self.settings = settings
    filter = settings.filter ?? RouteSampleFilter()
    filtering = settings.filter != nil
    keepsRetained = Retained.self != DiscardRetainedSamples.self
    filter.maximumSampleInterval = settings.maximumSampleInterval
    accumulator =
      settings.timeline.map {
        RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, timeline: $0)
      }
      ?? RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, window: settings.window)
    timeline = settings.timeline
    hasTimeline = settings.timeline != nil
    calculator = RouteMileageCalculator(maximumSampleInterval: settings.maximumSampleInterval)
    window = settings.window
    retainedSink = retained
    self.order = order
    outliers = TimeOutlierRule(separation: settings.timeOutlierSeparation)
    if order == .timeSorted {
      sorter = SpillingSampleSorter(runLimit: settings.sortRunLimit, order: filtering ? .time : .walk)
    }
  }

  public mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    counted.records += 1
    if sample.horizontalAccuracyIsEstimated { counted.estimatedAccuracy += 1 }
    if session == nil { counted.legacyPositions += 1 }
    spans.note(session: session, timestamp: sample.timestamp)
    guard filtering else {
      noteTime(sample.timestamp)
      if hasTimeline, !admitByTimeline(sample) {
        // Counted and not measured by the walk, in its place in walk order.
        return walkUnfiltered(sample, recording: spans.index(of: session))
      }
      var sample = sample
      sample.captureSession = captureSession(for: timelineSessionKey(session))
      counted.retained += 1
      let recording = spans.index(of: session)
      walkUnfiltered(sample, recording: recording)
      countRetained(inRecording: recording)
      // Another recording than the one chosen is measured for the list, not kept.
      if let choice = settings.recordingChoice, spans.names[recording] != choice { return }
      retainedSink.retain(sample)
      return
    }
    if order == .time { return deliverInTimeOrder(sample, session: session) }
    let item = TimeOrderedSample(sample: sample, session: session)
    switch order {
    case .arrival:
      if let previousOrdered, previousOrdered.repeats(item) { return countDuplicate() }
      previousOrdered = item
      admit(item)
    case .time:
      deliverInTimeOrder(sample, session: session)
    case .timeSorted:
      guard sample.timestamp.isFinite else { return rejectUntimed(item) }
      guard sortFailure == nil else { return }
      do {
        try sorter?.append(item)
      } catch {
        sortFailure = error
      }
    }
  }

  /// Ends the feed: judges what the time-order stage still holds (everything, for
  /// `.timeSorted`), calling the sink's `chunkFinished()` every 65,536 positions. Call it once,
  /// after the reader's `finish`, before `measurement(format:)`; an `.arrival` ingest needs none.
  ///
  /// - Throws: `FeedError.temporaryStorage` when the spill file failed; what the sink throws.
  public mutating func finish() throws {
    guard !deliveredOutOfOrder else { return }
    guard filtering else { return try finishUnfiltered() }
    switch order {
    case .arrival:
      return
    case .time:
      break
    case .timeSorted:
      if let sortFailure { throw sortFailure }
      guard var sorter else { break }
      self.sorter = nil
      var cursor = try sorter.sorted()
      if separatesRecordings { return try measureApart(&cursor) }
      var sinceChunk = 0
      while let item = try cursor.next() {
        deduplicateAndCluster(item)
        sinceChunk += 1
        if sinceChunk == 1 << 16 {
          sinceChunk = 0
          try retainedSink.chunkFinished()
        }
      }
    }
    finishOutliers()
  }

  /// Ends every capture session now, as a killed app's would end: the next position of any
  /// reader session is minted a new capture session, so nothing is measured across the
  /// interruption. Legacy rows stay legacy.
  public mutating func interruptCapture() {
    readerSessions.removeAll()
    sessionIDs.removeAll()
  }

  /// Mints the capture session for a reader ordinal now, before its first position, so a
  /// caller that knows every session up front (a `pipe` record) can mint them in a fixed order
  /// rather than in order of appearance.
  public mutating func registerSession(_ ordinal: Int) {
    _ = captureSession(for: ordinal)
  }

  @inline(__always)
  mutating func captureSession(for ordinal: Int?) -> CaptureSessionID? {
    guard let ordinal else { return nil }
    // A run of positions from one reader session: one comparison.
    if ordinal == readerSessions.lastKey { return lastSessionID }
    return captureSessionSlowly(for: ordinal)
  }

  /// `captureSession(for:)` when the reader session changed: O(1) amortised (a dictionary).
  @inline(never)
  mutating func captureSessionSlowly(for ordinal: Int) -> CaptureSessionID {
    let (index, isNew) = readerSessions.ordinal(of: ordinal)
    if isNew {
      sessionIDs.append(filtering ? filter.mintCaptureSession() : minter.mint())
      counted.sessions += 1
    }
    lastSessionID = sessionIDs[index]
    return lastSessionID
  }

  @inline(__always)
  mutating func noteTime(_ timestamp: Double) {
    // Non-finite timestamps fail both comparisons (NaN) or can never be the earliest and the
    // latest (±∞) unless `report` leaves them out, which it does.
    if timestamp < earliestTime, timestamp.isFinite { earliestTime = timestamp }
    if timestamp > latestTime, timestamp.isFinite { latestTime = timestamp }
  }

  /// The filter's judgement of one position, in the order the ingest has settled on.
  mutating func admit(_ item: TimeOrderedSample) {
    admit(item.sample, session: item.session)
  }

  /// `admit(_:)` of a sample and its reader session.
  ///
  /// - Complexity: O(1) amortised.
  @inline(__always)
  mutating func admit(_ candidate: RouteSample, session: Int?) {
    noteTime(candidate.timestamp)
    if hasTimeline, !admitByTimeline(candidate) { return }
    var sample = candidate
    sample.captureSession = captureSession(for: session)
    let rejected = filter.take(&sample)
    if filter.keptStopFix {
      // A fix dropped during a stop, kept after all to carry continuity through it.
      accumulator.append(filter.stopFix.position, measured: filter.keptThroughStopMeasure)
      retainedSink.retain(filter.stopFix)
    }
    if rejected == nil {
      // The filter measured the step and the cosine when it retained the sample; reuse them.
      accumulator.append(sample.position, measured: filter.lastRetainedMeasure)
      if keepsRetained { retainedSink.retain(sample) }
    }
  }

  /// A position with no finite timestamp cannot be placed in time; the filter rejects it
  /// (`invalidCoordinate`) before it touches any session, so it is judged at once.
  mutating func rejectUntimed(_ item: TimeOrderedSample) {
    var sample = item.sample
    sample.captureSession = nil
    if filtering { _ = filter.take(&sample) }
  }

  public mutating func rejected(_ reason: FeedReason, line: Int) {
    counted.records += 1
    counted.rejected[reason, default: 0] += 1
  }

  public mutating func unreadable(_ reason: FeedReason, line: Int) {
    counted.records += 1
    counted.errors += 1
    counted.errorReasons[reason, default: 0] += 1
    if counted.errorLines.count < IngestReport.keptErrorLines { counted.errorLines.append(line) }
  }

  public mutating func ignored(_ reason: FeedReason, line: Int) {
    counted.ignored[reason, default: 0] += 1
  }

  public mutating func noted(_ reason: FeedReason, line: Int) {
    counted.notes[reason, default: 0] += 1
  }

  public mutating func recording(_ recording: FeedRecording, ofSession session: Int) {
    spans.declare(recording, session: session)
  }

  /// The account of everything judged so far, the filter's counts included: `retained`,
  /// `reanchored` and the filter's rejections are the filter's own tallies when it is on, so the
  /// report balances at any moment, not only in `measurement(format:)`. Its `format` is nil.
  ///
  /// - Complexity: O(*r*) in the rejection reasons (the filter has seven).
  public var report: IngestReport {
    var report = counted
    if earliestTime <= latestTime {
      report.firstTimestamp = earliestTime
      report.lastTimestamp = latestTime
    }
    if filtering {
      report.retained = filter.counts.retained
      report.reanchored = filter.counts.reanchored
      for (reason, count) in filter.counts.rejectedByReason {
        report.rejected[FeedReason(reason.rawValue), default: 0] += count
      }
    }
    if let separated { report.absorb(separated) }
    return report
  }

  /// The measurement of everything judged so far, and the report with the filter's counts.
  public func measurement(format: FeedFormat) -> FeedMeasurement {
    var report = report
    report.format = format
    if !filtering, separatesRecordings { return unfilteredApart(format: format, report: report) }
    var distance: RouteDistance
    if let separated {
      distance = separated.chosenDistance
    } else if filtering || order != .arrival {
      distance = accumulator.distance
    } else {
      distance =
        timeline.map { calculator.distance(of: unfiltered, timeline: $0) }
        ?? calculator.distance(of: unfiltered, covering: window)
    }
    // Every reader counts a position without a time as `missingTime`; the route must say it
    // left them out (RouteQuality words it, RouteDistance makes the route partial).
    distance.positionsWithoutTime = report.rejected[.missingTime] ?? 0
    var measurement = FeedMeasurement(
      format: format, distance: distance, report: report, recordings: separated?.summaries ?? [])
    if separated != nil { noteRecordingChoice(&measurement) }
    return measurement
  }
}
