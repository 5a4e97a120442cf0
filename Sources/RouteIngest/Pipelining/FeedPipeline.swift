import Dispatch
import RouteFeeds

/// A sink a pipeline replays into: besides the records, it is told where each chunk of the feed
/// ended, as the one-thread loop would act there.
protocol ChunkAwareFeedSink: FeedSink {
  /// What the one-thread loop does after a chunk; false stops the replay here.
  mutating func chunkEnded() throws -> Bool
}

/// Runs a reader on the calling thread and a sink on a second thread, joined by batches
/// (`PipelinedFeedSink`, `FeedPipelineChannel`).
enum FeedPipeline {
  /// How the replaying side ended.
  enum Outcome {
    /// Every batch was replayed.
    case replayedAll
    /// The sink's `chunkEnded()` said to stop; nothing after it was replayed.
    case stoppedAtChunkEnd
    /// The sink's `chunkEnded()` threw at a chunk end; nothing after it was replayed.
    case threw(any Error)
  }

  /// Calls `produce` with a recording sink on the calling thread while a second thread replays
  /// every batch, in order, into `sink`, calling its `chunkEnded()` at each chunk end recorded.
  /// Returns once the second thread has replayed (or passed over) the last batch and given
  /// `sink` back, so nothing reads `sink` while it is replayed into.
  ///
  /// What `produce` throws is returned beside the outcome, after the join, once every record
  /// delivered before the throw has been replayed: a reader's error stands after the records it
  /// read, as on one thread. (When the replaying side stopped first, that error came later in
  /// the feed than the stop, and the caller ignores it.)
  static func run<Sink: ChunkAwareFeedSink>(
    _ sink: inout Sink, pipelining: IngestPipelining,
    produce: (inout PipelinedFeedSink) throws(FeedError) -> Void
  ) -> (outcome: Outcome, readFailure: FeedError?) {
    let channel = FeedPipelineChannel(batchCapacity: pipelining.batchCapacity, slots: pipelining.slots)
    let replayer = PipelineReplayer(sink)
    // Handed over as an existential, so the task captures no generic metatype.
    let job: any PipelineReplaying = replayer
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      job.replayAll(from: channel)
      finished.signal()
    }
    var recorder = PipelinedFeedSink(channel: channel)
    var failure: FeedError?
    do {
      try produce(&recorder)
    } catch {
      failure = error
    }
    recorder.close()
    finished.wait()
    sink = replayer.sink
    return (replayer.outcome, failure)
  }
}

/// The replaying thread's work, without its sink's type.
private protocol PipelineReplaying: AnyObject, Sendable {
  func replayAll(from channel: FeedPipelineChannel)
}

/// The replaying thread's state: the sink it replays into and how it ended.
///
/// `@unchecked Sendable` because a generic sink (the ingest stage, with its filter, sorter and
/// retained sink) is not `Sendable`. It is safe by this invariant: `FeedPipeline.run` creates the
/// replayer, hands it to exactly one task (`replayAll`), and touches it again only after waiting
/// on the semaphore that task signals as its last act, which orders every write the task made
/// before every read that follows; in between, the calling thread never reads or writes it.
private final class PipelineReplayer<Sink: ChunkAwareFeedSink>: PipelineReplaying, @unchecked Sendable {
  var sink: Sink
  var outcome = FeedPipeline.Outcome.replayedAll

  init(_ sink: Sink) { self.sink = sink }

  func replayAll(from channel: FeedPipelineChannel) {
    var replaying = true
    while true {
      let batch = channel.receive()
      let isLast = batch.isLast
      if replaying {
        do {
          if try !batch.replay(into: &sink) {
            outcome = .stoppedAtChunkEnd
            replaying = false
          }
        } catch {
          outcome = .threw(error)
          replaying = false
        }
        if !replaying { channel.stop() }
      }
      channel.recycle(batch)
      if isLast { return }
    }
  }
}
