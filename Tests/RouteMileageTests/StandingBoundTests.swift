import RouteMileage
import Testing

/// The capture filter decides a clearly standing fix from `GeographicDistance.metersSquaredUpperBound`
/// without the haversine; these pin that the bound never undercuts the haversine and that the
/// decisions and a stop fix's measured step are the haversine's.
@Suite("RouteSampleFilter: standing fixes judged by the bound")
struct StandingBoundTests {
  /// A fix at `seconds`, `metres` north and `east` metres east of `latitude`, `longitude`.
  static func fix(
    _ session: CaptureSessionID?, _ seconds: Double, latitude: Double = 52, longitude: Double = 13,
    north metres: Double, east: Double = 0
  ) -> RouteSample {
    let cosine = GeographicDistance.cosineOfLatitude(latitude)
    return RouteSample(
      timestamp: seconds, latitude: latitude + metres / GeographicDistance.metersPerDegree,
      longitude: longitude + east / (GeographicDistance.metersPerDegree * cosine), captureSession: session)
  }

  @Test func theBoundIsNeverBelowTheHaversine() {
    var random = SplitMix64(seed: 26)
    for _ in 0..<200_000 {
      let latitude1 = random.unit() * 179.98 - 89.99
      let longitude1 = random.unit() * 360 - 180
      // Steps from nothing to about 1.6 km, in any direction, across the antimeridian too.
      let scale = [1e-9, 1e-6, 1e-5, 1e-4, 1e-3, 8e-3][Int(random.next() % 6)]
      let latitude2 = min(90, max(-90, latitude1 + (random.unit() * 2 - 1) * scale))
      var longitude2 = longitude1 + (random.unit() * 2 - 1) * scale * 20
      if longitude2 > 180 { longitude2 -= 360 }
      if longitude2 < -180 { longitude2 += 360 }
      let cosine1 = GeographicDistance.cosineOfLatitude(latitude1)
      let meters = GeographicDistance.meters(
        fromLatitude: latitude1, longitude: longitude1, cosineOfLatitude: cosine1,
        toLatitude: latitude2, longitude: longitude2, cosineOfLatitude: GeographicDistance.cosineOfLatitude(latitude2))
      let bound = GeographicDistance.metersSquaredUpperBound(
        fromLatitude: latitude1, longitude: longitude1, cosineOfLatitude: cosine1,
        toLatitude: latitude2, longitude: longitude2)
      #expect(bound >= meters * meters, "bound \(bound) below \(meters)²")
      // With room for a threshold's rounding: a limit the step reaches, squared in floating
      // point, is never above the bound.
      #expect(bound >= (meters * (1 + 1e-15)) * (meters * (1 + 1e-15)))
      // Where it is finite it is close at these latitudes (it exists to settle the 5 m threshold).
      if bound.isFinite, abs(latitude1) < 80 {
        #expect(bound.squareRoot() <= meters * 1.8 + 1e-3)
      }
    }
  }

  @Test func theBoundIsInfiniteBeyondAKilometreOrSo() {
    let cosine = GeographicDistance.cosineOfLatitude(52)
    let twoKilometres = 2_000 / GeographicDistance.metersPerDegree
    #expect(
      GeographicDistance.metersSquaredUpperBound(
        fromLatitude: 52, longitude: 13, cosineOfLatitude: cosine, toLatitude: 52 + twoKilometres, longitude: 13)
        == .infinity)
    #expect(
      GeographicDistance.metersSquaredUpperBound(
        fromLatitude: 52, longitude: 13, cosineOfLatitude: cosine, toLatitude: 52, longitude: 13) == 0)
  }

  @Test func theMovementThresholdIsTheHaversines() {
    for session in [CaptureSessionID(1), nil] {
      var filter = RouteSampleFilter()
      #expect(filter.consider(Self.fix(session, 0, north: 0)) == .retained(Self.fix(session, 0, north: 0)))
      // A micrometre either side of 5 m, north and east.
      #expect(filter.consider(Self.fix(session, 1, north: 4.999_999)) == .rejected(.negligibleMovement))
      #expect(filter.consider(Self.fix(session, 2, north: 0, east: 4.999_999)) == .rejected(.negligibleMovement))
      #expect(
        filter.consider(Self.fix(session, 3, north: 5.000_001)) == .retained(Self.fix(session, 3, north: 5.000_001)))
      #expect(filter.counts.retained == 2)
      #expect(filter.counts[.negligibleMovement] == 2)
    }
  }

  @Test func aShortStepTooFastIsJudgedBySpeed() {
    var filter = RouteSampleFilter()
    let session = filter.mintCaptureSession()
    _ = filter.consider(Self.fix(session, 0, north: 0))
    // 3 m in a hundredth of a second is 300 m/s: the speed rule, not the movement threshold.
    #expect(filter.consider(Self.fix(session, 0.01, north: 3)) == .rejected(.speed))
    // 3 m in 0.05 s is 60 m/s, within the limit: standing.
    #expect(filter.consider(Self.fix(session, 0.05, north: 3)) == .rejected(.negligibleMovement))
    #expect(filter.counts[.speed] == 1)
    #expect(filter.counts[.negligibleMovement] == 1)
  }

  /// The bound is compared squared, which keeps the order only for a positive limit: a negative
  /// threshold (as a caller may set one) leaves every decision to the haversine, as before.
  @Test func negativeThresholdsLeaveTheDecisionToTheHaversine() {
    var moving = RouteSampleFilter()
    moving.minimumMovement = -1
    _ = moving.consider(Self.fix(nil, 0, north: 0))
    // Below any movement threshold the square would accept, but no step is below -1 m.
    #expect(moving.consider(Self.fix(nil, 1, north: 0.5)) == .retained(Self.fix(nil, 1, north: 0.5)))
    var still = RouteSampleFilter()
    still.maximumSpeed = -1
    _ = still.consider(Self.fix(nil, 0, north: 0))
    // Every step, even none at all, is faster than -1 m/s.
    #expect(still.consider(Self.fix(nil, 1, north: 0.5)) == .rejected(.speed))
    #expect(still.consider(Self.fix(nil, 2, north: 0)) == .rejected(.speed))
  }

  @Test func aStopFixJudgedByTheBoundMeasuresAsTheHaversine() {
    for (latitude, longitude) in [(52.0, 13.0), (-48.88, -123.41), (0.0, 179.999_99), (89.9, 0.0)] {
      var filter = RouteSampleFilter()
      let session = filter.mintCaptureSession()
      let anchor = Self.fix(session, 0, latitude: latitude, longitude: longitude, north: 0)
      let standing = Self.fix(session, 100, latitude: latitude, longitude: longitude, north: 1.7, east: -2.3)
      #expect(filter.consider(anchor) == .retained(anchor))
      #expect(filter.consider(standing) == .rejected(.negligibleMovement))
      // 130 s after the anchor: the fix standing at 100 s is kept first, measured then.
      let moved = Self.fix(session, 130, latitude: latitude, longitude: longitude, north: 60)
      #expect(filter.consider(moved) == .retained(moved))
      #expect(filter.keptThroughStop == standing)
      let measure = filter.keptThroughStopMeasure
      #expect(measure.meters == GeographicDistance.meters(from: anchor.position, to: standing.position))
      #expect(measure.cosineOfLatitude == GeographicDistance.cosineOfLatitude(standing.latitude))
      #expect(measure.fromTimestamp == 0)
      #expect(
        filter.lastRetainedMeasure.meters == GeographicDistance.meters(from: standing.position, to: moved.position))
    }
  }
}
