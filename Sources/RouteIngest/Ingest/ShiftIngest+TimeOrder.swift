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

extension ShiftIngest {
  /// `.time`: passes each position on at once while the stream is in `TimeOrderedSample`
  /// order (a later timestamp, or the same one sorting after the previous position), counts an
  /// exact repeat of the previous position as `duplicate`, and notes the first position out of
  /// that order (`deliveredOutOfOrder`) — then the caller sorts the file.
  ///
  /// - Complexity: O(1); one comparison of timestamps for a position with a timestamp of its own.
  mutating func deliverInTimeOrder(_ item: TimeOrderedSample) {
    deliverInTimeOrder(item.sample, session: item.session)
  }

  /// `deliverInTimeOrder(_:)` of a sample and its reader session, as a reader hands them over:
  /// the pair is copied once, into `held`, and judged from there. A finite timestamp later than
  /// the previous position's, extending the current cluster, is the whole of this function;
  /// everything else (untimed, equal or earlier timestamps, a cluster opened or closed) is
  /// `deliverInTimeOrderSlowly`, out of line so the common case keeps a small frame.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func deliverInTimeOrder(_ sample: RouteSample, session: Int?) {
    let time = sample.timestamp
    // `time > previous` is false for NaN; +∞ and a first position take the slow path too.
    // `holding` is false once `deliveredOutOfOrder` is true.
    guard holding, time > held.sample.timestamp, time.isFinite else {
      return deliverInTimeOrderSlowly(sample, session: session)
    }
    held.sample = sample
    held.session = session
    // The common case, a cluster of two or more extended, admits `held` in place.
    if outliers.extendsCluster(at: time) { return admitHeld() }
    clusterHeldSlowly(at: time)
  }

  /// `deliverInTimeOrder(_:session:)` for a position that is not simply later than the one
  /// held: the first, an untimed one, one out of order, or one sharing the held timestamp.
  @inline(never)
  mutating func deliverInTimeOrderSlowly(_ sample: RouteSample, session: Int?) {
    guard !deliveredOutOfOrder else { return }
    let time = sample.timestamp
    guard time.isFinite else { return rejectUntimed(TimeOrderedSample(sample: sample, session: session)) }
    if holding {
      let previousTime = held.sample.timestamp
      if time < previousTime {
        deliveredOutOfOrder = true
        holding = false
        return
      }
      if time == previousTime {
        let item = TimeOrderedSample(sample: sample, session: session)
        if held.repeats(item) { return countDuplicate() }
        guard TimeOrderedSample.precedes(held, item) else {
          deliveredOutOfOrder = true
          holding = false
          return
        }
      }
    }
    held.sample = sample
    held.session = session
    holding = true
    if outliers.extendsCluster(at: time) { return admitHeld() }
    clusterHeldSlowly(at: time)
  }

  /// `clusterSlowly` of `held`, which opens a cluster or makes a single one two.
  @inline(never)
  mutating func clusterHeldSlowly(at time: Double) {
    let item = held
    clusterSlowly(item, at: time)
  }

  /// `admit(_:)` of `held`, judged in place rather than copied: its capture session is the
  /// minted one while the filter, the accumulator and the sink see it, then the reader's again,
  /// so the next position is compared with `held` as delivered.
  @inline(__always)
  mutating func admitHeld() {
    if hasTimeline { return admit(held) }
    noteTime(held.sample.timestamp)
    let delivered = held.sample.captureSession
    held.sample.captureSession = captureSession(for: held.session)
    let rejected = filter.take(&held.sample)
    if filter.keptStopFix {
      // A fix dropped during a stop, kept after all to carry continuity through it.
      accumulator.append(filter.stopFix.position, measured: filter.keptThroughStopMeasure)
      retainedSink.retain(filter.stopFix)
    }
    if rejected == nil {
      // The filter measured the step and the cosine when it retained the sample; reuse them.
      accumulator.append(held.sample.position, measured: filter.lastRetainedMeasure)
      if keepsRetained { retainedSink.retain(held.sample) }
    }
    held.sample.captureSession = delivered
  }

  mutating func countDuplicate() {
    counted.rejected[.duplicate, default: 0] += 1
  }

  /// `.timeSorted`: drops exact duplicates (neighbours in the sorted stream), then the outlier
  /// rule.
  mutating func deduplicateAndCluster(_ item: TimeOrderedSample) {
    // The timestamps first, read in place: only a neighbour at the same time is copied out to
    // be compared whole (copying every one went through a stack temporary whose wide reloads
    // waited on the narrower stores that had just filled it).
    if previousOrdered?.sample.timestamp == item.sample.timestamp, let previousOrdered, previousOrdered.repeats(item) {
      return countDuplicate()
    }
    previousOrdered = item
    cluster(item)
  }

  /// The time-outlier rule (`TimeOutlierRule`, the domain's) over the time-sorted,
  /// de-duplicated stream: admits positions to the filter and counts outliers as it says.
  ///
  /// - Complexity: O(1) amortised.
  @inline(__always)
  mutating func cluster(_ item: TimeOrderedSample) {
    let time = item.sample.timestamp
    if outliers.extendsCluster(at: time) { return admit(item) }
    clusterSlowly(item, at: time)
  }

  /// `cluster` when the position opens a cluster or makes a single one two.
  mutating func clusterSlowly(_ item: TimeOrderedSample, at time: Double) {
    switch outliers.take(item, at: time) {
    case .admit:
      admit(item)
    case .admitAfterHead(let head, let rejecting):
      for _ in 0..<rejecting { rejectOutlier() }
      admit(head)
      admit(item)
    case .held(let closed):
      settle(closed)
    }
  }

  /// Acts on what became of a single-position cluster.
  mutating func settle(_ closed: TimeOutlierRule<TimeOrderedSample>.ClosedSingle) {
    switch closed {
    case .none, .pending: break
    case .rejected: rejectOutlier()
    case .admitted(let single): admit(single)
    case .released(let singles): for single in singles { admit(single) }
    }
  }

  mutating func rejectOutlier() {
    counted.rejected[.timeOutlier, default: 0] += 1
  }

  /// The end of the sorted stream: the last cluster closes; single positions still pending are
  /// kept when the file had no cluster of two or more.
  mutating func finishOutliers() {
    let (closed, kept) = outliers.finish()
    settle(closed)
    for single in kept { admit(single) }
  }
}
