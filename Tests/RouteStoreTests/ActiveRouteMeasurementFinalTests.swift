import RouteMileage
import RouteStore
import Testing

/// Why a replayed shift's last live figure and its final figure differ (issue 17, item 2): the
/// rule lives beside ActiveRouteMeasurement, and `replay` only prints it.
@Suite("ActiveRouteMeasurement: live and final figures")
struct ActiveRouteMeasurementFinalTests {
  /// Ten fixes 10 s and about 111 m apart along a meridian, in one capture session.
  static let drive = (0..<10).map {
    RoutePosition(
      timestamp: 1_000 + Double($0) * 10, latitude: 51 + Double($0) * 0.001, longitude: 0,
      captureSession: CaptureSessionID(1), horizontalAccuracy: 5)
  }
  static let calculator = RouteMileageCalculator()

  @Test func identicalFiguresNeedNoExplanation() {
    let figure = Self.calculator.distance(of: Self.drive)
    #expect(ActiveRouteMeasurement.whyFinalDiffers(live: figure, final: figure) == nil)
  }

  @Test func aWindowWiderThanTheDriveAddsWindowGaps() throws {
    let live = Self.calculator.distance(of: Self.drive)
    let window = try #require(ShiftWindow(start: 500, end: 1_500))
    let final = Self.calculator.distance(of: Self.drive, covering: window)
    #expect(
      ActiveRouteMeasurement.whyFinalDiffers(live: live, final: final)
        == "the final figure is measured against the shift window, which adds 2 window gaps a running shift cannot have."
    )
  }

  @Test func positionsOutsideTheWindowAreNamedWithTheWindowGap() throws {
    let live = Self.calculator.distance(of: Self.drive)
    let window = try #require(ShiftWindow(start: 1_020, end: 1_090))
    let final = Self.calculator.distance(of: Self.drive, covering: window)
    #expect(final.positionsOutsideWindow == 2)
    #expect(
      ActiveRouteMeasurement.whyFinalDiffers(live: live, final: final)
        == "2 stored positions lie outside the shift window and are not measured in the final figure.")
  }

  @Test func anyOtherDifferenceIsRowsStoredOutOfTimeOrder() {
    let final = Self.calculator.distance(of: Self.drive)
    let live = Self.calculator.distance(of: Self.drive.prefix(9))
    #expect(
      ActiveRouteMeasurement.whyFinalDiffers(live: live, final: final)
        == "the live walk extends forwards only, while the one-pass measurement sorts every stored row; the stored rows are not in time order."
    )
  }
}

/// A batch written, measured, then lost (`replay --discard-batches`) without the caller
/// driving SQL transactions.
@Suite("RouteStore: a batch rolled back after it was seen")
struct RouteStoreDiscardTests {
  @Test func theBatchIsVisibleInsideAndGoneAfter() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    let route = storeTestRoute(count: 20, seed: 7)
    try store.appendSamples(route.prefix(10), to: shift)
    var seen = -1
    try store.appendSamplesThenRollBack(route.suffix(10), to: shift) { seen = try store.sampleCount(of: shift) }
    #expect(seen == 20)
    #expect(try store.sampleCount(of: shift) == 10)
    #expect(!store.database.isInTransaction)
  }

  @Test func aLiveRefreshInsideTheDiscardedBatchIsNoticedByTheNextOne() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    let route = storeTestRoute(count: 40, seed: 11)
    try store.appendSamples(route.prefix(20), to: shift)
    var live = ActiveRouteMeasurement(shift: shift, maximumSampleInterval: RouteContinuity.defaultMaximumSampleInterval)
    _ = try live.refresh(from: store)
    try store.appendSamplesThenRollBack(route.suffix(20), to: shift) { _ = try live.refresh(from: store) }
    let after = try live.refresh(from: store)
    #expect(
      storeTestIdentical(
        after, try store.measure(shift: shift, maximumSampleInterval: RouteContinuity.defaultMaximumSampleInterval)))
    #expect(live.counters.freshMeasurements >= 1)
  }

  @Test func whatTheLookThrowsRollsTheBatchBackAndIsRethrown() throws {
    struct Planted: Error {}
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    #expect(throws: Planted.self) {
      try store.appendSamplesThenRollBack(storeTestRoute(count: 5, seed: 3), to: shift) { throw Planted() }
    }
    #expect(try store.sampleCount(of: shift) == 0)
    #expect(!store.database.isInTransaction)
  }
}
