/// Measures a whole stored route in one pass.
///
/// It sorts the positions by timestamp, breaks ties on latitude, then longitude, then capture
/// session (legacy first), then accuracy (unknown first), and feeds the result to a fresh
/// `RouteMileageAccumulator`, whose
/// forward-only rule collapses positions sharing a timestamp to the first after sorting. Any
/// permutation of the same rows therefore gives a bit-identical `RouteDistance`: an imperfect
/// stored route gives a deterministic number rather than one that depends on fetch order.
///
/// It does not re-judge sample quality (accuracy, staleness, speed, small movement are the
/// capture filter's, applied once). It only skips positions that could not describe anywhere on
/// Earth.
public struct RouteMileageCalculator: Sendable, Hashable {
  /// Seconds; see `RouteContinuity`.
  public var maximumSampleInterval: Double

  public init(maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval) {
    self.maximumSampleInterval = maximumSampleInterval
  }

  /// The distance the route supports.
  ///
  /// - Parameters:
  ///   - route: the positions, in any order.
  ///   - window: the finished shift's window; nil for a running shift.
  /// - Complexity: O(*n* log *n*) for *n* positions; O(*n*) when they are already in order.
  public func distance(of route: some Sequence<RoutePosition>, covering window: ShiftWindow? = nil) -> RouteDistance {
    Self.walk(route, with: RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval, window: window))
      .distance
  }

  /// The distance the route supports; see `distance(of:covering:)`.
  public func distance(of route: some Sequence<RouteSample>, covering window: ShiftWindow? = nil) -> RouteDistance {
    distance(of: route.lazy.map(\.position), covering: window)
  }

  /// The distance the route supports measured against the shift's timeline: its window, and
  /// every pause and park a gap of its own (see `RouteMileageAccumulator+Timeline.swift`).
  ///
  /// - Complexity: as `distance(of:covering:)`.
  public func distance(of route: some Sequence<RoutePosition>, timeline: ShiftTimeline) -> RouteDistance {
    Self.walk(route, with: RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval, timeline: timeline))
      .distance
  }

  /// The one walk every one-pass figure shares (both measurements here, and a live
  /// measurement started afresh in RouteStore): the positions in walk order (sorted only when
  /// they are not already), appended to `accumulator`, which carries the window or the
  /// timeline. Returns the walk, still open for later positions.
  ///
  /// - Complexity: O(*n* log *n*); O(*n*) when the positions are already in order.
  package static func walk(
    _ route: some Sequence<RoutePosition>, with accumulator: RouteMileageAccumulator
  ) -> RouteMileageAccumulator {
    var positions = Array(route)
    if !isInWalkOrder(positions) {
      positions.sort(by: walkOrder)
    }
    var walk = accumulator
    walk.append(contentsOf: positions)
    return walk
  }

  /// A strict total order on positions: timestamp, latitude, longitude, session (legacy
  /// first), then accuracy (unknown first). IEEE total order keeps it strict even for NaN and ±0, which the walk then
  /// skips or
  /// measures identically.
  @inlinable
  public static func walkOrder(_ a: RoutePosition, _ b: RoutePosition) -> Bool {
    if let order = strictlyBefore(a.timestamp, b.timestamp) { return order }
    if let order = strictlyBefore(a.latitude, b.latitude) { return order }
    if let order = strictlyBefore(a.longitude, b.longitude) { return order }
    switch (a.captureSession, b.captureSession) {
    case (nil, nil): break
    case (nil, _?): return true
    case (_?, nil): return false
    case (let x?, let y?): if x != y { return x < y }
    }
    // Last, the accuracy (unknown first), which only the floor reads: the same rows in any
    // order keep the same position of a repeated timestamp.
    switch (a.horizontalAccuracy, b.horizontalAccuracy) {
    case (nil, nil): return false
    case (nil, _?): return true
    case (_?, nil): return false
    case (let x?, let y?): return strictlyBefore(x, y) ?? false
    }
  }

  /// True or false when `a` and `b` differ in IEEE total order; nil when they are the same value.
  @inlinable
  static func strictlyBefore(_ a: Double, _ b: Double) -> Bool? {
    if a.bitPattern == b.bitPattern { return nil }
    if a < b { return true }
    if b < a { return false }
    // Equal by `==` but different bits (±0), or unordered (NaN): fall back to total order.
    return a.isTotallyOrdered(belowOrEqualTo: b)
  }
}

extension RouteMileageCalculator {
  /// Whether `positions` are already in walk order, so a caller can skip the sort.
  ///
  /// - Complexity: O(*n*).
  public static func isInWalkOrder(_ positions: [RoutePosition]) -> Bool {
    var index = positions.startIndex
    while index + 1 < positions.endIndex {
      if walkOrder(positions[index + 1], positions[index]) { return false }
      index += 1
    }
    return true
  }
}
