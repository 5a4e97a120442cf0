/// Eight bytes at a time, for the scans every byte of a log goes through (line ends,
/// checksums): a word test replaces eight byte tests on the common path.
///
/// The tests are exact about whether a word holds such a byte, not about where; callers fall
/// back to bytes for the word that matched. Byte order does not matter to them.
enum NMEAWords {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  @inline(__always)
  static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
    UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
  }

  /// Non-zero when a byte of `word` is outside printable ASCII (0x20–0x7E): below 0x20 the
  /// subtraction borrows, 0x7F becomes 0x80 when incremented, and 0x80 and above have the high
  /// bit already.
  @inline(__always)
  static func unprintable(_ word: UInt64) -> UInt64 {
    (((word &- 0x20 &* ones) & ~word) | word | (word &+ ones)) & highs
  }

  /// Non-zero when a byte of `word` equals `byte`.
  @inline(__always)
  static func contains(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & highs
  }

  /// Non-zero when a byte of `word` is below `limit` (at most 0x80), for a word of bytes below
  /// 0x80: one subtraction tests all eight. With `limit` 0x2B it finds `!`, `$` and `*` (the
  /// bytes that end a checksummed span) among printable ASCII, with a few rarer bytes (space,
  /// `"`, `#`, `%` to `)`) that only send the caller to its byte loop.
  @inline(__always)
  static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// Non-zero when a byte of `word` is below 0x2B or above 0x7E: the bytes that end the span a
  /// checksum covers (`*`, `$`, `!`), line ends and every other control, space and non-ASCII
  /// byte, in one test. As in `unprintable`, the lowest flagged byte (in little-endian order) is
  /// exact: a borrow or carry only reaches the bytes after it.
  @inline(__always)
  static func stops(_ word: UInt64) -> UInt64 {
    (((word &- 0x2B &* ones) & ~word) | word | (word &+ ones)) & highs
  }

  /// The XOR of a word's eight bytes.
  @inline(__always)
  static func foldXOR(_ word: UInt64) -> UInt8 {
    var x = word
    x ^= x >> 32
    x ^= x >> 16
    x ^= x >> 8
    return UInt8(truncatingIfNeeded: x)
  }
}
