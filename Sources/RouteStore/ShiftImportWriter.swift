import RouteMileage

/// Writes an import's retained samples into its shift in whole batches, and marks the shift
/// complete in the same transaction as the last batch.
///
/// The interrupted-state design: the shift is created `importing` before the first sample is
/// written; every batch is one transaction; the last one also sets `complete`. An import stopped
/// at any point (an error, Ctrl-C, kill -9) therefore leaves whole batches under a shift that
/// still says `importing` — listed as interrupted, never as a finished figure — and SQLite's
/// journal keeps the file consistent. Nothing is rolled back after the fact, so what was valid
/// before an interruption stays readable (and deletable).
///
/// Batches: `FeedIngest` calls `chunkFinished()` after each chunk of the feed (1 MiB), and the
/// writer commits once it holds at least `batchSize` samples, so memory stays bounded by about
/// one chunk's samples plus `batchSize`, and commits (each an fsync) stay few.
///
/// Without a window (`--shift-start/--shift-end` not given) the shift's `start` is moved to the
/// first retained sample's time in the first batch, and its `end` stays NULL: it is measured with
/// no window. An import that retains nothing keeps `start = importedAt`.
public struct ShiftImportWriter: RetainedSampleSink {
  /// The samples written per transaction, at least (the last batch may be smaller).
  public static let defaultBatchSize = 4_096

  public let store: RouteStore
  public let shift: ShiftID
  public let batchSize: Int
  var startRecorded: Bool
  let startsAtFirstSample: Bool
  var pending: [RouteSample] = []
  /// Samples committed so far.
  public private(set) var samplesWritten = 0
  /// Transactions committed so far (including the final one).
  public private(set) var batchesCommitted = 0

  /// Starts writing into an existing shift (one `RouteStore.beginImport` created, or a running
  /// shift being continued).
  ///
  /// - Parameter startsAtFirstSample: move the shift's `start` to the first sample written (an
  ///   import without a window); false keeps `start` as it is.
  public init(store: RouteStore, shift: ShiftID, startsAtFirstSample: Bool, batchSize: Int = defaultBatchSize) {
    self.store = store
    self.shift = shift
    self.startRecorded = !startsAtFirstSample
    self.startsAtFirstSample = startsAtFirstSample
    self.batchSize = max(1, batchSize)
  }

  /// Samples retained but not yet committed.
  public var pendingCount: Int { pending.count }

  public mutating func retain(_ sample: RouteSample) {
    pending.append(sample)
  }

  /// Commits a batch once at least `batchSize` samples are waiting.
  public mutating func chunkFinished() throws {
    if pending.count >= batchSize { try flush(markingComplete: false) }
  }

  /// Deletes every sample written so far, in one transaction, and forgets those waiting: the
  /// ingest found the feed stored out of time order and writes it again in time order. The
  /// shift stays `importing` throughout, so an interruption leaves an interrupted import.
  public mutating func restart() throws {
    pending.removeAll()
    if samplesWritten > 0 {
      let store = store
      let shift = shift
      try store.database.transaction { try store.deleteSamples(of: shift) }
      samplesWritten = 0
    }
    startRecorded = !startsAtFirstSample
  }

  /// Commits whatever is waiting, now, as one batch.
  public mutating func flush() throws {
    try flush(markingComplete: false)
  }

  /// Commits the last samples and marks the shift `complete`, in one transaction.
  ///
  /// - Parameter stoppedReading: for a feed cut off mid-record, where and why reading stopped
  ///   (`ShiftRecord.stoppedReading(line:why:)`), recorded in the same transaction, so the
  ///   shift is finished and truncated at once, never finished and looking whole.
  /// - Parameter replacing: interrupted imports of the same file this one replaces
  ///   (`RouteStore.interruptedCopies(of:source:)`), deleted in the same transaction, so the
  ///   store holds the drive once at every instant.
  public mutating func finish(stoppedReading: String? = nil, replacing: [ShiftID] = []) throws {
    try flush(markingComplete: true, stoppedReading: stoppedReading, replacing: replacing)
  }

  mutating func flush(markingComplete: Bool, stoppedReading: String? = nil, replacing: [ShiftID] = []) throws {
    guard !pending.isEmpty || markingComplete else { return }
    let batch = pending
    let store = store
    let shift = shift
    let recordStart = !startRecorded && !batch.isEmpty
    try store.database.transaction {
      try store.appendSamplesInOpenTransaction(batch, to: shift)
      if recordStart { try store.setStart(batch[0].timestamp, of: shift) }
      if let stoppedReading {
        try store.updateShift(shift, "UPDATE shifts SET stopped_reading = ? WHERE id = ?") {
          try $0.bind(stoppedReading, at: 1)
        }
      }
      if markingComplete { try store.setStatus(.complete, of: shift) }
      try store.deleteInterrupted(replacing)
    }
    if recordStart { startRecorded = true }
    samplesWritten += batch.count
    batchesCommitted += 1
    pending.removeAll(keepingCapacity: true)
  }
}

extension RouteStore {
  /// Creates the `importing` shift an import writes into and returns its writer.
  ///
  /// - Parameters:
  ///   - window: the `--shift-start/--shift-end` window, or nil for a shift with no window.
  ///   - importedAt: now, seconds since 1970-01-01T00:00:00Z (the caller's clock; the store reads none).
  public func beginImport(
    source: String, window: ShiftWindow?, importedAt: Double,
    batchSize: Int = ShiftImportWriter.defaultBatchSize
  ) throws -> ShiftImportWriter {
    let shift = try createShift(
      start: window?.start ?? importedAt, end: window?.end, source: source, importedAt: importedAt,
      status: .importing)
    return ShiftImportWriter(store: self, shift: shift, startsAtFirstSample: window == nil, batchSize: batchSize)
  }
}
