import RouteMileage
import RouteTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The floor against the truth on the WGS84 ellipsoid (`WGS84Geodesic`, `ShortestAdmissiblePath`
/// in RouteTestSupport): never above the length of any path passing within the assumption's
/// radius of every fix, at any latitude, accuracy and filter setting.
@Suite("The floor on the real Earth")
struct FloorBoundTests {
  static let t0 = 1_700_000_000.0

  /// A fix `meters` from (latitude, longitude) along `azimuth` degrees, with `accuracy`.
  static func fix(
    at seconds: Double, from point: (Double, Double), azimuth: Double = 0, meters: Double = 0, accuracy: Double?
  ) -> RouteSample {
    let p =
      meters == 0
      ? (latitude: point.0, longitude: point.1)
      : WGS84Geodesic.direct(latitude: point.0, longitude: point.1, azimuth: azimuth * .pi / 180, meters: meters)
    return RouteSample(
      timestamp: t0 + seconds, latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: accuracy,
      captureSession: CaptureSessionID(1))
  }

  /// The walk over `samples`, through the capture filter (its accuracy limit raised to
  /// `maximumAccuracy`) or not (`--no-filter`).
  static func floor(_ samples: [RouteSample], filter: Bool, maximumAccuracy: Double = 100) -> RouteDistance {
    var walk = RouteMileageAccumulator()
    var capture = RouteSampleFilter()
    capture.maximumHorizontalAccuracy = maximumAccuracy
    for sample in samples {
      if !filter {
        walk.append(sample.position)
      } else if case .retained(let kept) = capture.consider(sample) {
        walk.append(kept)
      }
    }
    return walk.distance
  }

  /// The checker's fixes for `samples` under the standard assumption.
  static func discs(_ samples: [RouteSample]) -> [ShortestAdmissiblePath.Fix] {
    samples.map {
      ShortestAdmissiblePath.Fix(
        latitude: $0.latitude, longitude: $0.longitude,
        radius: RouteFloorAssumption.standard.radius(accuracy: $0.horizontalAccuracy))
    }
  }

  @Test("standing still, fixes alternating across wide discs: nothing is proven, whatever the filter")
  func alternatingWideDiscs() {
    // 45°S on the antimeridian, accuracy 20 km (radius 27 km), --no-filter: fixes alternately
    // 27 km north and south of the spot, on their discs' edge. The truth is 0; the spherical
    // floor was 3,040 m (the sphere overstates north–south distances there).
    let south = (-45.0, 179.99)
    let meridian = (0...100).map { i in
      Self.fix(at: Double(i) * 60, from: south, azimuth: i % 2 == 0 ? 0 : 180, meters: 26_999.99, accuracy: 20_000)
    }
    #expect(Self.floor(meridian, filter: false).floorMeters == 0)
    // Filter on, --max-accuracy 5000: accuracy 3 km (radius 4,050 m) at 10°N, fixes 4,050 m
    // either side, 118 s apart so the 70 m/s rule lets each through. Spherical floor: 15,418 m.
    let filtered = (0...360).map { i in
      Self.fix(at: Double(i) * 118, from: (10, -150), azimuth: i % 2 == 0 ? 0 : 180, meters: 4_049.99, accuracy: 3_000)
    }
    let distance = Self.floor(filtered, filter: true, maximumAccuracy: 5_000)
    #expect(distance.usablePositionCount == 361)
    #expect(distance.floorMeters == 0)
    // Accuracy 100 km (radius 135 km) at 60°N, fixes alternately east and west on the edge.
    let wide = (0...100).map { i in
      Self.fix(at: Double(i), from: (60, 10), azimuth: i % 2 == 0 ? 90 : 270, meters: 134_999.99, accuracy: 100_000)
    }
    #expect(Self.floor(wide, filter: false).floorMeters == 0)
  }

  @Test("near a pole: never above the shortest admissible path or the geodesic driven")
  func nearThePoles() {
    // Two fixes 2.2 and 1.1 km from the pole, 90° of longitude apart (and one to corroborate the
    // second): 2,486 m apart, so at most 2,472 m can be proven; the spherical floor was 2,830 m.
    let pair = [
      Self.fix(at: 0, from: (89.98, 0), accuracy: 5), Self.fix(at: 100, from: (89.99, 90), accuracy: 5),
      Self.fix(at: 110, from: (89.99, 90.5), accuracy: 5),
    ]
    let shortest = ShortestAdmissiblePath.meters(through: Self.discs(pair))
    let nearPole = Self.floor(pair, filter: false)
    #expect(nearPole.floorMeters <= shortest)
    // The chord that close to the pole cannot be bounded: the words say why, not "jitter".
    #expect(nearPole.positionsWithheld > 0)
    #expect(RouteQuality(nearPole).floorSentence?.contains("too near a pole") == true)
    // A straight (geodesic) drive of 150 km passing 500 m from each pole, fixes 1.5 km and
    // 119 s apart, exact: the spherical floor was 150,477 m.
    for pole in [1.0, -1.0] {
      // The geodesic heading east at its closest point to the pole.
      let closest = (pole * (90 - 500 / 111_700), 30.0)
      let begin = WGS84Geodesic.direct(latitude: closest.0, longitude: closest.1, azimuth: 1.5 * .pi, meters: 75_000)
      let heading =
        WGS84Geodesic.inverse(
          latitude: begin.latitude, longitude: begin.longitude, toLatitude: closest.0, longitude: closest.1
        ).azimuth * 180 / .pi
      let drive = (0...100).map { i in
        Self.fix(
          at: Double(i) * 119, from: (begin.latitude, begin.longitude), azimuth: heading, meters: Double(i) * 1_500,
          accuracy: 5)
      }
      let floor = Self.floor(drive, filter: false)
      #expect(floor.floorMeters <= 150_000, "\(pole): \(floor.floorMeters)")
      // Most of it is still proven: only the chords within about 10 km of the pole are refused.
      #expect(floor.floorMeters > 75_000, "\(pole): \(floor.floorMeters)")
      #expect(floor.positionsWithheld > 0)
    }
  }

  @Test("north–south at the equator and at 20°: under the WGS84 length, not the sphere's")
  func meridionalDrive() {
    // 20 km north on the ellipsoid at 20 m/s, 1 Hz, accuracy 5 m (radius 6.75 m), each fix 2 m
    // from the truth (turning 137.5° a fix). Spherical floors: 20,026 m and 20,003 m.
    for latitude in [0.0, 20.0] {
      let start = (latitude - 0.09, 33.0)
      let fixes = (0...1_000).map { i -> RouteSample in
        let truth = WGS84Geodesic.direct(latitude: start.0, longitude: start.1, azimuth: 0, meters: Double(i) * 20)
        return Self.fix(
          at: Double(i), from: (truth.latitude, truth.longitude),
          azimuth: (Double(i) * 137.5).truncatingRemainder(dividingBy: 360),
          meters: 2, accuracy: 5)
      }
      let floor = Self.floor(fixes, filter: true).floorMeters
      #expect(floor <= 20_000, "\(latitude): \(floor)")
      // Tight all the same: the ends' radii and the jitter cost little.
      #expect(floor >= 0.99 * 20_000, "\(latitude): \(floor)")
    }
  }

  /// A random small case: 2–9 fixes around a true path (standing, straight or wandering) with
  /// accuracies from missing or 0 to 20 km, placed on the boundary, alternating, one-sided or
  /// anywhere inside; the truth's WGS84 length comes back with them.
  static func randomCase(_ rng: inout SeededRandom) -> (fixes: [RouteSample], truth: Double) {
    let count = 2 + rng.below(8)
    let latitude: Double
    switch rng.below(6) {
    case 0: latitude = (rng.chance(0.5) ? 1 : -1) * (90 - rng.unit() * 0.009)  // within 1 km of a pole
    case 1: latitude = (rng.chance(0.5) ? 1 : -1) * (85 + rng.unit() * 4.99)
    case 2: latitude = (rng.unit() - 0.5) * 2
    default: latitude = (rng.unit() - 0.5) * 180
    }
    let longitude = rng.chance(0.3) ? 179.999 * (rng.chance(0.5) ? 1 : -1) : (rng.unit() - 0.5) * 360
    let motion = rng.below(3)  // 0 standing, 1 straight, 2 wandering
    let step = motion == 0 ? 0 : [5.0, 50, 400, 2_000][rng.below(4)] * rng.unit()
    let placement = rng.below(4)  // 0 boundary, 1 alternating, 2 one-sided, 3 inside
    var heading = rng.unit() * 360
    var point = (latitude, longitude)
    var fixes: [RouteSample] = []
    var truth = 0.0
    var time = 0.0
    for i in 0..<count {
      if i > 0 {
        if motion == 2 { heading += (rng.unit() - 0.5) * 120 }
        let next = WGS84Geodesic.direct(
          latitude: point.0, longitude: point.1, azimuth: heading * .pi / 180, meters: step)
        truth += WGS84Geodesic.meters(point.0, point.1, next.latitude, next.longitude)
        point = (next.latitude, next.longitude)
        time += 1 + Double(rng.below(119))
      }
      let accuracy: Double? =
        switch rng.below(5) {
        case 0: nil
        case 1: 0
        case 2: 20_000 * rng.unit()
        default: exp(log(3) + rng.unit() * log(20_000.0 / 3))
        }
      let radius = RouteFloorAssumption.standard.radius(accuracy: accuracy) * (1 - 1e-9)
      let (azimuth, distance): (Double, Double) =
        switch placement {
        case 0: (rng.unit() * 360, radius)
        case 1: (heading + (i % 2 == 0 ? 90 : -90), radius * (0.9 + 0.1 * rng.unit()))
        case 2: (heading + 90, radius * (0.8 + 0.2 * rng.unit()))
        default: (rng.unit() * 360, radius * rng.unit().squareRoot())
        }
      fixes.append(Self.fix(at: time, from: point, azimuth: azimuth, meters: distance, accuracy: accuracy))
    }
    return (fixes, truth)
  }

  @Test("random small cases, every latitude and accuracy, filter on and off: never above the shortest admissible path")
  func randomSmallCases() {
    var rng = SeededRandom(seed: 2_023)
    var proven = 0
    for n in 0..<400 {
      let (fixes, truth) = Self.randomCase(&rng)
      let shortest = ShortestAdmissiblePath.meters(through: Self.discs(fixes))
      // The checker's own tolerance: the projection's distortion over discs of up to 27 km.
      #expect(shortest <= truth + 1e-5 * (truth + 30_000), "case \(n)")
      for filter in [false, true] {
        let floor = Self.floor(fixes, filter: filter, maximumAccuracy: 25_000).floorMeters
        #expect(floor <= shortest, "case \(n) filter \(filter): \(floor) > \(shortest)")
        if floor > 0 { proven += 1 }
      }
    }
    // The cases are not all trivial: the floor proves something in a good share of them.
    #expect(proven > 100)
  }

  @Test("ordinary drives of 3–9 fixes: at least 0.95 of the best bound the counted fixes allow")
  func tightOnOrdinaryDrives() {
    var rng = SeededRandom(seed: 95)
    var ratios: [Double] = []
    for _ in 0..<150 {
      let count = 3 + rng.below(7)
      var point = ((rng.unit() - 0.5) * 140, (rng.unit() - 0.5) * 360)
      var heading = rng.unit() * 360
      var fixes: [RouteSample] = []
      for i in 0..<count {
        if i > 0 {
          heading += (rng.unit() - 0.5) * 20
          let next = WGS84Geodesic.direct(
            latitude: point.0, longitude: point.1, azimuth: heading * .pi / 180, meters: 100 + 100 * rng.unit())
          point = (next.latitude, next.longitude)
        }
        let accuracy = 3 + 7 * rng.unit()
        let radius = RouteFloorAssumption.standard.radius(accuracy: accuracy)
        fixes.append(
          Self.fix(
            at: Double(i) * 10, from: point, azimuth: rng.unit() * 360, meters: radius * rng.unit(), accuracy: accuracy)
        )
      }
      // The last fix has nothing after it to corroborate it, so the floor stops at the one before.
      let best = ShortestAdmissiblePath.meters(through: Self.discs(Array(fixes.dropLast())))
      let floor = Self.floor(fixes, filter: true).floorMeters
      #expect(floor <= best)
      ratios.append(floor / best)
    }
    #expect(ratios.min()! >= 0.95, "\(ratios.min()!)")
  }

  @Test("positions within 0.01° of a pole are withheld, and the words say so")
  func withheldNearPole() {
    let fixes = (0..<5).map { i in Self.fix(at: Double(i) * 10, from: (89.995, Double(i) * 20), accuracy: 5) }
    let distance = Self.floor(fixes, filter: false)
    #expect(distance.floorMeters == 0)
    #expect(distance.positionsWithheld == 5)
    #expect(distance.meters > 0)
    #expect(
      RouteQuality(distance).floorSentence
        == "The positions prove no distance beyond their own error (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid); nothing is proven at 5 of 5 positions, which lie too near a pole (within 0.01° of latitude) or too far apart or too imprecise for a bound to hold."
    )
    // A disc reaching the pole withholds its fix too, whatever its latitude.
    let wide = (0..<3).map { i in Self.fix(at: Double(i) * 100, from: (89.5, Double(i)), accuracy: 50_000) }
    #expect(Self.floor(wide, filter: false).positionsWithheld == 3)
  }
}
