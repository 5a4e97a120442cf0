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
}
