import RouteFeeds
import RouteMileage

extension FeedIngest {
  /// How a pipelined read ended, for `run`.
  enum PipelinedRead {
    /// The ingest found the feed stored out of time order at a chunk end: `run` returns nil
    /// there, as on one thread.
    case stoppedOutOfOrder
    /// Everything read was measured; the feed error that stopped the reader, if one did.
    case read(FeedError?)
  }

  /// The rest of `run`'s loop, from a chunk already in `buffer`, on two threads: this one reads
  /// and parses (`PipelinedFeedSink` records what the reader delivers), a second one replays the
  /// records into `ingest` and, at each chunk end, does what `run` does after a chunk (the
  /// retained sink's `chunkFinished()`, then the time-order check). The ingest therefore sees the
  /// same calls in the same order as in `run`, and ends in the same state.
  ///
  /// Which error wins is `run`'s too: an error thrown at a chunk end (by the retained sink), or
  /// the time-order stop, happened earlier in the feed than anything the reader met after it,
  /// so it stands and the reader's is dropped. An error the retained sink throws is rethrown.
  static func runPipelined<Reader: FeedReader, Source: ByteSource, Retained: RetainedSampleSink>(
    _ reader: inout Reader, _ source: inout Source, _ ingest: inout ShiftIngest<Retained>,
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ firstCount: Int, _ pipelining: IngestPipelining
  ) throws -> PipelinedRead {
    let (outcome, readFailure) = FeedPipeline.run(
      &ingest, pipelining: pipelining,
      produce: { (recorder: inout PipelinedFeedSink) throws(FeedError) in
        var count = firstCount
        while count > 0 {
          try reader.read(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &recorder)
          recorder.endChunk()
          if recorder.downstreamStopped { return }
          count = try source.read(into: buffer)
        }
        try reader.finish(into: &recorder)
      })
    switch outcome {
    case .threw(let error):
      throw error
    case .stoppedAtChunkEnd:
      return .stoppedOutOfOrder
    case .replayedAll:
      if readFailure == nil, ingest.deliveredOutOfOrder { return .stoppedOutOfOrder }
      return .read(readFailure)
    }
  }
}

extension ShiftIngest: ChunkAwareFeedSink {
  /// What `FeedIngest.run` does after each chunk: flush the retained sink, then stop if the feed
  /// turned out to be stored out of time order.
  mutating func chunkEnded() throws -> Bool {
    try retainedSink.chunkFinished()
    return !deliveredOutOfOrder
  }
}
