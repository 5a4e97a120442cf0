import RouteMileage

/// Placeholder: replaced by the real CSV reader.
public struct CSVReader: FeedReader {
  public init(options: FeedOptions) {}
  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {}
  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {}
}
