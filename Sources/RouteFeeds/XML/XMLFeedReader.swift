/// A feed reader that is the shared XML scanner driven by one format's mapper: GPX, TCX and KML
/// differ only in their `Mapper`, so `read` and `finish` are written here once.
///
/// A protocol rather than a generic struct, because the readers are public and the mappers and
/// the scanner are not: a public `XMLFeedReader<Mapper>` would have to publish `XMLDocumentMapper`
/// and everything it names. Each public reader keeps its own name and documentation and only
/// says which mapper it scans with; the scanner's `@_specialize` attributes still give each its
/// own copy of the loop.
protocol XMLFeedReader: FeedReader {
  associatedtype Mapper: XMLDocumentMapper
  var scanner: XMLScanner<Mapper> { get set }
}

extension XMLFeedReader {
  /// Scans one more chunk (see `XMLScanner.scan`).
  ///
  /// - Complexity: O(*n*) in the chunk's length.
  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    try scanner.scan(chunk, into: &sink)
  }

  /// Ends the feed: throws `FeedError.truncated` when the document did not close.
  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    scanner.mapper.timestamps.noteStepBacks(line: 0, into: &sink)
    try scanner.finish(into: &sink)
  }
}
