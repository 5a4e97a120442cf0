/// What the plain-record fast paths (GPX's `trkpt`, TCX's `Trackpoint`, KML's `when` and
/// `gx:coord`) read a record with: a position in the current chunk, moved over the record's
/// bytes in place, and the lines it crossed.
///
/// A plain record is the shape writers use for nearly every record: tags with known names
/// matched a word at a time against packed constants (`match`) instead of being hashed and
/// packed a byte at a time, attribute values and texts passed eight bytes at a time and parsed
/// where they lie, whitespace made of spaces, tabs and line breaks (LF, CR-LF and a lone CR,
/// counted as the scanner counts them). Each method returns false at the first thing it does
/// not read itself — `&`, a comment, CDATA, a processing instruction, a carriage return that
/// ends the chunk, the chunk's end within eight bytes — and the format's fast path then
/// declines the whole record before recording anything, so the general scanner reads it from
/// its `<` as if the fast path did not exist.
///
/// - Complexity: every method is O(*n*) in the bytes it passes; nothing allocates.
struct XMLPlainCursor {
  let base: UnsafePointer<UInt8>
  /// The chunk's end: no byte at or past it is read.
  let bound: Int
  /// The next byte to read.
  var index: Int
  /// Lines passed so far.
  var lines = 0

  @inline(__always) init(_ base: UnsafePointer<UInt8>, at index: Int, bound: Int) {
    self.base = base
    self.index = index
    self.bound = bound
  }

  /// The byte at `index`; requires `index < bound`.
  @inline(__always) var byte: UInt8 { base[index] }

  /// Eight bytes from `at`, little-endian; requires `at + 8 <= bound`.
  @inline(__always) func word(_ at: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
  }

  /// Whether the `count` (1 to 8) bytes at `index` are `packed` (little-endian, as
  /// `XMLName.key` packs a name); moves past them when they are. False too when fewer than eight
  /// bytes are left in the chunk.
  @inline(__always) mutating func match(_ packed: UInt64, _ count: Int) -> Bool {
    guard index &+ 8 <= bound else { return false }
    let mask: UInt64 = count >= 8 ? ~0 : (1 << (UInt64(count) &* 8)) &- 1
    guard word(index) & mask == packed else { return false }
    index &+= count
    return true
  }

  /// Moves past spaces, tabs and line breaks (eight at a time while eight are left), counting
  /// lines as the scanner does; true at any other byte, false at the chunk's end.
  @inline(__always) mutating func skipWhitespace() -> Bool {
    // Most calls stand at a tag or an attribute already.
    if index < bound, base[index] > .asciiSpace { return true }
    var j = index
    defer { index = j }
    while true {
      if j &+ 8 <= bound {
        // A byte of `x` is zero where the word has a space; `other` flags every other byte, exactly.
        let x = word(j) ^ (XMLText.ones &* 0x20)
        let other = (((x & ~XMLText.highs) &+ ~XMLText.highs) | x) & XMLText.highs
        if other == 0 {
          j &+= 8
          continue
        }
        j &+= other.trailingZeroBitCount >> 3
      } else if j >= bound {
        return false
      }
      let b = base[j]
      if b == .asciiNewline {
        lines &+= 1
      } else if b == .asciiReturn {
        guard passReturn(&j) else { return false }
      } else if b != .asciiTab && b != .asciiSpace {
        return true
      }
      j &+= 1
    }
  }

  /// `skipWhitespace` where one space is the usual whitespace (between attributes): that space
  /// is passed without the eight-byte scan.
  @inline(__always) mutating func skipSeparator() -> Bool {
    if index &+ 1 < bound, base[index] == .asciiSpace, base[index &+ 1] > .asciiSpace {
      index &+= 1
      return true
    }
    return skipWhitespace()
  }

  /// At a carriage return (`j`): counts one line as the scanner's `lineBreak` does (CR-LF is one
  /// line, a lone CR is one) and moves `j` onto the line feed after it, if any; false when the
  /// return is the chunk's last byte (the next chunk may start with its line feed).
  @inline(__always) mutating func passReturn(_ j: inout Int) -> Bool {
    guard j &+ 1 < bound else { return false }
    lines &+= 1
    if base[j &+ 1] == .asciiNewline { j &+= 1 }
    return true
  }

  /// Passes character data up to the next `<` (true, `index` at it), counting its lines (CR-LF
  /// and a lone CR as the scanner counts them): eight bytes at a time as `XMLScanner.passText`.
  /// False at the chunk's end and, with `ampersand`, at `&` (a reference the general scanner
  /// decodes).
  @inline(__always) mutating func passText(ampersand: Bool) -> Bool {
    var j = index
    defer { index = j }
    while true {
      if j &+ 8 <= bound {
        let notable = XMLText.notableBytes(word(j), ampersand: ampersand)
        if notable == 0 {
          j &+= 8
          continue
        }
        // The lowest flag always marks a notable byte.
        j &+= notable.trailingZeroBitCount >> 3
      } else if j >= bound {
        return false
      }
      let b = base[j]
      if b == .asciiLess { return true }
      if b <= .asciiAmpersand {
        if ampersand, b == .asciiAmpersand { return false }
        if b == .asciiNewline {
          lines &+= 1
        } else if b == .asciiReturn {
          guard passReturn(&j) else { return false }
        }
      }
      j &+= 1
    }
  }

  /// At an attribute's opening quote (`"` or `'`): passes its value and the closing quote and
  /// returns where the value lies, or nil when the value holds anything but plain bytes (`&`,
  /// `<`, a control byte: line breaks in a value are the general scanner's) or the chunk ends.
  @inline(__always) mutating func quotedValue() -> Range<Int>? {
    guard index < bound else { return nil }
    let quote = byte
    guard quote == .asciiQuote || quote == .asciiApostrophe else { return nil }
    let start = index &+ 1
    var j = start
    while true {
      if j &+ 8 <= bound {
        let notable = XMLText.notableAttributeBytes(word(j), quote: quote)
        if notable == 0 {
          j &+= 8
          continue
        }
        j &+= notable.trailingZeroBitCount >> 3
      } else if j >= bound {
        return nil
      }
      let b = base[j]
      if b == quote { break }
      if b == .asciiLess || b == .asciiAmpersand || b < .asciiSpace { return nil }
      j &+= 1
    }
    index = j &+ 1
    return start..<j
  }

  /// At an attribute's opening quote: when the value is exactly a plain number
  /// (`ByteNumberParser.plainNumber`), its value, read where it lies, and the cursor past the
  /// closing quote; nil, having moved nothing, otherwise (`quotedValue` then finds the value).
  /// The number is the one `XMLFieldParser.number(_:_:bound:)` gives for the range
  /// `quotedValue` returns: a plain number holds no byte that ends a value early.
  ///
  /// - Complexity: O(1) on the plain-number reader's fast path.
  @_transparent mutating func quotedPlainNumber() -> Double? {
    guard index &+ 2 < bound else { return nil }
    let quote = byte
    guard quote == .asciiQuote || quote == .asciiApostrophe else { return nil }
    var end = index &+ 1
    guard let value = ByteNumberParser.plainNumber(base, &end, bound: bound), end < bound, base[end] == quote else {
      return nil
    }
    index = end &+ 1
    return value
  }

  /// At the first byte of an element's text: when the text is exactly a plain number
  /// (`ByteNumberParser.plainNumber`) followed by a `<`, its value, read where it lies, and the
  /// cursor at the `<`; nil, having moved nothing, otherwise (`passText` then finds the text).
  /// The number is the one `XMLFieldParser.number(_:_:bound:)` gives for the range `passText`
  /// passes.
  ///
  /// - Complexity: O(1) on the plain-number reader's fast path.
  @_transparent mutating func plainNumberText() -> Double? {
    guard index < bound else { return nil }
    var end = index
    guard let value = ByteNumberParser.plainNumber(base, &end, bound: bound), end < bound, base[end] == .asciiLess
    else { return nil }
    index = end
    return value
  }

  /// At the first byte of an element's text: when it is a `Z` time on the day `cache` holds
  /// (`ISO8601DayCache.cachedDayZulu`) followed by a `<`, its seconds and the cursor at the `<`;
  /// nil, having moved nothing and changed nothing in the cache, otherwise. The seconds are the
  /// ones `XMLFieldParser.time(_:_:bound:cache:)` gives for the range `passText` passes.
  ///
  /// - Complexity: O(1).
  @inline(__always) mutating func cachedZuluText(_ cache: inout ISO8601DayCache) -> Double? {
    guard index &+ 24 <= bound, let (seconds, end) = cache.cachedDayZulu(base, at: index), end < bound,
      base[end] == .asciiLess
    else { return nil }
    index = end
    return seconds
  }

  /// At the `<` of an end tag: whether it is `</` followed by the `length` bytes at `name` and
  /// `>`; moves past it when it is. The bytes are compared, so a match is the very name the
  /// start tag had, which the general scanner would have matched too.
  @inline(__always) mutating func matchEndTag(name: Int, length: Int) -> Bool {
    let end = index &+ 2 &+ length
    guard end < bound, base[index &+ 1] == .asciiSlash, base[end] == .asciiGreater else { return false }
    if length <= 8, index &+ 10 <= bound {
      // One masked compare; `name` lies before `index`, so both loads are inside the chunk.
      let mask: UInt64 = length == 8 ? ~0 : (1 << (UInt64(length) &* 8)) &- 1
      guard (word(name) ^ word(index &+ 2)) & mask == 0 else { return false }
      index = end &+ 1
      return true
    }
    var offset = 0
    while offset &+ 8 <= length {
      guard word(name &+ offset) == word(index &+ 2 &+ offset) else { return false }
      offset &+= 8
    }
    while offset < length {
      guard base[name &+ offset] == base[index &+ 2 &+ offset] else { return false }
      offset &+= 1
    }
    index = end &+ 1
    return true
  }

  /// Reads a start tag with no attributes, `<name>`, whose name is not the `record`'s (the
  /// scanner counts such an element where it is skipped) and, unless `prefixed`, has no
  /// namespace prefix (a prefixed name may be a field in disguise); returns where its name
  /// lies, and its local name packed as the scanner packs it. Nil for anything else.
  @inline(__always) mutating func plainStartTag(
    record: UInt64, recordLength: Int, prefixed: Bool
  ) -> (range: Range<Int>, packed: UInt64, length: Int)? {
    let start = index &+ 1
    guard start < bound, XMLName.isStart(base[start]) else { return nil }
    var j = start
    var packed: UInt64 = 0
    var length = 0
    while j < bound {
      let b = base[j]
      guard XMLName.isByte(b) else { break }
      if b == .asciiColon {
        guard prefixed else { return nil }
        packed = 0
        length = 0
      } else {
        XMLName.pack(b, into: &packed, length: &length)
      }
      j &+= 1
    }
    guard j < bound, base[j] == .asciiGreater, length > 0 else { return nil }
    guard length != recordLength || packed != record else { return nil }
    index = j &+ 1
    return (start..<j, packed, length)
  }

  /// Passes an element the reader skips, from the `<` of its start tag to past its end tag:
  /// text and, nested up to `depth` levels, elements of the same plain shape (no attributes,
  /// comments, CDATA or references; a prefixed name is fine: nothing inside is read). False for
  /// anything else, an element named as the `record` is, or one whose local name (packed, and
  /// its length) `isRead` says the mapper reads in this place: asking the mapper's own table
  /// keeps a field added to it from being skipped here.
  mutating func skipElement(
    record: UInt64, recordLength: Int, prefixed: Bool, depth: Int, isRead: (UInt64, Int) -> Bool = { _, _ in false }
  ) -> Bool {
    guard let name = plainStartTag(record: record, recordLength: recordLength, prefixed: prefixed),
      !isRead(name.packed, name.length)
    else { return false }
    while true {
      guard passText(ampersand: false), index &+ 1 < bound else { return false }
      if base[index &+ 1] == .asciiSlash {
        return matchEndTag(name: name.range.lowerBound, length: name.range.count)
      }
      guard depth > 0, skipElement(record: record, recordLength: recordLength, prefixed: true, depth: depth - 1)
      else { return false }
    }
  }
}
