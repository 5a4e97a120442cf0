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
  var head: TimeOrderedSample?
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
  /// `.time`: passes positions on in time order, holding those that share the latest timestamp
  /// so they leave in `TimeOrderedSample` order; notes the first one that is earlier.
  mutating func deliverInTimeOrder(_ item: TimeOrderedSample) {
    guard !deliveredOutOfOrder else { return }
    let time = item.sample.timestamp
    guard time.isFinite else { return rejectUntimed(item) }
    guard let current = tieGroup.first?.sample.timestamp else {
      tieGroup.append(item)
      return
    }
    if time == current {
      guard tieGroup.count < Self.maximumTieGroup else {
        deliveredOutOfOrder = true
        return
      }
      tieGroup.append(item)
    } else if time < current {
      deliveredOutOfOrder = true
    } else if tieGroup.count == 1 {
      // The common case: each timestamp is new. Hand the held one on, hold this one.
      let held = tieGroup[0]
      tieGroup[0] = item
      deduplicateAndCluster(held)
    } else {
      flushTieGroup()
      tieGroup.append(item)
    }
  }

  mutating func flushTieGroup() {
    if tieGroup.count > 1 { tieGroup.sort { TimeOrderedSample.precedes($0, $1) } }
    for item in tieGroup { deduplicateAndCluster(item) }
    tieGroup.removeAll(keepingCapacity: true)
  }

  mutating func countDuplicate() {
    report.rejected[.duplicate, default: 0] += 1
  }

  /// The file rules over the time-sorted stream: drops exact duplicates, then applies the
  /// time-outlier rule, admitting positions to the filter in order.
  ///
  /// - Complexity: O(1) amortised.
  mutating func deduplicateAndCluster(_ item: TimeOrderedSample) {
    if let previousOrdered, previousOrdered == item { return countDuplicate() }
    previousOrdered = item
    let time = item.sample.timestamp
    if outliers.clusterCount > 0, time - outliers.lastTime <= outliers.separation {
      if outliers.clusterCount == 1, let head = outliers.head {
        outliers.head = nil
        if !outliers.seenMultiple {
          outliers.seenMultiple = true
          let singles = outliers.pendingSingles
          outliers.pendingSingles = []
          for _ in singles { rejectOutlier() }
        }
        admit(head)
      }
      outliers.clusterCount += 1
      admit(item)
    } else {
      if outliers.clusterCount == 1, let head = outliers.head { closeSingle(head) }
      outliers.head = item
      outliers.clusterCount = 1
    }
    outliers.lastTime = time
  }

  /// A cluster that ended with one position.
  mutating func closeSingle(_ single: TimeOrderedSample) {
    outliers.head = nil
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
    report.rejected[.timeOutlier, default: 0] += 1
  }

  /// The end of the sorted stream: the last cluster closes; single positions still pending are
  /// kept when the file had no cluster of two or more.
  mutating func finishOutliers() {
    if outliers.clusterCount == 1, let head = outliers.head { closeSingle(head) }
    outliers.clusterCount = 0
    let singles = outliers.pendingSingles
    outliers.pendingSingles = []
    for single in singles { admit(single) }
  }
}
