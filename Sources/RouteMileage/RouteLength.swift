/// A measured length: metres, with the one conversion to miles. It is what
/// `RouteDistance.measurement` hands a reader, so no reader holds a conversion constant.
public struct RouteLength: Sendable, Hashable, Comparable {
  /// Metres, as measured.
  public var meters: Double

  public init(meters: Double) { self.meters = meters }

  /// The length in international miles (`metersPerMile`): the package's one division by the
  /// constant, so every figure in miles (the report, JSON, CSV, the jitter sentence) rounds alike.
  public var miles: Double { meters / metersPerMile }

  public static func < (lhs: RouteLength, rhs: RouteLength) -> Bool { lhs.meters < rhs.meters }
}

extension RouteDistance {
  /// The recorded distance, named as seed 004 names it; nil when nothing could be measured
  /// (`unmeasurable` says which kind of nothing), so an unmeasurable route has no length to
  /// show rather than a length of zero. `meters` and `miles` stay for arithmetic on a route
  /// known to be measured; readers that report a figure read this instead.
  public var measurement: RouteLength? { isMeasured ? RouteLength(meters: meters) : nil }

  /// How many unbroken stretches contributed, and how many stretches of the shift the route
  /// does not account for — nil when nothing was measured: an unmeasurable route reports no
  /// counts rather than counts of zero (seed 004).
  public var reportedCounts: (segments: Int, gaps: Int)? {
    isMeasured ? (contributingSegmentCount, gapCount) : nil
  }
}
