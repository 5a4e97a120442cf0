import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// Recorded files are judged in time order (DESIGN.md, "Files are judged in time order"): the
/// same rows in any stored order give the same measurement, filter on or off; a far-off
/// timestamp costs only its own row; exact duplicates are `duplicate`.
@Suite("Recorded files are judged in time order")
struct TimeOrderTests {
  /// One CSV row of a generated drive.
  struct Row: Hashable {
    var time: Double
    var latitude: Double
    var longitude: Double
    var accuracy: Double
    var session: String?

    var line: String {
      let stamp = String(format: "%.3f", time)
      return
        "\(stamp),\(String(format: "%.7f", latitude)),\(String(format: "%.7f", longitude)),\(accuracy),\(session ?? "")\n"
    }
  }

  static let header = "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n"

  static func csv(_ rows: [Row]) -> String { header + rows.map(\.line).joined() }

  /// A drive of `count` fixes, 1–3 s apart, with everything order can get wrong in a file:
  /// two capture sessions and a stretch of legacy rows (empty session cell), a silence longer
  /// than the interval, a parked spell, a wild fix, a few exact duplicates and a few fixes that
  /// share a second with another at a different place.
  static func drive(seed: UInt64, count: Int = 400) -> [Row] {
    var random = SeededRandom(seed: seed)
    var rows: [Row] = []
    var time = 1_764_403_200.0
    var latitude = 45.5
    var longitude = 13.25
    for index in 0..<count {
      time += index == count / 2 ? 300 : Double(1 + Int(random.next() % 3))
      let parked = (count / 4..<count / 4 + 20).contains(index)
      if !parked {
        latitude += 0.00008 + 0.00002 * random.unit()
        longitude += 0.00005 * (random.unit() - 0.3)
      }
      let session: String? = index < count / 3 ? "a" : (index < 2 * count / 3 ? nil : "b")
      var row = Row(
        time: time, latitude: latitude + 0.00001 * random.unit(), longitude: longitude,
        accuracy: 5 + Double(random.next() % 20),
        session: session)
      if index == count / 5 { row.latitude += 0.05 }  // a wild fix
      rows.append(row)
      if index % 37 == 5 { rows.append(row) }  // an exact duplicate
      if index % 53 == 7 {  // the same second, another place
        var twin = row
        twin.longitude += 0.0003
        rows.append(twin)
      }
    }
    return rows
  }

  static func measure(_ text: String, settings: IngestSettings = IngestSettings(), chunkSize: Int = 1 << 20)
    -> FeedMeasurement
  {
    var source = MemoryByteSource(Array(text.utf8), chunkSize: chunkSize)
    return FeedIngest.measure(&source, format: .csv, settings: settings)
  }

  static var unfiltered: IngestSettings { IngestSettings(filter: nil) }

  static func tinyRuns(_ limit: Int) -> IngestSettings {
    var settings = IngestSettings()
    settings.sortRunLimit = limit
    return settings
  }

  // MARK: Any order, the same figure

  @Test func aNewestFirstFileMeasuresExactlyAsItsInOrderTwin() {
    let rows = Self.drive(seed: 1)
    let inOrder = Self.measure(Self.csv(rows))
    let newestFirst = Self.measure(Self.csv(rows.reversed()))
    #expect(inOrder.distance.isMeasured)
    #expect(inOrder.distance.meters > 1000)
    #expect(inOrder.report.rejected[FeedReason("outOfOrder"), default: 0] <= 10)
    #expect(newestFirst == inOrder)
    // Before, the newest-first file kept its first row and lost the rest as out of order.
    #expect(newestFirst.report.retained == inOrder.report.retained)
  }

  @Test(arguments: [UInt64(2), 3, 4, 5, 6])
  func anyPermutationOfTheRowsGivesTheSameMeasurementFilterOnAndOff(_ seed: UInt64) {
    let rows = Self.drive(seed: seed)
    let inOrderText = Self.csv(rows)
    let inOrder = Self.measure(inOrderText)
    let inOrderUnfiltered = Self.measure(inOrderText, settings: Self.unfiltered)
    var random = SeededRandom(seed: seed &* 977)
    for _ in 0..<4 {
      let text = Self.csv(rows.shuffled(using: &random))
      #expect(Self.measure(text) == inOrder)
      #expect(Self.measure(text, settings: Self.unfiltered) == inOrderUnfiltered)
      // Chunk boundaries do not matter either.
      #expect(Self.measure(text, chunkSize: 97) == inOrder)
    }
    #expect(inOrder.report.rejected[.duplicate] == rows.count - Set(rows).count)
    #expect(inOrder.report.sessions == 2)
  }

  @Test func theSpillPathSortsRunsOnDiskAndMergesThemToTheSameResult() {
    let rows = Self.drive(seed: 7, count: 600)
    let inOrder = Self.measure(Self.csv(rows))
    var random = SeededRandom(seed: 11)
    let shuffled = Self.csv(rows.shuffled(using: &random))
    // 2 per run: over 300 runs, more than one merge's fan-in (256), so runs are merged in
    // rounds; 5 per run: one merge.
    for limit in [2, 5, 64, 1000] {
      #expect(Self.measure(shuffled, settings: Self.tinyRuns(limit)) == inOrder, "run limit \(limit)")
    }
  }

  @Test func theSorterMergesSpilledRunsInOrder() throws {
    var sorter = SpillingSampleSorter(runLimit: 3)
    var random = SeededRandom(seed: 5)
    var times: [Double] = []
    // 334 runs: a merge round, then the final merge.
    for _ in 0..<1000 {
      let time = Double(random.next() % 200)
      times.append(time)
      try sorter.append(
        TimeOrderedSample(sample: RouteSample(timestamp: time, latitude: 1, longitude: 2), session: nil))
    }
    #expect(sorter.spilled)
    var merged: [Double] = []
    try sorter.drain { merged.append($0.sample.timestamp) }
    #expect(merged == times.sorted())
  }

  /// The sorter sorts keys (the first field's bits and an index) rather than samples; whatever
  /// the ties, signed zeros, negative times or NaN, it hands back exactly the stable sort of the
  /// samples by the full order, in memory and through spilled runs.
  @Test(arguments: [SampleSortOrder.time, .arrival, .walk], [3, 50, 1 << 17])
  func theSorterGivesTheStableFullOrderWhateverTheTies(_ order: SampleSortOrder, runLimit: Int) throws {
    var random = SeededRandom(seed: 23)
    let times: [Double] = [-86_400.5, -1, -0.0, 0, 0.25, 1, 1_764_547_200, 1_764_547_200.5, 4e15]
    for withNaN in [false, true] {
      var items: [TimeOrderedSample] = []
      for index in 0..<400 {
        let time = withNaN && index % 37 == 0 ? Double.nan : times[Int(random.next() % UInt64(times.count))]
        var sample = RouteSample(
          timestamp: time, latitude: Double(random.next() % 3), longitude: Double(random.next() % 2))
        sample.receivedAt = random.next() % 2 == 0 ? nil : times[Int(random.next() % UInt64(times.count))]
        items.append(TimeOrderedSample(sample: sample, session: random.next() % 3 == 0 ? nil : Int(random.next() % 2)))
      }
      let expected = items.enumerated().sorted { a, b in
        if order.precedes(a.element, b.element) { return true }
        if order.precedes(b.element, a.element) { return false }
        return a.offset < b.offset
      }.map(\.element)
      var sorter = SpillingSampleSorter(runLimit: runLimit, order: order)
      for item in items { try sorter.append(item) }
      var sorted: [TimeOrderedSample] = []
      try sorter.drain { sorted.append($0) }
      let key = { (item: TimeOrderedSample) in
        [
          item.sample.timestamp.bitPattern, item.sample.latitude.bitPattern, item.sample.longitude.bitPattern,
          item.sample.receivedAt?.bitPattern ?? 1, UInt64(bitPattern: Int64(item.session ?? -1)),
        ]
      }
      #expect(sorted.map(key) == expected.map(key), "NaN \(withNaN)")
    }
  }

  @Test func sortKeyBitsOrderFiniteNumbersAsTheyCompare() {
    let values: [Double] = [
      -.greatestFiniteMagnitude, -1e9, -1, -.leastNonzeroMagnitude, -0.0, 0, .leastNonzeroMagnitude, 1, 1e9,
      .greatestFiniteMagnitude,
    ]
    for a in values {
      for b in values {
        #expect((SortKey.orderedBits(a) < SortKey.orderedBits(b)) == (a < b), "\(a) \(b)")
        #expect((SortKey.orderedBits(a) == SortKey.orderedBits(b)) == (a == b), "\(a) \(b)")
      }
    }
  }

  @Test func aSourceThatCannotRewindIsSortedFromTheStart() {
    struct OneWay: ByteSource {
      var inner: MemoryByteSource
      mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
        try inner.read(into: buffer)
      }
    }
    let rows = Self.drive(seed: 8)
    let inOrder = Self.measure(Self.csv(rows))
    for text in [Self.csv(rows), Self.csv(rows.reversed())] {
      var source = OneWay(inner: MemoryByteSource(text))
      #expect(!source.isRewindable)
      #expect(FeedIngest.measure(&source, format: .csv) == inOrder)
    }
  }

  @Test func aRestartTellsTheSinkToForgetWhatItWasGiven() throws {
    let rows = Self.drive(seed: 9)
    var inOrderSink = KeepRetainedSamples()
    var inOrderSource = MemoryByteSource(Self.csv(rows))
    _ = try FeedIngest.measure(&inOrderSource, format: .csv, retained: &inOrderSink)
    // Out of order only near the end: the first pass has retained hundreds of samples.
    var late = rows
    late.swapAt(late.count - 1, late.count - 3)
    var sink = KeepRetainedSamples()
    var source = MemoryByteSource(Self.csv(late))
    _ = try FeedIngest.measure(&source, format: .csv, retained: &sink)
    #expect(sink.samples == inOrderSink.samples)
    #expect(sink.samples.count > 100)
  }

  @Test func gpxSegmentsStoredInReverseOrderAreMeasuredAsTheInOrderFile() {
    func point(_ second: Int, _ latitude: Double) -> String {
      let time = CivilTime.iso8601(1_764_403_200 + Double(second))
      return "<trkpt lat=\"\(String(format: "%.6f", latitude))\" lon=\"13.25\"><time>\(time)</time></trkpt>\n"
    }
    let first = (0..<60).map { point($0 * 2, 45.5 + Double($0) * 0.0002) }.joined()
    let second = (0..<60).map { point(600 + $0 * 2, 45.6 + Double($0) * 0.0002) }.joined()
    func gpx(_ segments: [String]) -> String {
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk>"
        + segments.map { "<trkseg>\n\($0)</trkseg>" }.joined() + "</trk></gpx>\n"
    }
    var source = MemoryByteSource(gpx([first, second]))
    let inOrder = FeedIngest.measure(&source)
    var reversedSource = MemoryByteSource(gpx([second, first]))
    let reversed = FeedIngest.measure(&reversedSource)
    #expect(reversed == inOrder)
    #expect(inOrder.report.retained == 120)
    #expect(inOrder.distance.segments.count == 2)
    #expect(inOrder.distance.gaps.count == 1)
    #expect(inOrder.distance.isPartial)
  }

  // MARK: One absurd timestamp costs only its row

  @Test func aRowDatedInTheYear2100CostsOnlyItself() {
    let rows = Self.drive(seed: 12)
    let clean = Self.measure(Self.csv(rows))
    var stray = rows[rows.count / 2]
    stray.time = 4_102_444_800 + 3600  // 2100-01-01T01:00:00Z
    var withStray = rows
    withStray.insert(stray, at: rows.count / 2)
    let measured = Self.measure(Self.csv(withStray))
    #expect(measured.report.rejected[.timeOutlier] == 1)
    #expect(measured.report.records == clean.report.records + 1)
    #expect(measured.report.retained == clean.report.retained)
    #expect(measured.distance == clean.distance)
    #expect(measured.report.lastTimestamp == clean.report.lastTimestamp)
    // Wherever it is stored.
    var random = SeededRandom(seed: 3)
    #expect(Self.measure(Self.csv(withStray.shuffled(using: &random))) == measured)
    #expect(Self.measure(Self.csv(withStray.reversed())) == measured)
    // One dated 1970 (an epoch cell of 0) the same.
    var early = stray
    early.time = 0
    var withEarly = rows
    withEarly.insert(early, at: 10)
    let earlyMeasured = Self.measure(Self.csv(withEarly))
    #expect(earlyMeasured.report.rejected[.timeOutlier] == 1)
    #expect(earlyMeasured.distance == clean.distance)
    #expect(earlyMeasured.report.firstTimestamp == clean.report.firstTimestamp)
  }

  @Test func theOutlierRuleIsExact() {
    let day = 86_400.0
    func rows(_ times: [Double]) -> String {
      Self.csv(
        times.enumerated().map {
          Row(
            time: 1_764_403_200 + $0.element, latitude: 45.5 + Double($0.offset) * 0.001, longitude: 13.25, accuracy: 5)
        })
    }
    // Exactly a day apart is the same cluster; a day and a second is not.
    #expect(Self.measure(rows([0, 10, 10 + day])).report.rejected[.timeOutlier] == nil)
    #expect(Self.measure(rows([0, 10, 11 + day])).report.rejected[.timeOutlier] == 1)
    // Two far-off rows together are a stretch of their own, not outliers.
    #expect(Self.measure(rows([0, 10, 5 * day, 5 * day + 10])).report.rejected[.timeOutlier] == nil)
    // With no stretch of two or more, lone rows are all kept.
    let lone = Self.measure(rows([0, 3 * day, 9 * day]))
    #expect(lone.report.rejected[.timeOutlier] == nil)
    #expect(lone.report.retained == 3)
    // Several strays, before and after the stretch: each costs itself.
    let strays = Self.measure(rows([-30 * day, -9 * day, 0, 10, 20, 7 * day, 70 * day]))
    #expect(strays.report.rejected[.timeOutlier] == 4)
    #expect(strays.report.retained == 3)
    // The rule is the filter's: off, the rows are measured as stored.
    #expect(Self.measure(rows([0, 10, 11 + day]), settings: Self.unfiltered).report.retained == 3)
  }

  @Test func anEpochCellPastTheYear9999IsABadTimeAndCostsOnlyItsRow() {
    let rows = Self.drive(seed: 13, count: 100)
    let clean = Self.measure(Self.csv(rows))
    var lines = Self.csv(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.insert("99999999999999999999999,45.51,13.25,5,a", at: 20)
    let measured = Self.measure(lines.joined(separator: "\n"))
    #expect(measured.report.errorReasons == [.badTime: 1])
    #expect(measured.report.errorLines == [21])
    #expect(measured.distance == clean.distance)
    #expect(measured.report.retained == clean.report.retained)
    // The same in the other epoch units, and forced seconds.
    for cell in ["-99999999999999999999999", "1e300", "-62167219201"] {
      let text = Self.header + "2025-11-29T08:00:00Z,45.5,13.25,5,a\n\(cell),45.5,13.25,5,a\n"
      #expect(Self.measure(text).report.errorReasons == [.badTime: 1], "\(cell)")
    }
    // The year 5138 (the largest number read as seconds) and the first second of year 0 are times.
    let edges = Self.header + "99999999999,45.5,13.25,5,a\n-62167219200,45.5,13.25,5,a\n"
    #expect(Self.measure(edges).report.errors == 0)
  }

  // MARK: Duplicates

  @Test func exactDuplicateRowsAreCountedAsDuplicateNotOutOfOrder() {
    let row = "2025-11-29T08:00:10Z,45.5010,13.25,5,a\n"
    let text =
      Self.header + "2025-11-29T08:00:00Z,45.5000,13.25,5,a\n" + row + row + row
      + "2025-11-29T08:00:20Z,45.5020,13.25,5,a\n"
    let measured = Self.measure(text)
    #expect(measured.report.rejected == [.duplicate: 2])
    #expect(measured.report.retained == 3)
    // The same second at another place is no duplicate: it stays out of order.
    let other =
      Self.header + "2025-11-29T08:00:00Z,45.5000,13.25,5,a\n" + row + "2025-11-29T08:00:10Z,45.5011,13.25,5,a\n"
    #expect(Self.measure(other).report.rejected == [FeedReason("outOfOrder"): 1])
    // Apart in the file, still duplicates.
    let apart = Self.header + row + "2025-11-29T08:00:00Z,45.5000,13.25,5,a\n" + row
    #expect(Self.measure(apart).report.rejected == [.duplicate: 1])
  }
}
