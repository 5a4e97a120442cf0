import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// What one read of a feed gave: every record the reader told its sink, in order, and the error
/// it stopped at (nil: it read to the end).
typealias FeedTestRead = (records: [FeedRecord], error: FeedError?)

/// The one chunked read every reader suite runs: feeds `bytes` to `reader` `chunkSize` bytes at a
/// time (`.max`: all at once), then finishes it, stopping at the first error.
///
/// - Parameter afterEachChunk: sees the reader after every chunk it took (a suite that watches
///   the reader's own memory looks here).
/// - Complexity: O(*n*) in the bytes, plus what the reader does with them.
func readChunked<Reader: FeedReader>(
  _ reader: Reader, _ bytes: [UInt8], chunkSize: Int = .max, afterEachChunk: (Reader) -> Void = { _ in }
) -> FeedTestRead {
  var reader = reader
  var sink = FeedRecordCollector()
  var failure: FeedError?
  bytes.withUnsafeBufferPointer { all in
    var offset = 0
    do throws(FeedError) {
      while offset < all.count {
        let end = offset + min(chunkSize, all.count - offset)
        try reader.read(UnsafeBufferPointer(rebasing: all[offset..<end]), into: &sink)
        afterEachChunk(reader)
        offset = end
      }
      try reader.finish(into: &sink)
    } catch {
      failure = error
    }
  }
  return (sink.records, failure)
}

/// A suite of tests for one reader: `read` and `t` for every suite, from the reader it names.
protocol FeedReaderSuite {
  associatedtype Reader: FeedReader
  /// A fresh reader with the default options.
  static func makeReader() -> Reader
}

extension FeedReaderSuite {
  /// Reads `bytes` with the suite's reader, `chunkSize` bytes at a time, stopping at its error.
  static func read(_ bytes: [UInt8], chunkSize: Int = .max) -> FeedTestRead {
    readChunked(makeReader(), bytes, chunkSize: chunkSize)
  }

  static func read(_ text: String, chunkSize: Int = .max) -> FeedTestRead {
    read(Array(text.utf8), chunkSize: chunkSize)
  }

  /// The timestamp of an ISO 8601 time the test wrote (a typo stops the test here).
  static func t(_ text: String) -> Double { ISO8601Parser.timestamp(text)! }

  /// Expects `read` to have reached the end without an error and given exactly `records`.
  static func expectRead(
    _ read: FeedTestRead, gives records: [FeedRecord], _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(read.error == nil, comment, sourceLocation: sourceLocation)
    #expect(read.records == records, comment, sourceLocation: sourceLocation)
  }

  /// The positions among `records` with their sessions (`positionsWithSessions`).
  static func positions(_ records: [FeedRecord]) -> [(sample: RouteSample, session: Int)] {
    positionsWithSessions(records)
  }
}

/// The format sniffed from the first bytes of `text`, as the CLI detects it.
func detectedFormat(_ text: String) -> FeedFormat {
  Array(text.utf8).withUnsafeBufferPointer { FeedFormat.detect(prefix: $0) }
}

/// The positions among `records`, in order, each with its session (-1 for none).
func positionsWithSessions(_ records: [FeedRecord]) -> [(sample: RouteSample, session: Int)] {
  records.compactMap {
    if case .position(let sample, let session, _) = $0 { return (sample, session ?? -1) }
    return nil
  }
}

/// A suite whose reader is `AnyFeedReader` for one format, as the CLI builds it.
protocol FormatReaderSuite: FeedReaderSuite where Reader == AnyFeedReader {
  static var format: FeedFormat { get }
}

extension FormatReaderSuite {
  static func makeReader() -> AnyFeedReader { AnyFeedReader(format: format, options: FeedOptions()) }
}

extension GPXRealFile {
  /// Measures the file through the whole ingest path, filter on and then off, and expects what
  /// every real-file table pins: the format detected, no failure (or, where allowed, one that
  /// left nothing to keep), the records, retained and rejected counts, the errors, balance, the
  /// sessions, segments, gaps and the figure (`Outcome.expectFigures`).
  ///
  /// - Parameters:
  ///   - measure: measures the file with the given settings.
  ///   - errors: the unreadable records by reason; nil: expects none at all.
  ///   - ignored: the ignored records by reason; nil: not checked.
  ///   - more: what the caller checks besides, with the outcome expected and "filtered" or
  ///     "unfiltered".
  func expectPinned(
    format: FeedFormat, allowsFailureWhenNothingIsRetained: Bool = false, errors: [String: Int]? = nil,
    ignored: [String: Int]? = nil, measure: (IngestSettings) throws -> FeedMeasurement,
    more: (FeedMeasurement, Outcome, String) -> Void = { _, _, _ in }, sourceLocation: SourceLocation = #_sourceLocation
  ) rethrows {
    for (settings, expected) in [(IngestSettings(), filtered), (IngestSettings(filter: nil), unfiltered)] {
      let measurement = try measure(settings)
      let report = measurement.report
      let label = settings.filter == nil ? "unfiltered" : "filtered"
      let failureAllowed = allowsFailureWhenNothingIsRetained && expected.retained == 0
      #expect(measurement.format == format, "\(label)", sourceLocation: sourceLocation)
      #expect(
        report.failure == nil || failureAllowed, "\(label): \(String(describing: report.failure))",
        sourceLocation: sourceLocation)
      #expect(report.records == records, "\(label)", sourceLocation: sourceLocation)
      #expect(report.retained == expected.retained, "\(label)", sourceLocation: sourceLocation)
      #expect(Self.byName(report.rejected) == expected.rejected, "\(label)", sourceLocation: sourceLocation)
      if let errors {
        #expect(Self.byName(report.errorReasons) == errors, "\(label)", sourceLocation: sourceLocation)
      } else {
        #expect(report.errors == 0, "\(label)", sourceLocation: sourceLocation)
      }
      if let ignored {
        #expect(Self.byName(report.ignored) == ignored, "\(label)", sourceLocation: sourceLocation)
      }
      #expect(report.isBalanced, "\(label)", sourceLocation: sourceLocation)
      expected.expectFigures(
        of: measurement.distance, sessions: report.sessions, label: label, sourceLocation: sourceLocation)
      more(measurement, expected, label)
    }
  }

  /// The acceptance rule on a real file with timed positions: the reader read it to the end,
  /// every timed position is read, and the unfiltered figure lies within `TrackBounds`.
  func expectUnfilteredFigureBracketed(by read: FeedTestRead, sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    #expect(read.error == nil, sourceLocation: sourceLocation)
    let positions = positionsWithSessions(read.records)
    #expect(positions.count == unfiltered.retained, sourceLocation: sourceLocation)
    TrackBounds(positions).expectBrackets(
      try #require(unfiltered.meters, sourceLocation: sourceLocation), sourceLocation: sourceLocation)
  }

  /// Expects `files` to pin every fixture ending in `suffix` in each folder (a path under
  /// `Tests/Fixtures/`), each named `prefix` + its file name, and nothing else.
  static func expectEveryFixture(
    in folders: [(folder: String, suffix: String, prefix: String)], pinnedBy files: [GPXRealFile],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let names = try folders.flatMap { folder in
      try Fixtures.names(in: folder.folder, suffix: folder.suffix).map { folder.prefix + $0 }
    }
    #expect(Set(names) == Set(files.map(\.name)), sourceLocation: sourceLocation)
  }

  /// Counts by reason, keyed by the reason's name as the tables write it.
  static func byName(_ counts: [FeedReason: Int]) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
  }

  /// Measures a fixture file as the CLI does, streaming it from disk.
  static func measureFile(at path: String) -> (IngestSettings) throws -> FeedMeasurement {
    { settings in
      var source = try FileByteSource(path: path)
      return FeedIngest.measure(&source, settings: settings)
    }
  }
}
