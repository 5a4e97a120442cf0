import Dispatch
import RouteFeeds
import Synchronization

/// The bounded hand-over between the reading thread and the replaying thread of a pipeline.
///
/// `slots` batches exist at most: the reader fills one, hands it over (`send`) and takes a free
/// one (`takeEmpty`), waiting while all the others are queued or being replayed; the replaying
/// thread takes them in the order sent (`receive`) and gives each back emptied (`recycle`).
/// Memory is therefore `slots` batches whatever the feed's size, and batches keep their storage
/// from one use to the next. Waiting blocks on semaphores; no thread spins.
final class FeedPipelineChannel: Sendable {
  struct Queues {
    var full: [FeedEventBatch] = []
    var empty: [FeedEventBatch] = []
  }

  let batchCapacity: Int
  private let queues = Mutex(Queues())
  /// Batches sent and not yet received.
  private let fullCount = DispatchSemaphore(value: 0)
  /// Batches the reader may still take (made on first use, then given back by `recycle`).
  private let emptyCount: DispatchSemaphore
  private let stopped = Atomic<Bool>(false)

  init(batchCapacity: Int, slots: Int) {
    self.batchCapacity = batchCapacity
    // Every batch taken is given back before the pipeline ends, so the semaphore is back at its
    // initial value when it is released (libdispatch requires that).
    emptyCount = DispatchSemaphore(value: slots)
  }

  /// Reader: queues a filled batch for the replaying thread.
  func send(_ batch: FeedEventBatch) {
    queues.withLock { $0.full.append(batch) }
    fullCount.signal()
  }

  /// Reader: an empty batch, reused when one has been given back; waits while `slots` are in use.
  func takeEmpty() -> FeedEventBatch {
    emptyCount.wait()
    return queues.withLock { $0.empty.popLast() } ?? FeedEventBatch(capacity: batchCapacity)
  }

  /// Replaying thread: the next batch in the order sent, waiting for it.
  func receive() -> FeedEventBatch {
    fullCount.wait()
    return queues.withLock { $0.full.removeFirst() }
  }

  /// Replaying thread: gives a replayed batch back, emptied, for the reader to fill again.
  func recycle(_ batch: consuming FeedEventBatch) {
    batch.clear()
    let emptied = batch
    queues.withLock { $0.empty.append(emptied) }
    emptyCount.signal()
  }

  /// Replaying thread: says it will replay nothing more (it still receives and recycles batches
  /// until the last, so the reader never waits forever).
  func stop() { stopped.store(true, ordering: .releasing) }

  var isStopped: Bool { stopped.load(ordering: .acquiring) }
}
