/// The span a finished shift ran for, in seconds since 1970-01-01T00:00:00Z (UTC).
///
/// With a window, a route that starts long after the shift did, or stops long before it
/// ended, shows that as a gap, and positions outside it are not measured. A running shift has
/// no window: its end is still moving, and measuring against "now" would count every red light
/// as an uncovered end.
public struct ShiftWindow: Sendable, Hashable {
  public let start: Double
  public let end: Double

  /// Returns nil unless both ends are finite and `start <= end`.
  public init?(start: Double, end: Double) {
    guard start.isFinite, end.isFinite, start <= end else { return nil }
    self.start = start
    self.end = end
  }

  @inlinable public func contains(_ timestamp: Double) -> Bool { timestamp >= start && timestamp <= end }
}
