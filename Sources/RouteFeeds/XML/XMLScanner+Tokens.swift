/// The tokens the scanner reads in tight loops: text, names, attribute values. Each reads as far
/// as the chunk allows and leaves its progress in the scanner, so the next chunk resumes it.
extension XMLScanner {
  /// Passes over character data up to the next `<` or the chunk's end, counting its line
  /// breaks. The text of a needed value (`stopsAtAmpersand`) also stops at `&`, whose reference
  /// is decoded into the value; text nobody needs is skipped, references and all.
  ///
  /// `stopsAtAmpersand` is a constant at each call, so inlining leaves each loop only its own tests.
  @inline(__always)
  mutating func passText(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, stopsAtAmpersand: Bool) {
    var j = i
    while j < n {
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
