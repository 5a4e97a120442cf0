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
  /// The next samples from `memory`, decoded together (see `decodeBatch()`).
  private var batch: [TimeOrderedSample] = []
  private var batchIndex = 0
  /// The same for `nextPosition()`.
  private var positions: [WalkedPosition] = []
  private var positionIndex = 0
  private var descriptor: Int32 = -1
  private var readers: [SpillFile.RunReader] = []
  /// Each run's next record's first field in `order`, compared before the full order.
  private var headFirst: [Double] = []
  /// `tree[0]` is the run whose record comes next; `tree[1..<k]` the loser at each inner node of
  /// the tournament, whose leaves are the runs (leaf *i* at node *k* + *i*).
  private var tree: [Int] = []
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
    readers = runs.indices.map { blocks.reader($0, for: runs[$0]) }
  }

  /// The next sample, nil past the last. Read a cursor with this or with `nextPosition()`
  /// throughout, not both.
  mutating func next() throws(FeedError) -> TimeOrderedSample? {
    guard descriptor >= 0 else {
      if batchIndex == batch.count {
        guard let range = nextBatch(), let memoryBase else { return nil }
        Self.decode(range, of: memoryOrder, at: memoryBase, into: &batch, PackedSample.read(from:))
        batchIndex = 0
      }
      defer { batchIndex &+= 1 }
      return batch[batchIndex]
    }
    return try nextMerged(PackedSample.read(from:))
  }

  /// The next sample's position and recording index, nil past the last: what the filter-off walk
  /// reads, decoded from the record without building the whole sample. Read a cursor with this or
  /// with `next()` throughout, not both.
  mutating func nextPosition() throws(FeedError) -> WalkedPosition? {
    guard descriptor >= 0 else {
      if positionIndex == positions.count {
        guard let range = nextBatch(), let memoryBase else { return nil }
        Self.decode(range, of: memoryOrder, at: memoryBase, into: &positions, PackedSample.walkedPosition(from:))
        positionIndex = 0
      }
      defer { positionIndex &+= 1 }
      return positions[positionIndex]
    }
    return try nextMerged(PackedSample.walkedPosition(from:))
  }

  /// The merge's next record, decoded by `decode` before its run moves on. O(log *k*).
  @inline(__always)
  private mutating func nextMerged<Item>(_ decode: (UnsafeRawPointer) -> Item) throws(FeedError) -> Item? {
    if !primed { try prime() }
    guard !tree.isEmpty else { return nil }
    let top = tree[0]
    guard let record = readers[top].current else { return nil }
    let item = decode(record)
    try readers[top].advance(descriptor)
    if let following = readers[top].current { headFirst[top] = order.firstField(ofRecord: following) }
    replay(top)
    return item
  }

  /// The positions in `memoryOrder` of the next 64 records from `memory`; nil past the last.
  @inline(__always)
  private mutating func nextBatch() -> Range<Int>? {
    let end = min(memoryIndex + 64, memoryOrder.count)
    guard memoryIndex < end else { return nil }
    defer { memoryIndex = end }
    return memoryIndex..<end
  }

  /// Decodes the records `keys[range]` point at into `batch`. The records lie anywhere in the
  /// buffer, so each read is likely a cache miss; in one tight loop with nothing depending on
  /// what it loads, the processor waits for many of them at once rather than for one per sample
  /// handed out. O(`range.count`).
  @inline(__always)
  private static func decode<Item>(
    _ range: Range<Int>, of keys: [SortKey], at base: UnsafeRawPointer, into batch: inout [Item],
    _ decode: (UnsafeRawPointer) -> Item
  ) {
    batch.removeAll(keepingCapacity: true)
    keys.withUnsafeBufferPointer { keys in
      for position in range { batch.append(decode(base + Int(keys[position].index))) }
    }
  }

  private mutating func prime() throws(FeedError) {
    primed = true
    for index in readers.indices {
      try readers[index].advance(descriptor)
      headFirst.append(readers[index].current.map(order.firstField(ofRecord:)) ?? 0)
    }
    let count = readers.count
    guard count > 0 else { return }
    tree = [Int](repeating: -1, count: count)
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
        if precedes(tree[node], winner) { swap(&tree[node], &winner) }
        node >>= 1
      }
      if !waiting { tree[0] = winner }
    }
  }

  /// Plays run `leaf`'s next record up to the root. O(log *k*) comparisons.
  @inline(__always)
  private mutating func replay(_ leaf: Int) {
    let count = readers.count
    var winner = leaf
    var node = (leaf &+ count) >> 1
    while node > 0 {
      let other = tree[node]
      if precedes(other, winner) {
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
  private func precedes(_ a: Int, _ b: Int) -> Bool {
    guard let x = readers[a].current else { return false }
    guard let y = readers[b].current else { return true }
    let first = headFirst[a]
    let second = headFirst[b]
    if first < second { return true }
    if second < first { return false }
    let one = PackedSample.read(from: x)
    let other = PackedSample.read(from: y)
    if order.precedes(one, other) { return true }
    return !order.precedes(other, one) && a < b
  }
}
