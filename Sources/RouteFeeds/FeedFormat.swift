/// The recorded-drive formats the readers understand.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
  case gpx, nmea, csv

  /// Guesses the format from the first bytes of a feed (a few kilobytes are plenty).
  ///
  /// - GPX: after an optional byte-order mark and whitespace, the document starts with `<`
  ///   (an XML declaration, a comment or `<gpx`).
  /// - NMEA 0183: a line holds a sentence start: `$` or `!`, five letters or digits, then a
  ///   comma (`$GPRMC,`); comment lines (`#`) and one truncated first line are tolerated.
  /// - CSV: anything else.
  ///
  /// Detection never fails; a wrong guess shows up as unreadable records, and `--input-format`
  /// overrides it.
  ///
  /// - Complexity: O(*n*) in the prefix length.
  public static func detect(prefix: UnsafeBufferPointer<UInt8>) -> FeedFormat {
    var index = 0
    if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { index = 3 }
    while index < prefix.count, prefix[index].isASCIIWhitespace || prefix[index] == 0 { index += 1 }
    if index < prefix.count, prefix[index] == .asciiLess { return .gpx }
    var sentenceStarts = 0
    var lines = 0
    var lineStart = index
    while lineStart < prefix.count, lines < 64 {
      var lineEnd = lineStart
      while lineEnd < prefix.count, prefix[lineEnd] != .asciiNewline { lineEnd += 1 }
      if containsSentenceStart(prefix, lineStart, lineEnd) { sentenceStarts += 1 }
      lines += 1
      lineStart = lineEnd + 1
    }
    return sentenceStarts > 0 && sentenceStarts * 2 >= lines - 2 ? .nmea : .csv
  }

  private static func containsSentenceStart(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var index = start
    while index + 6 < end {
      if bytes[index] == .asciiDollar || bytes[index] == .asciiBang {
        var ok = true
        for offset in 1...5 {
          let byte = bytes[index + offset]
          if !(byte.isASCIIDigit || (byte &- 0x41) < 26) {
            ok = false
            break
          }
        }
        if ok, bytes[index + 6] == .asciiComma { return true }
      }
      index += 1
    }
    return false
  }
}
