/// The tokens the scanner reads in tight loops: text, names, attribute values. Each reads as far
/// as the chunk allows and leaves its progress in the scanner, so the next chunk resumes it.
extension XMLScanner {
  /// Skips character data nobody needs, up to the next `<` or the chunk's end.
  @inline(__always)
  mutating func skipText(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) {
    var j = i
    while j < n {
      let b = p[j]
      if b == .asciiLess { break }
      if b <= .asciiReturn { lineBreak(b, j) }
      j += 1
    }
    i = j
  }

  /// Passes over the text of a needed value, up to `<`, `&` or the chunk's end.
  @inline(__always)
  mutating func readText(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) {
    var j = i
    while j < n {
      let b = p[j]
      // Digits, `.`, `-` and `:` (most of a value) pass the first two tests.
      if b == .asciiLess { break }
      if b <= .asciiAmpersand {
        if b == .asciiAmpersand { break }
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

  /// Reads name bytes into the name accumulators, up to the first other byte or the chunk's end.
  @inline(__always)
  mutating func readName(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) {
    var hash = nameHash
    var prefix = localPrefix
    var local = localLength
    var j = i
    while j < n {
      let b = p[j]
      guard Self.isNameByte(b) else { break }
      hash = XMLName.mix(hash, b)
      if b == .asciiColon {
        prefix = 0
        local = 0
      } else {
        if local < 8 { prefix |= UInt64(b) << (UInt64(local) &* 8) }
        local &+= 1
      }
      j += 1
    }
    nameLength &+= j - i
    nameHash = hash
    localPrefix = prefix
    localLength = local
    i = j
  }

  @inline(__always)
  mutating func readAttributeName(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) {
    var prefix = attributePrefix
    var length = attributeLength
    var j = i
    while j < n {
      let b = p[j]
      guard Self.isNameByte(b) else { break }
      if length < 8 { prefix |= UInt64(b) << (UInt64(length) &* 8) }
      length &+= 1
      j += 1
    }
    attributePrefix = prefix
    attributeLength = length
    i = j
  }

  /// After a start tag's name and `openElement`: `>`, `/>`, whitespace before attributes.
  @inline(__always)
  mutating func afterStartTagName(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    let b = p[i]
    if b == .asciiGreater {
      i += 1
      endStartTag(i)
    } else if b == .asciiSlash {
      state = .emptyTagEnd
      i += 1
    } else if Self.isWhitespace(b) {
      state = .tagSpace
    } else {
      throw fail("unexpected character in the tag <\(displayName)>", line: line, into: &sink)
    }
  }

  /// At an attribute's opening quote: decides whether the reader needs its value.
  @inline(__always)
  mutating func beginAttributeValue(quote: UInt8) {
    self.quote = quote
    attributeTarget = mapper.attributeTarget(prefix: attributePrefix, length: attributeLength, in: tagRole)
    if attributeTarget != 0 { value.reset() }
  }

  /// Passes over an attribute value up to its closing quote, a `&` in a needed value, or the
  /// chunk's end.
  @inline(__always)
  mutating func readAttributeValue(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    let quote = quote
    let stopsAtAmpersand = attributeTarget != 0
    var j = i
    while j < n {
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
