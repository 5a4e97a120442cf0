extension ByteNumberParser {
  /// The common shape of a coordinate or a reading, `-?digits[.digits]` with at most 15 digits,
  /// in one tight loop; nil for anything else, which `double(_:)` then reads in full.
  ///
  /// The result is the one `double(_:)` computes for the same bytes, bit for bit: an integer
  /// mantissa below 10^15 divided by an exact power of ten no larger than 10^15 (Clinger's fast
  /// path, correctly rounded by IEEE division). It exists because readers parse several numbers
  /// per record, and this shape skips the general loop's significant-digit bookkeeping.
  ///
  /// - Complexity: O(*n*) in the slice length.
  @inlinable @inline(__always)
  static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = bytes.count
    guard count > 0, count <= 17, let base = bytes.baseAddress else { return nil }
    let negative = base[0] == .asciiMinus
    var index = negative ? 1 : 0
    let integerStart = index
    var mantissa: UInt64 = 0
    while index < count {
      let digit = base[index] &- .ascii0
      if digit >= 10 { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      index += 1
    }
    let integerDigits = index - integerStart
    var fractionDigits = 0
    if index < count {
      guard base[index] == .asciiDot else { return nil }
      index += 1
      // One to eight fraction digits ending a number of at least eight bytes (a coordinate's
      // `.8840207`): one eight-byte load of the number's tail, the bytes before the fraction
      // replaced by '0', read in one go. The same integer as digit by digit.
      let tail = count - index
      if tail >= 1, tail <= 8, count >= 8 {
        var word = UnsafeRawPointer(base + (count - 8)).loadUnaligned(as: UInt64.self)
        #if _endian(big)
          word = word.byteSwapped
        #endif
        let keep: UInt64 = tail == 8 ? ~0 : ~0 << UInt64(8 * (8 - tail))
        guard let fraction = eightDigits((word & keep) | (0x3030_3030_3030_3030 & ~keep)) else { return nil }
        mantissa = mantissa &* integerPowerOfTen(tail) &+ fraction
        fractionDigits = tail
        let digits = integerDigits + fractionDigits
        guard digits <= 15 else { return nil }
        let value = double(mantissa) / exactPowerOfTen(fractionDigits)
        return negative ? -value : value
      }
      let fractionStart = index
      // Four digits at a time where four remain: the fraction of a coordinate is usually 7.
      while count - index >= 4 {
        guard let four = fourDigits(base + index) else { return nil }
        mantissa = mantissa &* 10_000 &+ UInt64(four)
        index += 4
      }
      while index < count {
        let digit = base[index] &- .ascii0
        if digit >= 10 { return nil }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        index += 1
      }
      fractionDigits = index - fractionStart
    }
    let digits = integerDigits + fractionDigits
    guard digits > 0, digits <= 15 else { return nil }
    let value = fractionDigits == 0 ? double(mantissa) : double(mantissa) / exactPowerOfTen(fractionDigits)
    return negative ? -value : value
  }

  /// The value of four ASCII digits at `pointer` (SWAR: one load, a digit check on all four
  /// bytes at once, two multiply-adds), or nil when any byte is not a digit.
  @inlinable @inline(__always)
  static func fourDigits(_ pointer: UnsafePointer<UInt8>) -> UInt32? {
    var word = UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)
    #if _endian(big)
      word = word.byteSwapped
    #endif
    let offsets = word &- 0x3030_3030
    // A byte is a digit when it is at least '0' (no borrow set bit 7) and at most '9'
    // (adding 0x76 does not reach bit 7).
    guard (word & 0x8080_8080) == 0, ((offsets | (offsets &+ 0x7676_7676)) & 0x8080_8080) == 0 else { return nil }
    // Pairs: d0*10 + d1 in the low byte of each 16-bit half, then the halves: hi*100 + lo.
    let pairs = (offsets &* 10 &+ (offsets >> 8)) & 0x00FF_00FF
    return (pairs &* 100 &+ (pairs >> 16)) & 0x3FFF
  }

  /// The value of eight ASCII digits in `word` (the first digit in the lowest byte), or nil
  /// when any byte is not a digit: one digit check on all eight bytes, three multiplications.
  @inlinable @inline(__always)
  static func eightDigits(_ word: UInt64) -> UInt64? {
    let offsets = word &- 0x3030_3030_3030_3030
    // As in `fourDigits`: at least '0' (no borrow into bit 7), at most '9'.
    guard (word & 0x8080_8080_8080_8080) == 0,
      ((offsets | (offsets &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080) == 0
    else { return nil }
    let pairs = (offsets &* 10 &+ (offsets >> 8)) & 0x00FF_00FF_00FF_00FF
    let quads = (pairs &* 100 &+ (pairs >> 16)) & 0x0000_FFFF_0000_FFFF
    return (quads &* 10_000 &+ (quads >> 32)) & 0xFFFF_FFFF
  }

  /// 10^0 through 10^15 as integers: constants laid out in the binary, as `exactPowersOfTen`.
  @usableFromInline
  static let integerPowersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
    1_000_000_000_000_000,
  ]

  /// 10^`exponent` for 0 through 15, as an integer: one load from a constant table, without the
  /// compare tree a `switch` compiles to, which mispredicts when the digit count differs from
  /// number to number in a record.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  static func integerPowerOfTen(_ exponent: Int) -> UInt64 {
    integerPowersOfTen[exponent & 15]
  }

  /// 10^0 through 10^15, each exact in a `Double`: an array of constants, which the compiler
  /// lays out in the binary (no lazy initialisation on first use).
  @usableFromInline
  static let exactPowersOfTen: [Double] = [
    1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  ]

  /// The `Double` of a mantissa below 2⁶³ (every one of at most 18 digits), converted as a
  /// signed integer: the same value as `Double(mantissa)` (both round to nearest, and are exact
  /// below 2⁵³), in one instruction where x86-64 without AVX-512 converts an unsigned one in
  /// four, on the path from a number's digits to its division.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  static func double(_ mantissa: UInt64) -> Double {
    Double(Int64(bitPattern: mantissa))
  }

  /// 10^`exponent` for 0 through 15, all exact in a `Double`: one load from a constant table,
  /// without the compare tree a `switch` compiles to, which mispredicts when the digit count
  /// differs from number to number in a record. Readers divide fractions of seconds by it too.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  static func exactPowerOfTen(_ exponent: Int) -> Double {
    exactPowersOfTen[exponent & 15]
  }
}
