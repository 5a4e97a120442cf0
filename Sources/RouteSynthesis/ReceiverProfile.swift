import RouteMileage

/// The receiver profiles the floor is checked against (`RouteBenchmarks truth` and the
/// tests): how a drive is configured and how its rows are written.
///
/// Every profile keeps the everyday fault rates (a rare accuracy spike, a very rare wild fix).
public enum ReceiverProfile: String, CaseIterable, Sendable, Hashable {
  case openSky = "open sky, 1 s"
  case suburban = "suburban, 1 s"
  /// Typical 14 m, degraded spells of 35–65 m, often.
  case urbanCanyon = "urban canyon ≤ 65 m"
  /// Two long parks with capture on: the receiver's jitter recorded for a sixth and an eighth of
  /// the drive.
  case longStationary = "long stationary jitter"
  case fiveSecond = "suburban, 5 s"
  /// The accuracy a receiver's HDOP gives (HDOP × 5 m), marked estimated, as GPX `<hdop>` and
  /// NMEA GGA give it.
  case hdopOnly = "HDOP only"
  /// No accuracy at all, as a bare GPX track or a CSV without the column.
  case noAccuracy = "no accuracy at all"
  /// No capture session (continuity inferred from timestamps).
  case legacyRows = "legacy rows"

  /// Urban canyon reception: reported accuracy up to 65 m in degraded spells.
  public static let canyon = Reception(
    typicalAccuracy: 14, accuracyRange: 5...30, degradedSpellChance: 0.005, degradedAccuracy: 35...65)

  /// The drive of this profile for `seed`, `duration` seconds long.
  public func configuration(seed: UInt64, duration: Int) -> DriveConfiguration {
    var configuration = DriveConfiguration(seed: seed, duration: duration, reception: .suburban, faults: .everyday)
    switch self {
    case .openSky: configuration.reception = .openSky
    case .urbanCanyon: configuration.reception = Self.canyon
    case .longStationary:
      configuration.events = [
        .park(at: duration / 5, duration: duration / 6, capturePaused: false),
        .park(at: duration * 3 / 5, duration: duration / 8, capturePaused: false),
      ]
    case .fiveSecond: configuration.fixInterval = 5
    case .legacyRows: configuration.legacyRows = true
    case .suburban, .hdopOnly, .noAccuracy: break
    }
    return configuration
  }

  /// The sample a recorder of this profile writes for `fix`.
  public func sample(_ fix: SyntheticFix) -> RouteSample {
    var sample = fix.sample
    switch self {
    case .hdopOnly:
      sample.horizontalAccuracy = fix.hdop >= 99 ? nil : fix.hdop * SyntheticFix.metersPerHDOP
      sample.horizontalAccuracyIsEstimated = sample.horizontalAccuracy != nil
    case .noAccuracy:
      sample.horizontalAccuracy = nil
    default: break
    }
    return sample
  }
}
