import RouteFeeds
import RouteMileage

/// How one feed is turned into a measurement.
public struct IngestSettings: Sendable {
  /// The capture filter, with its thresholds; nil measures the rows as stored (`--no-filter`),
  /// in the calculator's walk order (`RouteMileageCalculator.walkOrder`) with its collapse of a
  /// repeated timestamp, streamed or sorted in bounded memory like the filter's time order.
  public var filter: RouteSampleFilter?
  /// Seconds; see `RouteContinuity`. The one place the maximum interval is held: the filter
  /// the ingest runs (`ShiftIngest`) and the options the readers get (`readerOptions(_:)`) take
  /// it from here, whatever theirs said.
  public var maximumSampleInterval: Double
  /// The finished shift's window; nil for a running shift or an unknown one.
  public var window: ShiftWindow?
  /// Seconds; a recorded file's position more than this from every other one in time is a
  /// time cluster of its own, which is a `timeOutlier` when the file has a cluster of two or
  /// more positions (see `ShiftIngest`). Filter on only; `.infinity` turns the rule off.
  public var timeOutlierSeparation: Double = 86_400
  /// Positions a file stored out of time order sorts in memory before it spills sorted runs to
  /// a temporary file (see `SpillingSampleSorter`); tests make it tiny to run the merge.
  public var sortRunLimit: Int = SpillingSampleSorter.defaultRunLimit
  /// The shift's timeline, when known: it replaces `window` (see `ShiftIngest+Timeline.swift`).
  public var timeline: ShiftTimeline?
  /// Whether reading and measuring run on two threads (`IngestPipelining`); the measurement is
  /// bit-identical either way. Off by default: `routemiles measure` turns it on.
  public var pipelining: IngestPipelining = .off
  /// The recording to measure (`--track N`, `--device ID`); nil measures a file's recordings as
  /// one route unless two overlap in time, then the one covering the most time (see
  /// `RecordingSpans`).
  public var recordingChoice: FeedRecording?

  public init(
    filter: RouteSampleFilter? = RouteSampleFilter(),
    maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval,
    window: ShiftWindow? = nil
  ) {
    self.filter = filter
    self.maximumSampleInterval = maximumSampleInterval
    self.window = window
  }
}

extension IngestSettings {
  /// `options` as the readers get them: with this maximum interval, after a longer silence
  /// NMEA's clock starts a new capture session. `FeedIngest.measure` and any caller that reads
  /// a feed itself (replay's `FeedRecordPuller`) pass options through here.
  public func readerOptions(_ options: FeedOptions) -> FeedOptions {
    var options = options
    options.maximumSampleInterval = maximumSampleInterval
    return options
  }
}

/// One feed measured: what the route supports and the account of what was read.
public struct FeedMeasurement: Sendable, Hashable {
  public var format: FeedFormat
  public var distance: RouteDistance
  public var report: IngestReport
  /// Every recording of the file with its own figure, when they were measured apart (two
  /// overlapped in time, or one was chosen); empty when the file was measured as one route.
  public var recordings: [FeedRecordingSummary]
  /// Whether two of `recordings` overlap in time (else they were measured apart because one was
  /// chosen).
  public var recordingsOverlap = false
  /// Whether the recording measured was chosen (`IngestSettings.recordingChoice`).
  public var recordingChosen = false

  public init(format: FeedFormat, distance: RouteDistance, report: IngestReport, recordings: [FeedRecordingSummary] = []) {
    self.format = format
    self.distance = distance
    self.report = report
    self.recordings = recordings
  }
}

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
/// `RouteMileageAccumulator`, streaming.
///
/// ## Recorded files are judged in time order
///
/// With `.time` or `.timeSorted` (the filter on), positions reach the filter in the total order
/// of `TimeOrderedSample.precedes` — timestamp, then every other field — whatever order they
/// were stored in, after two file rules that look at the sorted stream:
///
/// - `duplicate`: a position equal in every field (and capture session) to the one before it
///   is counted and dropped.
/// - `timeOutlier`: the sorted positions fall into *time clusters*, maximal runs in which each
///   is at most `timeOutlierSeparation` (24 h) after the one before. A cluster of a single
///   position is a time outlier, and rejected, when the file has a cluster of two or more
///   positions — one row dated 2100 in a 2025 drive costs only itself. (When the first 1,024
///   clusters are all single positions, those are kept: such a file has no main stretch for
///   them to stray from.) Positions whose timestamp is not finite take no part; the filter
///   rejects them.
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
  public var retainedSink: Retained
  var filter: RouteSampleFilter?
  /// `filter != nil`, kept as a flag: testing the optional itself copies the filter on the
  /// per-position path.
  let filtering: Bool
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
  var sessionIDs: [Int: CaptureSessionID] = [:]
  var lastOrdinal: Int?
  var lastSessionID: CaptureSessionID?
  let timeline: ShiftTimeline?
  let hasTimeline: Bool
  var captureInterval: Int?
  var capturingFrom = Double.infinity
  var capturingTo = -Double.infinity

  public let order: IngestOrder
  /// True once a `.time` ingest met a position earlier than one delivered before it.
  public internal(set) var deliveredOutOfOrder = false
  /// `.time`: the last position passed on (valid once `holding`).
  var held = TimeOrderedSample.blank
  var holding = false
  var sorter: SpillingSampleSorter?
  var sortFailure: FeedError?
  var previousOrdered: TimeOrderedSample?
  var outliers: TimeOutlierState
  /// The file's recordings and their time spans (see `RecordingSpans`).
  var spans = RecordingSpans()
  /// The recording of each position kept with the filter off, beside `unfiltered`.
  var unfilteredRecordings: [Int32] = []
  let settings: IngestSettings
  /// The recordings measured apart, once `finish()` did (see `ShiftIngest+Recordings.swift`).
  var separated: SeparatedRecordings?

  public init(settings: IngestSettings, retained: Retained, order: IngestOrder = .arrival) {
    self.settings = settings
    filter = settings.filter
    filtering = settings.filter != nil
    if filter != nil { filter?.maximumSampleInterval = settings.maximumSampleInterval }
    accumulator =
      settings.timeline.map { RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, timeline: $0) }
      ?? RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, window: settings.window)
    timeline = settings.timeline
    hasTimeline = settings.timeline != nil
    calculator = RouteMileageCalculator(maximumSampleInterval: settings.maximumSampleInterval)
    window = settings.window
    retainedSink = retained
    self.order = order
    outliers = TimeOutlierState(separation: settings.timeOutlierSeparation)
    if order == .timeSorted {
      sorter = SpillingSampleSorter(runLimit: settings.sortRunLimit, order: filter != nil ? .time : .walk)
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
    let item = TimeOrderedSample(sample: sample, session: session)
    switch order {
    case .arrival:
      if let previousOrdered, previousOrdered == item { return countDuplicate() }
      previousOrdered = item
      admit(item)
    case .time:
      deliverInTimeOrder(item)
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
    sessionIDs.removeAll()
    lastOrdinal = nil
    lastSessionID = nil
  }

  /// Mints the capture session for a reader ordinal now, before its first position, so a
  /// caller that knows every session up front (a `pipe` record) can mint them in a fixed order
  /// rather than in order of appearance.
  public mutating func registerSession(_ ordinal: Int) {
    _ = captureSession(for: ordinal)
  }

  mutating func captureSession(for ordinal: Int?) -> CaptureSessionID? {
    guard let ordinal else { return nil }
    if ordinal == lastOrdinal { return lastSessionID }
    let id: CaptureSessionID
    if let known = sessionIDs[ordinal] {
      id = known
    } else {
      id = filter != nil ? filter!.mintCaptureSession() : minter.mint()
      sessionIDs[ordinal] = id
      counted.sessions += 1
    }
    lastOrdinal = ordinal
    lastSessionID = id
    return id
  }

  mutating func noteTime(_ timestamp: Double) {
    guard timestamp.isFinite else { return }
    if counted.firstTimestamp.map({ timestamp < $0 }) ?? true { counted.firstTimestamp = timestamp }
    if counted.lastTimestamp.map({ timestamp > $0 }) ?? true { counted.lastTimestamp = timestamp }
  }

  /// The filter's judgement of one position, in the order the ingest has settled on.
  mutating func admit(_ item: TimeOrderedSample) {
    noteTime(item.sample.timestamp)
    if hasTimeline, !admitByTimeline(item.sample) { return }
    var sample = item.sample
    sample.captureSession = captureSession(for: item.session)
    let decision = filter?.consider(sample)
    if let stopFix = filter?.keptThroughStop, let measured = filter?.keptThroughStopMeasure {
      // A fix dropped during a stop, kept after all to carry continuity through it.
      accumulator.append(stopFix.position, measured: measured)
      retainedSink.retain(stopFix)
    }
    if case .retained(let kept)? = decision, let measured = filter?.lastRetainedMeasure {
      // The filter measured the step and the cosine when it retained the sample; reuse them.
      accumulator.append(kept.position, measured: measured)
      retainedSink.retain(kept)
    }
  }

  /// A position with no finite timestamp cannot be placed in time; the filter rejects it
  /// (`invalidCoordinate`) before it touches any session, so it is judged at once.
  mutating func rejectUntimed(_ item: TimeOrderedSample) {
    var sample = item.sample
    sample.captureSession = nil
    _ = filter?.consider(sample)
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
    if let filter {
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
    if filter == nil, separatesRecordings { return unfilteredApart(format: format, report: report) }
    var distance: RouteDistance
    if let separated {
      distance = separated.chosenDistance
    } else if filter != nil || order != .arrival {
      distance = accumulator.distance
    } else {
      distance =
        timeline.map { calculator.distance(of: unfiltered, timeline: $0) }
        ?? calculator.distance(of: unfiltered, covering: window)
    }
    // Every reader counts a position without a time as `missingTime`; the route must say it
    // left them out (RouteQuality words it, RouteDistance makes the route partial).
    distance.positionsWithoutTime = report.rejected[.missingTime] ?? 0
    var measurement = FeedMeasurement(format: format, distance: distance, report: report, recordings: separated?.summaries ?? [])
    if separated != nil { noteRecordingChoice(&measurement) }
    return measurement
  }
}

/// Runs whole feeds through the ingest stage.
public enum FeedIngest {
  /// The size of the buffer bytes are read into (`FeedOpening.chunkSize`).
  public static let chunkSize = FeedOpening.chunkSize
  /// How many bytes format and file-kind detection look at (`FeedOpening.detectionPrefix`).
  public static let detectionPrefix = FeedOpening.detectionPrefix

  /// Measures one feed.
  ///
  /// Gzip-compressed input is decompressed on the way (`DecompressingByteSource`), so the
  /// format is detected, and the feed read, from the decompressed bytes.
  ///
  /// A feed that cannot be read to the end (malformed XML, an NMEA log that needs a date) still
  /// gives the measurement of what was read before the problem, with `report.failure` saying
  /// why; callers decide whether that is a failure.
  ///
  /// A recorded feed is judged in time order (see `ShiftIngest`; with the filter off, the
  /// calculator's walk order). A source
  /// that can be read again (a file) is first streamed (`.time`); if a position turns out to
  /// be stored before a later one, `retained` is told to `restart()`, the source is rewound and
  /// read once more into `.timeSorted`. A source that cannot be rewound (a pipe) is sorted from
  /// the start.
  ///
  /// - Parameters:
  ///   - format: nil to detect it from the first bytes.
  /// - Throws: only what `retained` throws.
  /// - Complexity: O(*n*) in the feed's size for a feed stored in time order, memory O(1) in it,
  ///   filter on or off; O(*n* log *n*) and bounded memory (`SpillingSampleSorter`) for one
  ///   that is not, which is read up to twice.
  public static func measure<Source: ByteSource, Retained: RetainedSampleSink>(
    _ input: inout Source, format: FeedFormat? = nil, options: FeedOptions = FeedOptions(),
    settings: IngestSettings = IngestSettings(), retained: inout Retained
  ) throws -> FeedMeasurement {
    let options = settings.readerOptions(options)
    var source = DecompressingByteSource(input)
    defer { input = source.base }
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate() }
    let first = FeedOpening.firstRead(&source, into: buffer, format: format)
    var firstCount = first.count
    var failure = first.failure
    let detected = first.format
    let order: IngestOrder = source.isRewindable && settings.recordingChoice == nil ? .time : .timeSorted
    var ingest = ShiftIngest(settings: settings, retained: retained, order: order)
    defer { retained = ingest.retainedSink }
    if let failure {
      return concluded(ingest.measurement(format: detected), failure: failure)
    }
    failure = try pass(detected, options, settings.pipelining, &source, &ingest, buffer, firstCount)
    // A file out of time order, or one whose recordings overlap, is read again and sorted:
    // sorted, the recordings' spans are known before any position is judged.
    if ingest.deliveredOutOfOrder || ingest.needsSeparateRecordings {
      var sink = ingest.retainedSink
      try sink.restart()
      ingest = ShiftIngest(settings: settings, retained: sink, order: .timeSorted)
      do {
        try source.rewind()
        firstCount = try source.read(into: buffer)
        failure = try pass(detected, options, settings.pipelining, &source, &ingest, buffer, firstCount)
      } catch let error as FeedError {
        failure = error
      }
    }
    var measurement = ingest.measurement(format: detected)
    if let others = source.otherKMLDocuments, others > 0 { measurement.report.notes[.otherKMLDocuments] = others }
    if failure == nil, let choice = settings.recordingChoice, !measurement.recordings.contains(where: \.isChosen) {
      failure = .noSuchRecording(asked: choice, present: ingest.spans.names.compactMap { $0 })
    }
    return concluded(measurement, failure: failure)
  }

  /// One read of the feed through the reader for `format`.
  static func pass<Source: ByteSource, Retained: RetainedSampleSink>(
    _ format: FeedFormat, _ options: FeedOptions, _ pipelining: IngestPipelining, _ source: inout Source,
    _ ingest: inout ShiftIngest<Retained>, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ firstCount: Int
  ) throws -> FeedError? {
    var work = IngestPass(
      source: consume source, ingest: consume ingest, buffer: buffer, firstCount: firstCount, pipelining: pipelining)
    defer { (source, ingest) = (work.source, work.ingest) }
    return try format.withReader(options: options, &work)
  }

  /// Measures one feed, keeping no retained samples.
  public static func measure<Source: ByteSource>(
    _ source: inout Source, format: FeedFormat? = nil, options: FeedOptions = FeedOptions(),
    settings: IngestSettings = IngestSettings()
  ) -> FeedMeasurement {
    var discard = DiscardRetainedSamples()
    // `DiscardRetainedSamples` never throws.
    return (try? measure(&source, format: format, options: options, settings: settings, retained: &discard))
      ?? FeedMeasurement(format: format ?? .csv, distance: RouteDistance(), report: IngestReport())
  }

  /// Feeds every chunk to `reader`, then ends the ingest's time-order stage; returns the feed
  /// error that stopped it, if one did. Stops early, with nil, once a `.time` ingest finds the
  /// feed out of order.
  ///
  /// With `pipelining` on, the chunks after the first `startAfterChunks` are read on this thread
  /// and measured on a second one (`runPipelined`), with the same result.
  static func run<Reader: FeedReader, Source: ByteSource, Retained: RetainedSampleSink>(
    _ reader: inout Reader, _ source: inout Source, _ ingest: inout ShiftIngest<Retained>,
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ firstCount: Int, _ pipelining: IngestPipelining = .off
  ) throws -> FeedError? {
    var count = firstCount
    var failure: FeedError?
    var chunksRead = 0
    do {
      while count > 0 {
        if let start = pipelining.startAfterChunks, chunksRead >= start {
          switch try runPipelined(&reader, &source, &ingest, buffer, count, pipelining) {
          case .stoppedOutOfOrder: return nil
          case .read(let error): failure = error
          }
          break
        }
        chunksRead += 1
        try reader.read(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &ingest)
        try ingest.retainedSink.chunkFinished()
        if ingest.deliveredOutOfOrder { return nil }
        count = try source.read(into: buffer)
      }
      if count == 0 {
        try reader.finish(into: &ingest)
        if ingest.deliveredOutOfOrder { return nil }
      }
    } catch let error as FeedError {
      failure = error
    }
    do {
      try ingest.finish()
    } catch let error as FeedError {
      failure = failure ?? error
    }
    try ingest.retainedSink.chunkFinished()
    return failure
  }
}

/// `FeedIngest.pass` as work for whichever reader the format needs: it holds the source and the
/// ingest for the pass and runs `FeedIngest.run` with the reader `FeedFormat.withReader` makes.
struct IngestPass<Source: ByteSource, Retained: RetainedSampleSink>: FeedReaderWork {
  var source: Source
  var ingest: ShiftIngest<Retained>
  let buffer: UnsafeMutableBufferPointer<UInt8>
  let firstCount: Int
  let pipelining: IngestPipelining

  mutating func run<Reader: FeedReader>(_ reader: Reader) throws -> FeedError? {
    var reader = reader
    return try FeedIngest.run(&reader, &source, &ingest, buffer, firstCount, pipelining)
  }
}
