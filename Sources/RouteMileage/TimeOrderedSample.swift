/// A decoded position with the reader's session ordinal, as a recorded file is judged: in the
/// total order of `precedes(_:_:)`, where the duplicate rule (`repeats(_:)`) and the time-outlier
/// rule (`TimeOutlierRule`) look at it.
///
/// Plain data (no references), so runs of them are written to and read back from a spill file
/// byte for byte.
public struct TimeOrderedSample: Equatable, Sendable {
  public var sample: RouteSample
  public var session: Int?

  @inlinable
  public init(sample: RouteSample, session: Int?) {
    self.sample = sample
    self.session = session
  }

  /// A placeholder for storage that a flag says is empty.
  public static let blank = TimeOrderedSample(
    sample: RouteSample(timestamp: 0, latitude: 0, longitude: 0), session: nil)

  /// The duplicate rule: a position equal in every field, reader session included, to its
  /// neighbour in this order is a `duplicate`, counted once and measured once. O(1).
  @inlinable
  public func repeats(_ other: Self) -> Bool { self == other }

  /// The order a recorded file is judged in: timestamp, then latitude, longitude, accuracy,
  /// whether it was estimated, speed, course, altitude, arrival time and finally the reader's
  /// session ordinal (absent first). A total order on every field a row carries, so the same
  /// rows sort the same whatever order they were stored in, and exact duplicates end up side by
  /// side. NaN sorts after every number.
  ///
  /// - Parameter byArrival: sort by arrival time (`receivedAt`, or the timestamp when the feed
  ///   has none) first — the order a live feed delivers in (`replay`).
  @inlinable @inline(__always)
  public static func precedes(_ a: Self, _ b: Self, byArrival: Bool = false) -> Bool {
    if byArrival {
      let order = compare(a.sample.receivedAt ?? a.sample.timestamp, b.sample.receivedAt ?? b.sample.timestamp)
      if order != 0 { return order < 0 }
    }
    return compare(a, b) < 0
  }

  /// -1, 0 or 1 in the order of `precedes(_:_:)`.
  @inlinable @inline(__always)
  public static func compare(_ a: Self, _ b: Self) -> Int {
    var order = compare(a.sample.timestamp, b.sample.timestamp)
    if order != 0 { return order }
    order = compare(a.sample.latitude, b.sample.latitude)
    if order != 0 { return order }
    order = compare(a.sample.longitude, b.sample.longitude)
    if order != 0 { return order }
    return compareRest(a, b)
  }

  /// The tie-breaks after time and place, out of line: real rows rarely get this far.
  @usableFromInline
  static func compareRest(_ a: Self, _ b: Self) -> Int {
    var order = compare(a.sample.horizontalAccuracy, b.sample.horizontalAccuracy)
    if order != 0 { return order }
    if a.sample.horizontalAccuracyIsEstimated != b.sample.horizontalAccuracyIsEstimated {
      return a.sample.horizontalAccuracyIsEstimated ? 1 : -1
    }
    order = compare(a.sample.speed, b.sample.speed)
    if order != 0 { return order }
    order = compare(a.sample.course, b.sample.course)
    if order != 0 { return order }
    order = compare(a.sample.altitude, b.sample.altitude)
    if order != 0 { return order }
    order = compare(a.sample.receivedAt, b.sample.receivedAt)
    if order != 0 { return order }
    switch (a.session, b.session) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let x?, let y?): return x < y ? -1 : (x > y ? 1 : 0)
    }
  }

  @inlinable @inline(__always)
  static func compare(_ x: Double, _ y: Double) -> Int {
    if x < y { return -1 }
    if x > y { return 1 }
    if x == y { return 0 }
    // A NaN is involved: IEEE total order, which puts NaN after every number.
    if x.isTotallyOrdered(belowOrEqualTo: y) { return y.isTotallyOrdered(belowOrEqualTo: x) ? 0 : -1 }
    return 1
  }

  @usableFromInline
  static func compare(_ x: Double?, _ y: Double?) -> Int {
    switch (x, y) {
    case (nil, nil): 0
    case (nil, _): -1
    case (_, nil): 1
    case (let x?, let y?): compare(x, y)
    }
  }
}
