import RouteMileage

/// Cell parsers for CSV rows: timestamps, dates, times of day, UTC offsets, coordinates with
/// hemisphere letters, and numbers with units. All work on trimmed byte slices and allocate
/// nothing; the common cell (a plain number, an ISO 8601 timestamp) takes the first branch.
enum CSVValues {
  typealias Bytes = UnsafeBufferPointer<UInt8>

  enum Parsed: Equatable {
    case value(Double)
    case invalid
    /// A date whose day/month order cannot be told (`01/02/2025`); needs `date_format`.
    case ambiguousDate
  }

  // MARK: Numbers

  /// A plain decimal number; with `decimalComma` (files not delimited by commas) also `37,7749`.
  ///
  /// - Complexity: O(*n*).
  @inline(__always)
  static func number(_ bytes: Bytes, decimalComma: Bool) -> Double? {
    if let value = ByteNumberParser.double(bytes) { return value }
    guard decimalComma else { return nil }
    return commaNumber(bytes)
  }

  static func commaNumber(_ bytes: Bytes) -> Double? {
    guard bytes.count <= 64 else { return nil }
    var commas = 0
    for byte in bytes {
      if byte == .asciiComma { commas += 1 }
      if byte == .asciiDot { return nil }
    }
    guard commas == 1 else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { copy in
      for index in 0..<bytes.count { copy[index] = bytes[index] == .asciiComma ? .asciiDot : bytes[index] }
      return ByteNumberParser.double(UnsafeBufferPointer(copy))
    }
  }

  /// A number optionally followed by a unit of its kind (`374.812 m`, `0.865 km/h`), in the
  /// kind's base unit (metres, metres per second, degrees); nil for an unknown unit.
  /// A bare number is multiplied by `scale` (the column's unit, from its header name); a unit
  /// in the cell replaces the column's.
  @inline(__always)
  static func measure(_ bytes: Bytes, _ kind: UnitKind, scale: Double, decimalComma: Bool) -> Double? {
    if let value = ByteNumberParser.double(bytes) { return value * scale }
    return measureSlowly(bytes, kind, scale: scale, decimalComma: decimalComma)
  }

  enum UnitKind {
    case distance, speed, angle

    var units: CSVUnits.Table {
      switch self {
      case .distance: CSVUnits.distance
      case .speed: CSVUnits.speed
      case .angle: CSVUnits.angle
      }
    }
  }

  static func measureSlowly(_ bytes: Bytes, _ kind: UnitKind, scale: Double, decimalComma: Bool) -> Double? {
    if let value = number(bytes, decimalComma: decimalComma) { return value * scale }
    var split = 0
    while split < bytes.count {
      let byte = bytes[split]
      let numeric =
        byte.isASCIIDigit || byte == .asciiDot || byte == .asciiPlus || byte == .asciiMinus
        || (decimalComma && byte == .asciiComma)
      let exponent =
        (byte == .asciiLowerE || byte == .asciiUpperE) && split > 0 && split + 1 < bytes.count
        && (bytes[split + 1].isASCIIDigit || bytes[split + 1] == .asciiMinus || bytes[split + 1] == .asciiPlus)
      guard numeric || exponent else { break }
      split += 1
    }
    guard split > 0, split < bytes.count else { return nil }
    let unit = Bytes(rebasing: bytes[split...]).trimmingASCIIWhitespace()
    guard let value = number(Bytes(rebasing: bytes[..<split]), decimalComma: decimalComma) else { return nil }
    for (name, scale) in kind.units where unit.equalsASCIICaseInsensitive(name) { return value * scale }
    return nil
  }

  // MARK: Coordinates

  /// Decimal degrees, optionally with a hemisphere letter before or after the number
  /// (`31.769598N`, `W 0.1275`): `negative` (S or W) makes it negative. A letter with a signed
  /// number is refused as contradictory.
  @inline(__always)
  static func coordinate(_ bytes: Bytes, positive: UInt8, negative: UInt8, decimalComma: Bool) -> Double? {
    if let value = ByteNumberParser.double(bytes) { return value }
    return lettered(bytes, positive: positive, negative: negative, decimalComma: decimalComma)
  }

  static func lettered(_ bytes: Bytes, positive: UInt8, negative: UInt8, decimalComma: Bool) -> Double? {
    guard bytes.count >= 2 else { return number(bytes, decimalComma: decimalComma) }
    let positiveLower = positive.asciiLowercased
    let negativeLower = negative.asciiLowercased
    let first = bytes[0].asciiLowercased
    let last = bytes[bytes.count - 1].asciiLowercased
    let rest: Bytes
    let sign: Double
    if last == positiveLower || last == negativeLower {
      rest = Bytes(rebasing: bytes[..<(bytes.count - 1)]).trimmingASCIIWhitespace()
      sign = last == negativeLower ? -1 : 1
    } else if first == positiveLower || first == negativeLower {
      rest = Bytes(rebasing: bytes[1...]).trimmingASCIIWhitespace()
      sign = first == negativeLower ? -1 : 1
    } else {
      return number(bytes, decimalComma: decimalComma)
    }
    guard let head = rest.first, head != .asciiMinus, head != .asciiPlus,
      let value = number(rest, decimalComma: decimalComma)
    else { return nil }
    return sign * value
  }

  /// +1 or -1 for a hemisphere cell (`N`, `S`, `North`, `south`, …); nil otherwise.
  static func hemisphereSign(_ bytes: Bytes, positive: StaticString, negative: StaticString) -> Double? {
    guard let first = bytes.first else { return nil }
    let letter = first.asciiLowercased
    let positiveLetter = positive.utf8Start[0].asciiLowercased
    let negativeLetter = negative.utf8Start[0].asciiLowercased
    guard bytes.count == 1 || bytes.equalsASCIICaseInsensitive(positive) || bytes.equalsASCIICaseInsensitive(negative)
    else { return nil }
    if letter == positiveLetter { return 1 }
    if letter == negativeLetter { return -1 }
    return nil
  }

  // MARK: Fix status

  /// Words a status column uses for "no fix". Everything else (A, SPS, DGPS, 2D, 3D, Unknown,
  /// an empty cell) is a fix.
  static let noFixWords: [StaticString] = [
    "no", "false", "invalid", "none", "no fix", "nofix", "no_fix", "no-fix", "nosoln", "no soln",
    "no solution", "not fixed", "void",
  ]

  @inline(__always)
  static func isNoFix(_ bytes: Bytes) -> Bool {
    if bytes.count == 1 { return bytes[0].asciiLowercased == 0x76 || bytes[0] == .ascii0 }
    guard bytes.count >= 2,
      bytes[0].asciiLowercased == 0x6E || bytes[0].asciiLowercased == 0x66
        || bytes[0].asciiLowercased == 0x69 || bytes[0].asciiLowercased == 0x76
    else { return false }
    for word in noFixWords where bytes.equalsASCIICaseInsensitive(word) { return true }
    return false
  }

  // MARK: Time

  /// A whole timestamp cell, in seconds since 1970 (UTC).
  ///
  /// `auto`: ISO 8601 first (the common case), then a plain number as epoch time by magnitude —
  /// below 1e11 seconds, from 1e11 milliseconds, from 1e14 microseconds, from 1e17
  /// nanoseconds (1e11 s is the year 5138 while 1e11 ms is 1973, so the ranges cannot be
  /// confused for any real recording) — then a date and a time of day separated by a space or
  /// `T` (`2005/05/01 10:12:47`).
  @inline(__always)
  static func timestamp(
    _ bytes: Bytes, format: CSVColumnMapping.TimestampFormat, dateOrder: CSVColumnMapping.DateOrder?
  ) -> Parsed {
    switch format {
    case .auto:
      if bytes.count >= 10, bytes[4] == .asciiMinus, let value = ISO8601Parser.timestamp(bytes) { return .value(value) }
      if let value = ByteNumberParser.double(bytes) { return supported(epoch(value)) }
      return dateTime(bytes, dateOrder: dateOrder)
    case .iso8601:
      return dateTime(bytes, dateOrder: dateOrder)
    case .epochSeconds:
      return ByteNumberParser.double(bytes).map { supported($0) } ?? .invalid
    case .epochMilliseconds:
      return ByteNumberParser.double(bytes).map { supported($0 / 1000) } ?? .invalid
    }
  }

  /// An epoch number is a time only within years 0000–9999 (`CivilTime.supportedTimestamps`).
  @inline(__always)
  static func supported(_ seconds: Double) -> Parsed {
    CivilTime.supportedTimestamps.contains(seconds) ? .value(seconds) : .invalid
  }

  /// Epoch seconds from a number whose unit is told by its magnitude (see `timestamp`).
  @inline(__always)
  static func epoch(_ value: Double) -> Double {
    let magnitude = abs(value)
    if magnitude < 1e11 { return value }
    if magnitude < 1e14 { return value / 1e3 }
    if magnitude < 1e17 { return value / 1e6 }
    return value / 1e9
  }

  /// ISO 8601, or a date and a time of day separated by a space or `T`.
  static func dateTime(_ bytes: Bytes, dateOrder: CSVColumnMapping.DateOrder?) -> Parsed {
    if let value = ISO8601Parser.timestamp(bytes) { return .value(value) }
    var split = 0
    while split < bytes.count, bytes[split] != .asciiSpace, bytes[split] != .asciiUpperT, bytes[split] != .asciiLowerT {
      split += 1
    }
    guard split < bytes.count else { return .invalid }
    let datePart = Bytes(rebasing: bytes[..<split])
    let timePart = Bytes(rebasing: bytes[(split + 1)...]).trimmingASCIIWhitespace()
    let days: Int
    switch date(datePart, order: dateOrder) {
    case .days(let value): days = value
    case .invalid: return .invalid
    case .ambiguous: return .ambiguousDate
    }
    guard let time = timeOfDay(timePart) else { return .invalid }
    return .value(Double(days) * 86_400 + time.seconds - (time.offset ?? 0))
  }

  enum DateResult: Equatable {
    case days(Int)
    case invalid
    case ambiguous
  }

  /// A calendar date as days since 1970-01-01.
  ///
  /// Year first (`2005-05-01`, `2005/05/01`, `2005.05.01`, `20050501`) is always read as such.
  /// Without `order`: `29.11.2025` (dots, year last) is day-first and six digits are `YYMMDD`
  /// (Columbus V-900); other year-last or two-digit forms (`11/29/2025`, `29-11-25`) are
  /// ambiguous. Two-digit years 00–79 are 2000–2079, 80–99 are 1980–1999.
  static func date(_ bytes: Bytes, order: CSVColumnMapping.DateOrder?) -> DateResult {
    var groups: (Int, Int, Int) = (0, 0, 0)
    var lengths: (Int, Int, Int) = (0, 0, 0)
    var separator: UInt8 = 0
    var index = 0
    var group = 0
    while true {
      let (value, length) = leadingDigits(bytes, from: &index, atMost: 8)
      guard length > 0 else { return .invalid }
      switch group {
      case 0: (groups.0, lengths.0) = (value, length)
      case 1: (groups.1, lengths.1) = (value, length)
      default: (groups.2, lengths.2) = (value, length)
      }
      group += 1
      if index == bytes.count { break }
      let byte = bytes[index]
      guard group < 3, byte == .asciiMinus || byte == .asciiSlash || byte == .asciiDot else { return .invalid }
      if separator == 0 { separator = byte } else if separator != byte { return .invalid }
      index += 1
    }
    var year: Int
    var month: Int
    var day: Int
    var twoDigitYear = false
    if group == 1 {
      let value = groups.0
      switch (lengths.0, order ?? .ymd) {
      case (8, .ymd): (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
      case (8, .dmy): (day, month, year) = (value / 1_000_000, value / 10_000 % 100, value % 10_000)
      case (8, .mdy): (month, day, year) = (value / 1_000_000, value / 10_000 % 100, value % 10_000)
      case (6, .ymd): (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
      case (6, .dmy): (day, month, year) = (value / 10_000, value / 100 % 100, value % 100)
      case (6, .mdy): (month, day, year) = (value / 10_000, value / 100 % 100, value % 100)
      default: return .invalid
      }
      twoDigitYear = lengths.0 == 6
    } else if group == 3 {
      guard lengths.1 <= 2 else { return .invalid }
      if lengths.0 == 4 {
        guard lengths.2 <= 2 else { return .invalid }
        (year, month, day) = (groups.0, groups.1, groups.2)
      } else {
        guard lengths.0 <= 2, lengths.2 == 4 || lengths.2 == 2 else { return .invalid }
        let resolved: CSVColumnMapping.DateOrder
        if let order {
          resolved = order
        } else if separator == .asciiDot, lengths.2 == 4 {
          resolved = .dmy
        } else {
          return .ambiguous
        }
        switch resolved {
        case .ymd: (year, month, day) = (groups.0, groups.1, groups.2)
        case .dmy: (day, month, year) = (groups.0, groups.1, groups.2)
        case .mdy: (month, day, year) = (groups.0, groups.1, groups.2)
        }
        twoDigitYear = resolved == .ymd ? lengths.0 <= 2 : lengths.2 == 2
      }
    } else {
      return .invalid
    }
    if twoDigitYear { year += year < 80 ? 2000 : 1900 }
    guard CivilTime.isValidDate(year: year, month: month, day: day) else { return .invalid }
    return .days(CivilTime.daysSinceEpoch(year: year, month: month, day: day))
  }

  /// A time of day: `H:MM`, `HH:MM:SS`, `HH:MM:SS.fff`, `HHMMSS(.fff)` or `HHMM`, optionally
  /// followed by a zone (`Z`, `+02:00`, `-0600`); seconds since midnight and the zone's offset
  /// in seconds east of UTC.
  static func timeOfDay(_ bytes: Bytes) -> (seconds: Double, offset: Double?)? {
    let n = bytes.count
    var run = 0
    while run < n, bytes[run].isASCIIDigit { run += 1 }
    var index = 0
    var seconds: Double
    if run < n, bytes[run] == .asciiColon, run == 1 || run == 2 {
      guard let clock = ClockText.timeOfDay(bytes, &index, singleDigitHour: true) else { return nil }
      seconds = Double(clock)
    } else if run == 6 || run == 4 {
      // `HHMMSS` or `HHMM`: the digits are there (`run`).
      let hour = Int(bytes[0] &- .ascii0) * 10 + Int(bytes[1] &- .ascii0)
      let minute = Int(bytes[2] &- .ascii0) * 10 + Int(bytes[3] &- .ascii0)
      let second = run == 6 ? Int(bytes[4] &- .ascii0) * 10 + Int(bytes[5] &- .ascii0) : 0
      guard hour < 24 || (hour == 24 && minute == 0 && second == 0), minute < 60, second <= 60 else { return nil }
      seconds = Double(hour * 3600 + minute * 60 + second)
      index = run
    } else {
      return nil
    }
    if index < n, bytes[index] == .asciiDot || bytes[index] == .asciiComma {
      index += 1
      guard let fraction = ISO8601Parser.fractionOfSecond(bytes, &index) else { return nil }
      seconds += fraction
    }
    let zone = Bytes(rebasing: bytes[index...]).trimmingASCIIWhitespace()
    if zone.isEmpty { return (seconds, nil) }
    guard let offset = utcOffset(zone) else { return nil }
    return (seconds, offset)
  }

  /// The number the decimal digits from `index` write, reading at most `limit` of them; `index`
  /// ends after the last one read, and `length` is how many were (0: none). O(`limit`).
  @inline(__always)
  static func leadingDigits(_ bytes: Bytes, from index: inout Int, atMost limit: Int) -> (value: Int, length: Int) {
    var value = 0
    var length = 0
    while index < bytes.count, bytes[index].isASCIIDigit, length < limit {
      value = value * 10 + Int(bytes[index] &- .ascii0)
      length += 1
      index += 1
    }
    return (value, length)
  }

  /// A UTC offset in seconds east of UTC: `Z`, `UTC`, `GMT`, `0`, `+02:00`, `-0600`, `+5`,
  /// optionally after `UTC`/`GMT` (`UTC+01:00`). Up to ±23:59.
  static func utcOffset(_ bytes: Bytes) -> Double? {
    var view = bytes
    if view.equalsASCIICaseInsensitive("Z") || view.equalsASCIICaseInsensitive("UTC")
      || view.equalsASCIICaseInsensitive("GMT") || view.equalsASCIICaseInsensitive("0")
    {
      return 0
    }
    if view.count > 3 {
      let prefix = Bytes(rebasing: view[..<3])
      if prefix.equalsASCIICaseInsensitive("UTC") || prefix.equalsASCIICaseInsensitive("GMT") {
        view = Bytes(rebasing: view[3...])
      }
    }
    // Hours up to 23 (a clock offset, not only a zone in use), one digit allowed.
    return ClockText.utcOffset(view, from: 0, singleDigitHour: true, maximumMinutes: 23 * 60 + 59).map(Double.init)
  }

  // MARK: Row classification (failure paths only)

  /// Whether a failing cell looks like binary data rather than a mistyped value: it holds a
  /// C0 control byte other than tab, CR and LF, or DEL.
  static func looksBinary(_ bytes: Bytes) -> Bool {
    for byte in bytes
    where (byte < 0x20 && byte != .asciiTab && byte != .asciiReturn && byte != .asciiNewline) || byte == 0x7F {
      return true
    }
    return false
  }

  /// Whether a record holds a carriage return other than the one of its CRLF line end.
  ///
  /// - Complexity: O(*n*) in the record length.
  static func hasLoneCarriageReturn(_ record: Bytes) -> Bool {
    guard record.count > 1 else { return false }
    for index in 0..<(record.count - 1) where record[index] == .asciiReturn { return true }
    return false
  }

  /// Whether a record holds no value at all: only whitespace, NUL, quotes and delimiters.
  static func isBlank(_ bytes: Bytes, delimiter: UInt8) -> Bool {
    for byte in bytes
    where !(byte.isASCIIWhitespace || byte == 0 || byte == .asciiQuote || byte == delimiter) {
      return false
    }
    return true
  }

  /// Whether a line is UTF-16 text: zeros in (nearly) every odd byte and (almost) no even one,
  /// or the other way round.
  static func looksUTF16(_ bytes: Bytes) -> Bool {
    guard bytes.count >= 8 else { return false }
    var zeroEven = 0
    var zeroOdd = 0
    for (index, byte) in bytes.enumerated() where byte == 0 {
      if index % 2 == 0 { zeroEven += 1 } else { zeroOdd += 1 }
    }
    let half = bytes.count / 2
    return (zeroOdd * 10 >= half * 9 && zeroEven * 10 <= half) || (zeroEven * 10 >= half * 9 && zeroOdd * 10 <= half)
  }

  /// `$V02`: the line a 70mai dash cam writes at the start of each recording.
  static func isDashcamMarker(_ bytes: Bytes) -> Bool {
    guard bytes.count >= 3, bytes[0] == .asciiDollar, bytes[1] == 0x56 else { return false }
    for byte in bytes[2...] where !byte.isASCIIDigit { return false }
    return true
  }
}
