/// Elements opening and closing, and the end of the feed.
extension XMLScanner {
  /// A start tag's name has been read: decide the element's role and push it.
  @inline(__always)
  mutating func openElement(into sink: inout some FeedSink) throws(FeedError) {
    let role: Mapper.Role
    if skipDepth > 0 {
      role = .skipped
    } else if stack.depth > 0 {
      let parent = stack.topRole
      if parent.isValue {
        // An element inside a value: the value is not plain text.
        value.isUnreadable = true
        role = .skipped
      } else {
        role = mapper.role(ofChild: localPrefix, length: localLength, in: parent, line: tagLine, into: &sink)
      }
    } else {
      try openRoot(into: &sink)
      role = .root
    }
    if role == .skipped { mapper.skipped(prefix: localPrefix, length: localLength, line: tagLine, into: &sink) }
    stack.push(
      XMLOpenElement(nameHash: nameHash, localPrefix: localPrefix, localLength: localLength, line: tagLine, role: role))
    if role == .skipped, skipDepth == 0 { skipDepth = stack.depth }
    if role.isValue { value.reset() }
    tagRole = role
    collecting = false
    streaming = false
  }

  /// The root element must be the only one, and the format's.
  @inline(never)
  mutating func openRoot(into sink: inout some FeedSink) throws(FeedError) {
    if rootClosed {
      throw fail("a second root element <\(displayName)> after </\(Mapper.rootName)>", line: tagLine, into: &sink)
    }
    guard Mapper.isRoot(prefix: localPrefix, length: localLength) else {
      throw fail(
        "this is not a \(Mapper.formatName) document: its root element is <\(displayName)>, not <\(Mapper.rootName)>",
        line: tagLine, into: &sink)
    }
    rootOpened = true
  }

  /// The `>` of a start tag (not an empty-element tag) was read; `index` is just after it.
  @inline(__always)
  mutating func endStartTag(_ index: Int) {
    collecting = tagRole.isValue
    streaming = tagRole.streamsText
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
      mapper.close(element.role, &value, p, value.start, value.end, into: &sink)
    }
    if depth == 1 { rootClosed = true }
    collecting = skipDepth == 0 && stack.topRole.isValue
    streaming = skipDepth == 0 && stack.topRole.streamsText
  }

  /// A closing tag with no open element, or not the open element's.
  @inline(never)
  mutating func unmatchedEndTag(_ open: XMLOpenElement<Mapper.Role>?, into sink: inout some FeedSink) -> FeedError {
    guard let open else {
      return fail("the closing tag </\(displayName)> has no start tag", line: tagLine, into: &sink)
    }
    return fail(
      "the closing tag </\(displayName)> does not match <\(open.displayName)> opened on line \(open.line)",
      line: tagLine, into: &sink)
  }

  /// Ends the feed: a document that is not complete is `truncated`.
  @_specialize(exported:false,kind:partial,where Mapper == GPXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == TCXTrackBuilder)
  @_specialize(exported:false,kind:partial,where Mapper == KMLTrackBuilder)
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
        detail = "there is no <\(Mapper.rootName)> element"
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
    mapper.abandon(into: &sink)
    let error = FeedError.truncated(line: endLine, detail: detail)
    failure = error
    throw error
  }
}
