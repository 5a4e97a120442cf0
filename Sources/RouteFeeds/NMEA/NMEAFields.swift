import RouteMileage

/// Walks the comma-separated fields of one sentence, in order, without copying.
///
/// NMEA fields are positional, so each sentence parser asks for them one after another and
/// skips the ones it does not use. The comma ending a field is found eight bytes at a time
/// where eight bytes remain before the `*` (`NMEAWords.contains`), then byte by byte. O(1)
/// memory; each byte is looked at once.
struct NMEAFields {
  let bytes: UnsafeBufferPointer<UInt8>
  /// Where the next field starts, or nil when the sentence has no more fields.
  var next: Int?
  let end: Int

  /// - Parameters:
  ///   - bytes: the line.
  ///   - comma: the index of the comma after the address, or `end` when there are no fields.
  ///   - end: the index of the `*` that starts the checksum.
  init(_ bytes: UnsafeBufferPointer<UInt8>, comma: Int, end: Int) {
    self.bytes = bytes
    self.end = end
    next = comma < end ? comma + 1 : nil
  }

  /// The next field (possibly empty), or nil when the sentence has no more.
  @inline(__always)
  mutating func field() -> UnsafeBufferPointer<UInt8>? {
    guard let start = next, let base = bytes.baseAddress else { return nil }
    var index = start
    while true {
      if index &+ 8 <= end {
        let commas = NMEAWords.contains(NMEAWords.load(base + index).littleEndian, .asciiComma)
        if commas == 0 {
          index &+= 8
          continue
        }
        // The lowest flagged byte is exact (the borrow only reaches bytes after it).
        index &+= commas.trailingZeroBitCount &>> 3
        break
      }
      while index < end, base[index] != .asciiComma { index &+= 1 }
      break
    }
    next = index < end ? index &+ 1 : nil
    return UnsafeBufferPointer(start: base + start, count: index &- start)
  }

  /// Skips `count` fields; false when the sentence ran out.
  @inline(__always)
  mutating func skip(_ count: Int) -> Bool {
    for _ in 0..<count where field() == nil { return false }
    return true
  }
}

/// A field's reading: empty, a value, or bytes that are not what the field should hold.
enum NMEAValue<Value> {
  case empty
  case value(Value)
  case invalid
}

/// Parsers for NMEA's field encodings, straight from bytes.
enum NMEAFieldParser {
  /// Microseconds in a day.
  static let microsecondsPerDay: Int64 = 86_400_000_000

  /// `hhmmss` or `hhmmss.s…` as microseconds since midnight (digits past the sixth decimal
  /// are ignored). Seconds may be 60 (a leap second, read as the next minute's 00).
  ///
  /// - Complexity: O(*n*) in the field length.
  static func timeOfDay(_ field: UnsafeBufferPointer<UInt8>) -> NMEAValue<Int64> {
    let count = field.count
    if count == 0 { return .empty }
    // `hhmm` in one word test (`fourDigits`), then the seconds.
    guard count >= 6, count <= 32, let base = field.baseAddress, let hhmm = ByteNumberParser.fourDigits(base),
      let seconds = field.twoDigits(at: 4)
    else { return .invalid }
    let hours = Int(hhmm / 100)
    let minutes = Int(hhmm % 100)
    guard hours < 24, minutes < 60, seconds <= 60 else { return .invalid }
    var micros: Int64 = 0
    if count > 6 {
      guard field[6] == .asciiDot, count > 7 else { return .invalid }
      var scale: Int64 = 100_000
      for index in 7..<count {
        let byte = field[index]
        guard byte.isASCIIDigit else { return .invalid }
        micros += Int64(byte &- .ascii0) * scale
        scale /= 10
      }
    }
    return .value(Int64(hours * 3600 + minutes * 60 + seconds) * 1_000_000 + micros)
  }

  /// A latitude (`ddmm.mmm`) or longitude (`dddmm.mmm`) with its hemisphere letter, in signed
  /// degrees. Out-of-range degrees (`9100.0,N`) are returned as read; the capture filter
  /// rejects them. Signs, exponents, minutes of 60 or more, and a missing or wrong hemisphere
  /// are invalid.
  static func coordinate(
    _ field: UnsafeBufferPointer<UInt8>, _ hemisphere: UnsafeBufferPointer<UInt8>?,
    positive: UInt8, negative: UInt8
  ) -> NMEAValue<Double> {
    let count = field.count
    if count == 0 { return .empty }
    // Digits before the point: degrees then two of minutes; after it, the minutes' fraction
    // (digits past the 15th add nothing a double can hold).
    var index = 0
    var whole = 0
    var fraction = 0
    var fractionDigits = 0
    if let common = commonCoordinateDigits(field) {
      (whole, fraction, fractionDigits) = common
      index = count
    } else {
      while index < count, field[index].isASCIIDigit, index < 12 {
        whole = whole * 10 + Int(field[index] &- .ascii0)
        index += 1
      }
      guard index >= 3 else { return .invalid }
    }
    if index < count {
      guard field[index] == .asciiDot else { return .invalid }
      index += 1
      while index < count {
        let digit = field[index] &- .ascii0
        guard digit < 10 else { return .invalid }
        if fractionDigits < 15 {
          fraction = fraction * 10 + Int(digit)
          fractionDigits += 1
        }
        index += 1
      }
    }
    guard let value = degrees(whole: whole, fraction: fraction, digits: fractionDigits), let hemisphere,
      hemisphere.count == 1
    else { return .invalid }
    switch hemisphere[0] {
    case positive: return .value(value)
    case negative: return .value(-value)
    default: return .invalid
    }
  }

  /// Unsigned degrees of a coordinate whose digits before the point are `whole` (degrees, then
  /// two of minutes) and after it `fraction` (`digits` of them, at most 15): nil when the minutes
  /// are 60 or more. Every reader of a coordinate ends here, so each gives the same double. O(1).
  @inline(__always)
  static func degrees(whole: Int, fraction: Int, digits: Int) -> Double? {
    let degrees = Double(whole / 100)
    let minutes = Double(whole % 100) + Double(fraction) / ByteNumberParser.exactPowerOfTen(digits)
    guard minutes < 60 else { return nil }
    return degrees + minutes / 60
  }

  /// The digits of the layout receivers write, `ddmm.f…` or `dddmm.f…` with one to eight
  /// fraction digits, read a word at a time (`ByteNumberParser.fourDigits`, `eightDigits`):
  /// the same integers the digit-by-digit loop of `coordinate` reads. Nil for any other shape
  /// or a byte that is not a digit, which `coordinate` then reads (or rejects) byte by byte.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func commonCoordinateDigits(_ field: UnsafeBufferPointer<UInt8>) -> (whole: Int, fraction: Int, digits: Int)? {
    let count = field.count
    guard count >= 8, count <= 14, let base = field.baseAddress else { return nil }
    let dot: Int
    if base[4] == .asciiDot {
      dot = 4
    } else if base[5] == .asciiDot {
      dot = 5
    } else {
      return nil
    }
    guard let four = ByteNumberParser.fourDigits(base) else { return nil }
    var whole = Int(four)
    if dot == 5 {
      let digit = base[4] &- .ascii0
      guard digit < 10 else { return nil }
      whole = whole &* 10 &+ Int(digit)
    }
    let tail = count &- dot &- 1
    guard tail >= 1, tail <= 8 else { return nil }
    // The field's last eight bytes, the ones before the fraction replaced by '0'.
    var word = UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)
    #if _endian(big)
      word = word.byteSwapped
    #endif
    let keep: UInt64 = tail == 8 ? ~0 : ~0 << UInt64(8 &* (8 &- tail))
    guard let fraction = ByteNumberParser.eightDigits((word & keep) | (0x3030_3030_3030_3030 & ~keep)) else {
      return nil
    }
    return (whole, Int(fraction), tail)
  }

  /// A plain decimal number (speed, course, DOP, altitude, σ).
  @inline(__always)
  static func number(_ field: UnsafeBufferPointer<UInt8>?) -> NMEAValue<Double> {
    guard let field, !field.isEmpty else { return .empty }
    if let value = shortDecimal(field) { return .value(value) }
    guard let value = ByteNumberParser.double(field) else { return .invalid }
    return .value(value)
  }

  /// The shape receivers print speeds, DOPs, altitudes and σ in, `digits.digits` or `digits`
  /// (at most 12 bytes, no sign), in one loop; nil for anything else, which `number` hands to
  /// `ByteNumberParser.double`. For these bytes that parser computes the same integer mantissa
  /// and divides it by the same exact power of ten (`plainDecimal`), so the value is the same
  /// bit for bit.
  ///
  /// - Complexity: O(*n*) in the field length.
  @inline(__always)
  static func shortDecimal(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = field.count
    guard count <= 12, let base = field.baseAddress else { return nil }
    var mantissa: UInt64 = 0
    var dot = -1
    var index = 0
    while index < count {
      let digit = base[index] &- .ascii0
      if digit < 10 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
      } else if base[index] == .asciiDot, dot < 0, index > 0, index < count &- 1 {
        dot = index
      } else {
        return nil
      }
      index &+= 1
    }
    guard dot >= 0 else { return ByteNumberParser.double(mantissa) }
    return ByteNumberParser.double(mantissa) / ByteNumberParser.exactPowerOfTen(count &- dot &- 1)
  }

  /// The century pivot for two-digit years.
  static func fullYear(twoDigit year: Int) -> Int { year >= 80 ? 1900 + year : 2000 + year }

  /// Days since 1970-01-01 of a real date, else nil.
  static func days(year: Int, month: Int, day: Int) -> Int? {
    guard CivilTime.isValidDate(year: year, month: month, day: day) else { return nil }
    return CivilTime.daysSinceEpoch(year: year, month: month, day: day)
  }

  /// An unsigned integer field; `.invalid` for anything but digits.
  static func integer(_ field: UnsafeBufferPointer<UInt8>) -> NMEAValue<Int> {
    if field.isEmpty { return .empty }
    guard let value = ByteNumberParser.integer(field) else { return .invalid }
    return .value(value)
  }
}
