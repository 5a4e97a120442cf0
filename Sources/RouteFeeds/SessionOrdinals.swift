/// Capture-session ordinals numbered in order of first appearance (0, 1, 2, …), keyed by what
/// names a session in the feed: a CSV session cell's bytes, an OwnTracks tracker. The last key
/// is kept beside its ordinal, since consecutive records almost always share a session and a
/// reader can compare it before hashing anything.
struct SessionOrdinals<Key: Hashable> {
  private var ordinals: [Key: Int] = [:]
  /// The key looked up last; nil before the first.
  private(set) var lastKey: Key?
  /// The ordinal of `lastKey`.
  private(set) var lastOrdinal = -1

  /// The ordinal of `key`, the next one when `key` is new.
  ///
  /// - Complexity: O(1) expected (one hash lookup); stores `key` the first time it is seen.
  mutating func ordinal(of key: Key) -> Int {
    let ordinal: Int
    if let known = ordinals[key] {
      ordinal = known
    } else {
      ordinal = ordinals.count
      ordinals[key] = ordinal
    }
    lastKey = key
    lastOrdinal = ordinal
    return ordinal
  }
}
