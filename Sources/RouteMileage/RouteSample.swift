/// Identifies one capture session: an uninterrupted run of recording.
///
/// The ingest stage mints these (a feed's own identifiers are never trusted as proof of
/// anything); two positions can only be continuous when they carry the same one. A position
/// with no session is a *legacy* row, whose continuity can only be inferred from timestamps.
public struct CaptureSessionID: RawRepresentable, Hashable, Comparable, Sendable,
  CustomStringConvertible
{
  public var rawValue: Int64
  @inlinable public init(rawValue: Int64) { self.rawValue = rawValue }
  @inlinable public init(_ rawValue: Int64) { self.rawValue = rawValue }
  @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "session \(rawValue)" }
}

/// Hands out capture session IDs for one shift, in order, starting at 1.
///
/// The ingest stage mints one per session it finds in a feed, and the capture filter mints one
/// when it re-anchors a session after a wild fix, so no two stretches share an ID by accident.
public struct CaptureSessionMinter: Sendable, Equatable {
  public private(set) var next: Int64

  /// - Parameter next: the first ID to hand out; pass one past the largest already in use when
  ///   continuing a shift that has stored sessions.
  public init(next: Int64 = 1) { self.next = next }

  public mutating func mint() -> CaptureSessionID {
    defer { next += 1 }
    return CaptureSessionID(next)
  }
}

/// What the measurement walk needs of a position: when, where, in which capture session, and
/// how far off it may be.
///
/// Timestamps are seconds since 1970-01-01T00:00:00Z (UTC); coordinates are WGS 84 degrees.
/// `horizontalAccuracy` (metres, nil when unknown) is read only by the floor
/// (`RouteFloorAssumption`); the recorded figure never looks at it.
public struct RoutePosition: Sendable, Hashable {
  public var timestamp: Double
  public var latitude: Double
  public var longitude: Double
  public var captureSession: CaptureSessionID?
  public var horizontalAccuracy: Double?

  @inlinable
  public init(
    timestamp: Double, latitude: Double, longitude: Double, captureSession: CaptureSessionID? = nil,
    horizontalAccuracy: Double? = nil
  ) {
    self.timestamp = timestamp
    self.latitude = latitude
    self.longitude = longitude
    self.captureSession = captureSession
    self.horizontalAccuracy = horizontalAccuracy
  }

  /// Whether this could describe somewhere on Earth at some time: finite timestamp, finite
  /// coordinates, |latitude| ≤ 90 and |longitude| ≤ 180.
  ///
  /// This is the calculator's only judgement of a stored position; everything else about sample
  /// quality is the capture filter's, applied once.
  @inlinable
  public var isUsable: Bool {
    timestamp.isFinite && latitude.isFinite && longitude.isFinite
      && abs(latitude) <= 90 && abs(longitude) <= 180
  }
}

/// One recorded position as a feed or the store delivers it.
///
/// Units: `timestamp` and `receivedAt` in seconds since 1970-01-01T00:00:00Z (UTC); latitude
/// and longitude in degrees; `horizontalAccuracy` in metres (a radius; negative means invalid,
/// as Core Location reports it); `speed` in metres per second; `course` in degrees clockwise
/// from true north; `altitude` in metres.
public struct RouteSample: Sendable, Hashable {
  public var timestamp: Double
  public var latitude: Double
  public var longitude: Double
  public var horizontalAccuracy: Double?
  /// True when `horizontalAccuracy` was estimated (for example HDOP × a constant) rather than
  /// reported by the receiver.
  public var horizontalAccuracyIsEstimated: Bool
  public var speed: Double?
  public var course: Double?
  public var altitude: Double?
  public var captureSession: CaptureSessionID?
  /// When the fix reached the recorder, if the feed says; used to reject stale fixes.
  public var receivedAt: Double?

  @inlinable
  public init(
    timestamp: Double, latitude: Double, longitude: Double,
    horizontalAccuracy: Double? = nil, horizontalAccuracyIsEstimated: Bool = false,
    speed: Double? = nil, course: Double? = nil, altitude: Double? = nil,
    captureSession: CaptureSessionID? = nil, receivedAt: Double? = nil
  ) {
    self.timestamp = timestamp
    self.latitude = latitude
    self.longitude = longitude
    self.horizontalAccuracy = horizontalAccuracy
    self.horizontalAccuracyIsEstimated = horizontalAccuracyIsEstimated
    self.speed = speed
    self.course = course
    self.altitude = altitude
    self.captureSession = captureSession
    self.receivedAt = receivedAt
  }

  /// The part of the sample the measurement walk reads.
  @inlinable
  public var position: RoutePosition {
    RoutePosition(
      timestamp: timestamp, latitude: latitude, longitude: longitude, captureSession: captureSession,
      horizontalAccuracy: horizontalAccuracy)
  }
}
