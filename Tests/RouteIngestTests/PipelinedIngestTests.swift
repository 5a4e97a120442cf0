import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading on one thread and measuring on another (`IngestPipelining`) gives the measurement one
/// thread gives, bit for bit: same records in the same order, same chunk ends, same errors with
/// the same lines, same cut-off, same restart of a file stored out of time order.
@Suite("Pipelined ingest: the same measurement on two threads")
struct PipelinedIngestTests {
  /// What a retained sink was told, in order: each retained sample's time, chunk ends, restarts.
  struct LoggingSink: RetainedSampleSink {
    enum Event: Hashable {
      case retained(Double, Double, Double)
      case chunk, restart
    }
    var events: [Event] = []
    /// Throws `error` at this chunk end (1-based), if set.
    var throwAtChunk: Int?
    var error: any Error = Refusal()
    var chunks = 0
    mutating func retain(_ sample: RouteSample) {
      events.append(.retained(sample.timestamp, sample.latitude, sample.longitude))
    }
    mutating func chunkFinished() throws {
      chunks += 1
      events.append(.chunk)
      if chunks == throwAtChunk { throw error }
    }
    mutating func restart() { events.append(.restart) }
  }

  struct Refusal: Error, Equatable {}

  /// Records whether any sample was retained on a thread other than the one that created it.
  struct ThreadSink: RetainedSampleSink {
    let caller = pthread_self()
    var offThread = 0
    mutating func retain(_ sample: RouteSample) { if pthread_equal(pthread_self(), caller) == 0 { offThread += 1 } }
    mutating func chunkFinished() {}
    mutating func restart() {}
  }

  static func measure(
    _ bytes: [UInt8], format: FeedFormat? = nil, filter: Bool = true, chunkSize: Int = FeedIngest.chunkSize,
    pipelining: IngestPipelining, sink: inout LoggingSink
  ) throws -> FeedMeasurement {
    var settings = IngestSettings(filter: filter ? RouteSampleFilter() : nil)
    settings.pipelining = pipelining
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return try FeedIngest.measure(&source, format: format, settings: settings, retained: &sink)
  }

  /// Measures `bytes` on one thread and pipelined in several ways; expects the same measurement
  /// and the same calls on the retained sink.
  static func expectSame(_ bytes: [UInt8], format: FeedFormat? = nil, name: String) throws {
    for filter in [true, false] {
      var chunkSizes = [FeedIngest.chunkSize, 4096]
      if bytes.count <= 256 << 10 { chunkSizes.append(7) }
      if bytes.count <= 32 << 10 { chunkSizes.append(1) }
      for chunkSize in chunkSizes {
        var oneSink = LoggingSink()
        let one = try measure(
          bytes, format: format, filter: filter, chunkSize: chunkSize, pipelining: .off, sink: &oneSink)
        for pipelining in [IngestPipelining.always(), .always(batchCapacity: 1), .always(batchCapacity: 7), .automatic]
        {
          var sink = LoggingSink()
          let pipelined = try measure(
            bytes, format: format, filter: filter, chunkSize: chunkSize, pipelining: pipelining, sink: &sink)
          let label =
            "\(name), filter \(filter ? "on" : "off"), chunks of \(chunkSize), batches of \(pipelining.batchCapacity)"
          #expect(pipelined == one, "\(label): \(MeasurementDifference.difference(one, pipelined))")
          #expect(sink.events == oneSink.events, "\(label): the retained sink was told something else")
        }
      }
    }
  }

  /// Every file in every folder of `Tests/Fixtures/realdata`.
  static let realFiles: [String] = ((try? Fixtures.names(in: "realdata", suffix: "")) ?? []).flatMap { kind in
    ((try? Fixtures.names(in: "realdata/\(kind)", suffix: "")) ?? []).map { "realdata/\(kind)/\($0)" }
  }

  static let acceptanceFiles: [String] = ((try? Fixtures.names(in: "acceptance", suffix: "")) ?? [])
    .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".gpx") }.map { "acceptance/\($0)" }

  @Test func theFixtureListsAreWhole() {
    #expect(Self.realFiles.count >= 50)
    #expect(Self.acceptanceFiles.count >= 10)
  }

  @Test(arguments: realFiles + acceptanceFiles)
  func aFixtureMeasuresTheSamePipelined(_ relative: String) throws {
    try Self.expectSame(try Fixtures.bytes(relative), name: relative)
  }

  // MARK: Where the second thread runs

  /// A phone-export CSV of `rows` rows (about 65 bytes each), one session, 1 Hz.
  static func phoneCSV(rows: Int) -> [UInt8] {
    var text = "time,latitude,longitude,accuracy,speed,course,session\n"
    var random = SeededRandom(seed: 16)
    for row in 0..<rows {
      let time = CivilTime.iso8601(1_762_272_000 + Double(row))
      let latitude = -48.8840207 + Double(row) * 0.00008 + 0.00001 * random.unit()
      let longitude = -123.4064682 + Double(row % 500) * 0.00005
      text += "\(time),\(String(format: "%.7f", latitude)),\(String(format: "%.7f", longitude)),8.0,9.50,12.5,1\n"
    }
    return Array(text.utf8)
  }

  @Test func automaticMeasuresOnASecondThreadOnlyPastTheFirstMebibyte() throws {
    let large = Self.phoneCSV(rows: 40_000)
    let small = Self.phoneCSV(rows: 2_000)
    #expect(large.count > 2 * FeedIngest.chunkSize)
    #expect(small.count < FeedIngest.chunkSize)
    func offThread(_ bytes: [UInt8], _ pipelining: IngestPipelining) throws -> (Int, FeedMeasurement) {
      var settings = IngestSettings()
      settings.pipelining = pipelining
      var source = MemoryByteSource(bytes)
      var sink = ThreadSink()
      let measurement = try FeedIngest.measure(&source, settings: settings, retained: &sink)
      return (sink.offThread, measurement)
    }
    let (largeOff, largeOne) = try offThread(large, .off)
    let (largeAuto, largePipelined) = try offThread(large, .automatic)
    let (smallAuto, _) = try offThread(small, .automatic)
    let (smallAlways, _) = try offThread(small, .always())
    #expect(largeOff == 0)
    #expect(largeAuto > 20_000)  // everything past the first MiB (about 16,000 rows)
    #expect(largeAuto < largeOne.report.retained)
    #expect(smallAuto == 0)
    #expect(smallAlways > 1_000)
    #expect(largePipelined == largeOne)
    #expect(largeOne.report.records == 40_000)
    #expect(largeOne.distance.meters > 300_000)
  }

  // MARK: Time order, errors, cut-off, a sink that throws

  @Test func aFileStoredOutOfOrderRestartsAndMeasuresTheSame() throws {
    let rows = TimeOrderTests.drive(seed: 3, count: 3_000)
    var late = rows
    late.swapAt(late.count - 2, late.count - 40)
    for text in [TimeOrderTests.csv(rows.reversed()), TimeOrderTests.csv(late)] {
      try Self.expectSame(Array(text.utf8), format: .csv, name: "out of order")
    }
    var sink = LoggingSink()
    let measured = try Self.measure(
      Array(TimeOrderTests.csv(late).utf8), chunkSize: 4096, pipelining: .always(batchCapacity: 7), sink: &sink)
    #expect(sink.events.contains(.restart))
    #expect(measured.distance.isMeasured)
  }

  @Test func errorsKeepTheirLinesAndACutOffFeedStopsWhereItDid() throws {
    var lines = ["timestamp,latitude,longitude,horizontal_accuracy,capture_session_id"]
    for row in 0..<3_000 {
      let latitude = 45.5 + Double(row) * 0.0001
      switch row {
      case 3: lines.append("1764403203,not-a-number,13.25,5,a")
      case 900: lines.append("1764404100,45.6,13.25,5,a,extra")
      case 2_500: lines.append("yesterday,45.7,13.25,5,a")
      default: lines.append("\(1_764_403_200 + row),\(String(format: "%.6f", latitude)),13.25,5,a")
      }
    }
    let csv = Array((lines.joined(separator: "\n") + "\n").utf8)
    var sink = LoggingSink()
    let csvMeasured = try Self.measure(csv, chunkSize: 4096, pipelining: .always(batchCapacity: 7), sink: &sink)
    #expect(csvMeasured.report.errors >= 2)
    #expect(csvMeasured.report.errorLines.contains(5))
    #expect(csvMeasured.report.errorLines.contains(2_502))
    try Self.expectSame(csv, name: "csv with bad rows")

    var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
    for second in 0..<2_000 {
      gpx +=
        "<trkpt lat=\"\(String(format: "%.6f", 45.5 + Double(second) * 0.0001))\" lon=\"13.25\"><time>\(CivilTime.iso8601(1_764_403_200 + Double(second)))</time></trkpt>\n"
    }
    gpx += "<trkpt lat=\"45.9\" lon=\"13.25\"><time>2025-11-29T"  // cut off mid-record
    let cut = Array(gpx.utf8)
    sink = LoggingSink()
    let gpxMeasured = try Self.measure(cut, chunkSize: 4096, pipelining: .always(batchCapacity: 7), sink: &sink)
    #expect(gpxMeasured.report.failure?.stopsReadingPartway == true)
    #expect(gpxMeasured.report.failure?.line == 2_003)
    #expect(gpxMeasured.distance.cutOff != nil)
    #expect(gpxMeasured.report.retained > 1_900)
    try Self.expectSame(cut, name: "cut-off gpx")
  }

  @Test func aRetainedSinkThatThrowsStopsAtTheSameChunk() throws {
    let bytes = Array(TimeOrderTests.csv(TimeOrderTests.drive(seed: 5, count: 2_000)).utf8)
    // Another error: rethrown, the sink told the same things up to it.
    var oneSink = LoggingSink(throwAtChunk: 4)
    #expect(throws: Refusal.self) { try Self.measure(bytes, chunkSize: 4096, pipelining: .off, sink: &oneSink) }
    var sink = LoggingSink(throwAtChunk: 4)
    #expect(throws: Refusal.self) {
      try Self.measure(bytes, chunkSize: 4096, pipelining: .always(batchCapacity: 7), sink: &sink)
    }
    #expect(sink.events == oneSink.events)
    #expect(sink.events.count > 100)
    // A feed error: it becomes the report's failure, after the same records.
    let feedError = FeedError.unreadableInput(detail: "the store refused a batch")
    oneSink = LoggingSink(throwAtChunk: 4, error: feedError)
    let one = try Self.measure(bytes, chunkSize: 4096, pipelining: .off, sink: &oneSink)
    sink = LoggingSink(throwAtChunk: 4, error: feedError)
    let pipelined = try Self.measure(bytes, chunkSize: 4096, pipelining: .always(batchCapacity: 7), sink: &sink)
    #expect(one.report.failure == feedError)
    #expect(pipelined == one)
    #expect(sink.events == oneSink.events)
  }
}
