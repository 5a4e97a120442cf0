/// Receives each retained sample as the ingest stage produces it (the store writes them in
/// batches; replay releases them into a live shift).
///
/// It lives in the domain, not in the ingest layer (RouteIngest), because both sides of it are
/// domain values: the ingest hands samples out through it and the store takes them in
/// (`ShiftImportWriter`), and the store depends on neither the readers nor the ingest.
public protocol RetainedSampleSink {
  mutating func retain(_ sample: RouteSample)
  /// Called after each chunk of the feed, so a sink can flush a batch. Throwing stops the ingest.
  mutating func chunkFinished() throws
  /// Forgets every sample retained so far: the ingest found the file stored out of time order
  /// and starts over, judging it in time order (see `FeedIngest.measure`).
  mutating func restart() throws
}

/// A sink that keeps nothing.
public struct DiscardRetainedSamples: RetainedSampleSink {
  public init() {}
  @inlinable public mutating func retain(_ sample: RouteSample) {}
  @inlinable public mutating func chunkFinished() {}
  @inlinable public mutating func restart() {}
}

/// A sink that keeps every retained sample in memory, in the order the ingest hands them over:
/// the live replay's batch waiting to be written, and the tests' record of what was retained.
/// Memory grows with the samples kept; a caller that writes batches empties `samples` itself.
public struct KeepRetainedSamples: RetainedSampleSink {
  public var samples: [RouteSample] = []
  public init() {}
  public mutating func retain(_ sample: RouteSample) { samples.append(sample) }
  public mutating func chunkFinished() {}
  public mutating func restart() { samples.removeAll() }
}
