/// What a pickup place's recorded waits say (seed 003), derived on demand and stored nowhere:
/// their count, median, shortest and longest. Nothing else — no ranking, no score, no aggregate
/// across places.
///
/// A wait is pickedUp − arrivedAtPickup of one delivery that recorded both (`Delivery
/// .waitedAtPickupSeconds`); a delivery missing either end contributes nothing.
public struct PickupWaitHistory: Sendable, Hashable {
  public let count: Int
  /// The middle wait; for an even count the mean of the two middle waits. Nil with no waits.
  public let medianSeconds: Double?
  public let shortestSeconds: Double?
  public let longestSeconds: Double?

  /// The history of `waits`, in any order.
  ///
  /// - Complexity: O(*n* log *n*).
  public init(waits: some Sequence<Double>) {
    let sorted = waits.filter(\.isFinite).sorted()
    count = sorted.count
    shortestSeconds = sorted.first
    longestSeconds = sorted.last
    if sorted.isEmpty {
      medianSeconds = nil
    } else if sorted.count % 2 == 1 {
      medianSeconds = sorted[sorted.count / 2]
    } else {
      medianSeconds = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
  }

  /// The history of the place keyed `key` over `deliveries` (any shifts).
  ///
  /// - Complexity: O(*n* log *n*).
  public init(place key: String, in deliveries: some Sequence<Delivery>) {
    self.init(waits: deliveries.lazy.filter { $0.place?.key == key }.compactMap(\.waitedAtPickupSeconds))
  }
}
