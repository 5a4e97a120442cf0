/// Numbers keys 0, 1, 2… in the order they are first seen: the one rule by which a feed's capture
/// sessions are numbered (a CSV's session column, an OwnTracks tracker) and by which the ingest
/// gives each reader session its own capture session.
///
/// It remembers the last key asked about, because consecutive rows almost always share a
/// session: a run of rows costs one comparison, a new key one hash lookup. A caller with a cheaper
/// test than `==` for its key (a CSV compares the raw bytes a word at a time before building the
/// key) reads `lastKey` first. O(1) expected per key.
public struct FirstSeenOrdinals<Key: Hashable> {
  @usableFromInline var ordinals: [Key: Int] = [:]
  /// The last key asked about (nil before the first), and its ordinal (-1 before the first).
  /// Separate stored values, so a caller can read the key in place without copying it.
  public private(set) var lastKey: Key?
  public private(set) var lastOrdinal = -1

  public init() {}

  /// How many distinct keys have been seen.
  @inlinable public var count: Int { ordinals.count }

  /// The ordinal of `key`, and whether this is the first time it was seen (so the caller can
  /// name or mint what belongs to it once).
  @inlinable
  public mutating func ordinal(of key: Key) -> (ordinal: Int, isNew: Bool) {
    if lastKey == key { return (lastOrdinal, false) }
    let ordinal: Int
    let isNew: Bool
    if let known = ordinals[key] {
      ordinal = known
      isNew = false
    } else {
      ordinal = ordinals.count
      ordinals[key] = ordinal
      isNew = true
    }
    remember(key, ordinal)
    return (ordinal, isNew)
  }

  @usableFromInline
  mutating func remember(_ key: Key, _ ordinal: Int) {
    lastKey = key
    lastOrdinal = ordinal
  }

  /// Forgets every key: the next one seen is 0 again.
  public mutating func removeAll() {
    ordinals.removeAll()
    lastKey = nil
    lastOrdinal = -1
  }
}

extension FirstSeenOrdinals: Sendable where Key: Sendable {}
