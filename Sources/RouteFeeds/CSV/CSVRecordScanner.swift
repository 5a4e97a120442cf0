/// The CSV record grammar, twice: a byte-at-a-time state machine that can stop and resume at
/// any chunk boundary (for the one record a chunk boundary splits, and for the lines before
/// the header), and a fast scanner that splits a record lying wholly in one buffer into fields.
/// Both implement the same rules, so where a record ends never depends on the chunking:
///
/// - a record ends at a line feed outside quotes (a CR before it is trimmed with the value);
/// - a field is quoted when its first byte, after spaces, is `"`; inside, `""` is a quote and
///   delimiters and line feeds are data; bytes between the closing quote and the next
///   delimiter are kept with the quotes (the value is then not a number);
/// - a `"` anywhere else is an ordinary byte;
/// - a line whose first byte is `#` is a comment and ends at the next line feed, quotes or not.
enum CSVRecordScanner {
  enum State: UInt8, Sendable {
    case recordStart, fieldStart, unquoted, quoted, quoteSeen, comment
  }

  /// Which bytes separate fields: one delimiter, or — before the first line has told which —
  /// any of comma, semicolon and tab.
  struct Delimiters: Sendable {
    var byte: UInt8
    var anyCandidate: Bool

    @inline(__always)
    func contains(_ value: UInt8) -> Bool {
      value == byte || (anyCandidate && (value == .asciiComma || value == .asciiSemicolon || value == .asciiTab))
    }
  }

  /// One step of the state machine; `ends` is true when `byte` is the record's closing line feed.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func step(_ state: State, _ byte: UInt8, _ delimiters: Delimiters) -> (next: State, ends: Bool) {
    switch state {
    case .recordStart, .fieldStart:
      if byte == .asciiNewline { return (.recordStart, true) }
      if state == .recordStart, byte == .asciiHash { return (.comment, false) }
      if byte == .asciiSpace { return (.fieldStart, false) }
      if byte == .asciiQuote { return (.quoted, false) }
      if delimiters.contains(byte) { return (.fieldStart, false) }
      return (.unquoted, false)
    case .unquoted:
      if byte == .asciiNewline { return (.recordStart, true) }
      if delimiters.contains(byte) { return (.fieldStart, false) }
      return (.unquoted, false)
    case .quoted:
      return (byte == .asciiQuote ? .quoteSeen : .quoted, false)
    case .quoteSeen:
      if byte == .asciiQuote { return (.quoted, false) }
      if byte == .asciiNewline { return (.recordStart, true) }
      if delimiters.contains(byte) { return (.fieldStart, false) }
      return (.unquoted, false)
    case .comment:
      return byte == .asciiNewline ? (.recordStart, true) : (.comment, false)
    }
  }

  enum Outcome {
    /// A record ending with the line feed at `end`, holding `fields` fields and `newlines` line
    /// feeds inside quotes.
    case record(end: Int, fields: Int, newlines: Int)
    /// A comment line ending with the line feed at `end`.
    case comment(end: Int)
    /// No record end before `bound`.
    case hitBound
  }

  /// Splits the record starting at `start`, looking no further than `bound` (exclusive).
  ///
  /// Stores the value range of the first `limit` fields in `fields` (start and end offsets,
  /// quotes excluded, not yet trimmed); later fields are scanned over.
  ///
  /// - Complexity: O(*n*) in the record length, one comparison or two per byte.
  @inline(__always)
  static func scan(
    _ bytes: UnsafePointer<UInt8>, start: Int, bound: Int, delimiter: UInt8,
    fields: UnsafeMutablePointer<Int>, limit: Int
  ) -> Outcome {
    var index = start
    if index < bound, bytes[index] == .asciiHash {
      while index < bound {
        if bytes[index] == .asciiNewline { return .comment(end: index) }
        index += 1
      }
      return .hitBound
    }
    var column = 0
    var newlines = 0
    while true {
      let fieldStart = index
      while index < bound, bytes[index] == .asciiSpace { index += 1 }
      var valueStart = fieldStart
      var valueEnd: Int
      if index < bound, bytes[index] == .asciiQuote {
        let open = index
        index += 1
        var close = -1
        while index < bound {
          let byte = bytes[index]
          if byte == .asciiQuote {
            guard index + 1 < bound else { return .hitBound }
            if bytes[index + 1] == .asciiQuote {
              index += 2
              continue
            }
            close = index
            index += 1
            break
          }
          if byte == .asciiNewline { newlines += 1 }
          index += 1
        }
        guard close >= 0 else { return .hitBound }
        var junk = false
        while index < bound {
          let byte = bytes[index]
          if byte == delimiter || byte == .asciiNewline { break }
          if !(byte.isASCIIWhitespace || byte == 0) { junk = true }
          index += 1
        }
        guard index < bound else { return .hitBound }
        if junk {
          valueEnd = index
        } else {
          valueStart = open + 1
          valueEnd = close
        }
      } else {
        while index < bound {
          let byte = bytes[index]
          if byte == delimiter || byte == .asciiNewline { break }
          index += 1
        }
        guard index < bound else { return .hitBound }
        valueEnd = index
      }
      if column < limit {
        fields[2 * column] = valueStart
        fields[2 * column + 1] = valueEnd
      }
      column += 1
      if bytes[index] == .asciiNewline { return .record(end: index, fields: column, newlines: newlines) }
      index += 1
    }
  }

  /// The delimiter a first line uses: whichever of comma, semicolon and tab occurs most often
  /// outside quotes (ties: comma, then semicolon, then tab; none: comma).
  static func detectDelimiter(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
    var commas = 0
    var semicolons = 0
    var tabs = 0
    var quoted = false
    for byte in bytes {
      if byte == .asciiQuote {
        quoted.toggle()
      } else if !quoted {
        if byte == .asciiComma {
          commas += 1
        } else if byte == .asciiSemicolon {
          semicolons += 1
        } else if byte == .asciiTab {
          tabs += 1
        }
      }
    }
    if commas >= semicolons, commas >= tabs { return .asciiComma }
    return semicolons >= tabs ? .asciiSemicolon : .asciiTab
  }

  /// How many line feeds `bytes[start..<end]` holds.
  static func countNewlines(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
    var count = 0
    var index = start
    while index < end {
      if bytes[index] == .asciiNewline { count += 1 }
      index += 1
    }
    return count
  }
}
