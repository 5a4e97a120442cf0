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
