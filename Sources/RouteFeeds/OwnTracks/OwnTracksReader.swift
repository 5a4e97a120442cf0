import RouteMileage

/// Streams an OwnTracks Recorder `.rec` file into positions: one line per message,
/// `timestamp<TAB or spaces>column<TAB or spaces>{json}`.
///
/// Lines end at LF or CRLF. A line is interpreted where it lies in the chunk; only a line split
/// across chunks is copied, into a buffer of at most `maximumLineLength` bytes. A longer line is
/// skipped to its end without being kept and counted as `lineTooLong`, so memory stays bounded
/// whatever the input (a `card` message with a photo runs to tens of kilobytes; 1 MiB leaves
/// room for it). Each line is split by `OwnTracksLine` and its message read by
/// `OwnTracksMessage`; every line becomes a position, a rejected or unreadable record, or an
/// ignored line of a named kind.
///
/// Capture sessions: one per tracker (the message's `tid`, else its `topic`), in order of first
/// appearance. The Recorder writes one file per user, device and month, so a file is usually
/// one session; files of several devices joined together never zigzag between them.
///
/// - Complexity: O(*n*) in the feed's bytes; memory O(1) in it (one line, and one entry per
///   tracker seen).
public struct OwnTracksReader: FeedReader {
  /// Bytes in one line, JSON included.
  public static let maximumLineLength = 1 << 20

  var message = OwnTracksMessage()
  /// The line being read: its number, and its start when split across chunks.
  var partial = PartialLine(maximumLength: OwnTracksReader.maximumLineLength, keepsCapacity: false)

  public init(options: FeedOptions) {}

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    guard chunk.count > 0 else { return }
    var lineStart = 0
    while let newline = chunk[lineStart...].firstIndex(of: .asciiNewline) {
      endLine(UnsafeBufferPointer(rebasing: chunk[lineStart..<newline]), into: &sink)
      lineStart = newline + 1
    }
    partial.keep(UnsafeBufferPointer(rebasing: chunk[lineStart...]))
  }

  /// One line is complete: `tail` is its last (or only) piece.
  private mutating func endLine(_ tail: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) {
    guard let number = partial.endLine(with: tail, into: &sink) else { return }
    if partial.isEmpty {
      message.interpret(tail, line: number, into: &sink)
      return
    }
    var whole = partial.take(appending: tail)
    whole.withUnsafeBufferPointer { message.interpret($0, line: number, into: &sink) }
    partial.giveBack(&whole)
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    guard !partial.endFeedSkipping(into: &sink), !partial.isEmpty else { return }
    let whole = partial.take()
    // The last line has no line end: when it cannot be read, the file was cut inside it.
    let lastLine = partial.lineNumber
    var watch = LastLineWatch(sink)
    whole.withUnsafeBufferPointer { message.interpret($0, line: lastLine, into: &watch) }
    sink = watch.sink
    if watch.sawUnreadable { throw .cutOffLastLine(lastLine) }
  }
}
