/// Growable bytes the tokenizer hands out pointers into (a string with escapes, a token split
/// across chunks). A class with manually managed storage so a token's `bytes` stay valid while
/// the caller looks at them: an `Array`'s storage may only be borrowed inside a closure.
///
/// Copies of a `JSONTokenizer` share this buffer; a tokenizer is a cursor over one stream and
/// is driven through one copy at a time (as every `FeedReader` is).
final class JSONScratchBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Amortised O(1) per byte: capacity doubles.
  func reserve(_ extra: Int) {
    let needed = count + extra
    guard needed > capacity else { return }
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    if count == capacity { reserve(1) }
    base[count] = byte
    count += 1
  }

  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Keeps the storage (a long string once does not cost an allocation per token after).
  func removeAll() { count = 0 }
}
