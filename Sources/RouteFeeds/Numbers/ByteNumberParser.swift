#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Numbers straight from bytes, without building a `String`.
///
/// Decimal numbers take Clinger's fast path (an integer mantissa of at most 15 significant
/// digits scaled by an exact power of ten, which IEEE arithmetic rounds correctly); anything
/// longer or with a large exponent goes to `strtod`, so every result is the correctly rounded
/// double. Accepted: optional sign, digits, optional fraction, optional exponent (`1e5`, `2.5E-3`).
/// Rejected (nil): empty input, stray bytes, `nan`, `inf`, values that overflow to infinity
/// (`1e999`), and more than 400 bytes.
public enum ByteNumberParser {
  @usableFromInline static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// The longest number accepted, in bytes; longer input is rejected rather than parsed.
  public static let maximumLength = 400

  /// Parses a whole slice as a decimal number; nil unless every byte is part of it.
  ///
  /// - Complexity: O(*n*) in the slice length.
  @inlinable
  public static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let value = plainDecimal(bytes) { return value }
    let count = bytes.count
    guard count > 0, count <= maximumLength else { return nil }
    var index = 0
    var negative = false
    if bytes[0] == .asciiMinus || bytes[0] == .asciiPlus {
      negative = bytes[0] == .asciiMinus
      index = 1
    }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var digitsSeen = 0
    var decimalExponent = 0
    while index < count, bytes[index].isASCIIDigit {
      let digit = UInt64(bytes[index] &- .ascii0)
      if mantissa != 0 || digit != 0 { significantDigits += 1 }
      if significantDigits <= 19 { mantissa = mantissa &* 10 &+ digit } else { decimalExponent += 1 }
      digitsSeen += 1
      index += 1
    }
    if index < count, bytes[index] == .asciiDot {
      index += 1
      while index < count, bytes[index].isASCIIDigit {
        let digit = UInt64(bytes[index] &- .ascii0)
        if mantissa != 0 || digit != 0 { significantDigits += 1 }
        if significantDigits <= 19 {
          mantissa = mantissa &* 10 &+ digit
          decimalExponent -= 1
        }
        digitsSeen += 1
        index += 1
      }
    }
    guard digitsSeen > 0 else { return nil }
    if index < count, bytes[index] == .asciiLowerE || bytes[index] == .asciiUpperE {
      index += 1
      var exponentNegative = false
      if index < count, bytes[index] == .asciiMinus || bytes[index] == .asciiPlus {
        exponentNegative = bytes[index] == .asciiMinus
        index += 1
      }
      var exponent = 0
      var exponentDigits = 0
      while index < count, bytes[index].isASCIIDigit {
        if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] &- .ascii0) }
        exponentDigits += 1
        index += 1
      }
      guard exponentDigits > 0 else { return nil }
      decimalExponent += exponentNegative ? -exponent : exponent
    }
    guard index == count else { return nil }
    if significantDigits <= 15, decimalExponent >= -22, decimalExponent <= 22 {
      var value = double(mantissa)
      if decimalExponent < 0 {
        value /= powersOfTen[-decimalExponent]
      } else {
        value *= powersOfTen[decimalExponent]
      }
      return negative ? -value : value
    }
    return slowDouble(bytes)
  }

  @usableFromInline
  static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
      for index in 0..<bytes.count { buffer[index] = CChar(bitPattern: bytes[index]) }
      buffer[bytes.count] = 0
      guard let base = buffer.baseAddress else { return nil }
      var end: UnsafeMutablePointer<CChar>?
      let value = strtod(base, &end)
      guard let end, end - base == bytes.count, value.isFinite else { return nil }
      return value
    }
  }

  /// Parses an unsigned decimal integer of at most 18 digits; nil otherwise.
  @inlinable
  public static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard bytes.count > 0, bytes.count <= 18 else { return nil }
    var value = 0
    for byte in bytes {
      guard byte.isASCIIDigit else { return nil }
      value = value * 10 + Int(byte &- .ascii0)
    }
    return value
  }

  /// Parses a whole slice as a decimal number.
  public static func double(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { double($0) }
  }
}
