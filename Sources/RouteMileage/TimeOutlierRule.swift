/// The time-outlier rule over a recorded file's positions in time order (duplicates already
/// dropped): they fall into *time clusters*, maximal runs in which each is at most `separation`
/// (24 h by default) after the one before. A cluster of a single position is a time outlier, and
/// rejected, when the file has a cluster of two or more positions — one row dated 2100 in a 2025
/// drive costs only itself. When the first `maximumPendingSingles` clusters are all single
/// positions, those are kept: such a file has no main stretch for them to stray from.
///
/// The rule decides; the caller acts: `take(_:at:)` and `finish()` say which positions to admit
/// and how many to reject, in the order the caller must do it. Any permutation of the same rows,
/// sorted, gives the same answers.
///
/// - Complexity: O(1) amortised per position; memory O(`maximumPendingSingles`) at most.
public struct TimeOutlierRule<Item: Sendable>: Sendable {
  /// How many single-position clusters are held, waiting for a cluster of two, before they are
  /// all kept.
  public static var maximumPendingSingles: Int { 1_024 }
  /// Seconds; `.infinity` turns the rule off (one cluster).
  public let separation: Double
  /// The current cluster's first position while it is alone (`clusterCount == 1`).
  @usableFromInline var head: Item?
  /// The current cluster's size, 0, 1 or 2, where 2 stands for two or more: the rule never
  /// needs more, so a position extending a long cluster costs no count.
  @usableFromInline var clusterCount = 0
  @usableFromInline var lastTime = -Double.infinity
  @usableFromInline var seenMultiple = false
  @usableFromInline var keepSingles = false
  @usableFromInline var pendingSingles: [Item] = []

  public init(separation: Double = 86_400) {
    self.separation = separation
  }

  /// What the caller does with a position it gave `take(_:at:)`.
  public enum Step {
    /// Admit it now.
    case admit
    /// Its cluster reached two: reject `rejecting` earlier single positions (outliers), admit
    /// `head` (the cluster's first position), then admit it.
    case admitAfterHead(Item, rejecting: Int)
    /// It opens a cluster and is held; the cluster before it, if it was a single position,
    /// closed with `closed`.
    case held(closed: ClosedSingle)
  }

  /// What became of a single-position cluster when it closed.
  public enum ClosedSingle {
    /// There was none (the cluster before had two or more positions, or there was none).
    case none
    /// Rejected: a time outlier (the file has a cluster of two or more).
    case rejected
    /// Admit it: the file's first clusters were all single, so singles are kept.
    case admitted(Item)
    /// Held until the rule knows whether the file has a cluster of two or more.
    case pending
    /// Admit these in order (the pending singles, it last): too many single clusters to hold.
    case released([Item])
  }

  /// The common case, asked first on the hot path: whether the next position in time order, at
  /// `time`, extends a cluster of two or more. Then it is admitted and the rule has noted it;
  /// otherwise nothing changed and `take(_:at:)` decides. O(1).
  @inlinable @inline(__always)
  public mutating func extendsCluster(at time: Double) -> Bool {
    guard clusterCount > 1, time - lastTime <= separation else { return false }
    lastTime = time
    return true
  }

  /// The rule's answer for the next position in time order, at `time` (finite).
  ///
  /// - Complexity: O(1); O(`maximumPendingSingles`) once, when the first cluster of two forms.
  public mutating func take(_ item: Item, at time: Double) -> Step {
    if extendsCluster(at: time) { return .admit }
    return takeSlowly(item, at: time)
  }

  /// `take(_:at:)` when the position does not simply extend a cluster of two or more.
  mutating func takeSlowly(_ item: Item, at time: Double) -> Step {
    if clusterCount == 1, time - lastTime <= separation {
      var rejecting = 0
      if !seenMultiple {
        seenMultiple = true
        rejecting = pendingSingles.count
        pendingSingles = []
      }
      let first = head!
      head = nil
      clusterCount = 2
      lastTime = time
      return .admitAfterHead(first, rejecting: rejecting)
    }
    var closed = ClosedSingle.none
    if clusterCount == 1, let single = head { closed = close(single) }
    head = item
    clusterCount = 1
    lastTime = time
    return .held(closed: closed)
  }

  /// A cluster that ended with one position.
  mutating func close(_ single: Item) -> ClosedSingle {
    if seenMultiple { return .rejected }
    if keepSingles { return .admitted(single) }
    pendingSingles.append(single)
    guard pendingSingles.count >= Self.maximumPendingSingles else { return .pending }
    keepSingles = true
    let singles = pendingSingles
    pendingSingles = []
    return .released(singles)
  }

  /// The end of the stream: the last cluster closes (`closed`), then the single positions still
  /// pending are admitted in order (`kept`: the file had no cluster of two or more).
  ///
  /// - Complexity: O(`maximumPendingSingles`).
  public mutating func finish() -> (closed: ClosedSingle, kept: [Item]) {
    var closed = ClosedSingle.none
    if clusterCount == 1, let single = head { closed = close(single) }
    head = nil
    clusterCount = 0
    let singles = pendingSingles
    pendingSingles = []
    return (closed, singles)
  }
}
