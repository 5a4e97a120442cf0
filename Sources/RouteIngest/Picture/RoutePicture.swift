import RouteFeeds
import RouteMileage

/// The geometry of a measured route, for the pictures a user explicitly asks for (`--svg`,
/// `--geojson`) — the only place coordinates ever leave the tool.
///
/// It does not re-derive continuity: it takes the segments and gaps the measurement reported
/// and looks up the positions at their times, in the same walk order the calculator uses.
public struct RoutePicture: Sendable {
  public struct Point: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
  }

  public struct Segment: Sendable {
    public var segment: RouteSegment
    public var points: [Point]
  }

  public struct Gap: Sendable {
    public var gap: RouteGap
    /// Two points for a gap between positions; one for a window gap (the route's first or last
    /// position), which has nothing on the other side, and for a pause or a park (where it began).
    public var points: [Point]
  }

  public var segments: [Segment] = []
  public var gaps: [Gap] = []
  /// Positions that belong to no contributing segment.
  public var isolated: [Point] = []
  public var title: String

  /// - Parameters:
  ///   - timeline: when the shift has one, positions recorded while it was paused or parked (or
  ///     outside it) are left out, as the measurement left them out; its pauses and parks are
  ///     drawn from the gaps the measurement reported.
  public init(
    positions: [RoutePosition], distance: RouteDistance, title: String, window: ShiftWindow?,
    timeline: ShiftTimeline? = nil
  ) {
    self.title = title
    var walked: [RoutePosition] = []
    walked.reserveCapacity(positions.count)
    for position in positions.sorted(by: RouteMileageCalculator.walkOrder)
    where position.isUsable && (window?.contains(position.timestamp) ?? true) {
      if let timeline, !Self.isCapturing(timeline.placement(of: position.timestamp)) { continue }
      if let last = walked.last, last.timestamp >= position.timestamp { continue }
      walked.append(position)
    }
    /// The first walked position at or after `timestamp` (`walked.count` when none).
    func firstIndex(atOrAfter timestamp: Double) -> Int {
      var low = 0
      var high = walked.count
      while low < high {
        let middle = (low + high) / 2
        if walked[middle].timestamp < timestamp { low = middle + 1 } else { high = middle }
      }
      return low
    }
    func index(of timestamp: Double) -> Int? {
      let at = firstIndex(atOrAfter: timestamp)
      return at < walked.count && walked[at].timestamp == timestamp ? at : nil
    }
    /// The last walked position at or before `timestamp`.
    func before(_ timestamp: Double) -> Int? {
      let at = firstIndex(atOrAfter: timestamp)
      if at < walked.count, walked[at].timestamp == timestamp { return at }
      return at > 0 ? at - 1 : nil
    }
    /// The first walked position at or after `timestamp`.
    func after(_ timestamp: Double) -> Int? {
      let at = firstIndex(atOrAfter: timestamp)
      return at < walked.count ? at : nil
    }
    func point(_ position: RoutePosition) -> Point { Point(latitude: position.latitude, longitude: position.longitude) }

    var inSegment = [Bool](repeating: false, count: walked.count)
    for segment in distance.segments {
      guard let first = index(of: segment.start), let last = index(of: segment.end), first <= last else { continue }
      segments.append(Segment(segment: segment, points: walked[first...last].map(point)))
      for position in first...last { inSegment[position] = true }
    }
    // A gap's ends are positions for gaps between positions, and instants of the timeline for
    // pauses, parks and the silences beside them: each is placed at the nearest walked position
    // on its side.
    for gap in distance.gaps {
      var points: [Point] = []
      switch gap.kind {
      case .windowStart:
        if let at = after(gap.end) { points = [point(walked[at])] }
      case .windowEnd:
        if let at = before(gap.start) { points = [point(walked[at])] }
      case .pause, .parked:
        // Where the vehicle was when it began: one marker.
        if let at = before(gap.start) ?? after(gap.end) { points = [point(walked[at])] }
      default:
        let from = before(gap.start).map { point(walked[$0]) }
        let to = after(gap.end).map { point(walked[$0]) }
        points = [from, to].compactMap { $0 }
        if points.count == 2, points[0] == points[1] { points.removeLast() }
      }
      if !points.isEmpty { gaps.append(Gap(gap: gap, points: points)) }
    }
    isolated = walked.indices.filter { !inSegment[$0] }.map { point(walked[$0]) }
  }

  static func isCapturing(_ placement: ShiftTimeline.Placement) -> Bool {
    if case .capturing = placement { return true }
    return false
  }

  public var allPoints: [Point] {
    segments.flatMap(\.points) + gaps.flatMap(\.points) + isolated
  }
}
