/// A named count in the ingest report: why a record was not measured, why a line could not be
/// read, or what kind of line was passed over.
///
/// A struct rather than an enum so each reader declares its own reasons beside its code, in an
/// extension, while the report stays one dictionary of names to counts. Names are camelCase and
/// stable: they are JSON keys other tools read.
public struct FeedReason: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { rawValue }
}

extension FeedReason {
  // Records that are not measurable positions (reported under `rejected`).
  /// A GPX waypoint: a place, not a recorded drive.
  public static let waypoint = FeedReason("waypoint")
  /// A GPX route point: a planned path, not a recorded drive.
  public static let routePoint = FeedReason("routePoint")
  /// A position with no time; it cannot be ordered or measured.
  public static let missingTime = FeedReason("missingTime")
  /// The receiver said it had no fix (NMEA RMC status V, GGA quality 0, GPX `<fix>none</fix>`).
  public static let noFix = FeedReason("noFix")

  // Lines or records that could not be read (reported under `errors`).
  /// A value that is not a number, or a required field that is empty.
  public static let badNumber = FeedReason("badNumber")
  /// A timestamp that could not be read.
  public static let badTime = FeedReason("badTime")
  /// A line longer than the reader's limit; it is skipped whole.
  public static let lineTooLong = FeedReason("lineTooLong")
  /// A line holding a NUL byte or other binary garbage.
  public static let binary = FeedReason("binary")
}
