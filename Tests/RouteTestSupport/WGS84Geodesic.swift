import Foundation

/// Geodesics on the WGS84 ellipsoid by Vincenty's iterations (inverse and direct), accurate to
/// well under a millimetre for the distances the floor's tests use (up to a few thousand km,
/// never near-antipodal). The tests' truth for "driven on the real Earth"; the package itself
/// never measures this way (the recorded figure is on its sphere, the floor bounds this).
public enum WGS84Geodesic {
  static let a = 6_378_137.0
  static let f = 1 / 298.257223563
  static let b = a * (1 - f)

  /// The geodesic distance in metres and the initial azimuth in radians (clockwise from north)
  /// from (lat1, lon1) to (lat2, lon2), degrees.
  public static func inverse(
    latitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double
  ) -> (meters: Double, azimuth: Double) {
    let u1 = atan((1 - f) * tan(lat1 * .pi / 180))
    let u2 = atan((1 - f) * tan(lat2 * .pi / 180))
    var l = (lon2 - lon1) * .pi / 180
    l = remainder(l, 2 * .pi)
    let sinU1 = sin(u1)
    let cosU1 = cos(u1)
    let sinU2 = sin(u2)
    let cosU2 = cos(u2)
    var lambda = l
    var sinSigma = 0.0
    var cosSigma = 0.0
    var sigma = 0.0
    var cosSqAlpha = 0.0
    var cos2SigmaM = 0.0
    var sinLambda = 0.0
    var cosLambda = 0.0
    for _ in 0..<200 {
      sinLambda = sin(lambda)
      cosLambda = cos(lambda)
      let t1 = cosU2 * sinLambda
      let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
      sinSigma = (t1 * t1 + t2 * t2).squareRoot()
      if sinSigma == 0 { return (0, 0) }
      cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
      sigma = atan2(sinSigma, cosSigma)
      let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
      cosSqAlpha = 1 - sinAlpha * sinAlpha
      cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
      let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
      let previous = lambda
      lambda =
        l + (1 - c) * f * sinAlpha
        * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
      if abs(lambda - previous) < 1e-13 { break }
    }
    let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
    let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
    let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
    let deltaSigma =
      bigB * sinSigma
      * (cos2SigmaM + bigB / 4
        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
          * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    let meters = b * bigA * (sigma - deltaSigma)
    let azimuth = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
    return (meters, azimuth)
  }

  /// Metres between two points, degrees.
  public static func meters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    inverse(latitude: lat1, longitude: lon1, toLatitude: lat2, longitude: lon2).meters
  }

  /// The point `meters` from (lat, lon) along initial azimuth `azimuth` (radians), degrees.
  public static func direct(
    latitude lat1: Double, longitude lon1: Double, azimuth alpha1: Double, meters s: Double
  ) -> (latitude: Double, longitude: Double) {
    let sinAlpha1 = sin(alpha1)
    let cosAlpha1 = cos(alpha1)
    let tanU1 = (1 - f) * tan(lat1 * .pi / 180)
    let cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot()
    let sinU1 = tanU1 * cosU1
    let sigma1 = atan2(tanU1, cosAlpha1)
    let sinAlpha = cosU1 * sinAlpha1
    let cosSqAlpha = 1 - sinAlpha * sinAlpha
    let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
    let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
    let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
    var sigma = s / (b * bigA)
    var cos2SigmaM = 0.0
    var sinSigma = 0.0
    var cosSigma = 0.0
    for _ in 0..<200 {
      cos2SigmaM = cos(2 * sigma1 + sigma)
      sinSigma = sin(sigma)
      cosSigma = cos(sigma)
      let deltaSigma =
        bigB * sinSigma
        * (cos2SigmaM + bigB / 4
          * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
            * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
      let previous = sigma
      sigma = s / (b * bigA) + deltaSigma
      if abs(sigma - previous) < 1e-14 { break }
    }
    sinSigma = sin(sigma)
    cosSigma = cos(sigma)
    cos2SigmaM = cos(2 * sigma1 + sigma)
    let x = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
    let lat2 = atan2(
      sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - f) * (sinAlpha * sinAlpha + x * x).squareRoot())
    let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
    let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
    let l =
      lambda - (1 - c) * f * sinAlpha
      * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
    var lon2 = lon1 + l * 180 / .pi
    lon2 = remainder(lon2, 360)
    return (lat2 * 180 / .pi, lon2)
  }
}

/// The exact checker for the floor: the shortest path on the WGS84 ellipsoid that passes, in
/// order, within `radius` of each fix (2–9 fixes).
///
/// Method: the fixes are laid on the azimuthal equidistant plane around the first fix (exact
/// geodesic distance and azimuth from it). The planar problem — minimise Σ|pⱼ₊₁ − pⱼ| over
/// points pⱼ in the discs, a convex problem — is solved by majorise–minimise sweeps on its
/// smoothing Σ√(|pⱼ₊₁ − pⱼ|² + ε²) (each point moves to the weighted mean of its neighbours,
/// projected into its disc, which never increases the smoothed sum), with ε falling by 4 from
/// the cases' span down to 10⁻⁷ m: the smoothed optimum is within (n − 1)ε of the true one, and
/// sweeps 25 times longer change the result by under 0.1 mm on random cases. (Plain per-point
/// exact minimisation stalls where neighbouring points meet; the smoothing does not.) The
/// points are then put on the ellipsoid, pulled into their geodesic discs where the projection
/// left them a little outside, and the path through them is measured with Vincenty's inverse:
/// the WGS84 length of an admissible path, so never below the true minimum, and above it only
/// by the solver's tolerance and second-order terms of the projection's distortion.
public enum ShortestAdmissiblePath {
  public struct Fix: Sendable {
    public var latitude: Double
    public var longitude: Double
    public var radius: Double
    public init(latitude: Double, longitude: Double, radius: Double) {
      self.latitude = latitude
      self.longitude = longitude
      self.radius = radius
    }
  }

  /// The WGS84 length of the (near-)shortest admissible path, metres.
  public static func meters(through fixes: [Fix]) -> Double {
    guard fixes.count >= 2 else { return 0 }
    let origin = fixes[0]
    let centres: [(x: Double, y: Double)] = fixes.map { fix in
      let g = WGS84Geodesic.inverse(
        latitude: origin.latitude, longitude: origin.longitude, toLatitude: fix.latitude, longitude: fix.longitude)
      return (g.meters * sin(g.azimuth), g.meters * cos(g.azimuth))
    }
    let points = planarSolution(centres: centres, radii: fixes.map(\.radius))
    var onEarth: [(Double, Double)] = []
    for (j, point) in points.enumerated() {
      let rho = hypot(point.x, point.y)
      var p =
        rho == 0
        ? (latitude: origin.latitude, longitude: origin.longitude)
        : WGS84Geodesic.direct(
          latitude: origin.latitude, longitude: origin.longitude, azimuth: atan2(point.x, point.y), meters: rho)
      let fromFix = WGS84Geodesic.inverse(
        latitude: fixes[j].latitude, longitude: fixes[j].longitude, toLatitude: p.latitude, longitude: p.longitude)
      if fromFix.meters > fixes[j].radius {
        p = WGS84Geodesic.direct(
          latitude: fixes[j].latitude, longitude: fixes[j].longitude, azimuth: fromFix.azimuth, meters: fixes[j].radius)
      }
      onEarth.append((p.latitude, p.longitude))
    }
    var total = 0.0
    for j in onEarth.indices.dropFirst() {
      total += WGS84Geodesic.meters(onEarth[j - 1].0, onEarth[j - 1].1, onEarth[j].0, onEarth[j].1)
    }
    return total
  }

  /// The planar shortest path's points, one in each disc.
  static func planarSolution(centres: [(x: Double, y: Double)], radii: [Double]) -> [(x: Double, y: Double)] {
    var points = centres
    let n = points.count
    var epsilon = max(1, centres.map { hypot($0.x - centres[0].x, $0.y - centres[0].y) }.max() ?? 1)
    while epsilon > 1e-7 {
      for _ in 0..<200 {
        var moved = 0.0
        for j in 0..<n {
          var sx = 0.0
          var sy = 0.0
          var sw = 0.0
          for k in [j - 1, j + 1] where k >= 0 && k < n {
            let dx = points[j].x - points[k].x
            let dy = points[j].y - points[k].y
            let w = 1 / (dx * dx + dy * dy + epsilon * epsilon).squareRoot()
            sx += w * points[k].x
            sy += w * points[k].y
            sw += w
          }
          var new = (x: sx / sw, y: sy / sw)
          let d = hypot(new.x - centres[j].x, new.y - centres[j].y)
          if d > radii[j] {
            new = (
              centres[j].x + (new.x - centres[j].x) * radii[j] / d, centres[j].y + (new.y - centres[j].y) * radii[j] / d
            )
          }
          moved = max(moved, hypot(new.x - points[j].x, new.y - points[j].y))
          points[j] = new
        }
        if moved < epsilon * 1e-3 { break }
      }
      epsilon /= 4
    }
    return points
  }
}
