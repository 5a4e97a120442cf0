/// The rarer constructs, kept out of the main scanning loop: `<!` markup, comments, processing
/// instructions, CDATA sections, the DOCTYPE, entity references in needed values, and the
/// byte-order mark. Each runs until its construct ends or the chunk does, then returns to
/// `scan`, which dispatches on the state it left.
extension XMLScanner {
  @_specialize(exported:false,kind:partial,where Mapper == GPXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == TCXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == KMLTrackBuilder)
  mutating func scanOtherMarkup(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    switch state {
    case .bang:
      switch p[i] {
      case .asciiMinus: keyword = .comment
      case 0x5B: keyword = .cdata  // [
      case 0x44: keyword = .doctype  // D
      default:
        throw fail("“<!” does not begin a comment, CDATA section or DOCTYPE", line: line, into: &sink)
      }
      run = 0
      state = .keyword
      i += 1

    case .keyword:
      let rest = keyword.rest
      let count = rest.utf8CodeUnitCount
      let expected = rest.utf8Start
      while run < count, i < n {
        guard p[i] == expected[run] else {
          throw fail("“<!” does not begin a comment, CDATA section or DOCTYPE", line: line, into: &sink)
        }
        run += 1
        i += 1
      }
      if run < count { return }
      run = 0
      switch keyword {
      case .comment:
        returnState = .content
        state = .comment
      case .cdata:
        guard stack.depth > 0 else {
          throw fail("a CDATA section outside the <\(Mapper.rootName)> element", line: line, into: &sink)
        }
        state = .cdata
      case .doctype:
        guard !rootOpened else {
          throw fail("a DOCTYPE after the <\(Mapper.rootName)> element began", line: line, into: &sink)
        }
        doctypeQuote = 0
        doctypeSubset = false
        doctypeMarkup = 0
        state = .doctype
      }

    case .comment:
      skipMarkup(endingWith: .asciiMinus, repeated: 2, p, &i, n)

    case .processingInstruction:
      skipMarkup(endingWith: .asciiQuestion, repeated: 1, p, &i, n)

    case .cdata:
      while i < n {
        let b = p[i]
        if b == 0x5D {  // ]
          run += 1
        } else if b == .asciiGreater, run >= 2 {
          break
        } else {
          if collecting {
            for _ in 0..<run { value.append(0x5D) }
            value.append(b)
          } else if streaming {
            streamBrackets(run)
            mapper.text(p, i, i + 1)
          }
          if b <= .asciiReturn { lineBreak(b, i) }
          run = 0
        }
        i += 1
      }
      if i == n { return }
      if collecting { for _ in 2..<run { value.append(0x5D) } } else if streaming { streamBrackets(run - 2) }
      i += 1
      run = 0
      enterContent(i)

    case .doctype:
      while i < n {
        let b = p[i]
        if b <= .asciiReturn { lineBreak(b, i) }
        if doctypeQuote != 0 {
          if b == doctypeQuote { doctypeQuote = 0 }
          i += 1
          continue
        }
        if doctypeMarkup > 0 {
          let step = doctypeMarkup
          doctypeMarkup = 0
          if step == 1, b == .asciiBang {
            doctypeMarkup = 2
            i += 1
            continue
          }
          if step == 1, b == .asciiQuestion { return enterInsideDoctype(.processingInstruction, &i) }
          if step == 2, b == .asciiMinus {
            doctypeMarkup = 3
            i += 1
            continue
          }
          if step == 3, b == .asciiMinus { return enterInsideDoctype(.comment, &i) }
          // A declaration such as <!ENTITY …>: its quotes are tracked below.
        }
        switch b {
        case .asciiQuote, .asciiApostrophe: doctypeQuote = b
        case 0x5B: doctypeSubset = true  // [
        case 0x5D: doctypeSubset = false  // ]
        case .asciiLess: if doctypeSubset { doctypeMarkup = 1 }
        case .asciiGreater:
          if !doctypeSubset {
            i += 1
            enterContent(i)
            return
          }
        default: break
        }
        i += 1
      }

    case .entity:
      var ended = false
      while i < n {
        let b = p[i]
        if b == .asciiSemicolon {
          entity.resolve(into: &value)
          i += 1
          ended = true
          break
        }
        guard entity.accept(b) else {
          // Not a reference this reader decodes; the byte is read again where it belongs.
          value.isUnreadable = true
          ended = true
          break
        }
        i += 1
      }
      if !ended { return }
      state = returnState
      value.start = i
      value.end = i

    case .start:
      let b = p[i]
      switch run {
      case 0:
        if b == 0xEF {
          run = 1
          i += 1
        } else if b == 0xFE || b == 0xFF {
          throw fail("the document is UTF-16; convert it to UTF-8", line: 1, into: &sink)
        } else {
          state = .content
        }
      case 1:
        guard b == 0xBB else { throw fail("the document starts with a broken byte-order mark", line: 1, into: &sink) }
        run = 2
        i += 1
      default:
        guard b == 0xBF else { throw fail("the document starts with a broken byte-order mark", line: 1, into: &sink) }
        run = 0
        state = .content
        i += 1
      }
    default:
      break
    }
  }

  /// Passes over a comment (`-->`: `closer` `-`, `count` 2) or a processing instruction (`?>`:
  /// `?`, 1) up to and including its `>`, or to the chunk's end; `run` counts the `closer`
  /// bytes just seen, so the end is found across chunks. Then returns to `returnState`.
  ///
  /// - Complexity: O(*n*) in the bytes passed over.
  mutating func skipMarkup(
    endingWith closer: UInt8, repeated count: Int, _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int
  ) {
    while i < n {
      let b = p[i]
      if b == closer {
        run += 1
      } else if b == .asciiGreater, run >= count {
        break
      } else {
        if b <= .asciiReturn { lineBreak(b, i) }
        run = 0
      }
      i += 1
    }
    if i == n { return }
    i += 1
    run = 0
    if returnState == .content { enterContent(i) } else { state = returnState }
  }

  /// At the last byte of `<?` or `<!--` in the DOCTYPE's internal subset (index `i`): the
  /// processing instruction or comment (`markup`) is passed over, then the DOCTYPE goes on.
  mutating func enterInsideDoctype(_ markup: XMLScanState, _ i: inout Int) {
    i += 1
    run = 0
    returnState = .doctype
    state = markup
  }

  /// Hands `count` `]` bytes of a CDATA section to a mapper that streams the text.
  mutating func streamBrackets(_ count: Int) {
    guard count > 0 else { return }
    var bracket: UInt8 = 0x5D
    for _ in 0..<count { withUnsafePointer(to: &bracket) { mapper.text($0, 0, 1) } }
  }
}
