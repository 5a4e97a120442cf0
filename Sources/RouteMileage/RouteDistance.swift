/// A measured route: the distance it supports and what was left out of it.
///
/// It exists so the answer is not an unexplained `Double`. `meters` is the sum of the
/// contributing segments only; every gap is listed and none is measured across. It never holds
/// a coordinate.
public struct RouteDistance: Sendable, Hashable {
  /// Why nothing could be measured.
  public enum Unmeasurable: String, Sendable, Hashable {
    /// Not one usable position was recorded.
    case noUsablePosition
    /// Positions exist, but no two of them were captured continuously.
    case noTwoContinuousPositions
  }

  /// Metres over the contributing segments: the recorded figure, exact to the rules.
  public var meters: Double
  /// Metres the positions prove were driven within the contributing segments, under
  /// `RouteFloorAssumption` (each true position within 1.35 × its accuracy): the sum of the
  /// segments' floors. Never more than `meters`' true path length under that assumption;
  /// jitter makes `meters` run above it.
  public var floorMeters: Double
  /// The contributing segments in time order.
  public var segments: [RouteSegment]
  /// Every gap in time order, including window gaps.
  public var gaps: [RouteGap]
  /// Positions the walk measured from (usable, inside the window, one per timestamp).
  public var usablePositionCount: Int
  /// True when two consecutive usable positions both lack a capture session, so continuity
  /// between them was inferred from timestamps.
  public var usesInferredContinuity: Bool

  /// Positions rejected because they describe nowhere on Earth (non-finite or out of range).
  public var unusablePositionCount: Int
  /// Positions outside the shift window, not measured.
  public var positionsOutsideWindow: Int
  /// Positions at or before the last one already walked: a repeated timestamp collapsed to the
  /// first after sorting, or a late arrival an extension does not go back for.
  public var positionsNotAfterPrevious: Int
  /// Usable positions that belong to no contributing segment (a stretch of one).
  public var isolatedPositionCount: Int
  /// Where reading of the recording stopped before its end, if it did (the walk never sets
  /// it: whoever read the recording does). A cut-off route is partial.
  public var cutOff: RecordingCutOff?
  /// Positions the recording holds without a time (a GPX `trkpt` or TCX `Trackpoint` with no
  /// time, a KML `gx:coord` with no `when`, a GeoJSON or Takeout point with none, a KML
  /// `LineString`'s coordinates), so they can be neither ordered nor measured (the walk never
  /// sets it: whoever read the recording does). A route that left any out is partial: the
  /// driving they stand for is not in the figure.
  public var positionsWithoutTime: Int
  /// Positions recorded while the shift was paused (its timeline says so), not measured.
  public var positionsInsidePause: Int
  /// Positions recorded while the vehicle was parked (its timeline says so), not measured.
  public var positionsWhileParked: Int
  /// Walked positions without a usable accuracy, so the floor assumed one for them
  /// (`RouteFloorAssumption.assumedAccuracy`).
  public var positionsWithoutAccuracy: Int
  /// Walked positions reporting an accuracy worse than `RouteDistance.poorAccuracy` metres.
  public var positionsWithPoorAccuracy: Int
  /// Seconds inside contributing segments spent in steps slower than 1 m/s: standing or
  /// crawling, where the recorded figure gathers jitter the floor does not prove.
  public var creepingSeconds: Double
  /// Metres of the recorded figure gathered in those slow steps: an estimate of its jitter
  /// (a vehicle crawling in traffic adds some true metres here too).
  public var creepingMeters: Double
  /// Stops longer than the maximum interval that the route runs through because fixes kept
  /// arriving while the vehicle stood (`RouteSampleFilter`'s stop fixes), in time order. Not
  /// gaps: capture ran. Only a walk fed by the filter sees them; a stored route measured again
  /// has the same positions, segments and figure, without this list.
  public var stops: [RouteStop]

  /// Walked positions where the floor proves nothing because no bound holds there
  /// (`RouteFloorWalk.positionsWithheld`: too near a pole, or chords too long or discs too wide).
  public var positionsWithheld: Int

  /// Metres of reported accuracy above which a position counts as poorly placed.
  public static let poorAccuracy: Double = 20

  /// Seconds covered by the contributing segments.
  public var measuredSeconds: Double { segments.reduce(0) { $0 + $1.duration } }

  public init(
    meters: Double = 0, segments: [RouteSegment] = [], gaps: [RouteGap] = [],
    usablePositionCount: Int = 0, usesInferredContinuity: Bool = false,
    unusablePositionCount: Int = 0, positionsOutsideWindow: Int = 0,
    positionsNotAfterPrevious: Int = 0, isolatedPositionCount: Int = 0, floorMeters: Double = 0,
    positionsWithoutAccuracy: Int = 0, positionsWithPoorAccuracy: Int = 0, creepingSeconds: Double = 0,
    creepingMeters: Double = 0, cutOff: RecordingCutOff? = nil,
    positionsInsidePause: Int = 0, positionsWhileParked: Int = 0, positionsWithoutTime: Int = 0,
    stops: [RouteStop] = [], positionsWithheld: Int = 0
  ) {
    self.stops = stops
    self.positionsWithoutTime = positionsWithoutTime
    self.positionsWithheld = positionsWithheld
    self.creepingMeters = creepingMeters
    self.positionsWithPoorAccuracy = positionsWithPoorAccuracy
    self.creepingSeconds = creepingSeconds
    self.meters = meters
    self.floorMeters = floorMeters
    self.positionsWithoutAccuracy = positionsWithoutAccuracy
    self.segments = segments
    self.gaps = gaps
    self.usablePositionCount = usablePositionCount
    self.usesInferredContinuity = usesInferredContinuity
    self.unusablePositionCount = unusablePositionCount
    self.positionsOutsideWindow = positionsOutsideWindow
    self.positionsNotAfterPrevious = positionsNotAfterPrevious
    self.isolatedPositionCount = isolatedPositionCount
    self.cutOff = cutOff
    self.positionsInsidePause = positionsInsidePause
    self.positionsWhileParked = positionsWhileParked
  }

  /// How many unbroken stretches of capture contributed distance.
  public var contributingSegmentCount: Int { segments.count }
  /// How many stretches of the shift the route does not account for.
  public var gapCount: Int { gaps.count }
  /// Whether any distance was measured at all: at least one contributing segment.
  public var isMeasured: Bool { !segments.isEmpty }
  /// Whether the figure is known to fall short of the distance driven: a gap was detected,
  /// continuity was inferred so gaps could not be seen, the recording was cut off, or it holds
  /// positions without a time, which were left out.
  public var isPartial: Bool { !gaps.isEmpty || usesInferredContinuity || cutOff != nil || positionsWithoutTime > 0 }

  /// Which kind of nothing an unmeasured route is; nil when something was measured.
  public var unmeasurable: Unmeasurable? {
    if isMeasured { return nil }
    return usablePositionCount == 0 ? .noUsablePosition : .noTwoContinuousPositions
  }
}
