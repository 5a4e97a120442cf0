import RouteMileage
import RouteTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("GeographicDistance: one haversine on a 6,371,008.8 m sphere")
struct GeographicDistanceTests {
  let radius = 6_371_008.8

  @Test func radiusIsTheIUGGMeanRadius() {
    #expect(GeographicDistance.earthRadiusMeters == 6_371_008.8)
  }

  @Test func metersPerDegreeIsOneDegreeOfTheMeasuringSphere() {
    let oneDegree = GeographicDistance.meters(fromLatitude: 0, longitude: 0, toLatitude: 1, longitude: 0)
    #expect(abs(GeographicDistance.metersPerDegree - oneDegree) < 1e-6)
  }

  @Test(arguments: [(0.0, 1.0), (45.0, 46.0), (-30.5, -29.5), (88.0, 89.0), (-1.0, 0.0)])
  func oneDegreeOfLatitudeIs111195Point08Metres(from: Double, to: Double) {
    let d = GeographicDistance.meters(fromLatitude: from, longitude: 12, toLatitude: to, longitude: 12)
    #expect(abs(d - 111_195.08) <= 0.01, "got \(d)")
  }

  @Test func oneDegreeOfLongitudeAtTheEquatorEqualsOneOfLatitude() {
    let d = GeographicDistance.meters(fromLatitude: 0, longitude: 0, toLatitude: 0, longitude: 1)
    #expect(abs(d - 111_195.08) <= 0.01)
  }

  @Test(arguments: [0.0, 30.0, -45.0, 60.0, 89.0])
  func acrossTheAntimeridianIsTheShortWayRound(latitude: Double) {
    // 179.9° E to 179.9° W is 0.2° of longitude, not 359.8°.
    let across = GeographicDistance.meters(
      fromLatitude: latitude, longitude: 179.9, toLatitude: latitude, longitude: -179.9)
    let reference = GeographicDistance.meters(
      fromLatitude: latitude, longitude: -0.1, toLatitude: latitude, longitude: 0.1)
    #expect(abs(across - reference) <= 1e-6, "\(across) vs \(reference)")
    // And it is the right size: 0.2° of a parallel at this latitude (a chord-vs-arc difference
    // of well under a millimetre at this length).
    let parallel = 0.2 * Double.pi / 180 * radius * cos(latitude * Double.pi / 180)
    #expect(abs(across - parallel) <= 0.001 + parallel * 1e-6, "\(across) vs \(parallel)")
    // Both directions and the ±180 spelling agree.
    let back = GeographicDistance.meters(
      fromLatitude: latitude, longitude: -179.9, toLatitude: latitude, longitude: 179.9)
    #expect(abs(back - across) <= 1e-6)
    let sameMeridian = GeographicDistance.meters(
      fromLatitude: latitude, longitude: 180, toLatitude: latitude, longitude: -180)
    #expect(sameMeridian.isFinite && sameMeridian >= 0 && sameMeridian < 1e-6)
  }

  @Test func acrossTheAntimeridianAlongAMeridianStep() {
    // 100 m north while crossing the line: a tiny step, not half the planet.
    let d = GeographicDistance.meters(
      fromLatitude: 10, longitude: 180, toLatitude: 10 + 100 / Fixture.metersPerDegreeLatitude,
      longitude: -180)
    #expect(abs(d - 100) <= 1e-6)
  }

  @Test(arguments: [0.0, 45.0, 90.0, 135.0, 180.0, -77.7])
  func twoPointsAtAPoleAreTheSamePlace(longitude: Double) {
    // cos(90°) is 6.1e-17 in floating point, not 0, so the haversine leaves ~1e-9 m here; far
    // below anything the wording or the metres can show.
    for pole in [90.0, -90.0] {
      let d = GeographicDistance.meters(fromLatitude: pole, longitude: 0, toLatitude: pole, longitude: longitude)
      #expect(d.isFinite && d >= 0 && d < 1e-6, "pole \(pole): \(d)")
    }
  }

  @Test func nearThePolesDistancesAreFiniteAndSmall() {
    // Two points 1 m from the north pole on opposite meridians are 2 m apart.
    let oneMetre = 1 / Fixture.metersPerDegreeLatitude
    let d = GeographicDistance.meters(
      fromLatitude: 90 - oneMetre, longitude: 0, toLatitude: 90 - oneMetre, longitude: 180)
    #expect(abs(d - 2) <= 1e-6, "\(d)")
    // Crossing the pole along a meridian.
    let over = GeographicDistance.meters(
      fromLatitude: 89.999, longitude: 30, toLatitude: 89.999, longitude: -150)
    #expect(abs(over - 0.002 * Fixture.metersPerDegreeLatitude) <= 1e-4)
    // Pole to equator is a quarter meridian.
    let quarter = GeographicDistance.meters(fromLatitude: 90, longitude: 0, toLatitude: 0, longitude: 123)
    #expect(abs(quarter - Double.pi / 2 * radius) <= 1e-6)
  }

  @Test(arguments: [(0.0, 0.0), (51.5, -0.12), (-33.9, 151.2), (90.0, 0.0), (-90.0, 45.0), (12.0, 180.0)])
  func identicalPointsAreZero(latitude: Double, longitude: Double) {
    let d = GeographicDistance.meters(
      fromLatitude: latitude, longitude: longitude, toLatitude: latitude, longitude: longitude)
    #expect(d == 0)
  }

  @Test(arguments: [(0.0, 0.0), (51.5, -0.12), (-33.9, 151.2), (89.9, 10.0), (10.0, 180.0)])
  func antipodesAreHalfTheCircumference(latitude: Double, longitude: Double) {
    let antipodeLongitude = longitude > 0 ? longitude - 180 : longitude + 180
    let d = GeographicDistance.meters(
      fromLatitude: latitude, longitude: longitude, toLatitude: -latitude, longitude: antipodeLongitude)
    #expect(!d.isNaN)
    #expect(d.isFinite)
    // The haversine is ill-conditioned at the antipode (asin near 1 turns a last-bit error
    // in its argument into ~1e-8 rad), so "half the circumference" holds to about 0.2 m here.
    #expect(abs(d - Double.pi * radius) <= 0.5, "\(d)")
    #expect(d <= Double.pi * radius + 1e-6)
  }

  @Test func positionsOverloadMeasuresTheSame() {
    let a = RoutePosition(timestamp: 0, latitude: 51.5, longitude: -0.12)
    let b = RoutePosition(timestamp: 9, latitude: 48.85, longitude: 2.35, captureSession: CaptureSessionID(4))
    let byPosition = GeographicDistance.meters(from: a, to: b)
    let byDegrees = GeographicDistance.meters(fromLatitude: 51.5, longitude: -0.12, toLatitude: 48.85, longitude: 2.35)
    #expect(byPosition == byDegrees)
    // London to Paris on this sphere: 343.1 km.
    #expect(abs(byPosition - 343_128) < 1)
  }

  @Test func exactMetreOffsetsHelperIsExactToTheNanometre() {
    for metres in [1.0, 4.99, 5.0, 5.01, 70.0, 1_000.0] {
      let a = Fixture.position(at: 0)
      let b = Fixture.position(at: 1, north: metres)
      #expect(abs(GeographicDistance.meters(from: a, to: b) - metres) < 1e-6)
    }
  }

  @Test func finiteAndNonNegativeForRandomFiniteInputsIncludingHugeOnes() {
    var rng = SeededRandom(seed: 0x6765_6F64)
    let specials: [Double] = [
      0, -0.0, 90, -90, 180, -180, 360, -720, 1e-300, -1e-300, .leastNonzeroMagnitude,
      1e9, -1e9, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    ]
    func value() -> Double {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: return specials.randomElement(using: &rng)!
      case 1: return Double.random(in: -180...180, using: &rng)
      case 2: return Double.random(in: -1e6...1e6, using: &rng)
      default:
        // Any finite bit pattern.
        while true {
          let d = Double(bitPattern: rng.next())
          if d.isFinite { return d }
        }
      }
    }
    for _ in 0..<20_000 {
      let d = GeographicDistance.meters(
        fromLatitude: value(), longitude: value(), toLatitude: value(), longitude: value())
      #expect(d.isFinite && d >= 0)
      if !(d.isFinite && d >= 0) { break }
    }
  }

  @Test func inRangeDistancesNeverExceedHalfTheCircumference() {
    var rng = SeededRandom(seed: 0xCAFE)
    for _ in 0..<20_000 {
      let d = GeographicDistance.meters(
        fromLatitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng),
        toLatitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
      #expect(d >= 0 && d <= Double.pi * radius * (1 + 1e-12))
    }
  }
}
