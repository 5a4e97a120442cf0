#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way this package measures the ground between two positions.
///
/// A haversine on a sphere of radius 6,371,008.8 m (the IUGG mean Earth radius). The capture
/// filter and the calculator both call it, so "how far apart are these two fixes" has a single
/// answer everywhere. An ellipsoidal formula would be a few tenths of a percent closer on long
/// lines, far less than the error already in the positions (accuracy up to 100 m) and the
/// unmeasured gaps; a sphere keeps the domain free of any location framework.
///
///     GeographicDistance.meters(fromLatitude: 0, longitude: 0, toLatitude: 1, longitude: 0)
///     // 111195.08…
///
/// The result is finite and non-negative for every finite input, including identical points,
/// antipodes, pairs across the ±180° meridian and the poles.
public enum GeographicDistance {
  /// The sphere's radius, in metres.
  public static let earthRadiusMeters: Double = 6_371_008.8

  @usableFromInline static let radiansPerDegree: Double = .pi / 180

  /// Metres along a great circle per degree of arc (a degree of latitude anywhere; a degree
  /// of longitude at the equator): 111,195.08 m. Multiply by the cosine of the latitude for a
  /// degree of longitude elsewhere. The one place this is derived, for code that turns metres
  /// into degrees (synthetic drives, pictures), never for measuring: measure with `meters`.
  ///
  ///     GeographicDistance.metersPerDegree   // 111195.0797…
  public static let metersPerDegree: Double = earthRadiusMeters * Double.pi / 180

  /// The great-circle distance in metres between two positions given in degrees.
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func meters(
    fromLatitude latitude1: Double, longitude longitude1: Double,
    toLatitude latitude2: Double, longitude longitude2: Double
  ) -> Double {
    meters(
      fromLatitude: latitude1, longitude: longitude1, cosineOfLatitude: cosineOfLatitude(latitude1),
      toLatitude: latitude2, longitude: longitude2, cosineOfLatitude: cosineOfLatitude(latitude2))
  }

  /// The cosine of a latitude in degrees, as the haversine uses it. A caller measuring many
  /// pairs from one position (the capture filter from its anchor) computes it once.
  @inlinable
  public static func cosineOfLatitude(_ latitude: Double) -> Double {
    cos(latitude * radiansPerDegree)
  }

  /// The same haversine with both latitude cosines supplied (from `cosineOfLatitude(_:)`), so
  /// the result is bit-identical to `meters(fromLatitude:longitude:toLatitude:longitude:)`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func meters(
    fromLatitude latitude1: Double, longitude longitude1: Double, cosineOfLatitude cosine1: Double,
    toLatitude latitude2: Double, longitude longitude2: Double, cosineOfLatitude cosine2: Double
  ) -> Double {
    let halfDeltaPhi = (latitude2 - latitude1) * radiansPerDegree * 0.5
    // sin² is periodic in 2π, so a longitude difference of 359.9° measures as 0.1°: the
    // antimeridian needs no special case.
    let halfDeltaLambda = (longitude2 - longitude1) * radiansPerDegree * 0.5
    let sinPhi = sin(halfDeltaPhi)
    let sinLambda = sin(halfDeltaLambda)
    var a = sinPhi * sinPhi + cosine1 * cosine2 * sinLambda * sinLambda
    // Rounding can push `a` a hair outside [0, 1] near antipodes; asin would return NaN.
    a = min(1, max(0, a))
    return 2 * earthRadiusMeters * asin(a.squareRoot())
  }

  /// A number never below the square of what `meters(fromLatitude:longitude:cosineOfLatitude:toLatitude:longitude:cosineOfLatitude:)`
  /// returns for the same pair, in square metres, computed with no trigonometric call, no square
  /// root and without the second latitude's cosine; +∞ when the pair may lie more than about
  /// 1.27 km apart (√a above 10⁻⁴). For a caller that only needs to know that a step is short (the
  /// capture filter's movement threshold and speed rule): compared with a squared threshold, it
  /// settles the question as the haversine would, and the decision does not wait for a square
  /// root or a division.
  ///
  /// Why it bounds the haversine as computed: with h₁, h₂ the same half differences (same
  /// operations, same order), |sin h| ≤ |h|; cos φ₂ ≤ cos φ₁ + |φ₂ − φ₁| (cosine is 1-Lipschitz),
  /// with |φ₂ − φ₁| ≤ 2.0001 |h₁| + 10⁻¹² covering every rounding of the latitudes and cosines; so
  /// a ≤ h₁² + cos φ₁ (cos φ₁ + 2.0001 |h₁| + 10⁻¹²) h₂², all terms non-negative. Below √a = 10⁻⁴,
  /// asin(√a) exceeds √a by a factor under 1 + 1.7 × 10⁻⁹. The bound is (2R)² a (1 + 10⁻⁸)²: the
  /// factor covers that and the few ulps each library call and operation may add, with room left
  /// for a threshold's own rounding when it is squared and compared.
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func metersSquaredUpperBound(
    fromLatitude latitude1: Double, longitude longitude1: Double, cosineOfLatitude cosine1: Double,
    toLatitude latitude2: Double, longitude longitude2: Double
  ) -> Double {
    let halfDeltaPhi = (latitude2 - latitude1) * radiansPerDegree * 0.5
    let halfDeltaLambda = (longitude2 - longitude1) * radiansPerDegree * 0.5
    let cosine2Bound = cosine1 + 2.0001 * abs(halfDeltaPhi) + 1e-12
    let a = halfDeltaPhi * halfDeltaPhi + cosine1 * cosine2Bound * (halfDeltaLambda * halfDeltaLambda)
    // NaN fails the comparison too: no bound.
    guard a <= 1e-8 else { return .infinity }
    let diameter = 2 * earthRadiusMeters * (1 + 1e-8)
    return a * (diameter * diameter)
  }

  /// The great-circle distance in metres between two route positions.
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func meters(from a: RoutePosition, to b: RoutePosition) -> Double {
    meters(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
  }
}
