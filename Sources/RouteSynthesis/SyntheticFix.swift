import RouteMileage

/// One recorded epoch of a synthetic drive, in the order a recorder writes it, with the truth
/// beside what the receiver reported.
public struct SyntheticFix: Sendable, Hashable {
  /// Faults injected into this row.
  public struct Faults: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Reported 0.8–6 km from the truth with an ordinary accuracy.
    public static let wildJump = Faults(rawValue: 1 << 0)
    /// Reported accuracy 150–450 m, position scattered to match.
    public static let accuracySpike = Faults(rawValue: 1 << 1)
    /// Accuracy written as −1 (invalid).
    public static let invalidAccuracy = Faults(rawValue: 1 << 2)
    /// Written as (0, 0).
    public static let nullIsland = Faults(rawValue: 1 << 3)
    /// A second, identical copy of the row before it.
    public static let duplicate = Faults(rawValue: 1 << 4)
    /// Written 1–5 rows after fixes that are newer than it.
    public static let lateArrival = Faults(rawValue: 1 << 5)
    /// NMEA: one character of the RMC sentence changed after its checksum was computed.
    public static let corruptedSentence = Faults(rawValue: 1 << 6)
  }

  /// What the receiver reported. `captureSession` is `CaptureSessionID(session)`, or nil for
  /// legacy rows. For a no-fix epoch the coordinates are NaN and only the time is meaningful.
  public var sample: RouteSample
  /// The fix time in milliseconds since 1970 (UTC); `sample.timestamp` is this ÷ 1000.
  public var milliseconds: Int64
  /// The capture session ordinal, from 1, even for legacy rows (which do not write it).
  public var session: Int
  /// A random 64-bit tag of the session, from which writers derive an opaque session
  /// identifier (a UUID in CSV).
  public var sessionTag: UInt64
  /// False when the receiver had no fix: NMEA writes RMC status V and GGA quality 0; GPX and
  /// CSV write nothing.
  public var hasFix: Bool
  /// Satellites used, 4–14 (0 without a fix).
  public var satellites: Int
  public var faults: Faults
  /// Where the vehicle really was, in degrees, and its true speed in m/s.
  public var truthLatitude: Double
  public var truthLongitude: Double
  public var truthSpeed: Double

  /// Horizontal dilution of precision, as a receiver would report it for this accuracy:
  /// accuracy ÷ 5 m (a typical user range error), at least 0.5, to 0.1; 99.9 without a fix or
  /// with an invalid accuracy.
  public var hdop: Double {
    guard hasFix, let accuracy = sample.horizontalAccuracy, accuracy >= 0 else { return 99.9 }
    return max(5, (accuracy / SyntheticFix.metersPerHDOP * 10).rounded()) / 10
  }

  /// Metres of horizontal accuracy per unit of HDOP the writers assume.
  public static let metersPerHDOP = 5.0
}
