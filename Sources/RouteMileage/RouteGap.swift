/// A stretch of the shift the route does not account for. Its distance is never counted.
public struct RouteGap: Sendable, Hashable {
  /// Why the route has no measured distance here.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The capture session changed: capture stopped and started again.
    case sessionChange
    /// Same session (or two legacy rows), but positions were further apart than the maximum
    /// sample interval.
    case silence
    /// One position carries a capture session and the other does not.
    case legacySessionBoundary
    /// The route's first position came more than the maximum interval after the shift started.
    case windowStart
    /// The route's last position came more than the maximum interval before the shift ended.
    case windowEnd
    /// The shift was paused (its timeline says so): capture does not run, whatever was recorded.
    case pause
    /// The vehicle was parked (its timeline says so): the route stopped, the shift did not.
    case parked
  }

  public var kind: Kind
  /// Seconds since 1970 (UTC): the last position before the gap, or the shift's start.
  public var start: Double
  /// Seconds since 1970 (UTC): the first position after the gap, or the shift's end.
  public var end: Double

  @inlinable public init(kind: Kind, start: Double, end: Double) {
    self.kind = kind
    self.start = start
    self.end = end
  }

  /// Seconds.
  @inlinable public var duration: Double { end - start }
}

/// An unbroken stretch of capture that contributed distance: at least two positions, each
/// continuous with the one before.
public struct RouteSegment: Sendable, Hashable {
  /// Seconds since 1970 (UTC) of its first and last positions.
  public var start: Double
  public var end: Double
  public var positionCount: Int
  /// The sum of the distances between adjacent positions, in metres.
  public var meters: Double
  /// Metres the positions prove were driven in this segment (`RouteFloorWalk`); at most the
  /// true path length under `RouteFloorAssumption`.
  public var floorMeters: Double

  @inlinable public init(start: Double, end: Double, positionCount: Int, meters: Double, floorMeters: Double = 0) {
    self.start = start
    self.end = end
    self.positionCount = positionCount
    self.meters = meters
    self.floorMeters = floorMeters
  }

  /// Seconds.
  @inlinable public var duration: Double { end - start }
}

/// A stop the route runs through: the vehicle stood (every fix within the capture filter's
/// movement threshold) for longer than the maximum interval while fixes kept arriving, so the
/// filter kept one of them in each interval (`RouteSampleFilter`, Stops). It is not a gap:
/// capture ran, and the distance across it is measured between retained positions at most the
/// interval apart.
public struct RouteStop: Sendable, Hashable {
  /// Seconds since 1970 (UTC): the last position before the vehicle stood, and the first
  /// position after the stop fixes (the last stop fix when the stretch ended with them).
  public var start: Double
  public var end: Double

  @inlinable public init(start: Double, end: Double) {
    self.start = start
    self.end = end
  }

  /// Seconds.
  @inlinable public var duration: Double { end - start }
}
