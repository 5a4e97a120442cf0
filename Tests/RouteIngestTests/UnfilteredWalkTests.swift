import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// With the filter off (`--no-filter`), a recorded file is measured as the calculator measures
/// the same rows — sorted in walk order, a repeated timestamp collapsed to its first — without
/// keeping them: streamed while they arrive in walk order, sorted through the spilling sorter
/// otherwise.
@Suite("The filter off walks in bounded memory")
struct UnfilteredWalkTests {
  static let start = 1_764_403_200.0

  /// A drive with what walk order decides: two sessions and legacy positions, a silence, and
  /// timestamps shared by positions that differ in latitude, longitude or only accuracy.
  static func samples(count: Int, seed: UInt64) -> [(sample: RouteSample, session: Int?)] {
    var random = SeededRandom(seed: seed)
    var rows: [(RouteSample, Int?)] = []
    var time = start
    var latitude = 45.5
    for index in 0..<count {
      time += index == count / 2 ? 400 : Double(1 + Int(random.next() % 3))
      latitude += 0.0001 * random.unit()
      let session: Int? = index < count / 3 ? 0 : (index < 2 * count / 3 ? nil : 1)
      let sample = RouteSample(timestamp: time, latitude: latitude, longitude: 13.25, horizontalAccuracy: 5)
      rows.append((sample, session))
      if index % 7 == 3 {
        var elsewhere = sample
        elsewhere.latitude -= 0.002  // sorts first: this one is measured, not the row above
        rows.append((elsewhere, session))
      }
      if index % 11 == 5 {
        var lessSure = sample
        lessSure.horizontalAccuracy = 3  // same place, same time: the lower accuracy sorts first
        rows.append((lessSure, session))
      }
    }
    return rows
  }

  static var settings: IngestSettings { IngestSettings(filter: nil) }

  static func ingest(
    _ rows: [(sample: RouteSample, session: Int?)], order: IngestOrder, runLimit: Int = 1 << 17
  ) throws -> ShiftIngest<DiscardRetainedSamples> {
    var settings = settings
    settings.sortRunLimit = runLimit
    var ingest = ShiftIngest(settings: settings, retained: DiscardRetainedSamples(), order: order)
    for (line, row) in rows.enumerated() { ingest.position(row.sample, session: row.session, line: line + 1) }
    return ingest
  }

  /// What the calculator gives for the same rows, with the sessions the ingest minted in
  /// arrival order.
  static func calculated(_ rows: [(sample: RouteSample, session: Int?)]) -> RouteDistance {
    var minted: [Int: CaptureSessionID] = [:]
    var next: Int64 = 1
    let positions = rows.map { row -> RoutePosition in
      var sample = row.sample
      if let session = row.session {
        if minted[session] == nil {
          minted[session] = CaptureSessionID(next)
          next += 1
        }
        sample.captureSession = minted[session]
      }
      return sample.position
    }
    return RouteMileageCalculator().distance(of: positions)
  }

  @Test func inWalkOrderThePositionsAreWalkedAsTheyArriveAndNoneIsKept() throws {
    var rows = Self.samples(count: 300, seed: 3)
    rows.sort { RouteMileageCalculator.walkOrder($0.sample.position, $1.sample.position) }
    var ingest = try Self.ingest(rows, order: .time)
    try ingest.finish()
    #expect(!ingest.deliveredOutOfOrder)
    #expect(ingest.unfiltered.isEmpty)
    let distance = ingest.measurement(format: .csv).distance
    #expect(distance.meters > 1_000)
    #expect(distance == Self.calculated(rows))
  }

  @Test func aPositionBeforeTheLastInWalkOrderStopsTheStream() throws {
    let rows = Self.samples(count: 50, seed: 4)
    var swapped = rows
    swapped.sort { RouteMileageCalculator.walkOrder($0.sample.position, $1.sample.position) }
    swapped.swapAt(10, 11)
    let ingest = try Self.ingest(swapped, order: .time)
    #expect(ingest.deliveredOutOfOrder)
  }

  @Test(arguments: [2, 5, 1_000])
  func shuffledRowsAreSortedThroughTheSpillingSorterToTheCalculatorsFigure(_ runLimit: Int) throws {
    let rows = Self.samples(count: 400, seed: 9)
    var random = SeededRandom(seed: 21)
    let shuffled = rows.shuffled(using: &random)
    var ingest = try Self.ingest(shuffled, order: .timeSorted, runLimit: runLimit)
    #expect(ingest.sorter?.spilled == (runLimit < shuffled.count))
    try ingest.finish()
    #expect(ingest.unfiltered.isEmpty)
    let measurement = ingest.measurement(format: .csv)
    #expect(measurement.distance == Self.calculated(shuffled))
    #expect(measurement.distance.positionsNotAfterPrevious > 0)
    #expect(measurement.report.retained == shuffled.count)
  }

  @Test func theSorterHandsBackWalkOrderAcrossSpilledRuns() throws {
    var sorter = SpillingSampleSorter(runLimit: 3, order: .walk)
    var random = SeededRandom(seed: 8)
    var positions: [RoutePosition] = []
    for _ in 0..<1_000 {
      let sample = RouteSample(
        timestamp: Double(random.next() % 50), latitude: Double(random.next() % 3), longitude: 2,
        horizontalAccuracy: random.next() % 2 == 0 ? nil : Double(random.next() % 4))
      positions.append(sample.position)
      try sorter.append(TimeOrderedSample(sample: sample, session: nil))
    }
    #expect(sorter.spilled)
    var merged: [RoutePosition] = []
    try sorter.drain { merged.append($0.sample.position) }
    #expect(merged == positions.sorted(by: RouteMileageCalculator.walkOrder))
  }

  /// Sorting with the filter off packs only what the walk order and the walk read: the time,
  /// the coordinates, the accuracy and the capture session, and the recording only past the
  /// first. A position with every optional field takes 41 bytes in the sorter's buffer, not 81,
  /// so twice as many fit before anything spills; the figure is the calculator's all the same.
  @Test func theSorterKeepsOnlyWhatTheWalkReadsOfEachPosition() throws {
    let rows = (0..<500).map { index -> (sample: RouteSample, session: Int?) in
      let sample = RouteSample(
        timestamp: Self.start + Double((index * 7919) % 500), latitude: 45.5 + Double(index % 50) * 0.0001,
        longitude: 13.25, horizontalAccuracy: 5, horizontalAccuracyIsEstimated: true, speed: 3, course: 90,
        altitude: 120, captureSession: CaptureSessionID(9), receivedAt: Self.start + Double(index))
      return (sample, 4)
    }
    var ingest = try Self.ingest(rows, order: .timeSorted)
    #expect(ingest.sorter?.buffer.count == 500 * 41)
    try ingest.finish()
    #expect(ingest.measurement(format: .csv).distance == Self.calculated(rows))
  }
}
