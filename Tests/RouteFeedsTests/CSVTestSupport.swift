import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport

/// Everything a reader delivered, in order, so chunked and whole reads can be compared exactly.
typealias CSVTestEvent = FeedRecord
typealias CSVRecordingSink = FeedRecordCollector

extension FeedRecordCollector {
  init(events: [FeedRecord]) {
    self.init()
    records = events
  }

  var events: [FeedRecord] { records }

  var samples: [RouteSample] {
    events.compactMap { if case .position(let sample, _, _) = $0 { sample } else { nil } }
  }
  var sessions: [Int?] {
    events.compactMap { if case .position(_, let session, _) = $0 { session } else { nil } }
  }
  var unreadable: [CSVTestEvent] {
    events.filter { if case .unreadable = $0 { true } else { false } }
  }
}

/// What one read of a CSV feed gave: the events and the error that stopped it, if any.
struct CSVTestRead: Equatable {
  var events: [CSVTestEvent]
  var error: FeedError?

  var sink: CSVRecordingSink { CSVRecordingSink(events: events) }
}

enum CSVTestSupport {
  /// The package root (three levels up from this file).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func bytes(ofRealFile name: String) throws -> [UInt8] {
    try Fixtures.bytes("realdata/csv/\(name)")
  }

  /// Runs a `CSVReader` over `bytes` in chunks of `chunkSize` (0: all at once).
  static func read(
    _ bytes: [UInt8], chunkSize: Int = 0, mapping: CSVColumnMapping? = nil,
    maximumRecordLength: Int = CSVReader.defaultMaximumRecordLength
  ) -> CSVTestRead {
    var options = FeedOptions()
    options.csvColumns = mapping
    let read = readChunked(
      CSVReader(options: options, maximumRecordLength: maximumRecordLength), bytes,
      chunkSize: chunkSize > 0 ? chunkSize : .max)
    return CSVTestRead(events: read.records, error: read.error)
  }

  static func read(
    _ text: String, chunkSize: Int = 0, mapping: CSVColumnMapping? = nil,
    maximumRecordLength: Int = CSVReader.defaultMaximumRecordLength
  ) -> CSVTestRead {
    read(Array(text.utf8), chunkSize: chunkSize, mapping: mapping, maximumRecordLength: maximumRecordLength)
  }

  /// The whole ingest path, as the CLI runs it.
  static func measure(
    _ bytes: [UInt8], chunkSize: Int = 1 << 20, mapping: CSVColumnMapping? = nil,
    settings: IngestSettings = IngestSettings()
  ) -> FeedMeasurement {
    var options = FeedOptions()
    options.csvColumns = mapping
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return FeedIngest.measure(&source, format: .csv, options: options, settings: settings)
  }

  static func measure(
    _ text: String, mapping: CSVColumnMapping? = nil, settings: IngestSettings = IngestSettings()
  ) -> FeedMeasurement {
    measure(Array(text.utf8), mapping: mapping, settings: settings)
  }
}
