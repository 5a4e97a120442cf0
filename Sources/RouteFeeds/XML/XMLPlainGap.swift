/// The whitespace a writer puts between two plain records (a line break and the indentation,
/// the same every time), kept so a fast path that has read one record passes it with two word
/// compares and reads the next record in the same call, instead of going back to the scanner
/// between them.
///
/// Passing the gap is what the scanner would do with it: whitespace inside the record's parent
/// is character data it passes without reading, counting its lines. A gap is at most 16 bytes
/// (longer ones go back to the scanner) and is followed by `<`.
///
/// - Complexity: O(1) when the gap is the one kept; O(*n*) in the gap's length when it is learnt.
struct XMLPlainGap {
  /// The gap's bytes, packed little-endian, the masks that keep them from two words, and how
  /// many there are (-1: none kept).
  private var packed: (UInt64, UInt64) = (0, 0)
  private var masks: (UInt64, UInt64) = (0, 0)
  private var length = -1
  private var lines = 0

  /// Passes the whitespace at `c.index` up to the next `<`, counting its lines, when it is at
  /// most 16 bytes and the chunk holds 24 bytes from its start; false, the cursor unchanged,
  /// otherwise. A gap unlike the one kept is learnt in its place.
  @inline(__always)
  mutating func pass(_ c: inout XMLPlainCursor) -> Bool {
    guard c.index &+ 24 <= c.bound else { return false }
    let first = c.word(c.index)
    let second = c.word(c.index &+ 8)
    if length >= 0, (first & masks.0) ^ packed.0 | (second & masks.1) ^ packed.1 == 0,
      c.base[c.index &+ length] == .asciiLess
    {
      c.index &+= length
      c.lines &+= lines
      return true
    }
    return learn(&c, first, second)
  }

  /// Takes the gap at `c.index` as the one kept and passes it, if it is one.
  private mutating func learn(_ c: inout XMLPlainCursor, _ first: UInt64, _ second: UInt64) -> Bool {
    var end = c.index
    var count = 0
    while end &- c.index <= 16 {
      let byte = c.base[end]
      if byte == .asciiLess { break }
      guard XMLFieldParser.isWhitespace(byte) else { return false }
      // CR-LF is one line break; the gap starts after `>`, so a line feed first is one too.
      if byte == .asciiReturn || (byte == .asciiNewline && (end == c.index || c.base[end &- 1] != .asciiReturn)) {
        count &+= 1
      }
      end &+= 1
    }
    let gap = end &- c.index
    guard gap <= 16 else { return false }
    func mask(_ bytes: Int) -> UInt64 { bytes >= 8 ? ~0 : bytes <= 0 ? 0 : (1 << (UInt64(bytes) &* 8)) &- 1 }
    masks = (mask(gap), mask(gap &- 8))
    packed = (first & masks.0, second & masks.1)
    length = gap
    lines = count
    c.index = end
    c.lines &+= count
    return true
  }
}
