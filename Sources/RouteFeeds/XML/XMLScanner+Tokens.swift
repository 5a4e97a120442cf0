/// The tokens the scanner reads in tight loops: text, names, attribute values. Each reads as far
/// as the chunk allows and leaves its progress in the scanner, so the next chunk resumes it.
extension XMLScanner {
  /// Passes over character data up to the next `<` or the chunk's end, counting its line
  /// breaks. The text of a needed value (`stopsAtAmpersand`) also stops at `&`, whose reference
  /// is decoded into the value; text nobody needs is skipped, references and all.
  ///
  /// Eight bytes at a time while eight are left (`XMLText.notableBytes`): indentation and the
  /// digits of a value pass in one load and a few operations a word, and only a byte that
  /// matters (`<`, `&`, a control character) is looked at alone.
  /// `stopsAtAmpersand` is a constant at each call, so inlining leaves each loop only its own tests.
  ///
  /// - Complexity: O(*n*) in the bytes passed.
  @inline(__always)
  mutating func passText(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, stopsAtAmpersand: Bool) {
    var j = i
    while j < n {
      if j &+ 8 <= n {
        let word = UInt64(littleEndian: UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self))
        let notable = XMLText.notableBytes(word, ampersand: stopsAtAmpersand)
        if notable == 0 {
          j &+= 8
          continue
        }
        // The lowest flag always marks a notable byte (see `notableBytes`).
        j &+= notable.trailingZeroBitCount >> 3
      }
      let b = p[j]
      // Digits, `.`, `-` and `:` (most of a value) pass the first two tests.
      if b == .asciiLess { break }
      if b <= .asciiAmpersand {
        if stopsAtAmpersand, b == .asciiAmpersand { break }
        if b <= .asciiReturn { lineBreak(b, j) }
      }
      j += 1
    }
    i = j
  }

  /// The prolog and epilog: whitespace, and NUL padding a logger may leave at the end.
  mutating func skipOutsideRoot(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    while i < n {
      let b = p[i]
      if b == .asciiLess { return }
      guard Self.isWhitespace(b) || b == 0 else {
        throw fail(
          rootClosed
            ? "text after the end of the <\(Mapper.rootName)> element"
            : "text before the <\(Mapper.rootName)> element",
          line: line, into: &sink)
      }
      lineBreak(b, i)
      i += 1
    }
  }

  /// Reads name bytes into the name accumulators, up to the first other byte or the chunk's end:
  /// an element's into `nameHash`, `nameLength` and its local name's `localPrefix` and
  /// `localLength` (a `prefix:` starts the local name again); an attribute's (`isAttribute`)
  /// whole name into `attributePrefix` and `attributeLength`, unhashed.
  ///
  /// `isAttribute` is a constant at each call, so inlining leaves each loop only its own work.
  @inline(__always)
  mutating func readName(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, isAttribute: Bool) {
    var hash = nameHash
    var prefix = isAttribute ? attributePrefix : localPrefix
    var local = isAttribute ? attributeLength : localLength
    var j = i
    while j < n {
      let b = p[j]
      guard Self.isNameByte(b) else { break }
      if !isAttribute { hash = XMLName.mix(hash, b) }
      if !isAttribute, b == .asciiColon {
        prefix = 0
        local = 0
      } else {
        XMLName.pack(b, into: &prefix, length: &local)
      }
      j += 1
    }
    if isAttribute {
      attributePrefix = prefix
      attributeLength = local
    } else {
      nameLength &+= j - i
      nameHash = hash
      localPrefix = prefix
      localLength = local
    }
    i = j
  }

  /// After a start tag's name and `openElement`, or after an attribute value: `>`, `/>`,
  /// whitespace before attributes.
  @inline(__always)
  mutating func afterStartTagName(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    let b = p[i]
    if closesStartTag(b, &i) { return }
    guard Self.isWhitespace(b) else {
      throw fail("unexpected character in the tag <\(displayName)>", line: line, into: &sink)
    }
    state = .tagSpace
  }

  /// `>` ends the start tag being read and `/` begins its `/>`: true when `b`, at `i`, is one of
  /// them (`i` is then past it).
  @inline(__always)
  mutating func closesStartTag(_ b: UInt8, _ i: inout Int) -> Bool {
    if b == .asciiGreater {
      i += 1
      endStartTag(i)
      return true
    }
    if b == .asciiSlash {
      state = .emptyTagEnd
      i += 1
      return true
    }
    return false
  }

  /// At an attribute's opening quote: decides whether the reader needs its value.
  @inline(__always)
  mutating func beginAttributeValue(quote: UInt8) {
    self.quote = quote
    attributeTarget = mapper.attributeTarget(prefix: attributePrefix, length: attributeLength, in: tagRole)
    if attributeTarget != 0 { value.reset() }
  }

  /// Passes over an attribute value up to its closing quote, a `&` in a needed value, or the
  /// chunk's end; eight bytes at a time while eight are left, as `passText`.
  @inline(__always)
  mutating func readAttributeValue(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    let quote = quote
    let stopsAtAmpersand = attributeTarget != 0
    var j = i
    while j < n {
      if j &+ 8 <= n {
        let word = UInt64(littleEndian: UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self))
        let notable = XMLText.notableAttributeBytes(word, quote: quote)
        if notable == 0 {
          j &+= 8
          continue
        }
        j &+= notable.trailingZeroBitCount >> 3
      }
      let b = p[j]
      // Digits, `.` and `-` (most of a value) pass the first two tests.
      if b <= .asciiApostrophe {
        if b == quote { break }
        if b == .asciiAmpersand, stopsAtAmpersand { break }
        if b <= .asciiReturn { lineBreak(b, j) }
      } else if b == .asciiLess {
        i = j
        throw fail("“<” inside an attribute value of <\(displayName)>", line: line, into: &sink)
      }
      j += 1
    }
    i = j
  }

  /// At an attribute's closing quote (index `i`): hands a needed value to the mapper.
  @inline(__always)
  mutating func endAttributeValue(
    _ p: UnsafePointer<UInt8>, _ i: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    guard attributeTarget != 0 else { return }
    if let repeated = mapper.attribute(attributeTarget, &value, p, value.start, i) {
      throw fail("<\(displayName)> has its \(repeated) attribute twice", line: line, into: &sink)
    }
    attributeTarget = 0
  }
}

/// Character data eight bytes at a time.
enum XMLText {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// One flag (the byte's high bit) for each byte of `word` that text scanning must look at
  /// alone: `<`, a control character (line breaks among them) and, with `ampersand`, `&`.
  /// Another byte may be flagged too, but only above a notable one (a borrow carries upward
  /// only), so the lowest flag always marks a notable byte, and a word with no flag has none.
  ///
  /// - Complexity: O(1), about a dozen operations.
  @inline(__always) static func notableBytes(_ word: UInt64, ampersand: Bool) -> UInt64 {
    let control = (word &- ones &* 0x20) & ~word
    let less = word ^ (ones &* UInt64(UInt8.asciiLess))
    var flags = control | ((less &- ones) & ~less)
    if ampersand {
      let amp = word ^ (ones &* UInt64(UInt8.asciiAmpersand))
      flags |= (amp &- ones) & ~amp
    }
    return flags & highs
  }

  /// As `notableBytes`, for an attribute value closed by `quote`: the quote, `<`, `&` and a
  /// control character. (`&` is flagged whether or not the value is needed: a flagged byte is
  /// only looked at alone.)
  ///
  /// - Complexity: O(1).
  @inline(__always) static func notableAttributeBytes(_ word: UInt64, quote: UInt8) -> UInt64 {
    let quoted = word ^ (ones &* UInt64(quote))
    return notableBytes(word, ampersand: true) | ((quoted &- ones) & ~quoted & highs)
  }
}
