import RouteFeeds
import RouteMileage
import ShiftWork

/// One input measured: what the tool prints for it.
public struct InputResult: Sendable {
  public init(source: String) { self.source = source }

  /// The name as given (`-` for standard input).
  public var source: String
  public var measurement: FeedMeasurement?
  /// The message for a failed or partly read input, already prefixed `FILE:LINE:`.
  public var failure: String?
  /// The format to report when the input was not a feed file (`pipe`'s inline samples, a
  /// stored shift); use `formatLabel`.
  public var formatName: String?
  /// The one word every output gives for where the input came from: `formatName` when the
  /// input was not a feed file (`store`, `samples`), else the feed format read (`gpx`, `csv`,
  /// …); nil when nothing was read. A stored shift's measurement carries a placeholder format,
  /// never shown.
  public var formatLabel: String? { formatName ?? measurement?.format.rawValue }
  /// Retained positions, kept only when a picture was asked for.
  public var positions: [RoutePosition] = []
  /// True for a file a directory walk found (not named by the user): one that turns out not to
  /// be a feed at all is skipped rather than failed.
  public var foundInDirectory = false

  /// Whether the input is plainly not a feed: a file of another kind (compressed, binary, a zip
  /// with no KML document), or
  /// text whose columns mean nothing to the CSV reader in a file not named `.csv` (a
  /// `MANIFEST.tsv`, a `README.txt`). A `.csv` whose header cannot be mapped may be a drive that
  /// needs `--columns`: it stays a failure, never silently skipped.
  public var isNotAFeed: Bool {
    switch measurement?.report.failure {
    case .notAFeed?, .noFeedInArchive?: true
    case .unmappedColumns?: !source.lowercased().hasSuffix(".csv")
    default: false
    }
  }
  /// The shift's timeline, when the feed was measured with one.
  public var timeline: ShiftTimeline?
  /// The timeline file as read (deliveries and clamps), when the feed had one.
  public var timelineRecord: ShiftTimelineFile.Record?
  /// A stored shift's ledger (`batch --store`), which has no timeline file.
  public var storedLedger: ShiftLedger?
  /// The shift's ledger: its timeline file's, or the store's.
  public var ledger: ShiftLedger? { timelineRecord?.ledger ?? storedLedger }
  /// The shift's deliveries, when its timeline file (or its stored record) holds any.
  public var ledgerWithDeliveries: ShiftLedger? {
    guard let ledger, !ledger.deliveries.isEmpty else { return nil }
    return ledger
  }
  /// True when the feed was not measured because its timeline was malformed or refused.
  public var timelineRefused = false

  public var failed: Bool { failure != nil }
}

/// Keeps retained positions for pictures.
struct CollectPositions: RetainedSampleSink {
  var positions: [RoutePosition] = []
  mutating func retain(_ sample: RouteSample) { positions.append(sample.position) }
  mutating func chunkFinished() {}
  mutating func restart() { positions.removeAll() }
}

extension FeedReading {
  /// Opens and measures one feed. Never throws: an unreadable input is a failed result.
  ///
  /// - Parameter pipelining: whether reading and measuring may run on two threads. `measure`
  ///   asks for `.automatic` (a second core is free while one feed is measured); `batch` and
  ///   `pipe` keep `.off`, as their feeds already run one per core. The figure is the same.
  public func measure(path: String, keepPositions: Bool = false, pipelining: IngestPipelining = .off) -> InputResult {
    var result = InputResult(source: path)
    var settings: IngestSettings
    do {
      result.timelineRecord = try timelineRecord(forFeed: path)
      settings = self.settings(with: result.timelineRecord)
      settings.pipelining = pipelining
    } catch {
      // A refused timeline: nothing is measured from this feed.
      result.failure = "\(error)"
      result.timelineRefused = true
      return result
    }
    result.timeline = settings.timeline
    let source: FileByteSource
    do {
      source = try FileByteSource(path: path)
    } catch {
      result.failure = "\(path): \(error)"
      return result
    }
    var bytes = source
    do {
      var collect = CollectPositions()
      var discard = DiscardRetainedSamples()
      let measurement =
        keepPositions
        ? try FeedIngest.measure(
          &bytes, format: inputFormat, options: feedOptions, settings: settings, retained: &collect)
        : try FeedIngest.measure(
          &bytes, format: inputFormat, options: feedOptions, settings: settings, retained: &discard)
      result.measurement = measurement
      result.positions = collect.positions
      if let failure = measurement.report.failure {
        result.failure = Self.describe(failure, in: path)
      }
    } catch {
      result.failure = "\(path): \(error)"
    }
    return result
  }

  /// `FILE:LINE: message`, the form editors and terminals link to.
  public static func describe(_ error: FeedError, in path: String) -> String {
    if let line = error.line { return "\(path):\(line): \(error)" }
    return "\(path): \(error)"
  }
}
