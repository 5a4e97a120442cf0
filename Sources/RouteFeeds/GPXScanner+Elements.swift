/// Elements opening and closing, and the end of the feed.
extension GPXScanner {
  /// A start tag's name has been read: decide the element's role and push it.
  @inline(__always)
  mutating func openElement(into sink: inout some FeedSink) throws(FeedError) {
    let role: GPXRole
    if skipDepth > 0 {
      role = .skipped
    } else if stack.depth > 0 {
      let parent = stack.topRole
      if parent.isValue {
        // An element inside a value: the value is not plain text.
        value.isUnreadable = true
        role = .skipped
      } else {
        role = builder.role(ofChild: localLength <= 8 ? localPrefix : 0, in: parent, line: tagLine, into: &sink)
      }
    } else {
      try openRoot(into: &sink)
      role = .gpx
    }
    if role == .skipped, localLength == 5, localPrefix == GPXName.trkpt {
      // A track point where the schema has none (outside a <trkseg>, inside extensions): not a
      // recorded position, but counted, so nothing read goes unaccounted.
      sink.ignored(.misplacedTrackPoint, line: tagLine)
    }
    stack.push(
      GPXOpenElement(nameHash: nameHash, localPrefix: localPrefix, localLength: localLength, line: tagLine, role: role))
    if role == .skipped, skipDepth == 0 { skipDepth = stack.depth }
    if role.isValue { value.reset() }
    tagRole = role
    collecting = false
  }

  /// The root element must be the only one, and `<gpx>`.
  @inline(never)
  mutating func openRoot(into sink: inout some FeedSink) throws(FeedError) {
    if rootClosed {
      throw fail("a second root element <\(displayName)> after </gpx>", line: tagLine, into: &sink)
    }
    guard localLength <= 8, localPrefix == GPXName.gpx else {
      throw fail(
        "this is not a GPX document: its root element is <\(displayName)>, not <gpx>",
        line: tagLine, into: &sink)
    }
    rootOpened = true
  }

  /// The `>` of a start tag (not an empty-element tag) was read; `index` is just after it.
  @inline(__always)
  mutating func endStartTag(_ index: Int) {
    collecting = tagRole.isValue
    enterContent(index)
  }

  /// Closes the innermost element: its end tag (`checkingName`) or its empty-element tag.
  @inline(__always)
  mutating func closeElement(
    checkingName: Bool, _ p: UnsafePointer<UInt8>, into sink: inout some FeedSink
  ) throws(FeedError) {
    let depth = stack.depth
    guard depth > 0 else { throw unmatchedEndTag(nil, into: &sink) }
    let element = stack.pop()
    if checkingName, let element,
      element.nameHash != nameHash || element.localPrefix != localPrefix || element.localLength != localLength
    {
      throw unmatchedEndTag(element, into: &sink)
    }
    if skipDepth > 0 {
      if depth == skipDepth { skipDepth = 0 }
    } else if let element {
      switch element.role {
      case .point:
        builder.finishPoint(into: &sink)
      case .time:
        var cache = timestamps
        builder.setTime(value.finish(p, value.start, value.end) { GPXFieldParser.time($0, cache: &cache) } ?? .unreadable)
        timestamps = cache
      case .elevation, .hdop, .speed, .course:
        builder.setNumber(element.role, value.finish(p, value.start, value.end, GPXFieldParser.number) ?? nil)
      case .fix:
        builder.setNoFix(value.finish(p, value.start, value.end, GPXFieldParser.isNoFix) ?? false)
      case .gpx, .track, .segment, .route, .skipped:
        break
      }
    }
    if depth == 1 { rootClosed = true }
    collecting = skipDepth == 0 && stack.topRole.isValue
  }

  /// A closing tag with no open element, or not the open element's.
  @inline(never)
  mutating func unmatchedEndTag(_ open: GPXOpenElement?, into sink: inout some FeedSink) -> FeedError {
    guard let open else {
      return fail("the closing tag </\(displayName)> has no start tag", line: tagLine, into: &sink)
    }
    return fail(
      "the closing tag </\(displayName)> does not match <\(open.displayName)> opened on line \(open.line)",
      line: tagLine, into: &sink)
  }

  /// Ends the feed: a document that is not complete is `truncated`.
  mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    if let failure { throw failure }
    if rootClosed, stack.depth == 0, state == .content { return }
    let endLine = endsWithLineBreak ? max(1, line - 1) : line
    let detail: String
    switch state {
    case .start, .content:
      if chunkOffset == 0 {
        detail = "the document is empty"
      } else if !rootOpened {
        detail = "there is no <gpx> element"
      } else if let top = stack.top {
        detail = "<\(top.displayName)> opened on line \(top.line) is never closed"
      } else {
        detail = "\(stack.depth) nested elements are never closed"
      }
    case .markup, .startTagName, .tagSpace, .attributeName, .attributeEquals, .attributeQuote,
      .attributeValue, .afterAttributeValue, .emptyTagEnd:
      detail = "it stops inside the tag that begins on line \(tagLine)"
    case .endTagName, .endTagSpace:
      detail = "it stops inside the closing tag that begins on line \(tagLine)"
    case .bang, .keyword:
      detail = "it stops inside the “<!” markup that begins on line \(tagLine)"
    case .comment:
      detail = "it stops inside a comment"
    case .cdata:
      detail = "it stops inside a CDATA section"
    case .processingInstruction:
      detail = "it stops inside a processing instruction"
    case .doctype:
      detail = "it stops inside the DOCTYPE"
    case .entity:
      detail = "it stops inside an entity reference"
    }
    builder.abandonPoint(into: &sink)
    let error = FeedError.truncated(line: endLine, detail: detail)
    failure = error
    throw error
  }
}
