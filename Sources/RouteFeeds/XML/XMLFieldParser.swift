/// Parsing of the texts the XML readers collect; each takes the value's bytes as collected.
enum XMLFieldParser {
  /// A timestamp, as far as it has been read.
  enum Time {
    /// No time element, or one holding only whitespace.
    case missing
    case unreadable
    case seconds(Double)
  }

  /// The value without XML whitespace around it (NUL is not whitespace: it makes a value
  /// unreadable).
  @inline(__always)
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var lower = bytes.startIndex
    var upper = bytes.endIndex
    while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
    while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
  }

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == .asciiSpace || byte == .asciiNewline || byte == .asciiTab || byte == .asciiReturn
  }

  @inline(__always)
  static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    ByteNumberParser.double(trimmed(bytes))
  }

  @inline(__always)
  static func time(_ bytes: UnsafeBufferPointer<UInt8>, cache: inout ISO8601DayCache) -> Time {
    let text = trimmed(bytes)
    if text.isEmpty { return .missing }
    return cache.instant(text).map { .seconds($0) } ?? .unreadable
  }

  /// The number in `base[range]`, for a value a fast path found in place: read there by
  /// `ByteNumberParser.plainNumber` when the whole value is a plain decimal (no whitespace, 1 to
  /// 15 digits), else trimmed and read by `number(_:)`. The same `Double` either way: the plain
  /// reader gives what `ByteNumberParser.double` gives for those bytes. `base[..<bound]` must be
  /// readable and the byte at `range.upperBound` must not be a digit or `.` (a quote or `<`).
  ///
  /// Not inlined: a record reads up to seven numbers, and seven copies of the reader cost more
  /// than the calls.
  ///
  /// - Complexity: O(1) for a plain value; O(*n*) in its length otherwise.
  @inline(never)
  static func number(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, bound: Int) -> Double? {
    var end = range.lowerBound
    if end < range.upperBound, let value = ByteNumberParser.plainNumber(base, &end, bound: bound),
      end == range.upperBound
    {
      return value
    }
    return number(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// The time in `base[range]`, for a value a fast path found in place: a `Z` time on the day
  /// the cache holds is read there (`ISO8601DayCache.cachedDayZulu`, the seconds `instant` gives
  /// for the same text, bit for bit); anything else as `time(_:cache:)` reads it.
  ///
  /// - Complexity: O(1) on the cached day; O(*n*) in the value's length otherwise.
  @inline(__always)
  static func time(
    _ base: UnsafePointer<UInt8>, _ range: Range<Int>, bound: Int, cache: inout ISO8601DayCache
  ) -> Time {
    if range.lowerBound &+ 24 <= bound, let (seconds, end) = cache.cachedDayZulu(base, at: range.lowerBound),
      end == range.upperBound
    {
      return .seconds(seconds)
    }
    return time(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), cache: &cache)
  }
}
