import RouteMileage

/// ISO 8601 / RFC 3339 timestamps straight from bytes.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, with `T`, `t` or a space between date and time, an optional
/// fraction of any length (`.5`, `,250`), and an optional zone: `Z`, `z`, `±HH:MM`, `±HHMM` or
/// `±HH`, at most ±14:00 (`maximumOffsetHours`). Minutes without seconds (`THH:MM`) are accepted. A timestamp with no
/// zone is read as
/// UTC — recorded feeds almost always are, and the rule is documented rather than guessed per
/// file. Leap second 60 is accepted as written (it reads as the next second). Years 0000–9999.
///
/// Returns seconds since 1970-01-01T00:00:00Z, or nil for anything else. Foundation's formatter
/// costs about fifteen times a whole naive parse of a position, which is why this exists.
extension FeedReason {
  /// Times written without a zone that step back by 10 minutes to 2 hours, as a clock does when
  /// daylight saving ends; read as UTC, the repeated hour becomes a jump. `--time-zone` reads
  /// them as local time instead. Reported under `notes`.
  public static let zoneLessStepBack = FeedReason("zoneLessStepBack")
}

public enum ISO8601Parser {
  /// The largest UTC offset any zone has used, in hours (Kiribati's +14:00; the most westerly is
  /// -12:00). An offset beyond it is a damaged or invented time, so the timestamp is unreadable.
  public static let maximumOffsetHours = 14

  /// - Complexity: O(*n*) in the slice length.
  @inlinable
  public static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = bytes.count
    guard n >= 10, n <= 64 else { return nil }
    @inline(__always) func digits(_ at: Int, _ count: Int) -> Int? {
      guard at + count <= n else { return nil }
      var value = 0
      for index in at..<(at + count) {
        let byte = bytes[index]
        guard byte.isASCIIDigit else { return nil }
        value = value * 10 + Int(byte &- .ascii0)
      }
      return value
    }
    guard let year = digits(0, 4), bytes[4] == .asciiMinus, let month = digits(5, 2),
      bytes[7] == .asciiMinus, let day = digits(8, 2),
      CivilTime.isValidDate(year: year, month: month, day: day)
    else { return nil }
    var seconds = Double(CivilTime.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
    var index = 10
    if index == n { return seconds }
    let separator = bytes[index]
    guard separator == .asciiUpperT || separator == .asciiLowerT || separator == .asciiSpace else { return nil }
    index += 1
    guard let clock = ClockText.timeOfDay(bytes, &index, singleDigitHour: false) else { return nil }
    seconds += Double(clock)
    if index < n, bytes[index] == .asciiDot || bytes[index] == .asciiComma {
      index += 1
      guard let fraction = fractionOfSecond(bytes, &index) else { return nil }
      seconds += fraction
    }
    if index == n { return seconds }
    switch bytes[index] {
    case .asciiUpperZ, .asciiLowerZ:
      return index + 1 == n ? seconds : nil
    case .asciiPlus, .asciiMinus:
      guard
        let offset = ClockText.utcOffset(
          bytes, from: index, singleDigitHour: false, maximumMinutes: maximumOffsetHours * 60)
      else { return nil }
      return seconds - Double(offset)
    default:
      return nil
    }
  }

  /// The digits after a decimal mark, from `index`, as a fraction of a second (the first 15
  /// digits count; more cannot change a double's seconds); nil when there is no digit. Moves
  /// `index` past the digits. Every ISO 8601 path (this parser, the day cache, CSV times) reads
  /// fractions here, so they agree bit for bit (the day cache's shortcut for exactly three
  /// digits computes the same integer and the same division).
  @inlinable
  static func fractionOfSecond(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
    var fraction = 0
    var fractionDigits = 0
    let start = index
    while index < bytes.count, bytes[index].isASCIIDigit {
      if fractionDigits < 15 {
        fraction = fraction * 10 + Int(bytes[index] &- .ascii0)
        fractionDigits += 1
      }
      index += 1
    }
    guard index > start else { return nil }
    return Double(fraction) / ByteNumberParser.exactPowerOfTen(fractionDigits)
  }

  /// Whether a timestamp `timestamp(_:)` reads names its zone (`Z` or an offset after the time
  /// of day); without one it is read as UTC, or as local time under `--time-zone`. O(*n*).
  @inlinable
  public static func hasZone(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let last = bytes.last else { return false }
    if last == .asciiUpperZ || last == .asciiLowerZ { return true }
    var index = bytes.count - 1
    while index > 10 {
      if bytes[index] == .asciiPlus || bytes[index] == .asciiMinus { return true }
      index -= 1
    }
    return false
  }

  public static func hasZone(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { hasZone($0) }
  }

  /// Parses a whole string; see `timestamp(_:)` for bytes.
  public static func timestamp(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { timestamp($0) }
  }
}

/// ISO 8601 timestamps of the shapes recorders write record after record
/// (`2025-11-29T08:00:01Z`, `2025-11-29 08:00:01.250Z`, and phone exports' local time with an
/// offset, `2025-11-29T09:00:01.250+01:00`), with the day remembered between records, so the
/// calendar arithmetic runs once a day rather than once a fix. Anything else, and every first
/// sight of a new day, goes to `ISO8601Parser`. The CSV, GPX, TCX, KML, GeoJSON and Takeout
/// readers each keep one.
package struct ISO8601DayCache {
  var dayPrefix: UInt64 = 0
  var daySuffix: UInt16 = 0
  var daySeconds = Double.nan
  /// Days `cachedDayZulu` read before (`switchDay`), one slot for each day of the month (the same
  /// day of two months shares one); a prefix of zeros never matches a date.
  var recentDays = [(prefix: UInt64, suffix: UInt16, seconds: Double)](repeating: (0, 0, .nan), count: 32)
  /// Zone-less times are read as local time here (`--time-zone`); nil: read as UTC.
  var localTime: LocalTimeReading?
  /// Without a zone to read them in: the last zone-less time, and how many times a zone-less
  /// time stepped back from the one before it by `zoneChangeStepBack` — what a clock does when
  /// daylight saving ends, and what reading such times as UTC turns into a jump.
  var lastZoneLess = -Double.infinity
  var zoneLessStepBacks = 0

  /// A step back, in seconds, that looks like a clock turned back at a zone change rather than
  /// a fix out of order: from 10 minutes (a 30-minute change, fixes up to 20 minutes apart) to
  /// 2 hours (the largest change in use).
  static let zoneChangeStepBack: ClosedRange<Double> = 600...7_200

  package init(zone: ZoneRules? = nil) {
    localTime = zone.map { LocalTimeReading(zone: $0) }
  }

  /// Seconds since 1970 of any timestamp `ISO8601Parser` reads; a time written without a zone
  /// goes through `zoneLess`. The common zoned shapes take the day-cached path.
  ///
  /// - Complexity: O(*n*); O(log *z*) more for a zone-less time under `--time-zone`.
  @inline(__always)
  package mutating func instant(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let seconds = timestamp(bytes) { return seconds }
    guard let seconds = ISO8601Parser.timestamp(bytes) else { return nil }
    return ISO8601Parser.hasZone(bytes) ? seconds : zoneLess(seconds)
  }

  /// A time that was written without a zone (`seconds` as if it were UTC): local time in the
  /// `--time-zone` zone when one was given; else UTC, watching for steps back.
  mutating func zoneLess(_ seconds: Double) -> Double {
    if localTime != nil { return localTime!.instant(local: seconds) }
    if Self.zoneChangeStepBack.contains(lastZoneLess - seconds) { zoneLessStepBacks += 1 }
    lastZoneLess = seconds
    return seconds
  }

  /// Notes each step back `zoneLess` saw (`zoneLessStepBack`), at the end of the feed. O(*k*).
  mutating func noteStepBacks(line: Int, into sink: inout some FeedSink) {
    for _ in 0..<zoneLessStepBacks { sink.noted(.zoneLessStepBack, line: line) }
    zoneLessStepBacks = 0
  }

  /// Seconds since 1970, identical to `ISO8601Parser.timestamp` (the same additions in the same
  /// order); nil when the text is not of the common shape (the caller then parses it fully).
  ///
  /// - Complexity: O(*n*).
  @inline(__always)
  mutating func timestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = bytes.count
    guard n >= 20, n <= 64 else { return nil }
    if bytes[n - 1] == .asciiUpperZ { return local(bytes, end: n - 1) }
    // `±HH:MM`: `ISO8601Parser` subtracts the offset last, as here.
    guard n >= 25, bytes[n - 3] == .asciiColon, bytes[n - 6] == .asciiPlus || bytes[n - 6] == .asciiMinus,
      let hours = bytes.twoDigits(at: n - 5), let minutes = bytes.twoDigits(at: n - 2), minutes <= 59,
      hours * 60 + minutes <= ISO8601Parser.maximumOffsetHours * 60,
      let seconds = local(bytes, end: n - 6)
    else { return nil }
    let sign: Double = bytes[n - 6] == .asciiPlus ? 1 : -1
    return seconds - sign * Double(hours * 3600 + minutes * 60)
  }

  /// The two shapes recorders write most, `YYYY-MM-DDTHH:MM:SSZ` and `YYYY-MM-DDTHH:MM:SS.fffZ`
  /// (`T` or a space), read in place from `bytes[start...]` without first finding where the text
  /// ends: the seconds `timestamp` gives for the text up to its `Z`, bit for bit (the same day,
  /// read and cached as `local` reads it when it is not the cached one, the same sum, the same
  /// millisecond division), and the index just past the `Z`. Nil for anything else, which
  /// `timestamp` then reads. `bytes[start..<start + 24]` must be readable.
  ///
  /// The time of day is checked and converted in one eight-byte load: the colons masked and
  /// compared, the six digits checked at once, the three two-digit fields joined in one
  /// multiply-add.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func cachedDayZulu(_ bytes: UnsafePointer<UInt8>, at start: Int) -> (seconds: Double, end: Int)? {
    #if _endian(little)
      let raw = UnsafeRawPointer(bytes + start)
      let prefix = raw.loadUnaligned(as: UInt64.self)
      let suffix = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
      if prefix != dayPrefix || suffix != daySuffix || daySeconds.isNaN {
        guard switchDay(bytes + start, prefix: prefix, suffix: suffix) else { return nil }
      }
      let separator = bytes[start + 10]
      guard separator == .asciiUpperT || separator == .asciiSpace else { return nil }
      // `HH:MM:SS`, the first byte lowest.
      let clock = raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self)
      let colons: UInt64 = 0x0000_FF00_00FF_0000
      guard clock & colons == 0x0000_3A00_003A_0000 else { return nil }
      let digits = (clock & ~colons) | 0x0000_3000_0030_0000
      guard
        ((digits &- 0x3030_3030_3030_3030) | (digits &+ 0x4646_4646_4646_4646) | digits) & 0x8080_8080_8080_8080
          == 0
      else { return nil }
      // Each two-digit field as one byte: hours in byte 0, minutes in byte 3, seconds in byte 6.
      let values = digits &- 0x3030_3030_3030_3030
      let pairs = values &* 10 &+ (values >> 8)
      let hour = Int(pairs & 0xFF)
      let minute = Int((pairs >> 24) & 0xFF)
      let second = Int((pairs >> 48) & 0xFF)
      guard hour < 24, minute <= 59, second <= 60 else { return nil }
      var seconds = daySeconds
      seconds += Double(hour * 3600 + minute * 60 + second)
      let mark = bytes[start + 19]
      if mark == .asciiUpperZ { return (seconds, start + 20) }
      guard mark == .asciiDot, bytes[start + 23] == .asciiUpperZ else { return nil }
      // `.fff`: the point read as '0', then the three digits checked at once.
      let fraction = (raw.loadUnaligned(fromByteOffset: 19, as: UInt32.self) & 0xFFFF_FF00) | 0x30
      let offsets = fraction &- 0x3030_3030
      guard (fraction & 0x8080_8080) == 0, ((offsets | (offsets &+ 0x7676_7676)) & 0x8080_8080) == 0 else {
        return nil
      }
      let milliseconds = Int((offsets >> 8) & 0xFF) * 100 + Int((offsets >> 16) & 0xFF) * 10 + Int(offsets >> 24)
      return (seconds + Double(milliseconds) / ByteNumberParser.exactPowerOfTen(3), start + 24)
    #else
      return nil
    #endif
  }

  /// Makes the date in `date[..<10]` (`prefix` and `suffix` its bytes) the cached day: from the
  /// days seen before, kept by day of the month, or read as `local` reads it. False when it is
  /// not a date. Rows that change day often (a file out of time order, read again to be sorted)
  /// then stay on `cachedDayZulu`'s path, and a month of days is read once each.
  ///
  /// - Complexity: O(1).
  @inline(never)
  mutating func switchDay(_ date: UnsafePointer<UInt8>, prefix: UInt64, suffix: UInt16) -> Bool {
    let slot = (Int(suffix & 0xF) &* 10 &+ Int(suffix >> 8 & 0xF)) & 31
    if recentDays[slot].prefix == prefix, recentDays[slot].suffix == suffix {
      daySeconds = recentDays[slot].seconds
    } else {
      guard date[4] == .asciiMinus, date[7] == .asciiMinus,
        let day = ISO8601Parser.timestamp(UnsafeBufferPointer(start: date, count: 10))
      else { return false }
      recentDays[slot] = (prefix, suffix, day)
      daySeconds = day
    }
    dayPrefix = prefix
    daySuffix = suffix
    return true
  }

  /// The date and time of day in `bytes[..<end]` (`YYYY-MM-DDTHH:MM:SS[.fff]`), before any zone.
  @inline(__always)
  mutating func local(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Double? {
    guard bytes[4] == .asciiMinus, bytes[7] == .asciiMinus,
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
    guard let hour = bytes.twoDigits(at: 11), hour < 24, let minute = bytes.twoDigits(at: 14), minute <= 59,
      let second = bytes.twoDigits(at: 17), second <= 60
    else { return nil }
    var seconds = daySeconds
    seconds += Double(hour * 3600 + minute * 60 + second)
    if end == 19 { return seconds }
    guard bytes[19] == .asciiDot || bytes[19] == .asciiComma else { return nil }
    // Milliseconds, the fraction phones write: the same integer and division as
    // `fractionOfSecond` makes of three digits.
    if end == 23 {
      let first = bytes[20] &- .ascii0
      let second = bytes[21] &- .ascii0
      let third = bytes[22] &- .ascii0
      guard first < 10, second < 10, third < 10 else { return nil }
      let milliseconds = Int(first) * 100 + Int(second) * 10 + Int(third)
      return seconds + Double(milliseconds) / ByteNumberParser.exactPowerOfTen(3)
    }
    var index = 20
    guard let fraction = ISO8601Parser.fractionOfSecond(bytes, &index), index == end else { return nil }
    return seconds + fraction
  }
}
