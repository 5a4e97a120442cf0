/// A byte source that hands out its base's bytes decompressed when they are gzip-compressed, the
/// KML document inside when they are a zip archive (KMZ, see `ZipDocumentReader`), and
/// unchanged otherwise; every feed goes through one (the ingest's whole-file read and replay's),
/// so a `.gpx.gz` reads exactly as the `.gpx` does, in any command.
///
/// Compression is recognised by its magic bytes (`1F 8B`, `PK 03 04`), never by the file name, so a gzipped
/// feed named without `.gz` (or piped into standard input) is read too, and a file named `.gz`
/// that is not compressed is read as it is. Decompression streams: memory stays bounded (see
/// `GzipInflater`), whatever the feed's size.
///
/// Errors in the compressed data are `FeedError.badCompression` (gzip) or `.badArchive` (zip) with
/// the byte offset in the file as stored; the feed's own errors (a FIT byte offset, a GPX line) count in the
/// decompressed bytes.
public struct DecompressingByteSource<Base: ByteSource>: ByteSource {
  public private(set) var base: Base
  private var mode = Mode.undecided
  /// Bytes read while deciding, handed out before any more are read (plain input only).
  private var peeked: [UInt8] = []

  private enum Mode {
    case undecided, plain
    case gzip(GzipInflater)
    case zip(ZipDocumentReader)
  }

  public init(_ base: Base) { self.base = base }

  /// The compression found, once the first read has looked: `gzip`, `zip`, or nil for plain input.
  public var compression: String? {
    switch mode {
    case .gzip: "gzip"
    case .zip: "zip"
    case .undecided, .plain: nil
    }
  }

  /// For a zip archive (KMZ) read to the end of its document: how many `.kml` entries follow
  /// the one read (which is the only one measured). Nil for other input, before the document's
  /// end, and when the rest of the archive could not be walked to its central directory.
  public var otherKMLDocuments: Int? {
    guard case .zip(let reader) = mode else { return nil }
    return reader.otherDocuments
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
    case .zip(let reader):
      return try reader.read(into: buffer, from: &base)
    case .undecided:
      guard buffer.count > 0 else { return 0 }
      let count = try base.read(into: buffer)
      if count >= 4 || count == 0 {
        // The common case: the first read holds the magic (or the input is empty).
        if try start(UnsafeBufferPointer(rebasing: buffer[0..<count])) { return try read(into: buffer) }
        mode = .plain
        return count
      }
      // A source that hands out a few bytes at a time: read until four are known.
      peeked = Array(buffer[0..<count])
      var more = [UInt8](repeating: 0, count: 1 << 16)
      while peeked.count < 4 {
        let extra = try more.withUnsafeMutableBufferPointer { pointer throws(FeedError) in try base.read(into: pointer)
        }
        if extra == 0 { break }
        peeked += more[0..<extra]
      }
      let first = peeked
      if try first.withUnsafeBufferPointer({ pointer throws(FeedError) in try start(pointer) }) {
        peeked = []
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

  /// Starts decompressing when `first` (the first bytes read) begins with a magic: gzip
  /// `1F 8B`, or a zip local header `PK 03 04`. Returns false for plain input.
  private mutating func start(_ first: UnsafeBufferPointer<UInt8>) throws(FeedError) -> Bool {
    if first.count >= 2, first[0] == 0x1F, first[1] == 0x8B {
      mode = .gzip(try GzipInflater(first: first))
      return true
    }
    if first.count >= 4, first[0] == 0x50, first[1] == 0x4B, first[2] == 0x03, first[3] == 0x04 {
      mode = .zip(ZipDocumentReader(first: first))
      return true
    }
    return false
  }
}
