import RouteFeeds
import RouteMileage

/// A live feed's positions in the order they would have reached the recorder: by arrival time
/// (`receivedAt`) where the feed carries one, by timestamp otherwise, ties broken as
/// `TimeOrderedSample` orders them. `replay` plays a recorded feed in this order. Memory is
/// bounded as `SpillingSampleSorter`'s.
public struct ArrivalOrderSorter {
  var sorter: SpillingSampleSorter
  var cursor: SortedSamples?

  public init(runLimit: Int = 1 << 20) {
    sorter = SpillingSampleSorter(runLimit: runLimit, order: .arrival)
  }

  /// Adds one position with its reader session ordinal.
  public mutating func append(_ sample: RouteSample, session: Int?) throws(FeedError) {
    try sorter.append(TimeOrderedSample(sample: sample, session: session))
  }

  /// The next position in arrival order; the first call ends the appending.
  public mutating func next() throws(FeedError) -> (sample: RouteSample, session: Int?)? {
    if cursor == nil { cursor = try sorter.sorted() }
    guard let item = try cursor?.next() else { return nil }
    return (item.sample, item.session)
  }
}
