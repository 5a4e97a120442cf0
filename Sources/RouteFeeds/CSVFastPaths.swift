/// Fast paths for the cells and records almost every CSV row consists of. Each gives exactly
/// the result of the general code it stands in front of (the same arithmetic in the same
/// order), and hands anything unusual to it.
enum CSVFastPaths {
  // MARK: Records

  /// Splits a record with no quote in it, eight bytes at a time; nil when the record holds a
  /// quote or a comment mark (the caller then runs `CSVRecordScanner.scan`, which handles
  /// everything). Same outcome as `scan` for every record it accepts.
  ///
  /// - Complexity: O(*n*) in the record length.
  @inline(__always)
  static func scanUnquoted(
    _ bytes: UnsafePointer<UInt8>, start: Int, bound: Int, delimiter: UInt8,
    fields: UnsafeMutablePointer<Int>, limit: Int
  ) -> CSVRecordScanner.Outcome? {
    #if _endian(little)
    guard start < bound, bytes[start] != .asciiHash else { return nil }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let delimiterPattern = UInt64(delimiter) &* ones
    let newlinePattern = UInt64(UInt8.asciiNewline) &* ones
    let quotePattern = UInt64(UInt8.asciiQuote) &* ones
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    /// The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
    @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 {
      ~(((word & low7) &+ low7) | word | low7)
    }
    var column = 0
    var fieldStart = start
    var index = start
    let raw = UnsafeRawPointer(bytes)
    while index + 8 <= bound {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      var special = zeroBytes(word ^ delimiterPattern) | zeroBytes(word ^ newlinePattern)
      if zeroBytes(word ^ quotePattern) != 0 { return nil }
      while special != 0 {
        let position = index + special.trailingZeroBitCount >> 3
        if column < limit {
          fields[2 * column] = fieldStart
          fields[2 * column + 1] = position
        }
        column += 1
        if bytes[position] == .asciiNewline { return .record(end: position, fields: column, newlines: 0) }
        fieldStart = position + 1
        special &= special &- 1
      }
      index += 8
    }
    while index < bound {
      let byte = bytes[index]
      if byte == .asciiQuote { return nil }
      if byte == delimiter || byte == .asciiNewline {
        if column < limit {
          fields[2 * column] = fieldStart
          fields[2 * column + 1] = index
        }
        column += 1
        if byte == .asciiNewline { return .record(end: index, fields: column, newlines: 0) }
        fieldStart = index + 1
      }
      index += 1
    }
    return .hitBound
    #else
    return nil
    #endif
  }
}

/// ISO 8601 timestamps of the one shape recorders write row after row
/// (`2025-11-29T08:00:01Z`, `2025-11-29 08:00:01.250Z`), with the day remembered between rows.
/// Anything else, and every first sight of a new day, goes to `ISO8601Parser`.
struct CSVTimestampCache {
  var dayPrefix: UInt64 = 0
  var daySuffix: UInt16 = 0
  var daySeconds = Double.nan

  /// Seconds since 1970, identical to `ISO8601Parser.timestamp` (the same additions in the same
  /// order); nil when the cell is not of the common shape (the caller then parses it fully).
  ///
  /// - Complexity: O(*n*).
  @inline(__always)
  mutating func timestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = bytes.count
    guard n >= 20, n <= 64, bytes[n - 1] == .asciiUpperZ, bytes[4] == .asciiMinus, bytes[7] == .asciiMinus,
      bytes[10] == .asciiUpperT || bytes[10] == .asciiSpace, bytes[13] == .asciiColon, bytes[16] == .asciiColon,
      let base = bytes.baseAddress
    else { return nil }
    let raw = UnsafeRawPointer(base)
    let prefix = raw.loadUnaligned(as: UInt64.self)
    let suffix = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    if prefix != dayPrefix || suffix != daySuffix || daySeconds.isNaN {
      guard let day = ISO8601Parser.timestamp(UnsafeBufferPointer(start: base, count: 10)) else { return nil }
      dayPrefix = prefix
      daySuffix = suffix
      daySeconds = day
    }
    @inline(__always) func two(_ at: Int) -> Int? {
      let high = bytes[at] &- .ascii0
      let low = bytes[at + 1] &- .ascii0
      guard high < 10, low < 10 else { return nil }
      return Int(high) * 10 + Int(low)
    }
    guard let hour = two(11), hour < 24, let minute = two(14), minute <= 59, let second = two(17), second <= 60
    else { return nil }
    var seconds = daySeconds
    seconds += Double(hour * 3600 + minute * 60 + second)
    if n == 20 { return seconds }
    guard bytes[19] == .asciiDot || bytes[19] == .asciiComma, n > 21 else { return nil }
    var fraction = 0
    var fractionDigits = 0
    var index = 20
    while index < n - 1 {
      let digit = bytes[index] &- .ascii0
      guard digit < 10 else { return nil }
      if fractionDigits < 15 {
        fraction = fraction * 10 + Int(digit)
        fractionDigits += 1
      }
      index += 1
    }
    seconds += Double(fraction) / ByteNumberParser.exactPowerOfTen(fractionDigits)
    return seconds
  }
}
