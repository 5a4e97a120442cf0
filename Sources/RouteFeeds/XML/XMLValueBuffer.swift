/// The text of one value a format reader needs (GPX's `lat` attribute, a `<time>`), collected across
/// chunk boundaries, entity references and CDATA sections.
///
/// The common case never copies: a value that starts and ends inside one chunk, with no
/// reference or CDATA section, is parsed straight from the chunk (`start..<end` are indices in
/// the current chunk). Only a value broken by a chunk boundary, a reference, a comment or a
/// CDATA section is copied here, so the copy costs nothing on a well-formed feed read in large
/// chunks. Memory is bounded by `capacity`: a longer value is marked unreadable instead of
/// stored, whatever the chunk size (the limit applies to the decoded text, whitespace included).
struct XMLValueBuffer {
  /// Bytes; no number or timestamp the reader parses is longer than a few hundred bytes.
  static let capacity = 1024

  private(set) var bytes: [UInt8] = []
  /// Set for a value that is too long, holds an unknown or broken entity reference, or
  /// contains an element; it is reported as unreadable rather than parsed.
  var isUnreadable = false
  /// Start of the part of the value in the current chunk that is not yet copied.
  var start = 0
  /// End of that part once the value's text has stopped at a `<` (it may be the closing tag).
  var end = 0

  init() { bytes.reserveCapacity(Self.capacity) }

  @inline(__always) mutating func reset() {
    if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
    isUnreadable = false
  }

  /// Copies `base[from..<to]`; an empty or inverted range is a no-op.
  ///
  /// - Complexity: O(*n*) in the range length.
  @inline(__always) mutating func append(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
    if to > from { copy(base, from, to) }
  }

  private mutating func copy(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
    guard !isUnreadable else { return }
    guard bytes.count + (to - from) <= Self.capacity else { return overflow() }
    bytes.append(contentsOf: UnsafeBufferPointer(start: base + from, count: to - from))
  }

  mutating func append(_ byte: UInt8) {
    guard !isUnreadable else { return }
    guard bytes.count < Self.capacity else { return overflow() }
    bytes.append(byte)
  }

  /// Appends a Unicode scalar as UTF-8 (from a numeric character reference).
  mutating func append(scalar value: UInt32) {
    guard let scalar = Unicode.Scalar(value) else {
      isUnreadable = true
      return
    }
    for unit in UTF8.encode(scalar)! { append(unit) }
  }

  private mutating func overflow() {
    isUnreadable = true
    bytes.removeAll(keepingCapacity: true)
  }

  /// Copies the pending part (`start..<end`) and clears it.
  @inline(__always) mutating func commitPending(_ base: UnsafePointer<UInt8>) {
    append(base, start, end)
    start = 0
    end = 0
  }

  /// Runs `parse` on the whole value whose last part is `base[from..<to]`; nil when the value
  /// is unreadable.
  ///
  /// - Complexity: O(*n*) in the value's length, plus `parse`.
  @inline(__always)
  mutating func finish<Result>(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
    _ parse: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result? {
    if isUnreadable { return nil }
    if bytes.isEmpty {
      let count = max(0, to - from)
      guard count <= Self.capacity else { return nil }
      return parse(UnsafeBufferPointer(start: base + from, count: count))
    }
    append(base, from, to)
    if isUnreadable { return nil }
    return bytes.withUnsafeBufferPointer(parse)
  }

  /// The value as a timestamp (`XMLFieldParser.time`, through the reader's day `cache`);
  /// `.unreadable` when the value is.
  @inline(__always)
  mutating func finishTime(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, cache: inout ISO8601DayCache
  ) -> XMLFieldParser.Time {
    finish(base, from, to) { XMLFieldParser.time($0, cache: &cache) } ?? .unreadable
  }

  /// The value as a number (`XMLFieldParser.number`); nil when the value is unreadable or not a
  /// number.
  @inline(__always)
  mutating func finishNumber(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Double? {
    finish(base, from, to, XMLFieldParser.number) ?? nil
  }
}
