/// Calendar arithmetic for UTC timestamps, without Foundation's `Date` or formatters.
///
/// In the domain because every module writes times the same way: `iso8601(_:)` is the one
/// writer of ISO 8601 text (the commands' JSON and words, the synthetic drives' reports); the
/// readers parse with it (`ISO8601Parser`, NMEA, CSV).
///
/// Timestamps are seconds since 1970-01-01T00:00:00Z on the proleptic Gregorian calendar, with
/// no leap seconds (as POSIX time). Years 0 through 9999 are supported.
public enum CivilTime {
  /// Days from 1970-01-01 to the given date (Howard Hinnant's `days_from_civil`).
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day count from 1970-01-01 (`civil_from_days`).
  @inlinable
  public static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The timestamps of years 0000 through 9999: from 0000-01-01T00:00:00Z up to, not
  /// including, 10000-01-01T00:00:00Z. A time outside it is not a time a recording can carry
  /// (an epoch cell of 1e23 would be the year 3170843): the readers count it as `badTime`.
  public static let supportedTimestamps: Range<Double> = -62_167_219_200..<253_402_300_800

  /// Whether the day exists (February 29 only in leap years).
  @inlinable
  public static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
    guard (0...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return day <= (leap ? 29 : 28)
    case 4, 6, 9, 11: return day <= 30
    default: return day <= 31
    }
  }

  /// ISO 8601 in UTC: `2025-11-29T08:00:00Z`, with milliseconds (`08:00:00.250Z`) when the
  /// timestamp has a fraction of a second. For output, not for hot paths.
  public static func iso8601(_ timestamp: Double) -> String {
    guard timestamp.isFinite else { return "invalid" }
    return iso8601(milliseconds: Int64((timestamp * 1000).rounded()))
  }

  /// ISO 8601 in UTC from whole milliseconds since 1970: `2025-11-29T08:00:00Z`, or
  /// `…:00.250Z` when there is a fraction of a second.
  ///
  /// - Complexity: O(1).
  public static func iso8601(milliseconds: Int64) -> String {
    var seconds = milliseconds / 1000
    var fraction = milliseconds % 1000
    if fraction < 0 {
      fraction += 1000
      seconds -= 1
    }
    var days = seconds / 86_400
    var secondOfDay = seconds % 86_400
    if secondOfDay < 0 {
      secondOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = date(daysSinceEpoch: Int(days))
    var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
    text += "\(pad(Int(secondOfDay / 3600), 2)):\(pad(Int(secondOfDay / 60 % 60), 2)):\(pad(Int(secondOfDay % 60), 2))"
    if fraction != 0 { text += "." + pad(Int(fraction), 3) }
    return text + "Z"
  }

  /// `value` in at least `width` digits, zero-padded after any minus sign (`pad(7, 2)` is `07`).
  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// A calendar date (proleptic Gregorian, UTC).
public struct CivilDate: Sendable, Hashable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int

  /// Nil unless the date exists and the year is 0–9999.
  public init?(year: Int, month: Int, day: Int) {
    guard CivilTime.isValidDate(year: year, month: month, day: day) else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD`.
  public init?(parsing text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Seconds since 1970-01-01T00:00:00Z at the start of this day.
  public var startTimestamp: Double {
    Double(CivilTime.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
  }

  public var description: String {
    "\(CivilTime.pad(year, 4))-\(CivilTime.pad(month, 2))-\(CivilTime.pad(day, 2))"
  }
}
