import RouteFeeds
import RouteMileage

/// The account of everything one feed's ingest read: nothing read disappears without a count.
///
/// `records` counts position records (GPX points of every kind, NMEA epochs and unreadable
/// lines, CSV data rows), and always equals `retained + rejectedCount + errors`, with a shift
/// timeline too (positions it places outside capture are rejected by reason). Lines that are
/// not records (comments, proprietary NMEA sentences) are counted under `ignored`.
public struct IngestReport: Sendable, Hashable {
  /// How many line numbers of unreadable records are kept, for messages.
  public static let keptErrorLines = 10

  public var format: FeedFormat?
  public var records = 0
  /// Positions kept for measurement: the filter's retained samples, or every position read when
  /// the filter is off.
  public var retained = 0
  /// Records not measured, by reason: the reader's (waypoint, missingTime, noFix, …) and the
  /// capture filter's (accuracy, speed, …).
  public var rejected: [FeedReason: Int] = [:]
  /// Records or lines that could not be read.
  public var errors = 0
  /// `errors` by reason.
  public var errorReasons: [FeedReason: Int] = [:]
  /// The first `keptErrorLines` line numbers of unreadable records.
  public var errorLines: [Int] = []
  /// Lines that are not records, by kind.
  public var ignored: [FeedReason: Int] = [:]
  /// Caveats on records that were read all the same, by kind (`checksumMissing`: NMEA
  /// sentences read without a checksum to verify them). Not part of the accounting identity.
  public var notes: [FeedReason: Int] = [:]
  /// Distinct capture sessions the feed delivered positions in.
  public var sessions = 0
  /// Positions delivered without a session (legacy rows).
  public var legacyPositions = 0
  /// Retained samples that re-anchored a session after a wild fix (each starts a new session).
  public var reanchored = 0
  /// Positions whose accuracy was estimated (NMEA HDOP × a constant) rather than reported.
  public var estimatedAccuracy = 0
  /// The earliest and latest timestamps among positions read, in seconds since 1970 (UTC).
  public var firstTimestamp: Double?
  public var lastTimestamp: Double?
  /// Why reading stopped early, if it did; what was read before it stands.
  public var failure: FeedError?

  public init() {}

  public var rejectedCount: Int { rejected.values.reduce(0, +) }

  /// Whether the accounting identity holds; a reader bug if not.
  public var isBalanced: Bool { records == retained + rejectedCount + errors }
}
