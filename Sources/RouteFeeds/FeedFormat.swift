/// The recorded-drive formats the readers understand.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
  case gpx, nmea, csv, tcx, kml, fit, geojson, takeout, owntracks

  /// Guesses the format from the first bytes of a feed (a few kilobytes are plenty).
  ///
  /// - FIT (binary): a header size of at least 12 in byte 0 and `.FIT` in bytes 8–11.
  /// - XML: after an optional byte-order mark and whitespace, the document starts with `<`
  ///   (an XML declaration, a comment or the root). The root element's local name decides:
  ///   `<TrainingCenterDatabase>` is TCX, `<kml>` KML, anything else GPX (whose reader then
  ///   names the root it found).
  /// - JSON: after an optional byte-order mark and whitespace, the document starts with `{` or
  ///   `[`; one function, `jsonFormat` (`JSON/FeedFormat+JSON.swift`), decides among the JSON
  ///   formats: Google location history by its first member names, GeoJSON by its members and
  ///   types. A JSON document none of them claims falls through to the rules below.
  /// - OwnTracks Recorder (`.rec`): the first line that is not blank starts with an ISO 8601
  ///   timestamp, a gap of tabs or spaces, a column word, a gap, then `{`.
  /// - NMEA 0183: a line holds a sentence start: `$` or `!`, five letters or digits, then a
  ///   comma (`$GPRMC,`); comment lines (`#`) and one truncated first line are tolerated.
  /// - CSV: anything else.
  ///
  /// Detection never fails; a wrong guess shows up as unreadable records, and `--input-format`
  /// overrides it.
  ///
  /// - Complexity: O(*n*) in the prefix length.
  public static func detect(prefix: UnsafeBufferPointer<UInt8>) -> FeedFormat {
    if prefix.count >= 12, prefix[0] >= 12, prefix[8] == 0x2E, prefix[9] == 0x46, prefix[10] == 0x49, prefix[11] == 0x54
    {
      return .fit
    }
    var index = 0
    if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { index = 3 }
    while index < prefix.count, prefix[index].isASCIIWhitespace || prefix[index] == 0 { index += 1 }
    if index < prefix.count, prefix[index] == .asciiLess { return xmlFormat(prefix, from: index) }
    if index < prefix.count, prefix[index] == 0x7B || prefix[index] == 0x5B,
      let format = jsonFormat(prefix, from: index)
    {
      return format
    }
    let firstLineEnd = prefix[index...].firstIndex(of: .asciiNewline) ?? prefix.count
    if OwnTracksLine.looksLikeRecorderLine(UnsafeBufferPointer(rebasing: prefix[index..<firstLineEnd])) {
      return .owntracks
    }
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

  /// The XML format named by the root element's local name, skipping the declaration,
  /// comments, processing instructions and the DOCTYPE before it; GPX when the root is not in
  /// the prefix.
  static func xmlFormat(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> FeedFormat {
    func starts(_ text: StaticString, at index: Int) -> Bool {
      let count = text.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
      return true
    }
    func find(_ text: StaticString, from index: Int) -> Int? {
      var index = index
      while index < bytes.count {
        if starts(text, at: index) { return index + text.utf8CodeUnitCount }
        index += 1
      }
      return nil
    }
    var index = start
    while let less = bytes[index...].firstIndex(of: .asciiLess) {
      index = less + 1
      if starts("!--", at: index) {
        guard let end = find("-->", from: index + 3) else { return .gpx }
        index = end
      } else if starts("?", at: index) || starts("!", at: index) {
        guard let end = bytes[index...].firstIndex(of: .asciiGreater) else { return .gpx }
        index = end + 1
      } else {
        var end = index
        var localStart = index
        while end < bytes.count, bytes[end] > 0x20, bytes[end] != .asciiGreater, bytes[end] != .asciiSlash {
          if bytes[end] == .asciiColon { localStart = end + 1 }
          end += 1
        }
        let name = bytes[localStart..<end]
        if name.elementsEqual("TrainingCenterDatabase".utf8) { return .tcx }
        if name.elementsEqual("kml".utf8) { return .kml }
        return .gpx
      }
    }
    return .gpx
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
