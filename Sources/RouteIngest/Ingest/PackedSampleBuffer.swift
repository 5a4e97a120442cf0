import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `PackedSample` records end to end in one block of memory: the sorter's buffer. The block is
/// reserved at its full `limit` at once (`mmap`: address space, not memory; a page becomes memory
/// when a record first reaches it), so appending never moves a record and costs O(1), and a small
/// feed takes only the pages its records fill. (Transparent huge pages, `MADV_HUGEPAGE`, were
/// measured: the TLB misses they save in the sort's scattered reads cost as much again in system
/// time faulting them in.) A reference: whoever holds it last unmaps it.
final class PackedSampleBuffer {
  /// The block; nil only when `limit` is 0.
  let base: UnsafeMutableRawPointer?
  /// Bytes reserved: the sorter's byte limit and `2 × PackedSample.maximumSize`.
  let limit: Int
  /// Bytes used.
  private(set) var count = 0

  /// - Parameter limit: bytes to reserve; at least `2 × PackedSample.maximumSize` for any
  ///   record to fit.
  init(limit: Int) {
    self.limit = limit
    guard limit > 0 else {
      base = nil
      return
    }
    let mapped = mmap(nil, limit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
      fatalError("out of memory: cannot reserve \(limit) bytes for the positions being sorted")
    }
    base = mapped
  }

  deinit {
    if let base { munmap(base, limit) }
  }

  /// Whether another record fits, with `PackedSample.maximumSize` bytes to spare after it.
  @inline(__always)
  var hasRoom: Bool { limit &- count >= 2 * PackedSample.maximumSize }

  /// Appends `item` (`hasRoom` must be true) and returns the byte offset of its record. O(1).
  /// At least `PackedSample.maximumSize` bytes stay reserved past the last record, so that many
  /// can be read from the start of any record (`SpillFile.append(record:)`).
  @inline(__always)
  func append(_ item: TimeOrderedSample) -> Int {
    let offset = count
    count &+= PackedSample.write(item, to: base.unsafelyUnwrapped + offset)
    return offset
  }

  /// The sample whose record starts at byte `offset`. O(1).
  @inline(__always)
  func sample(at offset: Int) -> TimeOrderedSample {
    PackedSample.read(from: base.unsafelyUnwrapped + offset)
  }

  /// The record at byte `offset`.
  @inline(__always)
  func record(at offset: Int) -> UnsafeRawPointer {
    UnsafeRawPointer(base.unsafelyUnwrapped + offset)
  }

  /// Forgets every record and keeps the memory for the next run.
  func removeAll() { count = 0 }

  /// The records `touch(_:)` reads ahead together: enough misses for the memory system to work on
  /// at once, few enough to stay in the first-level cache until they are decoded.
  static let touchBlock = 64

  /// What `touch(_:)` read, kept so that its loads are not optimised away.
  private(set) var touched: UInt8 = 0

  /// Reads the first and last byte of each record `keys` point at. Records read in sorted order
  /// lie anywhere in the buffer, so each is likely a cache (and TLB) miss; a tight loop of loads
  /// with nothing depending on them waits for dozens of misses at once, where decoding or copying
  /// each record in turn, with its other work in between, waits for them one after another. The
  /// records are then read from cache. O(`keys.count`).
  @inline(never)
  func touch(_ keys: Slice<UnsafeBufferPointer<SortKey>>) {
    let base = UnsafeRawPointer(base.unsafelyUnwrapped)
    var combined = touched
    for key in keys {
      let record = base + Int(key.index)
      let flags = record.load(as: UInt8.self)
      combined ^= flags ^ record.load(fromByteOffset: PackedSample.size(flags: flags) &- 1, as: UInt8.self)
    }
    touched = combined
  }
}
