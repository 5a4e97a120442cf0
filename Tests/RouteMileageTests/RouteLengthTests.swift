import RouteMileage
import RouteTestSupport
import Testing

/// `RouteDistance.measurement` (seed 004's name for the recorded distance) and
/// `reportedCounts`: a measured route has a length and counts; an unmeasurable one has neither,
/// rather than zeros.
@Suite struct RouteLengthTests {
  typealias F = Fixture

  @Test func aMeasuredRouteHasALengthInMetresAndMiles() throws {
    let d = F.measure([
      F.position(at: 0, session: 1), F.position(at: 10, north: 1_000, session: 1),
      F.position(at: 400, north: 1_100, session: 1), F.position(at: 410, north: 2_709.344, session: 1),
    ])
    let length = try #require(d.measurement)
    #expect(Tolerance.constructedMeters.accepts(length.meters, 2_609.344))
    #expect(length.meters == d.meters)
    #expect(abs(length.miles - 2_609.344 / 1_609.344) < 1e-9)
    #expect(length.miles == d.miles)
    #expect(d.reportedCounts?.segments == 2)
    #expect(d.reportedCounts?.gaps == 1)
    #expect(RouteLength(meters: 5) < length)
  }

  @Test func everyFigureInMilesIsTheOneConversion() throws {
    // A mile is 1,609.344 m exactly; the recorded figure and the floor convert bit for bit alike.
    #expect(RouteLength(meters: 1_609.344).miles == 1)
    #expect(RouteLength(meters: 16_093.44).miles == 10)
    #expect(RouteLength(meters: 0).miles == 0)
    let d = F.measure([
      F.position(at: 0, session: 1), F.position(at: 10, north: 120, session: 1),
      F.position(at: 20, north: 250, session: 1), F.position(at: 30, north: 1_000, session: 1),
    ])
    #expect(d.miles == d.meters / 1_609.344)
    #expect(d.floorMiles == d.floorMeters / 1_609.344)
    #expect(d.miles == RouteLength(meters: d.meters).miles)
    #expect(d.floorMiles == RouteLength(meters: d.floorMeters).miles)
  }

  @Test func noUsablePositionHasNoLengthAndNoCounts() {
    let d = F.measure([])
    #expect(d.measurement == nil)
    #expect(d.reportedCounts == nil)
    #expect(d.unmeasurable == .noUsablePosition)
  }

  @Test func positionsWithNoTwoContinuousHaveNoLengthAndNoCounts() {
    // Two positions across a silence: one gap is detected, but nothing was measured, so the
    // route reports no counts at all rather than "0 segments, 1 gap".
    let d = F.measure([F.position(at: 0, session: 1), F.position(at: 600, north: 500, session: 1)])
    #expect(d.gapCount == 1)
    #expect(d.measurement == nil)
    #expect(d.reportedCounts == nil)
    #expect(d.unmeasurable == .noTwoContinuousPositions)
  }
}
