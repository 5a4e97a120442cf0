/// Capture-session ordinals numbered in order of first appearance (0, 1, 2, …), keyed by what
/// names a session in the feed: a CSV session cell's bytes, an OwnTracks tracker. The last key
/// is kept beside its ordinal, since consecutive records almost always share a session and a
/// reader can compare it before hashing anything.
struct SessionOrdinals<Key: Hashable> {
  private var ordinals: [Key: Int] = [:]
  /// The key looked up last; `noKey` before the first.
  private(set) var lastKey: Key
  /// The ordinal of `lastKey`; -1 before the first.
  private(set) var lastOrdinal = -1

  /// - Parameter noKey: what `lastKey` holds before the first lookup (a plain value, not
  ///   optional, so a reader's per-record comparison stays one load and compare).
  init(noKey: Key) { lastKey = noKey }

  /// The ordinal of `key` when it is the key looked up last (the common case), else nil. O(1)
  /// plus one comparison of keys.
  func lastOrdinal(ifLastKeyIs key: Key) -> Int? {
    lastOrdinal >= 0 && key == lastKey ? lastOrdinal : nil
  }

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
