/// Named bytes for the scanners, so hot loops compare numbers, not characters.
extension UInt8 {
  @usableFromInline static let asciiTab: UInt8 = 0x09
  @usableFromInline static let asciiNewline: UInt8 = 0x0A
  @usableFromInline static let asciiReturn: UInt8 = 0x0D
  @usableFromInline static let asciiSpace: UInt8 = 0x20
  @usableFromInline static let asciiQuote: UInt8 = 0x22
  @usableFromInline static let asciiHash: UInt8 = 0x23
  @usableFromInline static let asciiDollar: UInt8 = 0x24
  @usableFromInline static let asciiAmpersand: UInt8 = 0x26
  @usableFromInline static let asciiApostrophe: UInt8 = 0x27
  @usableFromInline static let asciiStar: UInt8 = 0x2A
  @usableFromInline static let asciiPlus: UInt8 = 0x2B
  @usableFromInline static let asciiComma: UInt8 = 0x2C
  @usableFromInline static let asciiMinus: UInt8 = 0x2D
  @usableFromInline static let asciiDot: UInt8 = 0x2E
  @usableFromInline static let asciiSlash: UInt8 = 0x2F
  @usableFromInline static let ascii0: UInt8 = 0x30
  @usableFromInline static let ascii9: UInt8 = 0x39
  @usableFromInline static let asciiColon: UInt8 = 0x3A
  @usableFromInline static let asciiSemicolon: UInt8 = 0x3B
  @usableFromInline static let asciiLess: UInt8 = 0x3C
  @usableFromInline static let asciiEquals: UInt8 = 0x3D
  @usableFromInline static let asciiGreater: UInt8 = 0x3E
  @usableFromInline static let asciiQuestion: UInt8 = 0x3F
  @usableFromInline static let asciiBang: UInt8 = 0x21
  @usableFromInline static let asciiUpperE: UInt8 = 0x45
  @usableFromInline static let asciiUpperT: UInt8 = 0x54
  @usableFromInline static let asciiUpperZ: UInt8 = 0x5A
  @usableFromInline static let asciiLowerE: UInt8 = 0x65
  @usableFromInline static let asciiLowerT: UInt8 = 0x74
  @usableFromInline static let asciiLowerZ: UInt8 = 0x7A

  @inlinable var isASCIIDigit: Bool { self &- 0x30 < 10 }
  @inlinable var isASCIIWhitespace: Bool {
    self == .asciiSpace || self == .asciiTab || self == .asciiNewline || self == .asciiReturn
  }
  /// ASCII letters folded to lower case; other bytes unchanged.
  @inlinable var asciiLowercased: UInt8 { (self &- 0x41) < 26 ? self | 0x20 : self }
}

extension UnsafeBufferPointer<UInt8> {
  /// The slice without leading and trailing ASCII whitespace (and NUL padding).
  @inlinable
  func trimmingASCIIWhitespace() -> UnsafeBufferPointer<UInt8> {
    var lower = startIndex
    var upper = endIndex
    while lower < upper, self[lower].isASCIIWhitespace || self[lower] == 0 { lower += 1 }
    while upper > lower, self[upper - 1].isASCIIWhitespace || self[upper - 1] == 0 { upper -= 1 }
    return UnsafeBufferPointer(rebasing: self[lower..<upper])
  }

  /// The number the two decimal digits at `index` and `index + 1` write (`07` is 7), or nil when
  /// either byte is not a digit; the caller has checked both are in the buffer. Used by every
  /// fixed-width time and date field (NMEA `hhmmss`, `ddmmyy`; ISO 8601 `hh:mm:ss`). O(1).
  @inline(__always)
  func twoDigits(at index: Int) -> Int? {
    let high = self[index] &- .ascii0
    let low = self[index + 1] &- .ascii0
    guard high < 10, low < 10 else { return nil }
    return Int(high) * 10 + Int(low)
  }

  /// Case-insensitive ASCII comparison with a literal.
  @inlinable
  func equalsASCIICaseInsensitive(_ literal: StaticString) -> Bool {
    guard count == literal.utf8CodeUnitCount else { return false }
    let other = literal.utf8Start
    for index in 0..<count where self[index].asciiLowercased != other[index].asciiLowercased {
      return false
    }
    return true
  }
}
