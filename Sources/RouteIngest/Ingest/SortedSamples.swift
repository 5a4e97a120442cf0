import RouteFeeds
import RouteMileage

/// Samples in order, from the sorter's memory or merged from its sorted runs on disk.
///
/// The merge is a tournament (loser) tree over the runs' next records: each sample out costs one
/// comparison per level, ⌈log₂ *k*⌉ for *k* runs, along the path of the run it came from, where a
/// binary heap needs up to two per level. The order is strict (equal samples go by run index, so
/// by the order they were appended), so the output is the same whatever the merge's shape. Each
/// record is decoded once, when it is handed out; the tree compares the first fields read
/// straight from the records, and decodes two only where those are equal or not numbers.
struct SortedSamples {
  /// Owners of the memory the cursor reads through raw pointers.
  private var memory: PackedSampleBuffer?
  private var file: SpillFile?
  private var blocks: SpillFile.ReadBlocks?
  private var memoryBase: UnsafeRawPointer?
  /// The order to read `memory` in.
  private var memoryOrder: [SortKey] = []
  private var memoryIndex = 0
  /// The end of the block of `memoryOrder` whose records were last read ahead (`touch`).
  private var touchedEnd = 0
  private var descriptor: Int32 = -1
  /// The merge's runs (nil in memory), and the same read through plain pointers (no reference
  /// counting a sample).
  private var runStorage: Runs?
  private var runs: RunPointers?
  private var order = SampleSortOrder.time
  private var primed = false

  init(memory: PackedSampleBuffer, order: [SortKey]) {
    self.memory = memory
    memoryBase = memory.base.map(UnsafeRawPointer.init)
    memoryOrder = order
  }

  /// The block each run is read through: at most 256 KiB (the blocks together stay in a core's
  /// cache when the runs are few) and at most `readBytes` together, at least two whole records.
  init(runs: [SpillFile.Run], file: SpillFile, order: SampleSortOrder, readBytes: Int) {
    self.file = file
    self.order = order
    descriptor = file.descriptor
    let blockBytes = max(2 * PackedSample.maximumSize, min(1 << 18, readBytes / max(1, runs.count)))
    let blocks = SpillFile.ReadBlocks(runs: runs.count, blockBytes: blockBytes)
    self.blocks = blocks
    let storage = Runs(runs.indices.map { blocks.reader($0, for: runs[$0]) })
    runStorage = storage
    self.runs = RunPointers(
      count: storage.count, readers: storage.readers, headFirst: storage.headFirst, tree: storage.tree)
  }

  /// `Runs` seen without owning it, valid while `runStorage` holds it.
  private struct RunPointers {
    let count: Int
    let readers: UnsafeMutablePointer<SpillFile.RunReader>
    let headFirst: UnsafeMutablePointer<Double>
    let tree: UnsafeMutablePointer<Int>
  }

  /// The merge's state in memory of its own, read and written through pointers, so the merge's
  /// inner loop does no array bookkeeping (uniqueness and bounds checks) per sample.
  private final class Runs {
    let count: Int
    let readers: UnsafeMutablePointer<SpillFile.RunReader>
    /// Each run's next record's first field in `order`, compared before the full order.
    let headFirst: UnsafeMutablePointer<Double>
    /// `tree[0]` is the run whose record comes next; `tree[1..<k]` the loser at each inner node
    /// of the tournament, whose leaves are the runs (leaf *i* at node *k* + *i*).
    let tree: UnsafeMutablePointer<Int>

    init(_ readers: [SpillFile.RunReader]) {
      count = readers.count
      self.readers = .allocate(capacity: max(1, count))
      self.readers.initialize(from: readers, count: count)
      headFirst = .allocate(capacity: max(1, count))
      headFirst.initialize(repeating: 0, count: max(1, count))
      tree = .allocate(capacity: max(1, count))
      tree.initialize(repeating: -1, count: max(1, count))
    }

    deinit {
      readers.deinitialize(count: count)
      readers.deallocate()
      headFirst.deallocate()
      tree.deallocate()
    }
  }

  /// The next sample, nil past the last. Read a cursor with this or with `nextPosition()`
  /// throughout, not both. Inlined, so that the sample is decoded where the caller keeps it
  /// rather than built here and copied out.
  @inline(__always)
  mutating func next() throws(FeedError) -> TimeOrderedSample? {
    guard descriptor >= 0 else {
      guard let record = nextInMemory() else { return nil }
      return PackedSample.read(from: record)
    }
    return try nextMergedSample()
  }

  /// The next sample's position and recording index, nil past the last: what the filter-off walk
  /// reads, decoded from the record without building the whole sample. Read a cursor with this or
  /// with `next()` throughout, not both.
  @inline(__always)
  mutating func nextPosition() throws(FeedError) -> WalkedPosition? {
    guard descriptor >= 0 else {
      guard let record = nextInMemory() else { return nil }
      return PackedSample.walkedPosition(from: record)
    }
    return try nextMergedPosition()
  }

  @inline(__always)
  private mutating func nextMergedSample() throws(FeedError) -> TimeOrderedSample? {
    try nextMerged(PackedSample.read(from:))
  }

  @inline(never)
  private mutating func nextMergedPosition() throws(FeedError) -> WalkedPosition? {
    try nextMerged(PackedSample.walkedPosition(from:))
  }

  /// The next record from `memory` in `memoryOrder`, nil past the last. The records are read
  /// ahead in blocks of `PackedSampleBuffer.touchBlock` (`PackedSampleBuffer.touch(_:)`), so
  /// decoding each finds it in cache. O(1) amortised.
  @inline(__always)
  private mutating func nextInMemory() -> UnsafeRawPointer? {
    if memoryIndex == touchedEnd {
      guard memoryIndex < memoryOrder.count, let memory else { return nil }
      let start = memoryIndex
      touchedEnd = min(start &+ PackedSampleBuffer.touchBlock, memoryOrder.count)
      memoryOrder.withUnsafeBufferPointer { keys in memory.touch(keys[start..<touchedEnd]) }
    }
    defer { memoryIndex &+= 1 }
    return memoryBase.unsafelyUnwrapped + Int(memoryOrder[memoryIndex].index)
  }

  /// The merge's next record, decoded by `decode`. The run it comes from moves on at the next
  /// call, so the item is decoded straight into the caller's hands, not held across the move.
  /// O(log *k*).
  @inline(__always)
  private mutating func nextMerged<Item>(_ decode: (UnsafeRawPointer) -> Item) throws(FeedError) -> Item? {
    guard let runs else { return nil }
    if primed { try advance(runs) } else { try prime(runs) }
    guard runs.count > 0, let record = runs.readers[runs.tree[0]].current else { return nil }
    return decode(record)
  }

  /// Moves the run whose record was handed out last to its next record and plays it up the tree.
  @inline(__always)
  private func advance(_ runs: RunPointers) throws(FeedError) {
    guard runs.count > 0 else { return }
    let top = runs.tree[0]
    let reader = runs.readers + top
    try reader.pointee.advance(descriptor)
    if let following = reader.pointee.current { runs.headFirst[top] = order.firstField(ofRecord: following) }
    replay(top, in: runs)
  }

  private mutating func prime(_ runs: RunPointers) throws(FeedError) {
    primed = true
    let count = runs.count
    for index in 0..<count {
      try runs.readers[index].advance(descriptor)
      runs.headFirst[index] = runs.readers[index].current.map(order.firstField(ofRecord:)) ?? 0
    }
    guard count > 0 else { return }
    let tree = runs.tree
    // Each leaf climbs until it meets a node no leaf has reached yet and waits there; the second
    // to arrive plays it, leaves the loser there and climbs on with the winner.
    for leaf in 0..<count {
      var winner = leaf
      var node = (leaf + count) >> 1
      var waiting = false
      while node > 0 {
        if tree[node] < 0 {
          tree[node] = winner
          waiting = true
          break
        }
        if precedes(tree[node], winner, in: runs) { swap(&tree[node], &winner) }
        node >>= 1
      }
      if !waiting { tree[0] = winner }
    }
  }

  /// Plays run `leaf`'s next record up to the root. O(log *k*) comparisons.
  @inline(__always)
  private func replay(_ leaf: Int, in runs: RunPointers) {
    let tree = runs.tree
    var winner = leaf
    var node = (leaf &+ runs.count) >> 1
    while node > 0 {
      let other = tree[node]
      if precedes(other, winner, in: runs) {
        tree[node] = winner
        winner = other
      }
      node >>= 1
    }
    tree[0] = winner
  }

  /// Whether run `a`'s next record comes before run `b`'s: a used-up run after every other, then
  /// the first fields, the full order where they are equal or not numbers, and the run index.
  ///
  /// - Complexity: O(1); the full order (and the decoding of both records) only when the first
  ///   fields are equal or not numbers.
  @inline(__always)
  private func precedes(_ a: Int, _ b: Int, in runs: RunPointers) -> Bool {
    guard let x = runs.readers[a].current else { return false }
    guard let y = runs.readers[b].current else { return true }
    let first = runs.headFirst[a]
    let second = runs.headFirst[b]
    if first < second { return true }
    if second < first { return false }
    let one = PackedSample.read(from: x)
    let other = PackedSample.read(from: y)
    if order.precedes(one, other) { return true }
    return !order.precedes(other, one) && a < b
  }
}
