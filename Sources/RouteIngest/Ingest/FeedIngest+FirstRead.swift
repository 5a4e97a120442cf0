extension FeedIngest {
  /// What the first read of a feed found.
  struct FirstRead {
    /// Bytes read into the buffer: at least `detectionPrefix` unless the feed is shorter.
    var count: Int
    /// The format given, or the one detected from the first `detectionPrefix` bytes.
    var format: FeedFormat
    /// Why the feed cannot be read, when the first read already says: a read error, or a file
    /// of another kind (`.notAFeed`; never for FIT, which is binary by design).
    var failure: FeedError?
  }

  /// The first read of a feed, and what it decides: the one implementation for
  /// `FeedIngest.measure` and `FeedRecordPuller`, so both read the same prefix into a buffer of
  /// `chunkSize` bytes and detect the format and the file kind from the same bytes, however
  /// the source chunks them.
  ///
  /// - Parameter format: nil to detect it.
  /// - Complexity: O(`detectionPrefix`).
  static func firstRead<Base: ByteSource>(
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
