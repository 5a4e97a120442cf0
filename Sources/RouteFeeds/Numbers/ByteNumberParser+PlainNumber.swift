extension ByteNumberParser {
  /// A number of the shape `-?digits[.digits]` with 1 to 15 digits from `index`, read up to the
  /// first byte that is not part of it (`index` ends there): the value
  /// `ByteNumberParser.plainDecimal` computes for those bytes, bit for bit (the same integer
  /// mantissa over the same exact power of ten). Nil (`index` unmoved) when no digit was read or
  /// more than 15 were.
  ///
  /// With 16 bytes to spare after the sign, at most seven digits before the point and seven after
  /// it (every coordinate and reading a recorder writes) are found and converted with two loads
  /// and no loop: one multiply-add joins the two runs, one division scales them. Anything else
  /// is read a byte at a time (`plainNumberByteByByte`).
  ///
  /// Transparent: a CSV row reads up to seven numbers with it, an XML record up to seven, and a call each (which the
  /// optimiser otherwise keeps here) costs about a fifth of the number.
  ///
  /// - Complexity: O(1) on the fast path; O(*n*) in the number's length otherwise.
  @_transparent
  static func plainNumber(_ bytes: UnsafePointer<UInt8>, _ index: inout Int, bound: Int) -> Double? {
    #if _endian(little)
      if (bytes[index] == .asciiMinus ? index + 1 : index) + 16 <= bound,
        let value = shortPlainNumber(bytes, &index)
      {
        return value
      }
    #endif
    // Also a number with no digit, which this refuses as the two-load path does.
    return plainNumberByteByByte(bytes, &index, bound: bound)
  }

  /// `plainNumber`'s two-load path alone, with no bound to check: at most seven digits before
  /// the point and seven after it, the value `plainNumber` (and `plainDecimal`) gives, `index`
  /// moved past it. Nil (`index` unmoved) for anything else: no digit, or eight digits in a run.
  /// The 17 bytes from `index` (a sign and sixteen) must be readable; the whole number is
  /// among them, so a caller that has checked a window of bytes once can read several numbers
  /// in a row without checking the bound for each.
  ///
  /// - Complexity: O(1).
  @_transparent
  static func shortPlainNumber(_ bytes: UnsafePointer<UInt8>, _ index: inout Int) -> Double? {
    #if _endian(little)
      let negative = bytes[index] == .asciiMinus
      let at = negative ? index &+ 1 : index
      let raw = UnsafeRawPointer(bytes + at)
      let integer = raw.loadUnaligned(as: UInt64.self)
      let integerDigits = leadingDigits(integer)
      guard integerDigits < 8 else { return nil }
      var mantissa = digitsValue(integer, count: integerDigits)
      var end = at &+ integerDigits
      var fractionDigits = 0
      if bytes[end] == .asciiDot {
        let fraction = raw.loadUnaligned(fromByteOffset: integerDigits &+ 1, as: UInt64.self)
        fractionDigits = leadingDigits(fraction)
        guard fractionDigits < 8 else { return nil }
        mantissa = mantissa &* smallPowerOfTen(fractionDigits) &+ digitsValue(fraction, count: fractionDigits)
        end &+= 1 &+ fractionDigits
      }
      guard integerDigits | fractionDigits != 0 else { return nil }
      index = end
      // Dividing by 10^0 = 1 is exact: the integer's own value, as `plainDecimal` gives it.
      let value = double(mantissa) / exactPowerOfTen(fractionDigits)
      return negative ? -value : value
    #else
      return nil
    #endif
  }

  /// `plainNumber` a byte at a time: near the end of the buffer, and for runs of eight digits or
  /// more.
  ///
  /// - Complexity: O(*n*) in the number's length.
  @inline(never)
  static func plainNumberByteByByte(_ bytes: UnsafePointer<UInt8>, _ index: inout Int, bound: Int) -> Double? {
    var at = index
    if bytes[at] == .asciiMinus { at += 1 }
    let negative = at > index
    var mantissa: UInt64 = 0
    var digits = 0
    while at < bound {
      let digit = bytes[at] &- .ascii0
      if digit >= 10 { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      at += 1
      digits += 1
    }
    var fractionDigits = 0
    if at < bound, bytes[at] == .asciiDot {
      at += 1
      while at < bound {
        let digit = bytes[at] &- .ascii0
        if digit >= 10 { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        at += 1
        fractionDigits += 1
      }
    }
    digits += fractionDigits
    guard digits > 0, digits <= 15 else { return nil }
    index = at
    let value =
      fractionDigits == 0 ? double(mantissa) : double(mantissa) / exactPowerOfTen(fractionDigits)
    return negative ? -value : value
  }

  /// 10^`exponent` for 0 through 7, branch-free (`integerPowerOfTen`).
  @inline(__always)
  static func smallPowerOfTen(_ exponent: Int) -> UInt64 {
    integerPowerOfTen(exponent)
  }

  /// How many of the eight bytes of `word` (the first in the lowest byte) are decimal digits
  /// before the first that is not: 0 through 8.
  @inline(__always)
  static func leadingDigits(_ word: UInt64) -> Int {
    // A byte below '0' borrows into bit 7; above '9', adding 0x46 carries into it (or bit 7 is
    // already set). Bytes before the first non-digit neither borrow nor carry, so its bit is exact.
    let notDigit = ((word &- 0x3030_3030_3030_3030) | (word &+ 0x4646_4646_4646_4646) | word) & 0x8080_8080_8080_8080
    return notDigit.trailingZeroBitCount >> 3
  }

  /// The value of the first `count` bytes of `word` (0 through 7 digits, the first in the lowest
  /// byte, as `leadingDigits` counted them; 0 gives 0): their offsets from '0' moved to the top
  /// and joined in three multiply-adds (as `ByteNumberParser.eightDigits`, which checks the
  /// bytes; these were checked by `leadingDigits`). A byte after the run that is below '0'
  /// borrows only into the bytes above it, which the shift drops.
  @inline(__always)
  static func digitsValue(_ word: UInt64, count: Int) -> UInt64 {
    let bits = UInt64(truncatingIfNeeded: count &* 8)
    // Shifted left by 64 - 8 × `count` in two steps, so that no digit (a shift of 64, which one
    // `&<<` would take as 0) shifts everything out; the bytes above the run go with it.
    let aligned = ((word &- 0x3030_3030_3030_3030) &<< 1) &<< (63 &- bits)
    let pairs = (aligned &* 10 &+ (aligned >> 8)) & 0x00FF_00FF_00FF_00FF
    let quads = (pairs &* 100 &+ (pairs >> 16)) & 0x0000_FFFF_0000_FFFF
    return (quads &* 10_000 &+ (quads >> 32)) & 0xFFFF_FFFF
  }
}
