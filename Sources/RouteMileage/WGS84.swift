/// The WGS84 ellipsoid, on which the floor (`RouteFloorWalk`) measures what was driven. The
/// recorded figure stays on the package's sphere (`GeographicDistance`), as seed 004 defines it.
///
/// The floor needs only the two radii of curvature at a latitude φ, from e² and sin²φ with no
/// trigonometric call: the meridional M = a(1 − e²)/(1 − e² sin²φ)^{3/2} (metres of arc per
/// radian of latitude) and the prime vertical N = a/(1 − e² sin²φ)^{1/2}, whose N cos φ is the
/// radius of the parallel (metres per radian of longitude). M grows from the equator to the
/// poles; N cos φ shrinks. docs/truth.md derives the floor's bounds from these.
public enum WGS84 {
  /// a, metres.
  public static let semiMajorAxis = 6_378_137.0
  /// f.
  public static let flattening = 1 / 298.257223563
  /// e² = f(2 − f).
  public static let eccentricitySquared = flattening * (2 - flattening)
  /// M at the equator, a(1 − e²) = 6,335,439.3 m: the smallest meridional radius anywhere, so
  /// a path that changes latitude by Δφ radians is at least this × |Δφ| long.
  public static let smallestMeridionalRadius = semiMajorAxis * (1 - eccentricitySquared)
  /// An upper bound on |dM/dφ|, metres per radian: the largest is 64,155.5 m near 45°.
  public static let meridionalRadiusSlope = 64_200.0

  /// M and N at a latitude whose sin² φ is `sineSquared`.
  ///
  /// - Complexity: O(1): one square root and one division.
  @inlinable
  public static func radii(sineSquared: Double) -> (meridional: Double, primeVertical: Double) {
    let w = 1 - eccentricitySquared * sineSquared
    let inverseRoot = 1 / w.squareRoot()
    let primeVertical = semiMajorAxis * inverseRoot
    return (primeVertical * (1 - eccentricitySquared) * inverseRoot * inverseRoot, primeVertical)
  }
}
