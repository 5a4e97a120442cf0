/// The streaming XML scanner GPX, TCX and KML share: one pass over bytes, resumable between any
/// two of them.
///
/// It is a state machine (`XMLScanState`), not a recursive parser: each state runs a tight loop
/// over as many bytes as it can take, so a token costs one dispatch and its bytes one compare or
/// two each. Nothing is copied except the few values the reader needs when they straddle a
/// chunk (`XMLValueBuffer`), and no byte is looked at twice. Element names are never stored:
/// each is hashed (to match its closing tag) and the first eight bytes of its local name packed
/// (to recognise it) as it is read. Memory is therefore constant whatever the input: the value
/// buffer (1 KB) and the element stack (at most 160 KB).
///
/// It checks the well-formedness rules that cost nothing on the way (see `GPXReader`) and hands
/// the elements that matter to the format's `Mapper` (`GPXTrackBuilder`, `TCXTrackBuilder`,
/// `KMLTrackBuilder`), which only maps elements to samples and sessions. The mapper is a generic
/// parameter, so each reader gets its own specialised copy of the loop: no dynamic dispatch.
struct XMLScanner<Mapper: XMLDocumentMapper> {
  // Where in the grammar.
  var state = XMLScanState.start
  /// Where a comment, processing instruction or entity reference returns to.
  var returnState = XMLScanState.content
  /// Bytes matched of a byte-order mark, or `-` / `]` / `?` seen at the end of a comment,
  /// CDATA section or processing instruction, or bytes matched of a `<!` keyword.
  var run = 0
  var keyword = XMLKeyword.comment

  // Lines: `\n`, `\r\n` and a lone `\r` each end one (XML's end-of-line rule).
  var line = 1
  /// The line of the last `<`: where the tag being read begins.
  var tagLine = 1
  /// Bytes in the chunks before the current one.
  var chunkOffset = 0
  var lastCarriageReturn = -2
  var endsWithLineBreak = false

  // The name being read.
  var nameHash = XMLName.hashSeed
  var localPrefix: UInt64 = 0
  var localLength = 0
  var nameLength = 0

  // Elements.
  var stack = XMLElementStack<Mapper.Role>()
  /// Depth of the outermost skipped element the scanner is inside; 0 when none.
  var skipDepth = 0
  var rootOpened = false
  var rootClosed = false
  /// The role of the element whose start tag is being read.
  var tagRole = Mapper.Role.skipped
  /// Whether character data is part of a value the reader needs.
  var collecting = false
  /// Whether character data goes to the mapper piece by piece (`XMLRole.streamsText`).
  var streaming = false

  // Attributes.
  var attributePrefix: UInt64 = 0
  var attributeLength = 0
  /// 0: not needed; 1: the point's `lat`; 2: its `lon`.
  var attributeTarget: UInt8 = 0
  var quote: UInt8 = 0

  // The DOCTYPE being skipped.
  var doctypeQuote: UInt8 = 0
  var doctypeSubset = false
  /// Progress through `<!--` or `<?` inside the internal subset (1: `<`, 2: `<!`, 3: `<!-`).
  var doctypeMarkup = 0

  var entity = XMLEntityReference()
  var value = XMLValueBuffer()
  var mapper = Mapper()
  /// The error that stopped the scan; it is thrown again if the caller goes on.
  var failure: FeedError?

  // MARK: Bytes

  @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == .asciiSpace || byte == .asciiNewline || byte == .asciiTab || byte == .asciiReturn
  }

  /// Letters, `_`, `:` and every non-ASCII byte (XML's name-start characters, leniently).
  @inline(__always) static func isNameStart(_ byte: UInt8) -> Bool { XMLName.isStart(byte) }

  /// Name-start bytes plus digits, `-` and `.`.
  @inline(__always) static func isNameByte(_ byte: UInt8) -> Bool { XMLName.isByte(byte) }

  /// Moves `i` past XML whitespace, counting the line breaks it crosses.
  @inline(__always) mutating func skipWhitespace(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) {
    while i < n {
      let b = p[i]
      guard Self.isWhitespace(b) else { return }
      lineBreak(b, i)
      i += 1
    }
  }

  /// Moves `i` past XML whitespace to the byte a tag needs next (`expected`: the `=` after an
  /// attribute's name, the `>` after a closing tag's): whether the byte there is `expected`
  /// (any other is a well-formedness error), or nil when the chunk ended first.
  mutating func skipWhitespace(upTo expected: UInt8, _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Bool? {
    skipWhitespace(p, &i, n)
    return i == n ? nil : p[i] == expected
  }

  @inline(__always) mutating func lineBreak(_ byte: UInt8, _ index: Int) {
    if byte == .asciiNewline {
      if chunkOffset &+ index != lastCarriageReturn &+ 1 { line &+= 1 }
    } else if byte == .asciiReturn {
      line &+= 1
      lastCarriageReturn = chunkOffset &+ index
    }
  }

  @inline(__always) mutating func beginName() {
    nameHash = XMLName.hashSeed
    localPrefix = 0
    localLength = 0
    nameLength = 0
  }

  var displayName: String { XMLName.display(prefix: localPrefix, length: localLength) }

  @inline(__always) mutating func enterContent(_ index: Int) {
    state = .content
    value.start = index
    value.end = index
  }

  /// At a `&` (index `i`) in a needed value: the text before it is kept and the reference is
  /// decoded (`.entity`), then the scan goes back to `back`.
  @inline(__always)
  mutating func beginReference(_ p: UnsafePointer<UInt8>, _ i: inout Int, returningTo back: XMLScanState) {
    value.append(p, value.start, i)
    value.start = i
    value.end = i
    entity.reset()
    returnState = back
    state = .entity
    i += 1
  }

  /// Stops the scan with a well-formedness error; a point broken off is counted.
  mutating func fail(_ detail: String, line: Int, into sink: inout some FeedSink) -> FeedError {
    mapper.abandon(into: &sink)
    let error = FeedError.malformed(line: line, detail: detail)
    failure = error
    return error
  }

  // MARK: Scanning

  /// Scans one chunk.
  ///
  /// Common tokens take a fast path that reads a whole tag (or attribute) in one go when it
  /// lies inside the chunk; anything else, and any token cut by the chunk's end, leaves the
  /// fast path in exactly the state the general one would be in, so both give the same result.
  ///
  /// - Complexity: O(*n*) in the chunk's length; no allocation on a well-formed feed.
  // The mapper is known where each reader calls this, the sink is not; Swift does not
  // specialise on one generic parameter alone unless asked, and unspecialised the mapper's
  // calls would go through witness tables (GPX measured 2.5× slower).
  @_specialize(exported:false,kind:partial,where Mapper == GPXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == TCXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == KMLTrackBuilder)
  mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    if let failure { throw failure }
    guard let p = chunk.baseAddress, chunk.count > 0 else { return }
    let n = chunk.count
    var i = 0
    value.start = 0
    value.end = 0
    stack.prepareForWriting()
    scanning: while i < n {
      switch state {
      case .content:
        content: while true {
          if collecting {
            passText(p, &i, n, stopsAtAmpersand: true)
            if i == n { break content }
            if p[i] == .asciiAmpersand {
              beginReference(p, &i, returningTo: .content)
              break content
            }
            value.end = i
          } else if stack.depth > 0 {
            let from = i
            passText(p, &i, n, stopsAtAmpersand: false)
            if streaming { mapper.text(p, from, i) }
            if i == n { break content }
          } else {
            try skipOutsideRoot(p, &i, n, into: &sink)
            if i == n { break content }
          }
          // p[i] is `<`.
          tagLine = line
          // Inside the element whose children the mapper can read whole (a plain record).
          if let parent = Mapper.plainRecordParent, stack.topRole == parent,
            let record = mapper.readPlainRecord(p, at: i, bound: n, line: line, into: &sink)
          {
            line &+= record.lines
            tagLine = line
            i = record.index
            value.start = i
            value.end = i
            continue content
          }
          i += 1
          guard i < n else {
            state = .markup
            break content
          }
          let b = p[i]
          if b == .asciiSlash {
            beginName()
            i += 1
            readName(p, &i, n, isAttribute: false)
            if i < n, p[i] == .asciiGreater, nameLength > 0 {
              try closeElement(checkingName: true, p, into: &sink)
              i += 1
              value.start = i
              value.end = i
              continue content
            }
            state = .endTagName
            break content
          }
          if Self.isNameStart(b) {
            value.commitPending(p)
            beginName()
            readName(p, &i, n, isAttribute: false)
            guard i < n else {
              state = .startTagName
              break content
            }
            try openElement(into: &sink)
            if p[i] == .asciiGreater {
              i += 1
              collecting = tagRole.isValue
              streaming = tagRole.streamsText
              value.start = i
              value.end = i
              continue content
            }
            try afterStartTagName(p, &i, into: &sink)
            break content
          }
          state = .markup
          break content
        }

      case .markup:
        let b = p[i]
        if b == .asciiSlash {
          beginName()
          state = .endTagName
          i += 1
        } else if Self.isNameStart(b) {
          value.commitPending(p)
          beginName()
          state = .startTagName
        } else if b == .asciiBang {
          value.commitPending(p)
          state = .bang
          i += 1
        } else if b == .asciiQuestion {
          value.commitPending(p)
          run = 0
          returnState = .content
          state = .processingInstruction
          i += 1
        } else {
          throw fail("“<” is not followed by a tag name", line: line, into: &sink)
        }

      case .startTagName:
        readName(p, &i, n, isAttribute: false)
        if i == n { break }
        try openElement(into: &sink)
        try afterStartTagName(p, &i, into: &sink)

      case .tagSpace:
        attributes: while true {
          skipWhitespace(p, &i, n)
          if i == n { break attributes }
          let b = p[i]
          if closesStartTag(b, &i) { break attributes }
          guard Self.isNameStart(b) else {
            throw fail("unexpected character in the tag <\(displayName)>", line: line, into: &sink)
          }
          attributePrefix = 0
          attributeLength = 0
          readName(p, &i, n, isAttribute: true)
          guard i + 1 < n, p[i] == .asciiEquals, p[i + 1] == .asciiQuote || p[i + 1] == .asciiApostrophe else {
            state = .attributeName
            break attributes
          }
          i += 1
          beginAttributeValue(quote: p[i])
          i += 1
          value.start = i
          try readAttributeValue(p, &i, n, into: &sink)
          guard i < n, p[i] == quote else {
            state = .attributeValue
            break attributes
          }
          try endAttributeValue(p, i, into: &sink)
          i += 1
          guard i < n else {
            state = .afterAttributeValue
            break attributes
          }
          let c = p[i]
          if Self.isWhitespace(c) { continue attributes }
          state = .afterAttributeValue
          break attributes
        }

      case .attributeName:
        readName(p, &i, n, isAttribute: true)
        // What may follow the name is what may follow it after whitespace.
        if i < n { state = .attributeEquals }

      case .attributeEquals:
        guard let found = skipWhitespace(upTo: .asciiEquals, p, &i, n) else { break }
        guard found else { throw fail("an attribute of <\(displayName)> has no value", line: line, into: &sink) }
        state = .attributeQuote
        i += 1

      case .attributeQuote:
        skipWhitespace(p, &i, n)
        if i == n { break }
        let b = p[i]
        guard b == .asciiQuote || b == .asciiApostrophe else {
          throw fail("an attribute value of <\(displayName)> is not quoted", line: line, into: &sink)
        }
        beginAttributeValue(quote: b)
        i += 1
        value.start = i
        state = .attributeValue

      case .attributeValue:
        try readAttributeValue(p, &i, n, into: &sink)
        if i == n { break }
        if p[i] == .asciiAmpersand {
          beginReference(p, &i, returningTo: .attributeValue)
          break
        }
        try endAttributeValue(p, i, into: &sink)
        state = .afterAttributeValue
        i += 1

      case .afterAttributeValue:
        // What may follow a start tag's name, except that another attribute needs whitespace first.
        if Self.isNameStart(p[i]) {
          throw fail("attributes of <\(displayName)> are not separated by whitespace", line: line, into: &sink)
        }
        try afterStartTagName(p, &i, into: &sink)

      case .emptyTagEnd:
        guard p[i] == .asciiGreater else {
          throw fail("“/” in the tag <\(displayName)> is not followed by “>”", line: line, into: &sink)
        }
        value.start = 0
        value.end = 0
        try closeElement(checkingName: false, p, into: &sink)
        i += 1
        enterContent(i)

      case .endTagName:
        readName(p, &i, n, isAttribute: false)
        if i == n { break }
        guard nameLength > 0 else { throw fail("“</” is not followed by a tag name", line: line, into: &sink) }
        // What may follow the name is what may follow it after whitespace.
        state = .endTagSpace

      case .endTagSpace:
        guard let found = skipWhitespace(upTo: .asciiGreater, p, &i, n) else { break }
        guard found else {
          throw fail("unexpected character in the closing tag </\(displayName)>", line: line, into: &sink)
        }
        try closeElement(checkingName: true, p, into: &sink)
        i += 1
        enterContent(i)

      case .bang, .keyword, .comment, .processingInstruction, .cdata, .doctype, .entity, .start:
        try scanOtherMarkup(p, &i, n, into: &sink)
      }
    }
    // Copy the part of a needed value that lies in this chunk before the chunk goes away.
    if collecting, state == .content {
      value.append(p, value.start, n)
    } else if attributeTarget != 0, state == .attributeValue {
      value.append(p, value.start, n)
    } else {
      value.append(p, value.start, value.end)
    }
    value.start = 0
    value.end = 0
    chunkOffset += n
    endsWithLineBreak = p[n - 1] == .asciiNewline || p[n - 1] == .asciiReturn
  }
}
