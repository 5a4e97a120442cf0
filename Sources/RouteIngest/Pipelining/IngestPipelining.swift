import RouteFeeds

/// Whether, and how, one feed's reading and measuring run on two threads (`FeedIngest.measure`).
///
/// Pipelined, the calling thread reads and parses the feed and records what the reader delivers
/// into fixed-size batches (`PipelinedFeedSink`); a second thread replays each batch, in order,
/// into the ingest stage (sessions, time order, filter, accumulator). The ingest sees the same
/// calls in the same order as it would on one thread, so the measurement is bit-identical; see
/// `docs/performance.md` ("Two threads").
///
/// It pays on a large feed when a second core is free (`measure` of one file). It does not pay
/// for a small feed (starting the second thread costs more than it saves) nor where every core
/// already measures a feed of its own (`batch`), so the default is `.off`.
public struct IngestPipelining: Sendable, Hashable {
  /// How many chunks (`FeedIngest.chunkSize` each, 1 MiB) are read and measured on the calling
  /// thread before the second thread starts; nil never starts it. A feed that ends within them
  /// never starts a thread.
  public var startAfterChunks: Int?
  /// How many positions (or how many other records) a batch holds before it is handed over.
  public var batchCapacity: Int
  /// How many batches exist at once (the one being filled, those waiting, the one being
  /// replayed); the reader waits for a free one, so memory stays bounded.
  public var slots: Int

  public init(startAfterChunks: Int?, batchCapacity: Int = 4096, slots: Int = 3) {
    self.startAfterChunks = startAfterChunks
    self.batchCapacity = max(1, batchCapacity)
    self.slots = max(2, slots)
  }

  /// One thread: the reader delivers straight into the ingest stage.
  public static let off = IngestPipelining(startAfterChunks: nil)
  /// The first chunk (1 MiB) on the calling thread; the rest, if any, pipelined. A feed under
  /// 1 MiB never starts a thread.
  public static let automatic = IngestPipelining(startAfterChunks: 1)
  /// Pipelined from the first byte, with batches of `batchCapacity` (tests: 1 and 7 force many
  /// hand-overs on small feeds).
  public static func always(batchCapacity: Int = 4096) -> IngestPipelining {
    IngestPipelining(startAfterChunks: 0, batchCapacity: batchCapacity)
  }
}
