import RouteMileage

/// Whichever reader a format needs, behind one concrete type, for callers that pick the format
/// at run time and drive the reader themselves (replay). The reader is held as an existential,
/// in a box copied on write (so this stays a plain value, and a cheap one to store): each chunk
/// costs one dynamic call, and the reader's calls to the sink are dynamic too, which replay
/// (records played back at feed time) never notices. The ingest that measures whole files takes
/// each reader by its concrete type instead (`FeedFormat.withReader`), for the hot path.
public struct AnyFeedReader: FeedReader {
  private final class Box {
    var reader: any FeedReader
    init(_ reader: any FeedReader) { self.reader = reader }
  }

  private var box: Box

  public init(format: FeedFormat, options: FeedOptions) {
    var erase = Erase()
    box = Box(format.withReader(options: options, &erase))
  }

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    try uniqueBox().reader.read(chunk, into: &sink)
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    try uniqueBox().reader.finish(into: &sink)
  }

  /// The box, copied first when another copy of this value shares it.
  private mutating func uniqueBox() -> Box {
    if !isKnownUniquelyReferenced(&box) { box = Box(box.reader) }
    return box
  }

  /// Hands back the format's reader as an existential.
  private struct Erase: FeedReaderWork {
    func run<Reader: FeedReader>(_ reader: Reader) -> any FeedReader { reader }
  }
}

/// One thing a reader delivered, held so a caller can release it later (replay plays records
/// back at feed time).
public enum FeedRecord: Sendable, Hashable, CustomStringConvertible {
  case position(RouteSample, session: Int?, line: Int)
  case rejected(FeedReason, line: Int)
  case unreadable(FeedReason, line: Int)
  case ignored(FeedReason, line: Int)
  /// A caveat on a record read all the same (see `FeedSink.noted`).
  case noted(FeedReason, line: Int)

  /// The line the record starts on.
  public var line: Int {
    switch self {
    case .position(_, _, let line), .rejected(_, let line), .unreadable(_, let line), .ignored(_, let line),
      .noted(_, let line):
      line
    }
  }

  /// `12: position t=… session=0`, `13: rejected noFix`: the time, never a coordinate.
  public var description: String {
    switch self {
    case .position(let sample, let session, let line):
      "\(line): position t=\(sample.timestamp) session=\(session.map(String.init) ?? "nil")"
    case .rejected(let reason, let line): "\(line): rejected \(reason)"
    case .unreadable(let reason, let line): "\(line): unreadable \(reason)"
    case .ignored(let reason, let line): "\(line): ignored \(reason)"
    case .noted(let reason, let line): "\(line): noted \(reason)"
    }
  }

  /// Hands the record to a sink, as the reader would have.
  public func deliver(to sink: inout some FeedSink) {
    switch self {
    case .position(let sample, let session, let line): sink.position(sample, session: session, line: line)
    case .rejected(let reason, let line): sink.rejected(reason, line: line)
    case .unreadable(let reason, let line): sink.unreadable(reason, line: line)
    case .ignored(let reason, let line): sink.ignored(reason, line: line)
    case .noted(let reason, let line): sink.noted(reason, line: line)
    }
  }
}

/// A sink that keeps every record it is given, in order (the replay's queue; tests compare
/// whole and chunked reads with it).
public struct FeedRecordCollector: FeedSink {
  public var records: [FeedRecord] = []
  public init() {}
  public mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    records.append(.position(sample, session: session, line: line))
  }
  public mutating func rejected(_ reason: FeedReason, line: Int) { records.append(.rejected(reason, line: line)) }
  public mutating func unreadable(_ reason: FeedReason, line: Int) { records.append(.unreadable(reason, line: line)) }
  public mutating func ignored(_ reason: FeedReason, line: Int) { records.append(.ignored(reason, line: line)) }
  public mutating func noted(_ reason: FeedReason, line: Int) { records.append(.noted(reason, line: line)) }
}

/// Pulls a feed's records one at a time, reading a chunk whenever it runs out: memory stays
/// bounded by one chunk's records. Gzip-compressed input is decompressed on the way
/// (`DecompressingByteSource`).
public struct FeedRecordPuller<Source: ByteSource> {

  public let format: FeedFormat
  var source: DecompressingByteSource<Source>
  var reader: AnyFeedReader
  var queue = FeedRecordCollector()
  var nextIndex = 0
  var ended = false
  var pendingChunk: [UInt8]
  /// The buffer later chunks are read into (`FeedOpening.chunkSize` bytes once the first is used).
  var readBuffer: [UInt8] = []
  /// Why the feed stopped early, once it has.
  public private(set) var failure: FeedError?

  /// Detects the format from the first chunk unless one is given.
  public init(_ source: Source, format: FeedFormat?, options: FeedOptions) {
    var source = DecompressingByteSource(source)
    var first = [UInt8](repeating: 0, count: FeedOpening.chunkSize)
    let opening = first.withUnsafeMutableBufferPointer { FeedOpening.firstRead(&source, into: $0, format: format) }
    first.removeSubrange(opening.count...)
    let detected = opening.format
    let failure = opening.failure
    self.source = source
    self.format = detected
    self.failure = failure
    self.ended = failure != nil
    reader = AnyFeedReader(format: detected, options: options)
    pendingChunk = first
  }

  /// The next record, or nil at the end of the feed (or when it stopped early: see `failure`).
  public mutating func next() -> FeedRecord? {
    while nextIndex == queue.records.count {
      queue.records.removeAll(keepingCapacity: true)
      nextIndex = 0
      guard !ended else { return nil }
      do throws(FeedError) {
        if !pendingChunk.isEmpty {
          let chunk = pendingChunk
          pendingChunk = []
          try chunk.withUnsafeBufferPointer { buffer throws(FeedError) in try reader.read(buffer, into: &queue) }
          continue
        }
        // One chunk buffer for the whole feed, taken out of `self` while the source fills it.
        var buffer = readBuffer.isEmpty ? [UInt8](repeating: 0, count: FeedOpening.chunkSize) : readBuffer
        readBuffer = []
        defer { readBuffer = buffer }
        let count = try buffer.withUnsafeMutableBufferPointer { pointer throws(FeedError) in
          try source.read(into: pointer)
        }
        if count == 0 {
          ended = true
          try reader.finish(into: &queue)
        } else {
          try buffer.withUnsafeBufferPointer { pointer throws(FeedError) in
            try reader.read(UnsafeBufferPointer(rebasing: pointer[0..<count]), into: &queue)
          }
        }
      } catch {
        failure = error
        ended = true
      }
    }
    defer { nextIndex += 1 }
    return queue.records[nextIndex]
  }
}
