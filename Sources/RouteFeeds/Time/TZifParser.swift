import RouteMileage

/// Reads a compiled IANA time zone file (TZif, RFC 8536, versions 1 to 4) into `ZoneRules`:
/// the transitions and their offsets, and the footer's POSIX TZ rule for the years after them.
///
/// Version 2 and later files hold the data twice, with 32-bit and then 64-bit times: the first
/// block is skipped and the second read. Leap-second records are skipped (the readers count
/// POSIX seconds).
///
/// - Complexity: O(*n*) in the file's length.
public enum TZifParser {
  /// Why a file is not a zone this parser can read.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
  }

  public static func parse(_ bytes: [UInt8], name: String) throws(Failure) -> ZoneRules {
    guard bytes.count >= 44, bytes[0] == 0x54, bytes[1] == 0x5A, bytes[2] == 0x69, bytes[3] == 0x66 else {
      throw Failure(detail: "it is not a compiled time zone file (no TZif signature)")
    }
    let version = bytes[4]
    let first = try header(bytes, at: 0)
    guard version >= 0x32 else { return try block(bytes, first, timeSize: 4, name: name, footer: nil) }
    let secondStart = 44 + first.dataLength(timeSize: 4)
    let second = try header(bytes, at: secondStart)
    let dataEnd = secondStart + 44 + second.dataLength(timeSize: 8)
    var footer: RecurringZoneRule?
    if dataEnd < bytes.count, bytes[dataEnd] == .asciiNewline {
      let rest = bytes[(dataEnd + 1)...]
      let text = rest.prefix { $0 != .asciiNewline }
      if !text.isEmpty { footer = POSIXZoneRule.parse(Array(text)) }
    }
    return try block(bytes, second, timeSize: 8, name: name, footer: footer)
  }

  struct Header {
    var start: Int
    var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int

    func dataLength(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + isStandardCount
        + isUTCCount
    }
  }

  static func header(_ bytes: [UInt8], at start: Int) throws(Failure) -> Header {
    guard start + 44 <= bytes.count, bytes[start] == 0x54, bytes[start + 1] == 0x5A else {
      throw Failure(detail: "the file ends inside a TZif header")
    }
    func count(_ index: Int) -> Int { Int(bigEndian(bytes, start + 20 + 4 * index, size: 4)) }
    let header = Header(
      start: start, isUTCCount: count(0), isStandardCount: count(1), leapCount: count(2), timeCount: count(3),
      typeCount: count(4), characterCount: count(5))
    guard header.typeCount > 0, header.typeCount <= 256, header.timeCount <= 1 << 20, header.characterCount <= 1 << 16,
      header.leapCount <= 1 << 16, header.isUTCCount <= 256, header.isStandardCount <= 256
    else { throw Failure(detail: "its TZif header gives counts no zone has") }
    return header
  }

  static func block(_ bytes: [UInt8], _ header: Header, timeSize: Int, name: String, footer: RecurringZoneRule?)
    throws(Failure)
    -> ZoneRules
  {
    let data = header.start + 44
    guard data + header.dataLength(timeSize: timeSize) <= bytes.count else {
      throw Failure(detail: "the file ends inside its transition data")
    }
    let types = data + header.timeCount * timeSize
    let infos = types + header.timeCount
    func offset(ofType index: Int) -> Int32 { Int32(truncatingIfNeeded: bigEndian(bytes, infos + 6 * index, size: 4)) }
    var transitions: [Int64] = []
    var offsets: [Int32] = []
    transitions.reserveCapacity(header.timeCount)
    offsets.reserveCapacity(header.timeCount)
    for index in 0..<header.timeCount {
      let type = Int(bytes[types + index])
      guard type < header.typeCount else {
        throw Failure(detail: "a transition names a local time type the file does not have")
      }
      let raw = bigEndian(bytes, data + index * timeSize, size: timeSize)
      let time = timeSize == 4 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(bitPattern: raw)
      if let last = transitions.last, time <= last { throw Failure(detail: "its transitions are not in time order") }
      transitions.append(time)
      offsets.append(offset(ofType: type))
    }
    return ZoneRules(
      name: name, transitions: transitions, offsets: offsets, initialOffset: offset(ofType: 0), recurring: footer)
  }

  static func bigEndian(_ bytes: [UInt8], _ start: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }
}

/// A POSIX TZ string (`GMT0BST,M3.5.0/1,M10.5.0`, `<+0330>-3:30`, `EST5EDT,M3.2.0,M11.1.0`) as a
/// `RecurringZoneRule`. POSIX offsets count west of UTC; the rule counts east. Nil for a string
/// it cannot read (the zone then keeps its last offset after its last transition).
enum POSIXZoneRule {
  static func parse(_ text: [UInt8]) -> RecurringZoneRule? {
    var index = 0
    guard skipName(text, &index), let standardWest = duration(text, &index, signed: true) else { return nil }
    let standard = -standardWest
    guard index < text.count else {
      return RecurringZoneRule(
        standardOffset: standard, daylightOffset: nil, start: .zeroBased(0), startTime: 0, end: .zeroBased(0),
        endTime: 0)
    }
    guard skipName(text, &index) else { return nil }
    var daylight = standard + 3600
    if index < text.count, text[index] != .asciiComma {
      guard let west = duration(text, &index, signed: true) else { return nil }
      daylight = -west
    }
    guard index < text.count, text[index] == .asciiComma else { return nil }
    index += 1
    guard let (start, startTime) = dateAndTime(text, &index), index < text.count, text[index] == .asciiComma else {
      return nil
    }
    index += 1
    guard let (end, endTime) = dateAndTime(text, &index), index == text.count else { return nil }
    return RecurringZoneRule(
      standardOffset: standard, daylightOffset: daylight, start: start, startTime: startTime, end: end, endTime: endTime
    )
  }

  /// A zone abbreviation: letters, or anything between `<` and `>`.
  static func skipName(_ text: [UInt8], _ index: inout Int) -> Bool {
    guard index < text.count else { return false }
    if text[index] == .asciiLess {
      guard let close = text[index...].firstIndex(of: .asciiGreater) else { return false }
      index = close + 1
      return true
    }
    let start = index
    while index < text.count, text[index].asciiLowercased &- 0x61 < 26 { index += 1 }
    return index - start >= 3
  }

  /// `[+-]hh[:mm[:ss]]` in seconds.
  static func duration(_ text: [UInt8], _ index: inout Int, signed: Bool) -> Int? {
    var sign = 1
    if signed, index < text.count, text[index] == .asciiPlus || text[index] == .asciiMinus {
      sign = text[index] == .asciiMinus ? -1 : 1
      index += 1
    }
    var total = 0
    for part in 0..<3 {
      if part > 0 {
        guard index < text.count, text[index] == .asciiColon else { break }
        index += 1
      }
      let start = index
      var value = 0
      while index < text.count, text[index].isASCIIDigit, index - start < 3 {
        value = value * 10 + Int(text[index] &- .ascii0)
        index += 1
      }
      guard index > start else { return nil }
      total += value * [3600, 60, 1][part]
    }
    return sign * total
  }

  static func dateAndTime(_ text: [UInt8], _ index: inout Int) -> (RecurringZoneRule.Day, Int)? {
    guard index < text.count else { return nil }
    let day: RecurringZoneRule.Day
    func number() -> Int? {
      let start = index
      var value = 0
      while index < text.count, text[index].isASCIIDigit, index - start < 3 {
        value = value * 10 + Int(text[index] &- .ascii0)
        index += 1
      }
      return index > start ? value : nil
    }
    if text[index] == 0x4D {  // M
      index += 1
      guard let month = number(), (1...12).contains(month), index < text.count, text[index] == .asciiDot else {
        return nil
      }
      index += 1
      guard let week = number(), (1...5).contains(week), index < text.count, text[index] == .asciiDot else {
        return nil
      }
      index += 1
      guard let weekday = number(), (0...6).contains(weekday) else { return nil }
      day = .monthWeekDay(month: month, week: week, weekday: weekday)
    } else if text[index] == 0x4A {  // J
      index += 1
      guard let value = number(), (1...365).contains(value) else { return nil }
      day = .julian(value)
    } else {
      guard let value = number(), (0...365).contains(value) else { return nil }
      day = .zeroBased(value)
    }
    var time = 7200
    if index < text.count, text[index] == .asciiSlash {
      index += 1
      guard let value = duration(text, &index, signed: true) else { return nil }
      time = value
    }
    return (day, time)
  }
}
