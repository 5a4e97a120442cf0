/// How close a measured figure must be to the one a test expects, with the reason for the
/// size written next to each. A test picks the tolerance that names its situation instead of
/// writing a bare `1e-6`, so a reader can tell a rounding allowance from a loosened assertion.
///
/// `accepts(actual, expected)` is `|actual − expected| ≤ max(absolute, relative × |expected|)`.
public struct Tolerance: Sendable, CustomStringConvertible {
  /// The allowance in the figure's own unit.
  public let absolute: Double
  /// The allowance as a fraction of the expected figure.
  public let relative: Double

  public init(absolute: Double, relative: Double = 0) {
    self.absolute = absolute
    self.relative = relative
  }

  /// Whether `actual` is within this tolerance of `expected`. Non-finite values are accepted
  /// only when they are equal.
  public func accepts(_ actual: Double, _ expected: Double) -> Bool {
    guard actual.isFinite, expected.isFinite else { return actual == expected || (actual.isNaN && expected.isNaN) }
    return abs(actual - expected) <= max(absolute, relative * abs(expected))
  }

  public var description: String { relative == 0 ? "±\(absolute)" : "±max(\(absolute), \(relative)×expected)" }

  /// Metres of a route built from exact steps on the package's sphere (the fixtures'
  /// `position(at:north:east:)`, or a fixed step of latitude as `HostileDrive` writes): one
  /// micrometre.
  ///
  /// Why: one step built `n` metres north of another measures `n` metres to about 1e-10 m
  /// (the haversine of a pure latitude step is exact up to rounding in the last bits of the
  /// degrees), and the tests' routes sum at most a few thousand steps, so the figure is within
  /// about 1e-7 m of the arithmetic one. A micrometre is ten times that, and a million times
  /// finer than the metre the tests are about: a rule that counted one step too many or too few
  /// still fails by whole metres.
  public static let constructedMeters = Tolerance(absolute: 1e-6)

  /// A figure pinned in a fixture or a test to six decimals (`acceptance/expected.json`, the
  /// real-file tables): one part in a million of it, and never less than a micrometre.
  ///
  /// Why: the pinned text is rounded to six decimal places (up to 5e-7 of the unit), and the
  /// figure was produced by a separate reading of the same file, which may add the same steps in
  /// a different order (about 1e-12 relative on these routes). One part per million is 2.3 cm on
  /// the longest acceptance route (22.6 km) — far finer than the 0.1 mi the tool reports and than
  /// any rule change, which moves these figures by metres.
  public static let pinnedFigure = Tolerance(absolute: 1e-6, relative: 1e-6)
}
