import RouteMileage
import RouteStore
import RouteTestSupport
import Testing

@Suite("RouteStore live measurement (ActiveRouteMeasurement)")
struct RouteStoreLiveMeasurementTests {
  @Test("Insert, measure, ROLLBACK, measure: the second equals a fresh one-pass measurement")
  func rollbackOnOneConnection() throws {
    try withTemporaryStore { store, _ in
      var shift = try store.startLiveShift(count: 600, seed: 21, stored: 300)

      try store.appendUncommitted(shift.route[300..<600], to: shift.id)
      let withUncommitted = try shift.live.refresh(from: store)
      #expect(withUncommitted.usablePositionCount == 600)
      #expect(storeTestIdentical(withUncommitted, try store.measure(shift: shift.id)))
      try store.database.rollback()

      let afterRollback = try shift.live.refresh(from: store)
      #expect(shift.live.counters.freshMeasurements == 1)
      #expect(storeTestIdentical(afterRollback, try store.measure(shift: shift.id)))
      #expect(storeTestIdentical(afterRollback, shift.first))
      #expect(afterRollback.usablePositionCount == 300)
    }
  }

  @Test("The stored rows keep each accuracy, so the store's floor is the in-memory floor")
  func storedFloorIsTheSamplesFloor() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    let route = storeTestRoute(count: 800, seed: 24)
    try store.appendSamples(route[...], to: id)
    let stored = try store.measure(shift: id)
    let inMemory = RouteMileageCalculator().distance(of: route)
    #expect(storeTestIdentical(stored, inMemory))
    #expect(stored.floorMeters > 0 && stored.floorMeters < stored.meters)
    // Without the accuracies the floor would differ: the store really carries them.
    let bare = RouteMileageCalculator().distance(
      of: route.map { sample -> RoutePosition in
        var position = sample.position
        position.horizontalAccuracy = nil
        return position
      })
    #expect(bare.floorMeters != stored.floorMeters)
    #expect(bare.meters.bitPattern == stored.meters.bitPattern)
  }

  @Test("A discarded batch plus a new one between two refreshes is caught", arguments: [100, 150, 40])
  func discardPlusInsert(replacementCount: Int) throws {
    let store = try RouteStore.inMemory()
    var shift = try store.startLiveShift(count: 400, seed: 22, stored: 200)

    try store.appendUncommitted(shift.route[200..<300], to: shift.id)
    try shift.live.refresh(from: store)
    let highWater = shift.live.highWaterRowID
    try store.database.rollback()
    // A different batch, with the rowids the rollback freed (and, for 150, some beyond).
    let replacement = storeTestRoute(count: replacementCount, seed: 23, start: shift.route[199].timestamp + 1)
    try store.appendSamples(replacement, to: shift.id)
    if replacementCount == 100 { #expect(try store.largestRowID(of: shift.id) == highWater) }

    let refreshed = try shift.live.refresh(from: store)
    #expect(shift.live.counters.freshMeasurements == 1)
    #expect(storeTestIdentical(refreshed, try store.measure(shift: shift.id)))
    #expect(refreshed.usablePositionCount == 200 + replacementCount)
  }

  @Test("Extending over many refreshes equals the one-pass figure, bit for bit", arguments: [31, 32, 33, 34])
  func extensionEqualsOnePass(seed: UInt64) throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    let other = try store.makeRunningShift()
    let route = storeTestRoute(count: 3_000, seed: seed)
    var random = SeededRandom(seed: seed &* 7)
    var live = ActiveRouteMeasurement(shift: id)
    var written = 0
    while written < route.count {
      let batch = min(route.count - written, Int.random(in: 0...120, using: &random))
      try store.appendSamples(route[written..<(written + batch)], to: id)
      // Another shift's rows interleave with this one's rowids.
      try store.appendSamples(storeTestRoute(count: 3, seed: UInt64(written)), to: other)
      written += batch
      let extended = try live.refresh(from: store)
      #expect(storeTestIdentical(extended, try store.measure(shift: id)))
    }
    #expect(live.counters.freshMeasurements == 0)
    #expect(live.counters.rowsFetched == route.count)
    #expect(storeTestIdentical(live.distance, RouteMileageCalculator().distance(of: route)))
  }

  @Test("When nothing changed, a refresh probes and fetches nothing")
  func probeOnly() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    let other = try store.makeRunningShift()
    var live = ActiveRouteMeasurement(shift: id)
    #expect(try live.refresh(from: store).unmeasurable == .noUsablePosition)
    #expect(live.counters.rowsFetched == 0)

    try store.appendSamples(storeTestRoute(count: 500, seed: 41), to: id)
    let first = try live.refresh(from: store)
    #expect(live.counters.rowsFetched == 500)
    // Rows for another shift are not this shift's news.
    try store.appendSamples(storeTestRoute(count: 50, seed: 42), to: other)
    for _ in 0..<5 {
      #expect(storeTestIdentical(try live.refresh(from: store), first))
    }
    #expect(live.counters.rowsFetched == 500)
    #expect(live.counters.probes == 7)
    #expect(live.counters.unchanged == 6)
    #expect(live.counters.extensions == 1)
  }

  @Test("A late row is not counted by the extension, as in a single pass")
  func lateRowIgnored() throws {
    let store = try RouteStore.inMemory()
    var shift = try store.startLiveShift(count: 100, seed: 51)
    let before = shift.first
    var late = shift.route[50]
    late.timestamp -= 0.5
    try store.appendSamples([late], to: shift.id)
    let after = try shift.live.refresh(from: store)
    #expect(after.meters == before.meters)
    #expect(after.positionsNotAfterPrevious == before.positionsNotAfterPrevious + 1)
    #expect(shift.live.counters.freshMeasurements == 0)
    // The finished figure is the one-pass one, which sorts the late row into place.
    #expect(try store.measure(shift: shift.id).usablePositionCount == 101)
  }

  @Test("Deleting an older row on the writing connection is caught by the count of rows consumed")
  func olderDeletionOnTheWriter() throws {
    let store = try RouteStore.inMemory()
    var shift = try store.startLiveShift(count: 100, seed: 61)
    let held = shift.first
    #expect(held.usablePositionCount == 100)
    try store.database.execute("DELETE FROM route_samples WHERE id = 10")
    // Nothing new arrived and the newest row is untouched: only the count sees the deletion.
    let refreshed = try shift.live.refresh(from: store)
    #expect(shift.live.counters.rowCounts == 1)
    #expect(shift.live.counters.freshMeasurements == 1)
    #expect(refreshed.usablePositionCount == 99)
    #expect(storeTestIdentical(refreshed, try store.measure(shift: shift.id)))
    #expect(!storeTestIdentical(refreshed, held))

    // A deletion in the same interval as an append is caught too.
    try store.database.execute("DELETE FROM route_samples WHERE id = 20")
    try store.appendSamples(storeTestRoute(count: 10, seed: 62, start: shift.route[99].timestamp + 1), to: shift.id)
    let extended = try shift.live.refresh(from: store)
    #expect(shift.live.counters.freshMeasurements == 2)
    #expect(extended.usablePositionCount == 108)
    #expect(storeTestIdentical(extended, try store.measure(shift: shift.id)))
  }

  @Test("Deleting an older row on another connection is caught by the count of rows consumed")
  func olderDeletionOnAnotherConnection() throws {
    try withTemporaryStore { writer, path in
      let id = try writer.makeRunningShift()
      try writer.appendSamples(storeTestRoute(count: 200, seed: 63), to: id)
      let reader = try RouteStore(path: path)
      var live = ActiveRouteMeasurement(shift: id)
      #expect(try live.refresh(from: reader).usablePositionCount == 200)
      try writer.database.execute("DELETE FROM route_samples WHERE id IN (5, 6, 7)")
      let refreshed = try live.refresh(from: reader)
      #expect(live.counters.freshMeasurements == 1)
      #expect(refreshed.usablePositionCount == 197)
      #expect(storeTestIdentical(refreshed, try reader.measure(shift: id)))
    }
  }

  @Test("Appending on the writing connection never counts: a refresh stays O(log N + k)")
  func appendsDoNotCount() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    let route = storeTestRoute(count: 400, seed: 64)
    try store.appendSamples(route[0..<100], to: id)
    var live = ActiveRouteMeasurement(shift: id)
    try live.refresh(from: store)
    for start in stride(from: 100, to: 400, by: 3) {
      try store.appendSamples(route[start..<min(start + 3, 400)], to: id)
      try live.refresh(from: store)
      try live.refresh(from: store)
    }
    #expect(live.counters.rowCounts == 0)
    #expect(live.counters.freshMeasurements == 0)
    #expect(storeTestIdentical(live.distance, try store.measure(shift: id)))
  }

  @Test("Documented limit: an older row updated in place keeps the count and is not seen")
  func olderUpdateNotDetected() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    try store.appendSamples(storeTestRoute(count: 100, seed: 65), to: id)
    var live = ActiveRouteMeasurement(shift: id)
    let held = try live.refresh(from: store)
    try store.database.execute("UPDATE route_samples SET latitude = latitude + 0.01 WHERE id = 10")
    #expect(storeTestIdentical(try live.refresh(from: store), held))
    #expect(live.counters.rowCounts == 1)
    #expect(live.counters.freshMeasurements == 0)
    #expect(try store.measure(shift: id).meters != held.meters)
  }

  @Test("Removing every row, then adding new ones, starts a fresh walk")
  func allRowsGone() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    try store.database.beginImmediate()
    try store.appendSamples(storeTestRoute(count: 80, seed: 71), to: id)
    var live = ActiveRouteMeasurement(shift: id)
    #expect(try live.refresh(from: store).usablePositionCount == 80)
    try store.database.rollback()
    #expect(try live.refresh(from: store) == RouteDistance())
    #expect(live.counters.freshMeasurements == 1)
    #expect(live.highWaterRowID == 0)
    try store.appendSamples(storeTestRoute(count: 30, seed: 72), to: id)
    #expect(storeTestIdentical(try live.refresh(from: store), try store.measure(shift: id)))
    #expect(live.counters.freshMeasurements == 1)
  }
}
