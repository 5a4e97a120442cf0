/// The one JSON syntax implementation (RFC 8259): a pull tokenizer over bytes that arrive in
/// chunks of any size. GeoJSON, Google Takeout, OwnTracks, `pipe` records and timeline files
/// all read JSON through it; each only maps keys and values to its own meaning.
///
/// Why pull, not a DOM: location files reach gigabytes (Takeout's Records.json), so a reader
/// must see each value as it goes by and keep only what it needs. Why pull, not callbacks: the
/// caller interleaves `next(in:)` with its own state and sink without closures capturing them.
///
/// Use:
///
///     while let token = try tokenizer.next(in: chunk) { … }   // for every chunk, in order
///     while let token = try tokenizer.finish() { … }          // once, at the end
///
/// `next(in:)` returns tokens from the chunk until it is used up (nil), then the caller passes
/// the next chunk. The same bytes split anywhere give the same tokens with the same offsets,
/// lines and depths (chunk invariance): a token cut by a chunk boundary is copied into a
/// scratch buffer and completed from the next chunk. Memory is bounded: the container stack
/// (`maximumDepth` ≤ 64 levels, one bit each) and one token (`maximumTokenLength`), never the
/// document. Strings are checked for UTF-8 and unescaped only when they hold a backslash;
/// otherwise a token's bytes point straight into the chunk.
///
/// Errors (`JSONSyntaxError`) give the byte offset and line, and say whether the input was cut
/// off (`isTruncation`). After an error the tokenizer must not be used again. Copies share the
/// scratch buffer: drive one copy at a time (see `JSONScratchBuffer`).
///
/// - Complexity: O(*n*) in the stream's length: each byte is examined once, except the bytes of
///   a token split across chunks (copied once more) and of a string with escapes (decoded).
package struct JSONTokenizer {
  /// The default nesting limit: far deeper than any location format, shallow enough that
  /// hostile nesting costs nothing.
  package static let defaultMaximumDepth = 64
  /// The default longest string or number, in bytes (16 MiB).
  package static let defaultMaximumTokenLength = 1 << 24

  /// The deepest nesting of objects and arrays accepted (1…64).
  package let maximumDepth: Int
  /// The longest string (unescaped content) or number accepted, in bytes.
  package let maximumTokenLength: Int
  /// Whether the stream may hold any number of top-level values one after another (JSON Lines,
  /// concatenated JSON), including none; otherwise exactly one.
  package let allowsSequence: Bool

  /// Bytes of the stream before the current chunk.
  private var chunkStart = 0
  /// The next byte to read in the current chunk.
  private var index = 0
  /// The 1-based line of the next byte.
  package private(set) var line = 1
  /// How many containers are open.
  package private(set) var depth = 0
  /// Bit `d` is set when the container at depth `d` (0-based) is an object.
  private var objectBits: UInt64 = 0
  private var expect = Expect.value
  private var pending = Pending.none
  private var pendingOffset = 0
  private var pendingLine = 0
  private var pendingIsKey = false
  private var pendingHasEscapes = false
  /// Where scanning the pending string resumes (in `raw`): the start of an escape or UTF-8
  /// sequence the chunk cut, or the end.
  private var pendingScanFrom = 0
  /// The raw bytes of a token split across chunks (a string with its opening quote).
  private let raw = JSONScratchBuffer()
  /// The unescaped content of a string that held escapes.
  private let decoded = JSONScratchBuffer()

  /// What the grammar allows next.
  enum Expect: UInt8 { case value, valueOrEndArray, keyOrEndObject, key, colon, commaOrEnd, end }
  /// The kind of token a chunk boundary cut.
  enum Pending: UInt8 { case none, string, number, literal }

  package init(
    maximumDepth: Int = JSONTokenizer.defaultMaximumDepth,
    maximumTokenLength: Int = JSONTokenizer.defaultMaximumTokenLength,
    allowsSequence: Bool = false
  ) {
    self.maximumDepth = min(max(maximumDepth, 1), 64)
    self.maximumTokenLength = max(maximumTokenLength, 1)
    self.allowsSequence = allowsSequence
  }

  /// Bytes the tokenizer holds between calls (its scratch buffers' capacities), for tests that
  /// check memory stays bounded.
  package var scratchCapacity: Int { raw.capacity + decoded.capacity }

  /// Bytes of the stream consumed so far (the offset of the next byte).
  package var offset: Int { chunkStart + index }

  /// The next token in `chunk`, or nil when the chunk is used up (pass the next one). Pass the
  /// same chunk until nil.
  ///
  /// - Complexity: amortised O(1) per byte.
  package mutating func next(in chunk: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONToken? {
    guard let base = chunk.baseAddress, index < chunk.count else { return endOfChunk(chunk.count) }
    if pending != .none {
      guard let token = try resume(base, chunk.count) else { return endOfChunk(chunk.count) }
      return token
    }
    return try scan(base, chunk.count)
  }

  /// Ends the stream: returns a top-level number or literal the end completes (call again
  /// until nil), then throws a truncation error if the document is unfinished.
  package mutating func finish() throws(JSONSyntaxError) -> JSONToken? {
    switch pending {
    case .string:
      throw JSONSyntaxError(
        offset: offset, line: line, problem: .expected("the closing quote of a string"), isTruncation: true)
    case .number, .literal:
      let kind = pending
      pending = .none
      return try bareToken(kind, raw.bytes, tokenOffset: pendingOffset, tokenLine: pendingLine, atEnd: true)
    case .none:
      break
    }
    if expect == .end || (allowsSequence && expect == .value && depth == 0) { return nil }
    throw JSONSyntaxError(offset: offset, line: line, problem: .expected(expected), isTruncation: true)
  }

  // MARK: - Values read by a caller

  /// Where the next element of the open array starts in `chunk`, when it is an object: the
  /// whitespace and comma before it are consumed (as `next(in:)` would consume them) and its
  /// `{` is at the returned index. Nil when a token is pending, the open container is not an
  /// array, the array cannot take a value here, or the chunk ends first; the tokenizer then
  /// reads on from where this stopped exactly as it would have.
  ///
  /// A caller that reads the object itself from the chunk's bytes reports its end with
  /// `endValue(at:lines:)`; one that declines simply calls `next(in:)`.
  ///
  /// - Complexity: O(*w*) in the whitespace before the element.
  package mutating func objectElementStart(in chunk: UnsafeBufferPointer<UInt8>) -> Int? {
    guard pending == .none, depth > 0, !topIsObject, let base = chunk.baseAddress else { return nil }
    let count = chunk.count
    var i = index
    while true {
      i = skipWhitespace(base, count, from: i)
      index = i
      guard i < count else { return nil }
      let byte = base[i]
      if byte == .asciiComma, expect == .commaOrEnd {
        expect = .value
        i += 1
        continue
      }
      guard byte == 0x7B, expect == .value || expect == .valueOrEndArray else { return nil }
      return i
    }
  }

  /// Ends a value the caller read itself from the chunk, from the index `objectElementStart`
  /// returned up to `end` (just after its last byte), with `lines` line feeds inside it. The
  /// caller has checked it is well-formed, no deeper than `maximumDepth` allows and holds no
  /// token longer than `maximumTokenLength`.
  package mutating func endValue(at end: Int, lines: Int) {
    index = end
    line += lines
    afterValue()
  }

  // MARK: - Scanning

  private mutating func endOfChunk(_ count: Int) -> JSONToken? {
    chunkStart += count
    index = 0
    return nil
  }

  @inline(__always)
  private var topIsObject: Bool { depth > 0 && objectBits & (1 << UInt64(depth - 1)) != 0 }

  @inline(__always)
  private mutating func afterValue() {
    expect = depth > 0 ? .commaOrEnd : (allowsSequence ? .value : .end)
  }

  /// What the grammar wanted, for messages.
  private var expected: String {
    switch expect {
    case .value: "a value"
    case .valueOrEndArray: "a value or ']'"
    case .keyOrEndObject: "a member name or '}'"
    case .key: "a member name"
    case .colon: "':'"
    case .commaOrEnd: topIsObject ? "',' or '}'" : "',' or ']'"
    case .end: "the end of the input"
    }
  }

  private func unexpected(at position: Int) -> JSONSyntaxError {
    JSONSyntaxError(offset: chunkStart + position, line: line, problem: .expected(expected))
  }

  /// The index of the first byte from `i` that is not JSON whitespace (or `count`), counting the
  /// line feeds passed: the one whitespace rule of `scan` and `objectElementStart`.
  ///
  /// - Complexity: O(*w*) in the whitespace skipped.
  @inline(__always)
  private mutating func skipWhitespace(_ base: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int {
    var i = start
    while i < count {
      let byte = base[i]
      if byte == 0x20 || byte == 0x09 || byte == 0x0D {
        i += 1
      } else if byte == 0x0A {
        line += 1
        i += 1
      } else {
        break
      }
    }
    return i
  }

  private mutating func scan(_ base: UnsafePointer<UInt8>, _ count: Int) throws(JSONSyntaxError) -> JSONToken? {
    var i = index
    while true {
      i = skipWhitespace(base, count, from: i)
      guard i < count else { return endOfChunk(count) }
      let byte = base[i]
      let valueAllowed = expect == .value || expect == .valueOrEndArray
      switch byte {
      case .asciiQuote:
        if valueAllowed { return try string(base, count, at: i, isKey: false) }
        if expect == .keyOrEndObject || expect == .key { return try string(base, count, at: i, isKey: true) }
        throw unexpected(at: i)
      case 0x7B, 0x5B:  // { [
        guard valueAllowed else { throw unexpected(at: i) }
        guard depth < maximumDepth else {
          throw JSONSyntaxError(offset: chunkStart + i, line: line, problem: .tooDeep(limit: maximumDepth))
        }
        let isObject = byte == 0x7B
        let token = JSONToken(
          kind: isObject ? .beginObject : .beginArray, bytes: UnsafeBufferPointer(start: nil, count: 0),
          offset: chunkStart + i, line: line, depth: depth)
        if isObject { objectBits |= 1 << UInt64(depth) } else { objectBits &= ~(1 << UInt64(depth)) }
        depth += 1
        expect = isObject ? .keyOrEndObject : .valueOrEndArray
        index = i + 1
        return token
      case 0x7D, 0x5D:  // } ]
        let isObject = byte == 0x7D
        let allowed =
          isObject
          ? expect == .keyOrEndObject || (expect == .commaOrEnd && topIsObject)
          : expect == .valueOrEndArray || (expect == .commaOrEnd && !topIsObject)
        guard allowed else { throw unexpected(at: i) }
        depth -= 1
        let token = JSONToken(
          kind: isObject ? .endObject : .endArray, bytes: UnsafeBufferPointer(start: nil, count: 0),
          offset: chunkStart + i, line: line, depth: depth)
        afterValue()
        index = i + 1
        return token
      case .asciiComma:
        guard expect == .commaOrEnd else { throw unexpected(at: i) }
        expect = topIsObject ? .key : .value
        i += 1
      case .asciiColon:
        guard expect == .colon else { throw unexpected(at: i) }
        expect = .value
        i += 1
      case .asciiMinus, .ascii0...(.ascii9):
        guard valueAllowed else { throw unexpected(at: i) }
        return try number(base, count, at: i)
      case 0x74, 0x66, 0x6E:  // t f n
        guard valueAllowed else { throw unexpected(at: i) }
        return try literal(base, count, at: i)
      default:
        throw unexpected(at: i)
      }
    }
  }

  // MARK: - Strings

  private mutating func string(
    _ base: UnsafePointer<UInt8>, _ count: Int, at start: Int, isKey: Bool
  ) throws(JSONSyntaxError) -> JSONToken? {
    switch JSONStringScan.scan(base, from: start + 1, to: count) {
    case .complete(let end, let hasEscapes):
      index = end + 1
      return try stringToken(
        UnsafeBufferPointer(start: base + start + 1, count: end - start - 1), hasEscapes: hasEscapes, isKey: isKey,
        tokenOffset: chunkStart + start, tokenLine: line)
    case .incomplete(let resumeAt, let hasEscapes):
      guard count - start - 1 <= maximumTokenLength else { throw tooLong(chunkStart + start) }
      raw.removeAll()
      raw.append(UnsafeBufferPointer(start: base + start, count: count - start))
      pending = .string
      pendingIsKey = isKey
      pendingHasEscapes = hasEscapes
      pendingScanFrom = resumeAt - start
      pendingOffset = chunkStart + start
      pendingLine = line
      return endOfChunk(count)
    case .failed(let at, let problem):
      throw JSONSyntaxError(offset: chunkStart + at, line: line, problem: problem)
    }
  }

  /// Builds a string or key token from its (complete, valid) content, decoding escapes.
  private mutating func stringToken(
    _ content: UnsafeBufferPointer<UInt8>, hasEscapes: Bool, isKey: Bool, tokenOffset: Int, tokenLine: Int
  ) throws(JSONSyntaxError) -> JSONToken {
    guard content.count <= maximumTokenLength else { throw tooLong(tokenOffset) }
    var bytes = content
    if hasEscapes {
      JSONStringScan.unescape(content, into: decoded)
      bytes = decoded.bytes
    }
    if isKey { expect = .colon } else { afterValue() }
    return JSONToken(kind: isKey ? .key : .string, bytes: bytes, offset: tokenOffset, line: tokenLine, depth: depth)
  }

  private func tooLong(_ offset: Int) -> JSONSyntaxError {
    JSONSyntaxError(
      offset: offset, line: pending == .none ? line : pendingLine, problem: .tokenTooLong(limit: maximumTokenLength))
  }

  // MARK: - Numbers and literals

  private mutating func number(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int) throws(JSONSyntaxError)
    -> JSONToken?
  {
    var end = start + 1
    while end < count, base[end].isJSONNumberByte { end += 1 }
    return try endBareToken(.number, base, count, from: start, to: end)
  }

  /// A number or literal scanned from `start` up to `end` in this chunk: its token, or, when the
  /// chunk ends first (so the token may go on), nil with its start kept (`suspend`).
  private mutating func endBareToken(
    _ kind: Pending, _ base: UnsafePointer<UInt8>, _ count: Int, from start: Int, to end: Int
  ) throws(JSONSyntaxError) -> JSONToken? {
    guard end < count else { return try suspend(kind, base, count, at: start) }
    index = end
    let text = UnsafeBufferPointer(start: base + start, count: end - start)
    return try bareToken(kind, text, tokenOffset: chunkStart + start, tokenLine: line)
  }

  /// The token of a whole number (`kind` `.number`) or literal (`.literal`).
  private mutating func bareToken(
    _ kind: Pending, _ text: UnsafeBufferPointer<UInt8>, tokenOffset: Int, tokenLine: Int, atEnd: Bool = false
  ) throws(JSONSyntaxError) -> JSONToken {
    kind == .number
      ? try numberToken(text, tokenOffset: tokenOffset, tokenLine: tokenLine, atEnd: atEnd)
      : try literalToken(text, tokenOffset: tokenOffset, tokenLine: tokenLine, atEnd: atEnd)
  }

  /// - Parameter atEnd: the stream ended right after the text, so a number that stops too
  ///   early (`-`, `1.`, `1e`) was cut off rather than malformed.
  private mutating func numberToken(
    _ text: UnsafeBufferPointer<UInt8>, tokenOffset: Int, tokenLine: Int, atEnd: Bool = false
  ) throws(JSONSyntaxError) -> JSONToken {
    guard text.count <= maximumTokenLength else { throw tooLong(tokenOffset) }
    if let bad = JSONNumberGrammar.firstError(text) {
      throw JSONSyntaxError(
        offset: tokenOffset + bad, line: tokenLine, problem: .badNumber, isTruncation: atEnd && bad == text.count)
    }
    afterValue()
    return JSONToken(kind: .number, bytes: text, offset: tokenOffset, line: tokenLine, depth: depth)
  }

  private mutating func literal(_ base: UnsafePointer<UInt8>, _ count: Int, at start: Int) throws(JSONSyntaxError)
    -> JSONToken?
  {
    var end = start + 1
    while end < count, base[end] &- 0x61 < 26 {
      end += 1
      guard end - start <= 5 else { throw unexpected(at: start) }
    }
    return try endBareToken(.literal, base, count, from: start, to: end)
  }

  private mutating func literalToken(
    _ word: UnsafeBufferPointer<UInt8>, tokenOffset: Int, tokenLine: Int, atEnd: Bool = false
  ) throws(JSONSyntaxError) -> JSONToken {
    let kind: JSONTokenKind
    if word.elementsEqual("true".utf8) {
      kind = .true
    } else if word.elementsEqual("false".utf8) {
      kind = .false
    } else if word.elementsEqual("null".utf8) {
      kind = .null
    } else {
      let problem = JSONSyntaxError.Problem.expected(expected)
      let cut = atEnd && ["true", "false", "null"].contains { $0.utf8.starts(with: word) }
      throw JSONSyntaxError(offset: tokenOffset, line: tokenLine, problem: problem, isTruncation: cut)
    }
    afterValue()
    return JSONToken(
      kind: kind, bytes: UnsafeBufferPointer(start: nil, count: 0), offset: tokenOffset, line: tokenLine, depth: depth)
  }

  /// Keeps the start of a number or literal the chunk cut.
  private mutating func suspend(
    _ kind: Pending, _ base: UnsafePointer<UInt8>, _ count: Int, at start: Int
  ) throws(JSONSyntaxError) -> JSONToken? {
    guard count - start <= maximumTokenLength else { throw tooLong(chunkStart + start) }
    raw.removeAll()
    raw.append(UnsafeBufferPointer(start: base + start, count: count - start))
    pending = kind
    pendingOffset = chunkStart + start
    pendingLine = line
    return endOfChunk(count)
  }

  /// Continues a token the previous chunk cut; nil when this chunk does not finish it either.
  private mutating func resume(_ base: UnsafePointer<UInt8>, _ count: Int) throws(JSONSyntaxError) -> JSONToken? {
    switch pending {
    case .string:
      // Copy up to each next quote only (not the whole chunk), so the scratch holds the string
      // and no more; each rescan starts where the last stopped.
      let before = raw.count
      var start = 0
      while true {
        var end = start
        while end < count, base[end] != .asciiQuote { end += 1 }
        let pieceEnd = min(end + 1, count)
        raw.append(UnsafeBufferPointer(start: base + start, count: pieceEnd - start))
        switch JSONStringScan.scan(UnsafePointer(raw.base), from: pendingScanFrom, to: raw.count) {
        case .complete(let end, let hasEscapes):
          index = end + 1 - before
          pending = .none
          return try stringToken(
            UnsafeBufferPointer(start: raw.base + 1, count: end - 1), hasEscapes: hasEscapes || pendingHasEscapes,
            isKey: pendingIsKey, tokenOffset: pendingOffset, tokenLine: pendingLine)
        case .incomplete(let resumeAt, let hasEscapes):
          guard raw.count - 1 <= maximumTokenLength else { throw tooLong(pendingOffset) }
          pendingScanFrom = resumeAt
          pendingHasEscapes = pendingHasEscapes || hasEscapes
          guard pieceEnd < count else { return nil }
          start = pieceEnd
        case .failed(let at, let problem):
          throw JSONSyntaxError(offset: pendingOffset + at, line: pendingLine, problem: problem)
        }
      }
    case .number, .literal:
      var end = 0
      if pending == .number {
        while end < count, base[end].isJSONNumberByte { end += 1 }
      } else {
        while end < count, base[end] &- 0x61 < 26, raw.count + end < 6 { end += 1 }
        if end < count, base[end] &- 0x61 < 26 {
          throw JSONSyntaxError(offset: pendingOffset, line: pendingLine, problem: .expected(expected))
        }
      }
      raw.append(UnsafeBufferPointer(start: base, count: end))
      guard end < count else {
        guard raw.count <= maximumTokenLength else { throw tooLong(pendingOffset) }
        return nil
      }
      index = end
      let kind = pending
      pending = .none
      return try bareToken(kind, raw.bytes, tokenOffset: pendingOffset, tokenLine: pendingLine)
    case .none:
      return nil
    }
  }
}

extension UInt8 {
  /// A byte that may continue a JSON number (the grammar is checked once the token ends); also
  /// where a number ends in Takeout's position text (`TakeoutPointText`).
  @inline(__always)
  var isJSONNumberByte: Bool {
    (self &- .ascii0) < 10 || self == .asciiMinus || self == .asciiPlus || self == .asciiDot
      || self | 0x20 == .asciiLowerE
  }
}
