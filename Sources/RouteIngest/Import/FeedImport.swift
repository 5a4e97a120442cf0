import RouteFeeds
import RouteMileage
import RouteStore
import ShiftWork

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock seconds since 1970, for `imported_at` only: no measurement ever reads the clock.
public func wallClockSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// One feed's import: what was stored, or why nothing was.
public struct ImportedFeed: Sendable {
  public var input: InputResult
  public var shift: ShiftID?
  public var complete: Bool
  /// The stored shift with the same content, when the import was skipped for it.
  public var duplicateOf: ShiftID? = nil
  /// Whether that stored shift is a cut-off feed's (`truncated`).
  public var duplicateIsTruncated = false
  /// The interrupted imports of the same file it replaced, and those it kept (rows differ).
  public var copies = InterruptedCopies()
  /// True when the feed gave no position to keep, so no shift was stored.
  public var keptNothing = false
}

/// The import workflow: one feed read once into a stored shift, its content hash taken on the way.
public enum FeedImport {
  /// Imports one feed; the shift is complete once every retained sample is written.
  ///
  /// A feed whose reading stopped partway (cut off mid-record) keeps its rows as a finished,
  /// truncated shift recording where and why reading stopped, measured and cut off there (the
  /// figure `measure` gives the same file). Only an import that itself stops (Ctrl-C, kill, a
  /// store error) leaves an interrupted (`importing`) shift. A file of which
  /// nothing could be read (`FeedError.stopsReadingPartway` false: not a feed, unmappable
  /// columns, every record unreadable) keeps no shift at all: an empty "complete" shift would
  /// claim a drive of nothing.
  public static func importFeed(
    _ path: String, into store: RouteStore, storePath: String, reading options: FeedReading, batchSize: Int,
    allowDuplicate: Bool = false
  ) throws -> ImportedFeed {
    var input = InputResult(source: path)
    let settings: IngestSettings
    let source: FileByteSource
    let record: ShiftTimelineFile.Record?
    do {
      record = try options.timelineRecord(forFeed: path)
      settings = options.settings(with: record)
      source = try FileByteSource(path: path)
    } catch {
      // A refused timeline or an unreadable file: nothing is imported from this feed.
      input.failure = error is ShiftTimelineFile.Failure ? "\(error)" : "\(path): \(error)"
      return ImportedFeed(input: input, shift: nil, complete: false)
    }
    input.timeline = settings.timeline
    input.timelineRecord = record
    // The timeline file's deliveries, offers and clamps go in with the shift, in its first transaction.
    var writer = try store.beginImport(
      source: path, timeline: settings.timeline, ledger: record?.ledger, window: settings.window, contentHash: nil,
      importedAt: wallClockSeconds(), batchSize: batchSize)
    ImportInterruption.arm(shift: writer.shift, source: path, storePath: storePath)
    defer { ImportInterruption.disarm() }
    // The content hash is taken in the same read that measures the feed.
    var bytes = HashingByteSource(source)
    var measurement = try FeedIngest.measure(
      &bytes, format: options.inputFormat, options: options.feedOptions, settings: settings, retained: &writer)
    let failure = measurement.report.failure
    if let failure {
      input.failure = FeedReading.describe(failure, in: path)
      if !failure.stopsReadingPartway {
        try store.deleteShift(writer.shift)
        input.measurement = measurement
        return ImportedFeed(input: input, shift: nil, complete: false)
      }
    }
    if writer.samplesWritten + writer.pendingCount == 0 {
      // Nothing to keep (an empty file, a GGA-only log without --date, every position
      // refused): an empty shift would claim a drive of nothing and, by its content hash,
      // turn the corrected retry away as a duplicate.
      try store.deleteShift(writer.shift)
      input.measurement = measurement
      if input.failure == nil { input.failure = "\(path): no position could be kept, so nothing was stored" }
      return ImportedFeed(input: input, shift: nil, complete: false, keptNothing: true)
    }
    // Every row is stored before the comparison with interrupted imports of the same file.
    try writer.flush()
    let copies =
      allowDuplicate || path == "-" ? InterruptedCopies() : try store.interruptedCopies(of: writer.shift, source: path)
    // A cut-off feed's hash is of the whole file: the bytes past where reading stopped are
    // read into it too (a file that cannot be read to its end gets no hash, so no duplicate).
    let readToTheEnd = failure == nil || drain(&bytes)
    var hash = bytes.hash
    if let chosen = measurement.recordings.first(where: \.isChosen)?.recording {
      // Recordings measured apart: the shift is the chosen one's, so each recording of one file
      // is its own content (importing track 2 after track 1 is no duplicate).
      hash.update(Array("\nrecording \(chosen)".utf8))
    }
    let contentHash = readToTheEnd ? hash.finalize() : nil
    if !allowDuplicate, let contentHash, let existing = try store.completeShift(withContentHash: contentHash) {
      // The same content is already a finished (or truncated) shift: this import leaves
      // nothing behind.
      try store.deleteShift(writer.shift, withInterrupted: copies.replaceable)
      input.failure = nil
      return ImportedFeed(
        input: input, shift: nil, complete: false, duplicateOf: existing,
        duplicateIsTruncated: try store.shift(existing)?.isTruncated ?? false, copies: copies)
    }
    try store.setContentHash(contentHash, of: writer.shift)
    // A cut-off feed finishes its shift like any other import, with where and why reading
    // stopped: listed `truncated`, not as an interrupted import.
    try writer.finish(
      stoppedReading: failure.map { ShiftRecord.stoppedReading(line: $0.line, why: "\($0)") },
      replacing: copies.replaceable)
    // The figure a stored shift reports is always the one-pass measurement of its rows; a cut-off
    // feed's says where reading stopped, as `measure` does.
    if settings.timeline == nil, measurement.recordings.isEmpty {
      // The shift is this import's own and holds exactly the samples the ingest retained, in the
      // order it walked them, so the ingest's figure is that measurement, bit for bit
      // (`ImportFigureTests` compares the two on every path an import takes), and reading the
      // rows back (O(n log N), a tenth of the import) would only compute it again. Two things
      // only a walk fed by the filter knows are left out, as the stored shift's figure has them:
      // the stops it ran through, and a cut-off (set below from the feed's failure).
      measurement.distance.stops = []
      measurement.distance.cutOff = nil
    } else {
      // With a timeline the counts differ (the ingest counts positions inside a pause or while
      // parked, which are never stored); with recordings measured apart the ingest's figure is
      // the chosen one's, and the rows kept with the filter off may be every recording's.
      measurement.distance = try store.measure(
        shift: writer.shift, maximumSampleInterval: options.settings.maximumSampleInterval)
    }
    if let failure { measurement.distance.cutOff = RecordingCutOff(line: failure.line, byteOffset: failure.byteOffset) }
    // So are positions without a time, which the rows cannot hold: the file's figure is partial.
    measurement.distance.positionsWithoutTime = measurement.report.rejected[.missingTime] ?? 0
    input.measurement = measurement
    return ImportedFeed(input: input, shift: writer.shift, complete: true, copies: copies)
  }

  /// Reads the rest of a source (into its hash); false when it cannot be read to its end.
  ///
  /// - Complexity: O(remaining bytes) time, O(64 KiB) memory.
  static func drain(_ bytes: inout HashingByteSource<FileByteSource>) -> Bool {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    defer { buffer.deallocate() }
    do {
      while try bytes.read(into: buffer) > 0 {}
      return true
    } catch {
      return false
    }
  }
}
