/// Finding where a JSON string ends, checking it on the way (UTF-8, escapes, control
/// characters), and unescaping it. Separate from the tokenizer's state so the same scan runs on
/// a chunk and on the scratch copy of a string a chunk boundary cut.
enum JSONStringScan {
  enum Result {
    /// The closing quote is at `end`.
    case complete(end: Int, hasEscapes: Bool)
    /// The bytes ran out; a rescan with more bytes may start at `resumeAt` (everything before it
    /// is checked).
    case incomplete(resumeAt: Int, hasEscapes: Bool)
    case failed(at: Int, JSONSyntaxError.Problem)
  }

  /// Scans `base[from..<to]`, the bytes after an opening quote (or after a checked prefix).
  ///
  /// - Complexity: O(*n*); ASCII bytes cost one comparison chain each.
  @inline(__always)
  static func scan(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Result {
    var i = from
    var hasEscapes = false
    while i < to {
      // Eight plain bytes at a time (printable ASCII, no quote, no backslash): one word test,
      // then straight to the first byte that is not plain.
      while i &+ 8 <= to {
        let stops = stopBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian)
        if stops == 0 {
          i &+= 8
          continue
        }
        i &+= stops.trailingZeroBitCount &>> 3
        break
      }
      guard i < to else { break }
      let byte = base[i]
      if byte == .asciiQuote { return .complete(end: i, hasEscapes: hasEscapes) }
      if byte >= 0x20, byte < 0x80, byte != 0x5C {
        i += 1
        continue
      }
      if byte == 0x5C {
        hasEscapes = true
        guard i + 1 < to else { return .incomplete(resumeAt: i, hasEscapes: hasEscapes) }
        switch base[i + 1] {
        case .asciiQuote, 0x5C, .asciiSlash, 0x62, 0x66, 0x6E, 0x72, 0x74:  // " \ / b f n r t
          i += 2
        case 0x75:  // u
          guard i + 6 <= to else { return .incomplete(resumeAt: i, hasEscapes: hasEscapes) }
          for k in 2..<6 where hexValue(base[i + k]) == nil { return .failed(at: i + k, .badEscape) }
          i += 6
        default:
          return .failed(at: i + 1, .badEscape)
        }
        continue
      }
      if byte < 0x20 { return .failed(at: i, .controlCharacter) }
      // A UTF-8 sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch byte {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return .failed(at: i, .invalidUTF8)
      }
      guard i + length <= to else {
        // Fail early on what is already there, so a bad sequence is reported where it is.
        for k in 1..<(to - i) where base[i + k] < (k == 1 ? low : 0x80) || base[i + k] > (k == 1 ? high : 0xBF) {
          return .failed(at: i, .invalidUTF8)
        }
        return .incomplete(resumeAt: i, hasEscapes: hasEscapes)
      }
      let second = base[i + 1]
      guard second >= low, second <= high else { return .failed(at: i, .invalidUTF8) }
      for k in 2..<length where base[i + k] & 0xC0 != 0x80 { return .failed(at: i, .invalidUTF8) }
      i += length
    }
    return .incomplete(resumeAt: i, hasEscapes: hasEscapes)
  }

  /// The high bit of each byte of `word` (first byte lowest) that is not plain string content
  /// (a quote, a backslash, a control character, a byte of a multi-byte UTF-8 sequence), or
  /// more above the first such byte: the borrows only run upwards from a byte that is one, so
  /// the lowest bit set marks exactly the first.
  @inline(__always)
  static func stopBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let zeroQuote = (quotes &- ones) & ~quotes
    let zeroBackslash = (backslashes &- ones) & ~backslashes
    let control = word &- ones &* 0x20
    return (zeroQuote | zeroBackslash | control | word) & highs
  }

  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: UInt32(byte - 0x30)
    case 0x61...0x66: UInt32(byte - 0x61 + 10)
    case 0x41...0x46: UInt32(byte - 0x41 + 10)
    default: nil
    }
  }

  /// Writes the unescaped content of a checked string into `output` (replacing it). A `\u`
  /// escape of a lone surrogate becomes U+FFFD, as Swift strings require valid scalars.
  ///
  /// - Complexity: O(*n*).
  static func unescape(_ content: UnsafeBufferPointer<UInt8>, into output: JSONScratchBuffer) {
    output.removeAll()
    output.reserve(content.count)
    var i = 0
    let count = content.count
    func hex4(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for k in 0..<4 { value = value << 4 | (hexValue(content[at + k]) ?? 0) }
      return value
    }
    while i < count {
      let byte = content[i]
      guard byte == 0x5C, i + 1 < count else {
        output.append(byte)
        i += 1
        continue
      }
      let escaped = content[i + 1]
      i += 2
      switch escaped {
      case 0x62: output.append(0x08)
      case 0x66: output.append(0x0C)
      case 0x6E: output.append(0x0A)
      case 0x72: output.append(0x0D)
      case 0x74: output.append(0x09)
      case 0x75:
        var code = hex4(i)
        i += 4
        if (0xD800..<0xDC00).contains(code), i + 6 <= count, content[i] == 0x5C, content[i + 1] == 0x75 {
          let low = hex4(i + 2)
          if (0xDC00..<0xE000).contains(low) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            i += 6
          }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        for unit in UTF8.encode(scalar)! { output.append(unit) }
      default: output.append(escaped)  // " \ /
      }
    }
  }
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
enum JSONNumberGrammar {
  /// The index of the first byte that breaks the grammar (`count` when the number stops too
  /// early, as in `1.`), or nil when the whole text is one number.
  ///
  /// - Complexity: O(*n*).
  static func firstError(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = text.count
    var i = 0
    @inline(__always) func digit(_ at: Int) -> Bool { at < count && text[at] &- .ascii0 < 10 }
    if i < count, text[i] == .asciiMinus { i += 1 }
    guard digit(i) else { return i }
    if text[i] == .ascii0 {
      i += 1
    } else {
      while digit(i) { i += 1 }
    }
    if i < count, text[i] == .asciiDot {
      i += 1
      guard digit(i) else { return i }
      while digit(i) { i += 1 }
    }
    if i < count, text[i] | 0x20 == .asciiLowerE {
      i += 1
      if i < count, text[i] == .asciiPlus || text[i] == .asciiMinus { i += 1 }
      guard digit(i) else { return i }
      while digit(i) { i += 1 }
    }
    return i == count ? nil : i
  }
}
