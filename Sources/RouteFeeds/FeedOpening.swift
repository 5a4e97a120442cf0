/// The opening of a feed: the first bytes read, the format and file kind detected from them,
/// and the buffer size every later read uses. Bytes only; what is measured is the ingest's.
public enum FeedOpening {
  /// The size of the buffer bytes are read into; the readers copy only partial records out of it.
  public static let chunkSize = 1 << 20

  /// How many bytes format and file-kind detection look at.
  public static let detectionPrefix = 8192

  /// Reads until `detectionPrefix` bytes are in `buffer` or the source ends, so detection never
  /// depends on how a source chunks its bytes. Returns the count read.
  static func readPrefix<Source: ByteSource>(
    _ source: inout Source, into buffer: UnsafeMutableBufferPointer<UInt8>
  ) throws(FeedError) -> Int {
    var count = 0
    while count < min(detectionPrefix, buffer.count) {
      let read: Int
      do {
        read = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
      } catch {
        // Bytes already read are read first; the error comes back on the next read (a gzip
        // stream damaged after a few bytes repeats its error).
        guard count > 0 else { throw error }
        break
      }
      if read == 0 { break }
      count += read
    }
    return count
  }

  /// What the first read of a feed found.
  public struct FirstRead: Sendable {
    /// Bytes read into the buffer: at least `detectionPrefix` unless the feed is shorter.
    public var count: Int
    /// The format given, or the one detected from the first `detectionPrefix` bytes.
    public var format: FeedFormat
    /// Why the feed cannot be read, when the first read already says: a read error, or a file
    /// of another kind (`.notAFeed`; never for FIT, which is binary by design).
    public var failure: FeedError?
  }

  /// The first read of a feed, and what it decides: the one implementation for the ingest's
  /// whole-file read, `AnyFeedReader` and replay's record puller, so all read the
  /// same prefix into a buffer of `chunkSize` bytes and detect the format and the file kind from
  /// the same bytes, however the source chunks them.
  ///
  /// - Parameter format: nil to detect it.
  /// - Complexity: O(`detectionPrefix`).
  public static func firstRead<Base: ByteSource>(
    _ source: inout DecompressingByteSource<Base>, into buffer: UnsafeMutableBufferPointer<UInt8>, format: FeedFormat?
  ) -> FirstRead {
    var count = 0
    var failure: FeedError?
    do {
      count = try readPrefix(&source, into: buffer)
    } catch {
      failure = error
    }
    let prefix = UnsafeBufferPointer(rebasing: buffer[0..<min(count, detectionPrefix)])
    let detected = format ?? FeedFormat.detect(prefix: prefix)
    if failure == nil, detected != .fit, let kind = FeedFileKind.sniff(prefix) {
      failure = .notAFeed(kind == .zip && source.compression == "gzip" ? .gzippedZip : kind)
    }
    if failure == nil, count == 0 { failure = .notAFeed(.empty) }
    return FirstRead(count: count, format: detected, failure: failure)
  }
}
