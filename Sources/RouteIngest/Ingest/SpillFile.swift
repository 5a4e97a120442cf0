import RouteFeeds
import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An unlinked temporary file that sorted runs of `PackedSample` records are written to and read
/// back from. Writes go through one `writeBlock` buffer, so the file sees large sequential
/// `pwrite`s whatever the records' size.
final class SpillFile {
  /// A run: `bytes` bytes of records from byte `offset`.
  struct Run {
    var offset: Int
    var bytes: Int
  }

  static let writeBlock = 1 << 20

  let descriptor: Int32
  /// Bytes appended so far, those still waiting in `pending` included.
  private(set) var end = 0
  private let pending: UnsafeMutableRawPointer
  private var pendingCount = 0

  init() throws(FeedError) {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/routemiles-sort-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw Self.failure("cannot create a temporary file in \(directory)") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    descriptor = fd
    pending = .allocate(byteCount: Self.writeBlock, alignment: 16)
  }

  deinit {
    close(descriptor)
    pending.deallocate()
  }

  static func failure(_ what: String) -> FeedError {
    .temporaryStorage(detail: "\(what) (\(String(cString: strerror(errno))))")
  }

  /// Appends the record at `record`, from which `PackedSample.maximumSize` bytes can be read
  /// whatever its size: that many are copied (a fixed-size copy, without a call), and only the
  /// record's own count. O(1).
  @inline(__always)
  func append(record: UnsafeRawPointer) throws(FeedError) {
    if pendingCount &+ PackedSample.maximumSize > Self.writeBlock { try flush() }
    (pending + pendingCount).copyMemory(from: record, byteCount: PackedSample.maximumSize)
    let size = PackedSample.size(of: record)
    pendingCount &+= size
    end &+= size
  }

  /// Appends `item` as a record.
  func append(_ item: TimeOrderedSample) throws(FeedError) {
    if pendingCount &+ PackedSample.maximumSize > Self.writeBlock { try flush() }
    let size = PackedSample.write(item, to: pending + pendingCount)
    pendingCount &+= size
    end &+= size
  }

  /// Writes out what `pending` holds.
  func flush() throws(FeedError) {
    var done = 0
    let start = end - pendingCount
    while done < pendingCount {
      let written = pwrite(descriptor, pending + done, pendingCount - done, off_t(start + done))
      if written < 0 {
        if errno == EINTR { continue }
        throw Self.failure("cannot write the temporary file that sorts the feed by time")
      }
      done += written
    }
    pendingCount = 0
  }

  /// Ends the run begun at byte `offset` (the `end` before its first record) and writes it out.
  func finishRun(from offset: Int) throws(FeedError) -> Run {
    try flush()
    return Run(offset: offset, bytes: end - offset)
  }

  /// Reads `count` bytes at `offset` of the file open as `descriptor` into `target`.
  static func read(_ descriptor: Int32, into target: UnsafeMutableRawPointer, count: Int, at offset: Int)
    throws(FeedError)
  {
    var done = 0
    while done < count {
      let got = pread(descriptor, target + done, count - done, off_t(offset + done))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else {
        throw Self.failure("cannot read back the temporary file that sorts the feed by time")
      }
      done += got
    }
  }

  /// Reads one run through a block of `blockBytes` it does not own (see `ReadBlocks`), refilled
  /// whenever less than a whole record is left in it, so each record is read from the block in
  /// one piece. Plain data, so the merge touches no reference counts.
  struct RunReader {
    private var position: Int
    private let end: Int
    private let block: UnsafeMutableRawPointer
    private let blockBytes: Int
    private var start = 0
    private var filled = 0
    /// The run's next record, nil past its end.
    private(set) var current: UnsafeRawPointer?

    /// - Parameter blockBytes: at least `2 × PackedSample.maximumSize`.
    init(run: Run, block: UnsafeMutableRawPointer, blockBytes: Int) {
      position = run.offset
      end = run.offset + run.bytes
      self.block = block
      self.blockBytes = blockBytes
    }

    /// Moves `current` to the run's next record (the first, the first time). O(1), a read of up
    /// to `blockBytes` now and then.
    @inline(__always)
    mutating func advance(_ descriptor: Int32) throws(FeedError) {
      if let current { start &+= PackedSample.size(of: current) }
      if filled &- start < PackedSample.maximumSize, position < end { try refill(descriptor) }
      current = start < filled ? UnsafeRawPointer(block + start) : nil
    }

    private mutating func refill(_ descriptor: Int32) throws(FeedError) {
      let left = filled - start
      if left > 0 { block.copyMemory(from: block + start, byteCount: left) }
      let count = min(blockBytes - left, end - position)
      try SpillFile.read(descriptor, into: block + left, count: count, at: position)
      position += count
      start = 0
      filled = left + count
    }
  }

  /// The read blocks of a merge's runs, in one allocation that lives as long as the merge.
  final class ReadBlocks {
    let base: UnsafeMutableRawPointer
    let blockBytes: Int

    init(runs: Int, blockBytes: Int) {
      self.blockBytes = blockBytes
      base = .allocate(byteCount: max(1, runs) * blockBytes, alignment: 16)
    }

    deinit { base.deallocate() }

    func reader(_ index: Int, for run: Run) -> RunReader {
      RunReader(run: run, block: base + index * blockBytes, blockBytes: blockBytes)
    }
  }
}
