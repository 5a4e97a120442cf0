import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// `FeedIngest.measure`: a whole feed through detection, decompression, the reader, the filter
/// and the walk — the figure, the report's balance, and the re-read that puts a feed stored out
/// of time order back in order.
@Suite struct FeedIngestTests {
  /// `count` fixes 5 s apart, 0.0003° of latitude (33.36 m) apart, one session, in time order
  /// unless `swap` names two rows to exchange.
  static func feed(count: Int = 40, swap: (Int, Int)? = nil) -> String {
    var rows = (0..<count).map { index in
      "\(CivilTime.iso8601(1_764_403_200 + Double(index) * 5)),\(45.5 + Double(index) * 0.0003),13.25,5,a"
    }
    if let (a, b) = swap { rows.swapAt(a, b) }
    return "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n" + rows.joined(separator: "\n") + "\n"
  }

  static let step = GeographicDistance.meters(
    from: RoutePosition(timestamp: 0, latitude: 45.5, longitude: 13.25),
    to: RoutePosition(timestamp: 5, latitude: 45.5003, longitude: 13.25))

  /// A source that cannot be rewound (a pipe), handing out at most `chunkSize` bytes a read.
  struct PipeSource: ByteSource {
    var inner: MemoryByteSource
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
      try inner.read(into: buffer)
    }
  }

  @Test func aFeedIsDetectedReadAndMeasured() {
    var source = MemoryByteSource(Self.feed())
    let measured = FeedIngest.measure(&source)
    #expect(measured.format == .csv)
    #expect(measured.report.records == 40)
    #expect(measured.report.retained == 40)
    #expect(measured.report.isBalanced)
    #expect(measured.report.failure == nil)
    #expect(measured.distance.contributingSegmentCount == 1)
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, 39 * Self.step))
  }

  @Test func gzipIsDecompressedOnTheWayInAndChangesNothing() {
    var plain = MemoryByteSource(Self.feed())
    var compressed = MemoryByteSource(Gzip.compress(Array(Self.feed().utf8)), chunkSize: 333)
    let a = FeedIngest.measure(&plain)
    let b = FeedIngest.measure(&compressed)
    #expect(b.format == .csv)
    #expect(a.distance == b.distance)
    #expect(a.report.records == b.report.records)
  }

  @Test(arguments: [true, false])
  func aFeedStoredOutOfOrderIsMeasuredInOrder(rewindable: Bool) {
    var inOrder = MemoryByteSource(Self.feed())
    let reference = FeedIngest.measure(&inOrder)
    let shuffled = Self.feed(swap: (10, 11))
    let measured: FeedMeasurement
    if rewindable {
      var source = MemoryByteSource(shuffled, chunkSize: 100)
      measured = FeedIngest.measure(&source)
    } else {
      var source = PipeSource(inner: MemoryByteSource(shuffled, chunkSize: 100))
      measured = FeedIngest.measure(&source)
    }
    // With the filter on, positions are judged in time order however they were stored.
    #expect(measured.distance == reference.distance)
    #expect(measured.report.retained == 40)
    #expect(measured.report.records == 40, "the re-read does not count a row twice")
  }

  @Test func withoutTheFilterTheWalkStillSortsTheFeed() {
    var source = MemoryByteSource(Self.feed(swap: (10, 11)))
    let measured = FeedIngest.measure(&source, settings: IngestSettings(filter: nil))
    // Read once in stored order (no time-order stage); the walk sorts, so the figure is the
    // in-order one, and nothing is rejected.
    #expect(measured.report.retained == 40)
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, 39 * Self.step))
  }

  @Test func theFormatCanBeForced() {
    var source = MemoryByteSource(Self.feed())
    let measured = FeedIngest.measure(&source, format: .nmea)
    #expect(measured.format == .nmea)
    #expect(measured.report.retained == 0)
    #expect(!measured.distance.isMeasured)
  }

  @Test func aFileThatIsNotAFeedIsNamedNotRead() {
    var source = MemoryByteSource(
      [0x42, 0x5A, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59] + Array(repeating: 0, count: 50))
    let measured = FeedIngest.measure(&source)
    #expect(measured.report.failure == .notAFeed(.bzip2))
    #expect(measured.report.records == 0)
    #expect(measured.distance.unmeasurable == .noUsablePosition)
  }

  @Test func aWindowLeavesOutWhatIsOutsideIt() throws {
    var source = MemoryByteSource(Self.feed())
    let window = try #require(ShiftWindow(start: 1_764_403_200 + 50, end: 1_764_403_200 + 100))
    let measured = FeedIngest.measure(&source, settings: IngestSettings(window: window))
    #expect(measured.distance.usablePositionCount == 11)
    #expect(measured.distance.positionsOutsideWindow == 29)
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, 10 * Self.step))
  }
}
