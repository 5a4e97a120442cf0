import RouteFeeds
import RouteMileage

/// Sorts any number of samples in bounded memory. Samples are packed as they arrive
/// (`PackedSample`: 25–81 bytes, only the fields present) into one buffer; while it holds less
/// than `byteLimit` bytes and `runLimit` samples everything stays in memory and is read back in
/// order from there, with no file. Past that each full buffer is sorted and written to a
/// temporary file as a *run*, and the runs are merged at the end through a tournament tree, at
/// most `mergeFanIn` at a time (larger counts are merged in rounds into longer runs first), each
/// read through a block of at most 256 KiB, `mergeReadBytes` for all of them.
///
/// The buffer is sorted by index, not by moving samples: a 16-byte `SortKey` (the order's first
/// field and the record's byte offset in the buffer) per sample is sorted, the full order read
/// only where the first fields are equal, and the records are then read out once in that order,
/// to the run file or straight to the cursor.
///
/// Memory: at most `byteLimit` + 162 bytes of records, 16 bytes a buffered sample for its key and
/// as much again for the sort's scratch, and, merging, `mergeReadBytes` of read blocks and a
/// 1 MiB write block; whatever the input's size. With the defaults (40 MiB, 2²⁰ samples, 32 MiB)
/// at most 72 MiB: keys and scratch take 32 MiB only when records are short (about 40 bytes or
/// less); a canonical CSV row with every column (73 bytes) fills the buffer at 574,000 samples
/// with 17.5 MiB of keys and scratch. Disk: nothing while the input fits the buffer; past that
/// the packed records once, plus once more per merge round (only past 256 runs, at least 130 M
/// samples). The temporary file is created with `mkstemp` in `$TMPDIR` (or `/tmp`) and unlinked
/// at once, so nothing is left behind even when the process is killed.
///
/// The buffer is a reference shared by copies of a sorter: use one copy.
///
/// - Complexity: O(*n* log *n*) comparisons (a radix sort of the keys in memory, ⌈log₂ runs⌉
///   per sample merging).
struct SpillingSampleSorter {
  static let defaultRunLimit = 1 << 20
  static let defaultByteLimit = 40 << 20
  static let mergeFanIn = 256
  static let defaultMergeReadBytes = 32 << 20

  /// The most samples held in memory.
  let runLimit: Int
  /// The most bytes of packed records held in memory (one record past it, at most).
  let byteLimit: Int
  /// The read blocks of a merge's runs together.
  let mergeReadBytes: Int
  let order: SampleSortOrder
  var buffer: PackedSampleBuffer
  /// One key per buffered sample, in the order appended; in the buffer's order once
  /// `sortBuffer()` ran.
  var keys: [SortKey] = []
  var scratch: [SortKey] = []
  /// Whether every buffered sample's first field is a finite number.
  var allFinite = true
  var spill: SpillFile?
  var runs: [SpillFile.Run] = []
  /// Samples appended so far.
  private(set) var count = 0

  init(
    runLimit: Int = defaultRunLimit, byteLimit: Int = defaultByteLimit, mergeReadBytes: Int = defaultMergeReadBytes,
    order: SampleSortOrder = .time
  ) {
    self.runLimit = max(2, runLimit)
    // Keys hold a record's offset in 32 bits.
    self.byteLimit = min(max(1, byteLimit), Int(UInt32.max) - PackedSample.maximumSize)
    self.mergeReadBytes = mergeReadBytes
    self.order = order
    buffer = PackedSampleBuffer(limit: 0)
  }

  /// Whether anything had to go to disk.
  var spilled: Bool { !runs.isEmpty }

  /// Adds one sample. O(1), amortised; a sort and a run written when the buffer is full.
  /// Inlined, so the caller's sample is packed where it lies rather than copied into a call.
  @inline(__always)
  mutating func append(_ item: TimeOrderedSample) throws(FeedError) {
    if !buffer.hasRoom { try makeRoom() }
    let first = order.firstField(of: item)
    allFinite = allFinite && first.isFinite
    let offset = buffer.append(item)
    keys.append(SortKey(bits: SortKey.orderedBits(first), index: UInt32(truncatingIfNeeded: offset)))
    count += 1
    if keys.count >= runLimit { try spillBuffer() }
  }

  /// Reserves the buffer at the first sample; spills it when it is full.
  /// The keys and their scratch are reserved then at the most a buffer can hold, so they never
  /// grow by copying into fresh memory (address space: a page is memory once a key reaches it).
  private mutating func makeRoom() throws(FeedError) {
    guard buffer.limit == 0 else { return try spillBuffer() }
    buffer = PackedSampleBuffer(limit: byteLimit + 2 * PackedSample.maximumSize)
    let most = min(runLimit, byteLimit / PackedSample.fixedSize + 1)
    keys.reserveCapacity(most)
    scratch.reserveCapacity(most)
  }

  private mutating func spillBuffer() throws(FeedError) {
    guard !keys.isEmpty else { return }
    sortBuffer()
    if spill == nil { spill = try SpillFile() }
    let file = spill!
    let start = file.end
    // Each block of records is read ahead together (`PackedSampleBuffer.touch(_:)`), then copied.
    var block = 0
    while block < keys.count {
      let end = min(block + PackedSampleBuffer.touchBlock, keys.count)
      keys.withUnsafeBufferPointer { keys in buffer.touch(keys[block..<end]) }
      for key in keys[block..<end] { try file.append(record: buffer.record(at: Int(key.index))) }
      block = end
    }
    runs.append(try file.finishRun(from: start))
    buffer.removeAll()
    keys.removeAll(keepingCapacity: true)
    allFinite = true
  }

  /// Sorts `keys` into the buffer's order; the records do not move. Ties in the first field go
  /// to the full order, then to the byte offset (the order appended), so the result is the
  /// stable sort's.
  ///
  /// - Complexity: O(*n* log *n*) comparisons of 16-byte keys; the full order (reading both
  ///   records) only among equal first fields.
  private mutating func sortBuffer() {
    let order = order
    let buffer = buffer
    let byFullOrder = { (a: SortKey, b: SortKey) -> Bool in
      let x = buffer.sample(at: Int(a.index))
      let y = buffer.sample(at: Int(b.index))
      if order.precedes(x, y) { return true }
      if order.precedes(y, x) { return false }
      return a.index < b.index
    }
    // A first field that is not a finite number (rare: the filter rejects untimed positions
    // before they get here) leaves the whole buffer to the full order.
    guard allFinite else { return keys.sort(by: byFullOrder) }
    SortKey.radixSort(&keys, scratch: &scratch)
    // Equal first fields: the full order decides, then the offset, as the radix sort kept them.
    let ties = keys.withUnsafeBufferPointer { keys in
      var ties: [Range<Int>] = []
      var start = 0
      while start < keys.count {
        var end = start &+ 1
        while end < keys.count, keys[end].bits == keys[start].bits { end &+= 1 }
        if end &- start > 1 { ties.append(start..<end) }
        start = end
      }
      return ties
    }
    for range in ties { keys[range].sort(by: byFullOrder) }
  }

  /// Hands every sample to `body` in order, then empties the sorter.
  mutating func drain(_ body: (TimeOrderedSample) throws -> Void) throws {
    var cursor = try sorted()
    while let item = try cursor.next() { try body(item) }
  }

  /// A cursor over every sample in order; the sorter is emptied (its memory and any spill file
  /// now belong to the cursor).
  mutating func sorted() throws(FeedError) -> SortedSamples {
    defer {
      buffer = PackedSampleBuffer(limit: 0)
      keys = []
      scratch = []
      allFinite = true
      runs = []
      spill = nil
      count = 0
    }
    guard let spill else {
      sortBuffer()
      scratch = []
      return SortedSamples(memory: buffer, order: keys)
    }
    try spillBuffer()
    // The buffer, keys and scratch go before the merge's read blocks come.
    buffer = PackedSampleBuffer(limit: 0)
    keys = []
    scratch = []
    while runs.count > Self.mergeFanIn {
      var merging = SortedSamples(
        runs: Array(runs.prefix(Self.mergeFanIn)), file: spill, order: order, readBytes: mergeReadBytes)
      let start = spill.end
      while let item = try merging.next() { try spill.append(item) }
      runs.removeFirst(Self.mergeFanIn)
      runs.append(try spill.finishRun(from: start))
    }
    return SortedSamples(runs: runs, file: spill, order: order, readBytes: mergeReadBytes)
  }
}
