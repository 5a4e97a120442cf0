import RouteMileage
import RouteTestSupport
import Testing

/// The forward-only walk a running shift extends.
@Suite("RouteMileageAccumulator: extends forwards only")
struct RouteMileageAccumulatorTests {
  typealias F = Fixture

  @Test func aFreshWalkIsNoUsablePosition() {
    let walk = RouteMileageAccumulator()
    #expect(walk.distance == RouteDistance())
    #expect(walk.lastPosition == nil)
    #expect(walk.positionsOffered == 0)
    #expect(walk.window == nil)
    #expect(walk.continuity.maximumSampleInterval == 120)
  }

  @Test func extendingAddsOnlyTheNewLegs() {
    var walk = RouteMileageAccumulator()
    walk.append(contentsOf: F.drive(count: 10, session: 1))
    #expect(Tolerance.constructedMeters.accepts(walk.distance.meters, 135))
    walk.append(F.position(at: 10, north: 150, session: 1))
    #expect(Tolerance.constructedMeters.accepts(walk.distance.meters, 150))
    #expect(walk.distance.usablePositionCount == 11)
    #expect(walk.lastPosition == F.position(at: 10, north: 150, session: 1))
  }

  @Test func aPositionAtOrBeforeTheLastOneIsCountedAndNotMeasured() {
    var walk = RouteMileageAccumulator()
    walk.append(F.position(at: 10, session: 1))
    walk.append(F.position(at: 20, north: 100, session: 1))
    let before = walk.distance
    walk.append(F.position(at: 15, north: 5_000, session: 1))  // late arrival
    walk.append(F.position(at: 20, north: 50, session: 1))  // same timestamp as the last
    let after = walk.distance
    #expect(after.meters == before.meters)
    #expect(after.positionsNotAfterPrevious == 2)
    #expect(after.usablePositionCount == 2)
    #expect(after.gapCount == 0)
    #expect(walk.positionsOffered == 4)
    // And the walk continues from where it was.
    walk.append(F.position(at: 30, north: 200, session: 1))
    #expect(Tolerance.constructedMeters.accepts(walk.distance.meters, 200))
  }

  @Test func unusableAndOutOfWindowPositionsDoNotMoveTheWalk() {
    var walk = RouteMileageAccumulator(window: ShiftWindow(start: F.t0, end: F.t0 + 100)!)
    walk.append(F.position(at: 0, session: 1))
    walk.append(RoutePosition(timestamp: F.t0 + 5, latitude: .nan, longitude: 1, captureSession: CaptureSessionID(1)))
    walk.append(F.position(at: 10, north: 100, session: 1))
    walk.append(F.position(at: 100.5, north: 9_000, session: 1))
    let d = walk.distance
    #expect(Tolerance.constructedMeters.accepts(d.meters, 100))
    #expect(d.unusablePositionCount == 1)
    #expect(d.positionsOutsideWindow == 1)
    #expect(d.usablePositionCount == 2)
    #expect(walk.positionsOffered == 4)
    #expect(walk.lastPosition?.timestamp == F.t0 + 10)
  }

  @Test func theWindowEndGapIsReadNotWalked() {
    // Reading the distance mid-shift shows the end gap as of now, and it goes away as soon as
    // the route reaches the end: the walk itself holds no end gap.
    var walk = RouteMileageAccumulator(window: ShiftWindow(start: F.t0, end: F.t0 + 300)!)
    walk.append(contentsOf: F.drive(count: 2, session: 1))
    #expect(walk.distance.gaps.map(\.kind) == [.windowEnd])
    #expect(walk.distance.gaps[0] == RouteGap(kind: .windowEnd, start: F.t0 + 1, end: F.t0 + 300))
    walk.append(F.position(at: 100, north: 200, session: 1))
    walk.append(F.position(at: 180, north: 400, session: 1))
    #expect(walk.distance.gapCount == 0)
    #expect(!walk.distance.isPartial)
  }

  @Test func samplesAreWalkedByTheirPositions() {
    var walk = RouteMileageAccumulator()
    walk.append(
      RouteSample(timestamp: 0, latitude: 1, longitude: 1, horizontalAccuracy: 5, captureSession: CaptureSessionID(2)))
    walk.append(RouteSample(timestamp: 1, latitude: 1.0001, longitude: 1, captureSession: CaptureSessionID(2)))
    var reference = RouteMileageAccumulator()
    reference.append(
      RoutePosition(timestamp: 0, latitude: 1, longitude: 1, captureSession: CaptureSessionID(2), horizontalAccuracy: 5)
    )
    reference.append(RoutePosition(timestamp: 1, latitude: 1.0001, longitude: 1, captureSession: CaptureSessionID(2)))
    #expect(walk == reference)
    #expect(walk.distance.contributingSegmentCount == 1)
  }

  @Test func aRunningShiftShowsAPauseAsAGap() {
    // No window; a 5-minute pause in one session is a silence, and the walk carries on after it.
    var walk = RouteMileageAccumulator()
    walk.append(contentsOf: F.drive(count: 5, session: 1))
    walk.append(contentsOf: F.drive(count: 5, from: 304, startNorth: 60, session: 1))
    let d = walk.distance
    #expect(d.gaps == [RouteGap(kind: .silence, start: F.t0 + 4, end: F.t0 + 304)])
    #expect(d.segments.count == 2)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 120))
  }

  @Test(arguments: [1, 2, 3, 7, 64, 1_000])
  func fixedChunkSizesEqualOnePass(chunk: Int) {
    let route =
      F.drive(count: 200, session: 1) + F.drive(count: 50, from: 400, startNorth: 9_000)
      + F.drive(count: 50, from: 450, startNorth: 9_900, session: 2)
    let window = ShiftWindow(start: F.t0 - 10, end: F.t0 + 1_000)!
    let onePass = F.measure(route, window: window)
    var walk = RouteMileageAccumulator(window: window)
    var index = 0
    while index < route.count {
      let end = min(route.count, index + chunk)
      walk.append(contentsOf: route[index..<end])
      _ = walk.distance
      index = end
    }
    #expect(walk.distance == onePass)
    #expect(walk.distance.meters.bitPattern == onePass.meters.bitPattern)
    #expect(onePass.gaps.map(\.kind) == [.legacySessionBoundary, .legacySessionBoundary, .windowEnd])
  }
}
