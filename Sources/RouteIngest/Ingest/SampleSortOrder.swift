import RouteMileage

/// The order a `SpillingSampleSorter` hands its samples back in.
enum SampleSortOrder {
  /// `TimeOrderedSample.precedes`: the order the filter judges a recorded file in.
  case time
  /// By arrival time first (`TimeOrderedSample.precedes(_:_:byArrival:)`): a live feed's order.
  case arrival
  /// `RouteMileageCalculator.walkOrder` of the positions (capture session set): the order the
  /// calculator walks a route measured with the filter off, so a sorted stream gives its figure.
  /// Positions equal in it are equal in every field the walk reads.
  case walk

  /// The field this order compares first: `a` precedes `b` whenever
  /// `firstField(of: a) < firstField(of: b)`; where the fields are equal or not numbers the full
  /// order decides. (Time and arrival compare it with `<`, walk order in IEEE total order, which
  /// agrees with `<` on numbers that are not equal.)
  @inline(__always)
  func firstField(of item: TimeOrderedSample) -> Double {
    switch self {
    case .time, .walk: item.sample.timestamp
    case .arrival: item.sample.receivedAt ?? item.sample.timestamp
    }
  }

  /// `firstField(of:)` of the `PackedSample` record at `record`, read without the rest.
  @inline(__always)
  func firstField(ofRecord record: UnsafeRawPointer) -> Double {
    switch self {
    case .time, .walk: PackedSample.timestamp(of: record)
    case .arrival: PackedSample.receivedAt(of: record) ?? PackedSample.timestamp(of: record)
    }
  }

  @inline(__always)
  func precedes(_ a: TimeOrderedSample, _ b: TimeOrderedSample) -> Bool {
    switch self {
    case .time: TimeOrderedSample.precedes(a, b)
    case .arrival: TimeOrderedSample.precedes(a, b, byArrival: true)
    case .walk: RouteMileageCalculator.walkOrder(a.sample.position, b.sample.position)
    }
  }
}
