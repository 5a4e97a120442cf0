/// Where a shift timeline places each position's instant (DESIGN.md, "The shift timeline"):
/// inside capture interval *i*, inside a pause, inside a park, or outside [start, end]. The one
/// decision the ingest (which keeps a position placed outside capture from the filter, by
/// reason, and starts a new capture session at each new interval) and the walk (which counts
/// such a position and measures nothing from it) both act on: the walk owns the placer, and the
/// ingest asks the walk's (`RouteMileageAccumulator.placeOnTimeline(_:)`), so the walk's own
/// placement of the same instant is the cached answer.
///
/// - Complexity: O(1) for an instant in the capture interval of the last instant placed inside
///   one (the cache); O(log *k*) in the timeline's events otherwise.
public struct TimelinePlacer: Sendable, Hashable {
  /// The timeline the instants are placed on.
  public private(set) var timeline: ShiftTimeline
  // The last capture interval an instant was placed in: [from, to] and its index.
  @usableFromInline var capturingFrom = Double.infinity
  @usableFromInline var capturingTo = -Double.infinity
  @usableFromInline var capturingIndex = 0

  public init(_ timeline: ShiftTimeline) {
    self.timeline = timeline
  }

  /// Replaces the timeline with a later reading of the same shift; an open interval may have
  /// closed, so the next instant is looked up again.
  public mutating func extend(_ newer: ShiftTimeline) {
    timeline = newer
    capturingFrom = .infinity
    capturingTo = -.infinity
  }

  /// Where `instant` falls (see `ShiftTimeline.placement(of:)`).
  @inlinable
  public mutating func place(_ instant: Double) -> ShiftTimeline.Placement {
    if instant >= capturingFrom && instant <= capturingTo { return .capturing(capturingIndex) }
    return lookUp(instant)
  }

  /// The slow path of `place(_:)`: the timeline's lookup, remembering a capture interval found.
  @usableFromInline
  mutating func lookUp(_ instant: Double) -> ShiftTimeline.Placement {
    let placement = timeline.placement(of: instant)
    if case .capturing(let index) = placement {
      let interval = timeline.captureIntervals[index]
      capturingFrom = interval.start
      capturingTo = interval.end ?? .infinity
      capturingIndex = index
    }
    return placement
  }
}
