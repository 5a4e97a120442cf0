/// A byte source that hands out its base's bytes decompressed when they are gzip-compressed, and
/// unchanged otherwise; every feed goes through one (`FeedIngest.measure`, `FeedRecordPuller`),
/// so a `.gpx.gz` reads exactly as the `.gpx` does, in any command.
///
/// Compression is recognised by its magic bytes (`1F 8B`), never by the file name, so a gzipped
/// feed named without `.gz` (or piped into standard input) is read too, and a file named `.gz`
/// that is not compressed is read as it is. Decompression streams: memory stays bounded (see
/// `GzipInflater`), whatever the feed's size.
///
/// Errors in the compressed data are `FeedError.badCompression` with the compressed byte offset;
/// the feed's own errors (a FIT byte offset, a GPX line) count in the decompressed bytes.
public struct DecompressingByteSource<Base: ByteSource>: ByteSource {
  public private(set) var base: Base
  private var mode = Mode.undecided
  /// Bytes read while deciding, handed out before any more are read (plain input only).
  private var peeked: [UInt8] = []

  private enum Mode {
    case undecided, plain
    case gzip(GzipInflater)
  }

  public init(_ base: Base) { self.base = base }

  /// The compression found, once the first read has looked: `gzip`, or nil for plain input.
  public var compression: String? {
    if case .gzip = mode { return "gzip" }
    return nil
  }

  /// - Complexity: O(*n*) in the bytes handed out (and, for gzip, consumed).
  public mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
    switch mode {
    case .plain:
      if peeked.isEmpty { return try base.read(into: buffer) }
      let count = min(buffer.count, peeked.count)
      for index in 0..<count { buffer[index] = peeked[index] }
      peeked.removeFirst(count)
      return count
    case .gzip(let inflater):
      return try inflater.read(into: buffer, from: &base)
    case .undecided:
      guard buffer.count > 0 else { return 0 }
      let count = try base.read(into: buffer)
      if count >= 2 || count == 0 {
        // The common case: the first read holds the magic (or the input is empty).
        if count >= 2, buffer[0] == 0x1F, buffer[1] == 0x8B {
          try startGzip(UnsafeBufferPointer(rebasing: buffer[0..<count]))
          return try read(into: buffer)
        }
        mode = .plain
        return count
      }
      // A source that hands out one byte at a time: read until two are known.
      peeked = Array(buffer[0..<count])
      var more = [UInt8](repeating: 0, count: 1 << 16)
      while peeked.count < 2 {
        let extra = try more.withUnsafeMutableBufferPointer { pointer throws(FeedError) in try base.read(into: pointer) }
        if extra == 0 { break }
        peeked += more[0..<extra]
      }
      if peeked.count >= 2, peeked[0] == 0x1F, peeked[1] == 0x8B {
        let first = peeked
        peeked = []
        try first.withUnsafeBufferPointer { pointer throws(FeedError) in try startGzip(pointer) }
      } else {
        mode = .plain
      }
      return try read(into: buffer)
    }
  }

  /// Rewindable when the base is: a second pass starts the base over and decides again.
  public var isRewindable: Bool { base.isRewindable }

  public mutating func rewind() throws(FeedError) {
    try base.rewind()
    mode = .undecided
    peeked = []
  }

  private mutating func startGzip(_ first: UnsafeBufferPointer<UInt8>) throws(FeedError) {
    mode = .gzip(try GzipInflater(first: first))
  }
}
