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
  /// The most positions a file stored out of time order sorts in memory before it spills sorted
  /// runs to a temporary file (a 40 MiB byte limit may spill sooner; see
  /// `SpillingSampleSorter`); tests make it tiny to run the merge.
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

  public init(
    format: FeedFormat, distance: RouteDistance, report: IngestReport, recordings: [FeedRecordingSummary] = []
  ) {
    self.format = format
    self.distance = distance
    self.report = report
    self.recordings = recordings
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
