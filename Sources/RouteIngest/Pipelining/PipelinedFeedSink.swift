import RouteFeeds
import RouteMileage

/// The reader's side of a pipeline: a `FeedSink` that records what it is given into batches and
/// hands each full batch to the thread that replays it into the real sink (`FeedPipeline.run`).
///
/// A position costs one append of its values; a batch is handed over when it holds
/// `batchCapacity` positions or `batchCapacity` other records, and the reader then takes a free
/// batch, waiting for one when every slot is in use (so memory stays bounded).
public struct PipelinedFeedSink: FeedSink {
  let channel: FeedPipelineChannel
  var batch: FeedEventBatch
  let capacity: Int

  init(channel: FeedPipelineChannel) {
    self.channel = channel
    capacity = channel.batchCapacity
    batch = channel.takeEmpty()
  }

  @inline(__always)
  public mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    batch.positions.append(FeedEventBatch.Position(sample: sample, session: session, line: line))
    if batch.positions.count >= capacity { handOver() }
  }

  public mutating func rejected(_ reason: FeedReason, line: Int) { record(.rejected(reason, line: line)) }
  public mutating func unreadable(_ reason: FeedReason, line: Int) { record(.unreadable(reason, line: line)) }
  public mutating func ignored(_ reason: FeedReason, line: Int) { record(.ignored(reason, line: line)) }
  public mutating func noted(_ reason: FeedReason, line: Int) { record(.noted(reason, line: line)) }

  /// Marks the end of one chunk of the feed: the replaying thread runs its chunk-end step there
  /// (the ingest flushes its retained sink and checks the time order), as the one-thread loop
  /// does after each chunk.
  public mutating func endChunk() { record(nil) }

  /// True once the replaying side has stopped (the feed turned out to be stored out of time
  /// order, or the retained sink threw): reading further is wasted.
  public var downstreamStopped: Bool { channel.isStopped }

  mutating func record(_ record: FeedRecord?) {
    batch.others.append(FeedEventBatch.Other(record: record, positionsBefore: batch.positions.count))
    if batch.others.count >= capacity { handOver() }
  }

  mutating func handOver() {
    let full = batch
    batch = FeedEventBatch()
    channel.send(full)
    batch = channel.takeEmpty()
  }

  /// Hands over what is left, marked as the last batch.
  mutating func close() {
    var last = batch
    batch = FeedEventBatch()
    last.isLast = true
    channel.send(last)
  }
}
