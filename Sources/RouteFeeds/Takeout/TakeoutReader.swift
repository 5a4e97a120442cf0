/// Reads Google location history — `Records.json`, the on-device Timeline export (Android
/// `Timeline.json` and the iOS array), and Semantic Location History month files — as a byte
/// stream, on the shared JSON tokenizer (`JSONTokenizer`); `TakeoutDocumentMapper` maps its
/// tokens to records and sessions (see there, and `docs/formats/takeout.md`).
///
/// Memory is bounded whatever the document's size: the tokenizer's buffers (one token of at most
/// `maximumTokenLength` bytes), the open containers (at most `JSONTokenizer.defaultMaximumDepth`)
/// and the mapper's state. Broken JSON stops the reading with the line and byte offset the
/// tokenizer names (`truncated` when the input ends early, `malformed` otherwise); the record it
/// broke off inside of is counted as `unfinishedPoint`.
///
/// - Complexity: O(*n*) in the feed's length.
public struct TakeoutReader: FeedReader {
  /// The longest string or number accepted, in bytes: Takeout's values are short (a time, a
  /// place ID, a point), so a longer one is hostile and stops the reading.
  static let maximumTokenLength = 1 << 16

  var tokenizer = JSONTokenizer(maximumTokenLength: TakeoutReader.maximumTokenLength)
  var mapper = TakeoutDocumentMapper()

  public init(options: FeedOptions) { mapper.timestamps = ISO8601DayCache(zone: options.timeZone) }

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    do {
      while let token = try tokenizer.next(in: chunk) { handle(token, into: &sink) }
    } catch {
      throw stop(error, into: &sink)
    }
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    do {
      while let token = try tokenizer.finish() { handle(token, into: &sink) }
    } catch {
      throw stop(error, into: &sink)
    }
    mapper.timestamps.noteStepBacks(line: 0, into: &sink)
    guard mapper.recognised, !mapper.topLevelScalar else {
      throw .malformed(
        line: 1,
        detail:
          "this is not a Google location history document: its top level has no locations, semanticSegments, rawSignals or timelineObjects, and is not an array of timeline entries"
      )
    }
  }

  @inline(__always)
  private mutating func handle(_ token: JSONToken, into sink: inout some FeedSink) {
    switch token.kind {
    case .beginObject: mapper.open(isObject: true, line: token.line, into: &sink)
    case .beginArray: mapper.open(isObject: false, line: token.line, into: &sink)
    case .endObject, .endArray: mapper.close(into: &sink)
    case .key: mapper.key(token.bytes)
    case .string: mapper.scalar(.string, token.bytes, line: token.line, into: &sink)
    case .number: mapper.scalar(.number, token.bytes, line: token.line, into: &sink)
    case .true, .false: mapper.scalar(.boolean, token.bytes, line: token.line, into: &sink)
    case .null: mapper.scalar(.null, token.bytes, line: token.line, into: &sink)
    }
  }

  /// The feed error for a syntax error, after counting the record it cut off.
  private mutating func stop(_ error: JSONSyntaxError, into sink: inout some FeedSink) -> FeedError {
    mapper.abandon(into: &sink)
    return error.isTruncation
      ? .truncated(line: error.line, detail: error.detail) : .malformed(line: error.line, detail: error.detail)
  }

  /// The bytes the reader holds between chunks: the tokenizer's buffers, the stack of open
  /// containers and the iOS points waiting for a start time.
  var heldBytes: Int {
    tokenizer.scratchCapacity + mapper.roles.capacity * MemoryLayout<TakeoutRole>.stride
      + mapper.pendingCapacity * MemoryLayout<TakeoutDocumentMapper.PendingPoint>.stride
  }

  /// The most `heldBytes` can be: two token buffers that double up to past the longest token, a
  /// stack as deep as the tokenizer allows (rounded up to the array's growth) and the waiting
  /// points.
  static var heldBound: Int {
    2 * 2 * (maximumTokenLength + 8) + 2 * JSONTokenizer.defaultMaximumDepth * MemoryLayout<TakeoutRole>.stride
      + 2 * TakeoutDocumentMapper.pendingLimit * MemoryLayout<TakeoutDocumentMapper.PendingPoint>.stride
  }
}
