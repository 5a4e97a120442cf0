/// The values of one kind that wait in a `KMLTrackPairing` for their partners, first in, first
/// out: `when`s waiting for `gx:coord`s, or `gx:coord`s for `when`s. Both kinds queue the same
/// way, so the pairing's two sides share this.
///
/// A value that finds the queue empty waits in `first`, outside the array: an interleaved track
/// (one value waiting at a time) never touches the array. Behind it, taking from the front
/// moves a head index rather than shifting the array; once everything is taken the storage is
/// emptied (keeping its capacity).
///
/// - Complexity: O(1) amortised per value.
struct KMLPendingQueue<Value> {
  /// The oldest value waiting, when it came to an empty queue.
  private var first: Value?
  private var values: [Value] = []
  private var head = 0

  /// Values waiting.
  @inline(__always) var count: Int { (first == nil ? 0 : 1) + values.count - head }
  var isEmpty: Bool { first == nil && head == values.count }
  /// The values waiting, oldest first.
  var waiting: [Value] { (first.map { [$0] } ?? []) + values[head...] }

  @inline(__always) mutating func append(_ value: Value) {
    if isEmpty {
      first = value
    } else {
      values.append(value)
    }
  }

  /// The oldest value waiting, taken out; nil when none is.
  @inline(__always)
  mutating func takeFirst() -> Value? {
    if let value = first {
      first = nil
      return value
    }
    guard head < values.count else { return nil }
    let value = values[head]
    head += 1
    if head == values.count {
      values.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// Drops every value and the storage.
  mutating func removeAll() {
    first = nil
    values.removeAll(keepingCapacity: false)
    head = 0
  }
}
