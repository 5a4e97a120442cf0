import RouteFeeds
import RouteMileage

extension FeedReason {
  /// A position equal in every field, session included, to another of the same file: counted
  /// once, measured once.
  public static let duplicate = FeedReason("duplicate")
  /// A position alone in time, more than a day (`IngestSettings.timeOutlierSeparation`) from
  /// every other position of a file that has a stretch of two or more (see `ShiftIngest`).
  public static let timeOutlier = FeedReason("timeOutlier")
}

/// The time-outlier rule's state over a time-sorted stream (see `ShiftIngest`): the current
/// cluster's first position while it is alone, and the single-position clusters met before the
/// file's first cluster of two or more.
struct TimeOutlierState {
  static let maximumPendingSingles = 1_024
  let separation: Double
  /// Valid while `clusterCount == 1`.
  var head = TimeOrderedSample.blank
  var clusterCount = 0
  var lastTime = -Double.infinity
  var seenMultiple = false
  var keepSingles = false
  var pendingSingles: [TimeOrderedSample] = []

  init(separation: Double) {
    self.separation = separation
  }
}

extension ShiftIngest {
  /// `.time`: passes each position on at once while the stream is in `TimeOrderedSample`
  /// order (a later timestamp, or the same one sorting after the previous position), counts an
  /// exact repeat of the previous position as `duplicate`, and notes the first position out of
  /// that order (`deliveredOutOfOrder`) — then the caller sorts the file.
  ///
  /// - Complexity: O(1); one comparison of timestamps for a position with a timestamp of its own.
  @inline(__always)
  mutating func deliverInTimeOrder(_ item: TimeOrderedSample) {
    guard !deliveredOutOfOrder else { return }
    let time = item.sample.timestamp
    guard time.isFinite else { return rejectUntimed(item) }
    if holding {
      let previousTime = held.sample.timestamp
      if time < previousTime {
        deliveredOutOfOrder = true
        return
      }
      if time == previousTime {
        if held == item { return countDuplicate() }
        guard TimeOrderedSample.precedes(held, item) else {
          deliveredOutOfOrder = true
          return
        }
      }
    }
    held = item
    holding = true
    cluster(item)
  }

  mutating func countDuplicate() {
    counted.rejected[.duplicate, default: 0] += 1
  }

  /// `.timeSorted`: drops exact duplicates (neighbours in the sorted stream), then the outlier
  /// rule.
  mutating func deduplicateAndCluster(_ item: TimeOrderedSample) {
    if let previousOrdered, previousOrdered.sample.timestamp == item.sample.timestamp, previousOrdered == item {
      return countDuplicate()
    }
    previousOrdered = item
    cluster(item)
  }

  /// The time-outlier rule over the time-sorted, de-duplicated stream, admitting positions to
  /// the filter in order.
  ///
  /// - Complexity: O(1) amortised.
  @inline(__always)
  mutating func cluster(_ item: TimeOrderedSample) {
    let time = item.sample.timestamp
    if outliers.clusterCount > 1, time - outliers.lastTime <= outliers.separation {
      outliers.clusterCount += 1
      outliers.lastTime = time
      return admit(item)
    }
    if outliers.clusterCount == 1, time - outliers.lastTime <= outliers.separation {
      let head = outliers.head
      if !outliers.seenMultiple {
        outliers.seenMultiple = true
        let singles = outliers.pendingSingles.count
        outliers.pendingSingles = []
        for _ in 0..<singles { rejectOutlier() }
      }
      admit(head)
      outliers.clusterCount = 2
      outliers.lastTime = time
      return admit(item)
    }
    if outliers.clusterCount == 1 { closeSingle(outliers.head) }
    outliers.head = item
    outliers.clusterCount = 1
    outliers.lastTime = time
  }

  /// A cluster that ended with one position.
  mutating func closeSingle(_ single: TimeOrderedSample) {
    if outliers.seenMultiple { return rejectOutlier() }
    if outliers.keepSingles { return admit(single) }
    outliers.pendingSingles.append(single)
    if outliers.pendingSingles.count >= TimeOutlierState.maximumPendingSingles {
      outliers.keepSingles = true
      let singles = outliers.pendingSingles
      outliers.pendingSingles = []
      for pending in singles { admit(pending) }
    }
  }

  mutating func rejectOutlier() {
    counted.rejected[.timeOutlier, default: 0] += 1
  }

  /// The end of the sorted stream: the last cluster closes; single positions still pending are
  /// kept when the file had no cluster of two or more.
  mutating func finishOutliers() {
    if outliers.clusterCount == 1 { closeSingle(outliers.head) }
    outliers.clusterCount = 0
    let singles = outliers.pendingSingles
    outliers.pendingSingles = []
    for single in singles { admit(single) }
  }
}
