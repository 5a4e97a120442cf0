import RouteMileage

/// Receives each retained sample as the ingest stage produces it (the store writes them in
/// batches; replay releases them into a live shift).
public protocol RetainedSampleSink {
  mutating func retain(_ sample: RouteSample)
  /// Called after each chunk of the feed, so a sink can flush a batch. Throwing stops the ingest.
  mutating func chunkFinished() throws
}

/// A sink that keeps nothing.
public struct DiscardRetainedSamples: RetainedSampleSink {
  public init() {}
  @inlinable public mutating func retain(_ sample: RouteSample) {}
  @inlinable public mutating func chunkFinished() {}
}

/// How one feed is turned into a measurement.
public struct IngestSettings: Sendable {
  /// The capture filter, with its thresholds; nil measures the rows as stored (`--no-filter`),
  /// through the calculator's sort, tie-break and collapse.
  public var filter: RouteSampleFilter?
  /// Seconds; see `RouteContinuity`.
  public var maximumSampleInterval: Double
  /// The finished shift's window; nil for a running shift or an unknown one.
  public var window: ShiftWindow?
  /// The shift's timeline, when known: it replaces `window` (see `ShiftIngest+Timeline.swift`).
  public var timeline: ShiftTimeline?

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

/// One feed measured: what the route supports and the account of what was read.
public struct FeedMeasurement: Sendable, Hashable {
  public var format: FeedFormat
  public var distance: RouteDistance
  public var report: IngestReport

  public init(format: FeedFormat, distance: RouteDistance, report: IngestReport) {
    self.format = format
    self.distance = distance
    self.report = report
  }
}

/// The ingest stage for one shift: reader → capture sessions minted → `RouteSampleFilter` →
/// `RouteMileageAccumulator`, streaming.
///
/// With the filter on, retained samples are already in time order (the filter rejects anything
/// at or before the last retained sample), so they stream through the accumulator in O(1)
/// memory. With the filter off, positions are kept (40 bytes each) for the calculator's sort.
public struct ShiftIngest<Retained: RetainedSampleSink>: FeedSink {
  public private(set) var report = IngestReport()
  public var retainedSink: Retained
  var filter: RouteSampleFilter?
  var accumulator: RouteMileageAccumulator
  var unfiltered: [RoutePosition] = []
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

  public init(settings: IngestSettings, retained: Retained) {
    filter = settings.filter
    if filter != nil { filter?.maximumSampleInterval = settings.maximumSampleInterval }
    accumulator =
      settings.timeline.map { RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, timeline: $0) }
      ?? RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, window: settings.window)
    timeline = settings.timeline
    hasTimeline = settings.timeline != nil
    calculator = RouteMileageCalculator(maximumSampleInterval: settings.maximumSampleInterval)
    window = settings.window
    retainedSink = retained
  }

  public mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    report.records += 1
    if sample.timestamp.isFinite {
      if report.firstTimestamp.map({ sample.timestamp < $0 }) ?? true { report.firstTimestamp = sample.timestamp }
      if report.lastTimestamp.map({ sample.timestamp > $0 }) ?? true { report.lastTimestamp = sample.timestamp }
    }
    if sample.horizontalAccuracyIsEstimated { report.estimatedAccuracy += 1 }
    if hasTimeline, !admitByTimeline(sample) { return }
    var sample = sample
    sample.captureSession = captureSession(for: session)
    if filter != nil {
      if case .retained(let kept)? = filter?.consider(sample) {
        // The filter measured this very pair when it retained the sample; reuse it.
        if let link = filter?.lastRetainedLink, let last = accumulator.lastPosition,
          link.from.timestamp == last.timestamp, link.from.latitude == last.latitude,
          link.from.longitude == last.longitude
        {
          accumulator.append(kept.position, metersFromLastPosition: link.meters)
        } else {
          accumulator.append(kept.position)
        }
        retainedSink.retain(kept)
      }
    } else {
      report.retained += 1
      unfiltered.append(sample.position)
      retainedSink.retain(sample)
    }
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
    guard let ordinal else {
      report.legacyPositions += 1
      return nil
    }
    if ordinal == lastOrdinal { return lastSessionID }
    let id: CaptureSessionID
    if let known = sessionIDs[ordinal] {
      id = known
    } else {
      id = filter != nil ? filter!.mintCaptureSession() : minter.mint()
      sessionIDs[ordinal] = id
      report.sessions += 1
    }
    lastOrdinal = ordinal
    lastSessionID = id
    return id
  }

  public mutating func rejected(_ reason: FeedReason, line: Int) {
    report.records += 1
    report.rejected[reason, default: 0] += 1
  }

  public mutating func unreadable(_ reason: FeedReason, line: Int) {
    report.records += 1
    report.errors += 1
    report.errorReasons[reason, default: 0] += 1
    if report.errorLines.count < IngestReport.keptErrorLines { report.errorLines.append(line) }
  }

  public mutating func ignored(_ reason: FeedReason, line: Int) {
    report.ignored[reason, default: 0] += 1
  }

  public mutating func noted(_ reason: FeedReason, line: Int) {
    report.notes[reason, default: 0] += 1
  }

  /// The measurement of everything delivered so far, and the report with the filter's counts.
  public func measurement(format: FeedFormat) -> FeedMeasurement {
    var report = report
    report.format = format
    let distance: RouteDistance
    if let filter {
      report.retained = filter.counts.retained
      report.reanchored = filter.counts.reanchored
      for (reason, count) in filter.counts.rejectedByReason {
        report.rejected[FeedReason(reason.rawValue), default: 0] += count
      }
      distance = accumulator.distance
    } else {
      distance =
        timeline.map { calculator.distance(of: unfiltered, timeline: $0) }
        ?? calculator.distance(of: unfiltered, covering: window)
    }
    return FeedMeasurement(format: format, distance: distance, report: report)
  }
}

/// Runs whole feeds through the ingest stage.
public enum FeedIngest {
  /// The size of the buffer bytes are read into; the readers copy only partial records out of it.
  public static let chunkSize = 1 << 20

  /// Measures one feed.
  ///
  /// A feed that cannot be read to the end (malformed XML, an NMEA log that needs a date) still
  /// gives the measurement of what was read before the problem, with `report.failure` saying
  /// why; callers decide whether that is a failure.
  ///
  /// - Parameters:
  ///   - format: nil to detect it from the first bytes.
  /// - Throws: only what `retained` throws.
  /// - Complexity: O(*n*) in the feed's size; memory O(1) in it with the filter on.
  public static func measure<Source: ByteSource, Retained: RetainedSampleSink>(
    _ source: inout Source, format: FeedFormat? = nil, options: FeedOptions = FeedOptions(),
    settings: IngestSettings = IngestSettings(), retained: inout Retained
  ) throws -> FeedMeasurement {
    var options = options
    options.maximumSampleInterval = settings.maximumSampleInterval
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate() }
    var firstCount = 0
    var failure: FeedError?
    do {
      // Detection reads the same prefix however the source delivers its bytes.
      firstCount = try readPrefix(&source, into: buffer)
    } catch {
      failure = error
    }
    let detected = format ?? FeedFormat.detect(prefix: UnsafeBufferPointer(rebasing: buffer[0..<min(firstCount, 8192)]))
    var ingest = ShiftIngest(settings: settings, retained: retained)
    defer { retained = ingest.retainedSink }
    if failure == nil, let kind = FeedFileKind.sniff(UnsafeBufferPointer(rebasing: buffer[0..<min(firstCount, 8192)])) {
      failure = .notAFeed(kind)
    }
    if let failure {
      return concluded(ingest.measurement(format: detected), failure: failure)
    }
    switch detected {
    case .gpx:
      var reader = GPXReader(options: options)
      failure = try run(&reader, &source, &ingest, buffer, firstCount)
    case .nmea:
      var reader = NMEAReader(options: options)
      failure = try run(&reader, &source, &ingest, buffer, firstCount)
    case .csv:
      var reader = CSVReader(options: options)
      failure = try run(&reader, &source, &ingest, buffer, firstCount)
    }
    return concluded(ingest.measurement(format: detected), failure: failure)
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

  /// Feeds every chunk to `reader`; returns the feed error that stopped it, if one did.
  static func run<Reader: FeedReader, Source: ByteSource, Retained: RetainedSampleSink>(
    _ reader: inout Reader, _ source: inout Source, _ ingest: inout ShiftIngest<Retained>,
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ firstCount: Int
  ) throws -> FeedError? {
    var count = firstCount
    do {
      while count > 0 {
        try reader.read(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &ingest)
        try ingest.retainedSink.chunkFinished()
        count = try source.read(into: buffer)
      }
      try reader.finish(into: &ingest)
      try ingest.retainedSink.chunkFinished()
    } catch let error as FeedError {
      return error
    }
    return nil
  }
}
