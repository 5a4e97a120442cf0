/// The values of one kind that wait in a `KMLTrackPairing` for their partners, first in, first
/// out: `when`s waiting for `gx:coord`s, or `gx:coord`s for `when`s. Both kinds queue the same
/// way, so the pairing's two sides share this.
///
/// Taking from the front moves a head index rather than shifting the array; once everything is
/// taken the storage is emptied (keeping its capacity), so an interleaved track never holds
/// more than one value.
///
/// - Complexity: O(1) amortised per value.
struct KMLPendingQueue<Value> {
  private var values: [Value] = []
  private var head = 0

  /// Values waiting.
  @inline(__always) var count: Int { values.count - head }
  var isEmpty: Bool { head == values.count }
  /// The values waiting, oldest first.
  var waiting: ArraySlice<Value> { values[head...] }

  @inline(__always) mutating func append(_ value: Value) { values.append(value) }

  /// The oldest value waiting, taken out; nil when none is.
  @inline(__always)
  mutating func takeFirst() -> Value? {
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
    values.removeAll(keepingCapacity: false)
    head = 0
  }
}
