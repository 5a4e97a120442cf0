import RouteFeeds
import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sorts any number of samples in bounded memory: up to `runLimit` are sorted in memory; past
/// that each full buffer is sorted and written to a temporary file as a *run*, and the runs are
/// merged at the end, at most `mergeFanIn` at a time (larger counts are merged in rounds into
/// longer runs first), each read through a buffer of `readBlock` samples.
///
/// The buffer is sorted by index, not by moving samples: a 16-byte `SortKey` (the order's first
/// field and the sample's place in the buffer) per sample is sorted, the full order read only
/// where the first fields are equal, and the samples are then read out once in that order, to the
/// run file a block at a time or straight to the cursor. A 136-byte sample is copied once, not
/// once per merge level.
///
/// Memory: about `runLimit + mergeFanIn × readBlock` samples of
/// `MemoryLayout<TimeOrderedSample>.stride` (136) bytes, plus 16 bytes a buffered sample for the
/// keys and as much again for the sort's scratch, whatever the input's size (with the defaults,
/// 131,072 + 256 × 512 samples: 36 MB, and 4 MB for keys and scratch); disk: the samples once,
/// plus once more per merge round (only past 256 runs, 33.5 M samples). The temporary file is created with `mkstemp`
/// in `$TMPDIR` (or `/tmp`) and
/// unlinked at once, so nothing is left behind even when the process is killed.
///
/// - Complexity: O(*n* log *n*) comparisons.
struct SpillingSampleSorter {
  static let defaultRunLimit = 1 << 17
  static let mergeFanIn = 256
  static let readBlock = 512

  let runLimit: Int
  let order: SampleSortOrder
  var buffer: [TimeOrderedSample] = []
  /// The buffer's order once `sortBuffer()` ran, as indices into it.
  var keys: [SortKey] = []
  var scratch: [SortKey] = []
  var spill: SpillFile?
  var runs: [SpillFile.Run] = []
  /// Samples appended so far.
  private(set) var count = 0

  init(runLimit: Int = defaultRunLimit, order: SampleSortOrder = .time) {
    self.runLimit = max(2, runLimit)
    self.order = order
  }

  /// Whether anything had to go to disk.
  var spilled: Bool { !runs.isEmpty }

  mutating func append(_ item: TimeOrderedSample) throws(FeedError) {
    buffer.append(item)
    count += 1
    if buffer.count >= runLimit { try spillBuffer() }
  }

  private mutating func spillBuffer() throws(FeedError) {
    guard !buffer.isEmpty else { return }
    sortBuffer()
    if spill == nil { spill = try SpillFile() }
    var writer = SpillFile.RunWriter(file: spill!)
    for key in keys { try writer.append(buffer[Int(key.index)]) }
    runs.append(try writer.finish())
    buffer.removeAll(keepingCapacity: true)
  }

  /// Sorts `keys` into the buffer's order; the buffer itself does not move. Ties in the first
  /// field go to the full order, then to the buffer index, so the result is the stable sort's.
  ///
  /// - Complexity: O(*n* log *n*) comparisons of 16-byte keys; the full order only among equal
  ///   first fields.
  private mutating func sortBuffer() {
    let order = order
    keys.removeAll(keepingCapacity: true)
    keys.reserveCapacity(buffer.count)
    var allFinite = true
    for index in buffer.indices {
      let first = order.firstField(of: buffer[index])
      allFinite = allFinite && first.isFinite
      keys.append(SortKey(bits: SortKey.orderedBits(first), index: UInt32(truncatingIfNeeded: index)))
    }
    buffer.withUnsafeBufferPointer { samples in
      let byFullOrder = { (a: SortKey, b: SortKey) -> Bool in
        if order.precedes(samples[Int(a.index)], samples[Int(b.index)]) { return true }
        if order.precedes(samples[Int(b.index)], samples[Int(a.index)]) { return false }
        return a.index < b.index
      }
      // A first field that is not a finite number (rare: the filter rejects untimed positions
      // before they get here) leaves the whole buffer to the full order.
      guard allFinite else { return keys.sort(by: byFullOrder) }
      SortKey.radixSort(&keys, scratch: &scratch)
      // Equal first fields: the full order decides, then the index, as the radix sort kept them.
      var start = 0
      while start < keys.count {
        var end = start + 1
        while end < keys.count, keys[end].bits == keys[start].bits { end += 1 }
        if end - start > 1 { keys[start..<end].sort(by: byFullOrder) }
        start = end
      }
    }
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
      buffer = []
      keys = []
      scratch = []
      runs = []
      spill = nil
      count = 0
    }
    guard let spill else {
      sortBuffer()
      return SortedSamples(memory: buffer, order: keys)
    }
    try spillBuffer()
    buffer = []
    keys = []
    scratch = []
    while runs.count > Self.mergeFanIn {
      var merging = SortedSamples(runs: Array(runs.prefix(Self.mergeFanIn)), file: spill, order: order)
      var writer = SpillFile.RunWriter(file: spill)
      while let item = try merging.next() { try writer.append(item) }
      runs.removeFirst(Self.mergeFanIn)
      runs.append(try writer.finish())
    }
    return SortedSamples(runs: runs, file: spill, order: order)
  }
}

/// The order a `SpillingSampleSorter` hands its samples back in.
enum SampleSortOrder {
  /// `TimeOrderedSample.precedes`: the order the filter judges a recorded file in.
  case time
  /// By arrival time first (`TimeOrderedSample.precedes(_:_:byArrival:)`): a live feed's order.
  case arrival
  /// `RouteMileageCalculator.walkOrder` of the positions (capture session set): the order the
  /// calculator walks a route measured with the filter off, so a sorted stream gives its figure.
  /// Positions equal in it are equal in every field the walk reads.
  case walk

  /// The field this order compares first: `a` precedes `b` whenever
  /// `firstField(of: a) < firstField(of: b)`; where the fields are equal or not numbers the full
  /// order decides. (Time and arrival compare it with `<`, walk order in IEEE total order, which
  /// agrees with `<` on numbers that are not equal.)
  @inline(__always)
  func firstField(of item: TimeOrderedSample) -> Double {
    switch self {
    case .time, .walk: item.sample.timestamp
    case .arrival: item.sample.receivedAt ?? item.sample.timestamp
    }
  }

  @inline(__always)
  func precedes(_ a: TimeOrderedSample, _ b: TimeOrderedSample) -> Bool {
    switch self {
    case .time: TimeOrderedSample.precedes(a, b)
    case .arrival: TimeOrderedSample.precedes(a, b, byArrival: true)
    case .walk: RouteMileageCalculator.walkOrder(a.sample.position, b.sample.position)
    }
  }
}

/// A sample's place in `SpillingSampleSorter`'s sort: the order's first field as bits that sort
/// as the number does (`orderedBits`), and the index of the sample in the buffer.
struct SortKey {
  var bits: UInt64
  var index: UInt32

  /// Bits whose unsigned order is the numeric order of a finite `value`, -0 equal to +0: unequal
  /// bits mean unequal numbers, in the same order.
  @inline(__always)
  static func orderedBits(_ value: Double) -> UInt64 {
    let bits = (value == 0 ? 0.0 : value).bitPattern
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }

  /// Sorts `keys` by `bits`, stably (equal bits keep their order), a byte at a time from the
  /// lowest; a byte every key shares (most of a timestamp's, within one buffer) costs no pass.
  ///
  /// - Complexity: O(*n*) per byte that varies, at most 8; `scratch` grows to `keys.count`.
  static func radixSort(_ keys: inout [SortKey], scratch: inout [SortKey]) {
    let count = keys.count
    guard count > 1 else { return }
    var histogram = [Int](repeating: 0, count: 8 * 256)
    histogram.withUnsafeMutableBufferPointer { counts in
      keys.withUnsafeBufferPointer { keys in
        for key in keys {
          var bits = key.bits
          for byte in 0..<8 {
            counts[byte &* 256 &+ Int(bits & 0xFF)] &+= 1
            bits >>= 8
          }
        }
      }
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: keys)
    var offsets = [Int](repeating: 0, count: 256)
    for byte in 0..<8 {
      let shift = UInt64(byte * 8)
      let base = byte * 256
      if histogram[base + Int((keys[0].bits >> shift) & 0xFF)] == count { continue }
      var running = 0
      for digit in 0..<256 {
        offsets[digit] = running
        running += histogram[base + digit]
      }
      offsets.withUnsafeMutableBufferPointer { offsets in
        keys.withUnsafeBufferPointer { source in
          scratch.withUnsafeMutableBufferPointer { target in
            for key in source {
              let digit = Int((key.bits >> shift) & 0xFF)
              target[offsets[digit]] = key
              offsets[digit] &+= 1
            }
          }
        }
      }
      swap(&keys, &scratch)
    }
  }
}

/// Samples in order, from memory or merged from sorted runs on disk (a k-way merge through a
/// binary heap of the runs' heads; equal heads come out in run order, so it is deterministic).
struct SortedSamples {
  var memory: [TimeOrderedSample] = []
  /// The order to read `memory` in.
  var memoryOrder: [SortKey] = []
  var memoryIndex = 0
  var file: SpillFile?
  var readers: [SpillFile.RunReader] = []
  var heads: [TimeOrderedSample] = []
  /// Each head's first field in `order` (`SampleSortOrder.firstField(of:)`), compared before the
  /// full order.
  var headFirst: [Double] = []
  var heap: [Int] = []
  var order = SampleSortOrder.time
  var primed = false

  init(memory: [TimeOrderedSample], order: [SortKey]) {
    self.memory = memory
    memoryOrder = order
  }

  init(runs: [SpillFile.Run], file: SpillFile, order: SampleSortOrder) {
    self.file = file
    self.order = order
    readers = runs.map { SpillFile.RunReader(run: $0) }
  }

  mutating func next() throws(FeedError) -> TimeOrderedSample? {
    guard let file else {
      guard memoryIndex < memoryOrder.count else { return nil }
      defer { memoryIndex += 1 }
      return memory[Int(memoryOrder[memoryIndex].index)]
    }
    if !primed {
      primed = true
      let blank = TimeOrderedSample(sample: .init(timestamp: 0, latitude: 0, longitude: 0), session: nil)
      for index in readers.indices {
        if let first = try readers[index].next(from: file) {
          heads.append(first)
          headFirst.append(order.firstField(of: first))
          heap.append(index)
        } else {
          heads.append(blank)
          headFirst.append(0)
        }
      }
      if heap.count > 1 {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
      }
    }
    guard let top = heap.first else { return nil }
    let item = heads[top]
    if let following = try readers[top].next(from: file) {
      heads[top] = following
      headFirst[top] = order.firstField(of: following)
    } else {
      heap[0] = heap[heap.count - 1]
      heap.removeLast()
    }
    if heap.count > 1 { siftDown(0) }
    return item
  }

  /// - Complexity: O(1); the full order (and its reads of the two heads) only when the first
  ///   fields are equal or not numbers.
  private func less(_ a: Int, _ b: Int) -> Bool {
    let x = headFirst[a]
    let y = headFirst[b]
    if x < y { return true }
    if y < x { return false }
    return heads.withUnsafeBufferPointer { heads in
      if order.precedes(heads[a], heads[b]) { return true }
      return !order.precedes(heads[b], heads[a]) && a < b
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var child = left
      if left + 1 < heap.count, less(heap[left + 1], heap[left]) { child = left + 1 }
      guard less(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      parent = child
    }
  }
}

/// An unlinked temporary file that sorted runs are written to and read back from.
final class SpillFile {
  /// A run: `count` samples from byte `offset`.
  struct Run {
    var offset: Int
    var count: Int
  }

  let descriptor: Int32
  private(set) var end = 0
  static let stride = MemoryLayout<TimeOrderedSample>.stride

  init() throws(FeedError) {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/routemiles-sort-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw Self.failure("cannot create a temporary file in \(directory)") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    descriptor = fd
  }

  deinit { close(descriptor) }

  static func failure(_ what: String) -> FeedError {
    .temporaryStorage(detail: "\(what) (\(String(cString: strerror(errno))))")
  }

  func append(_ items: [TimeOrderedSample]) throws(FeedError) {
    let failure = items.withUnsafeBytes { bytes -> FeedError? in
      do throws(FeedError) {
        try append(bytes)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  func append(_ bytes: UnsafeRawBufferPointer) throws(FeedError) {
    var done = 0
    while done < bytes.count {
      let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(end + done))
      if written < 0 {
        if errno == EINTR { continue }
        throw Self.failure("cannot write the temporary file that sorts the feed by time")
      }
      done += written
    }
    end += bytes.count
  }

  /// Reads `count` samples from byte `offset` into `items`.
  func read(_ items: inout [TimeOrderedSample], count: Int, at offset: Int) throws(FeedError) {
    items.removeAll(keepingCapacity: true)
    guard count > 0 else { return }
    let blank = TimeOrderedSample(sample: .init(timestamp: 0, latitude: 0, longitude: 0), session: nil)
    items.append(contentsOf: repeatElement(blank, count: count))
    let total = count * Self.stride
    let failed = items.withUnsafeMutableBytes { bytes -> Bool in
      var done = 0
      while done < total {
        let got = pread(descriptor, bytes.baseAddress! + done, total - done, off_t(offset + done))
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { return true }
        done += got
      }
      return false
    }
    if failed { throw Self.failure("cannot read back the temporary file that sorts the feed by time") }
  }

  /// Reads one run block by block.
  struct RunReader {
    var run: Run
    var block: [TimeOrderedSample] = []
    var index = 0
    var consumed = 0

    init(run: Run) { self.run = run }

    mutating func next(from file: SpillFile) throws(FeedError) -> TimeOrderedSample? {
      if index == block.count {
        let remaining = run.count - consumed
        guard remaining > 0 else { return nil }
        let count = min(remaining, SpillingSampleSorter.readBlock)
        try file.read(&block, count: count, at: run.offset + consumed * SpillFile.stride)
        consumed += count
        index = 0
      }
      defer { index += 1 }
      return block[index]
    }
  }

  /// Appends one run sample by sample, through a buffer.
  struct RunWriter {
    let file: SpillFile
    let offset: Int
    var pending: [TimeOrderedSample] = []
    var count = 0

    init(file: SpillFile) {
      self.file = file
      offset = file.end
    }

    mutating func append(_ item: TimeOrderedSample) throws(FeedError) {
      pending.append(item)
      count += 1
      if pending.count >= SpillingSampleSorter.readBlock { try flush() }
    }

    mutating func flush() throws(FeedError) {
      try file.append(pending)
      pending.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws(FeedError) -> Run {
      try flush()
      return Run(offset: offset, count: count)
    }
  }
}
