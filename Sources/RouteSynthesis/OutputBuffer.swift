import RouteMileage

/// A 64 KiB byte buffer the writers format into, with the number formatting they need.
///
/// Numbers are written by integer arithmetic after one rounding (half away from zero) to the
/// requested decimals, never through `description` or a formatter: the bytes depend only on
/// the value, on every platform. The owner calls `release()` once.
///
/// - Complexity: O(1) per byte; memory fixed at `capacity`.
struct OutputBuffer {
  static let capacity = 1 << 16
  /// Flush before a record when fewer than this many bytes are free; a record is far shorter.
  static let recordReserve = 1 << 10

  let base: UnsafeMutablePointer<UInt8>
  var count = 0
  private(set) var flushed = 0
  private var cachedDay = Int64.min
  private var cachedDate: (year: Int, month: Int, day: Int) = (0, 0, 0)

  init() {
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.capacity)
  }

  func release() { base.deallocate() }

  /// Bytes written so far, flushed or not.
  var total: Int { flushed + count }

  mutating func flush(into sink: inout some SynthesisByteSink) throws(SynthesisWriteError) {
    guard count > 0 else { return }
    try sink.write(UnsafeRawBufferPointer(start: base, count: count))
    flushed += count
    count = 0
  }

  /// Flushes when the next record might not fit.
  @inline(__always)
  mutating func reserveRecord(into sink: inout some SynthesisByteSink) throws(SynthesisWriteError) {
    if count > Self.capacity - Self.recordReserve { try flush(into: &sink) }
  }

  @inline(__always)
  mutating func byte(_ value: UInt8) {
    base[count] = value
    count += 1
  }

  mutating func text(_ value: StaticString) {
    value.withUTF8Buffer { buffer in
      (base + count).update(from: buffer.baseAddress!, count: buffer.count)
      count += buffer.count
    }
  }

  /// `value` in decimal, left-padded with zeros to `width` digits.
  @inline(__always)
  mutating func unsigned(_ value: UInt64, width: Int = 1) {
    var digits = 1
    var rest = value / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let length = max(digits, width)
    var remaining = value
    var index = count + length - 1
    while index >= count {
      base[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
      remaining /= 10
      index -= 1
    }
    count += length
  }

  @inline(__always)
  mutating func twoDigits(_ value: Int) {
    base[count] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
    base[count + 1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
    count += 2
  }

  /// `value` rounded half away from zero to `decimals` places (0–9), always with exactly that
  /// many: `fixed(-123.45, 3)` writes `-123.450`. No minus sign on a value that rounds to zero.
  @inline(__always)
  mutating func fixed(_ value: Double, decimals: Int) {
    let scale = OutputBuffer.powersOfTen[decimals]
    let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrAwayFromZero)
    let units = scaled < 1.8e19 ? UInt64(scaled) : UInt64.max / 10
    if value < 0, units != 0 { byte(0x2D) }
    unsigned(units / scale)
    if decimals > 0 {
      byte(0x2E)
      unsigned(units % scale, width: decimals)
    }
  }

  static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  ]

  /// The civil date of a day count since 1970-01-01, cached: days change rarely in a feed.
  @inline(__always)
  mutating func date(ofDay day: Int64) -> (year: Int, month: Int, day: Int) {
    if day != cachedDay {
      cachedDay = day
      cachedDate = CivilCalendar.date(daysSinceEpoch: day)
    }
    return cachedDate
  }

  /// ISO 8601 in UTC: `2025-11-04T16:00:00Z`, or `…:00.250Z` with `fractionDigits` 3.
  mutating func iso8601(milliseconds: Int64, fractionDigits: Int) {
    let (day, millisecondOfDay) = CivilCalendar.split(milliseconds)
    let date = date(ofDay: day)
    unsigned(UInt64(max(0, date.year)), width: 4)
    byte(0x2D)
    twoDigits(date.month)
    byte(0x2D)
    twoDigits(date.day)
    byte(0x54)
    clock(millisecondOfDay: millisecondOfDay, separated: true)
    if fractionDigits > 0 {
      byte(0x2E)
      let fraction = UInt64(millisecondOfDay % 1000)
      switch fractionDigits {
      case 1: unsigned(fraction / 100)
      case 2: unsigned(fraction / 10, width: 2)
      default: unsigned(fraction, width: 3)
      }
    }
    byte(0x5A)
  }

  /// `hh:mm:ss`, or `hhmmss` when not `separated` (NMEA).
  @inline(__always)
  mutating func clock(millisecondOfDay: Int, separated: Bool) {
    let second = millisecondOfDay / 1000
    twoDigits(second / 3600)
    if separated { byte(0x3A) }
    twoDigits(second / 60 % 60)
    if separated { byte(0x3A) }
    twoDigits(second % 60)
  }

  /// Lowercase hexadecimal, `digits` long.
  mutating func hex(_ value: UInt64, digits: Int) {
    var shift = (digits - 1) * 4
    while shift >= 0 {
      let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(shift)) & 0xF)
      byte(nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57)
      shift -= 4
    }
  }
}

/// Day arithmetic for UTC timestamps, so the writers need no Foundation; dates come from the
/// domain's `CivilTime`.
enum CivilCalendar {
  /// Milliseconds since 1970 into (days since 1970, millisecond of that day), flooring.
  @inline(__always)
  static func split(_ milliseconds: Int64) -> (day: Int64, millisecondOfDay: Int) {
    var day = milliseconds / 86_400_000
    var rest = milliseconds % 86_400_000
    if rest < 0 {
      rest += 86_400_000
      day -= 1
    }
    return (day, Int(rest))
  }

  /// The civil date of a day count: `CivilTime.date(daysSinceEpoch:)`, the domain's calendar.
  @inline(__always)
  static func date(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
    CivilTime.date(daysSinceEpoch: Int(days))
  }
}

/// Formats times the way the writers do, for reports: `CivilTime.iso8601(milliseconds:)`, the
/// one ISO 8601 text writer (the byte writer above streams the same text into feeds).
public enum SynthesisTime {
  /// `2025-11-04T16:00:00Z`, with milliseconds when the time has them.
  public static func iso8601(milliseconds: Int64) -> String {
    CivilTime.iso8601(milliseconds: milliseconds)
  }
}
