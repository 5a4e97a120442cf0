/// The time-of-day and UTC-offset grammar every timestamp reader shares: `ISO8601Parser` for a
/// whole ISO 8601 timestamp, and the CSV reader for a time-of-day column and a UTC-offset
/// column. One implementation, so a time reads the same whichever column or format holds it;
/// the callers differ only in the options they pass (a one-digit hour, the largest offset).
@usableFromInline
enum ClockText {
  /// `HH:MM` or `HH:MM:SS` from `index` (`H:MM` too when `singleDigitHour`), as seconds since
  /// midnight; `index` ends after the last byte read. Hour 24 only as `24:00(:00)`; second 60
  /// (a leap second) is accepted as written. Nil for any other shape or range; `index` is then
  /// unspecified. A fraction of a second, if any, follows at `index` (`ISO8601Parser.fractionOfSecond`).
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  static func timeOfDay(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, singleDigitHour: Bool) -> Int? {
    let n = bytes.count
    guard index < n, bytes[index].isASCIIDigit else { return nil }
    var hour = Int(bytes[index] &- .ascii0)
    index += 1
    if index < n, bytes[index].isASCIIDigit {
      hour = hour * 10 + Int(bytes[index] &- .ascii0)
      index += 1
    } else if !singleDigitHour {
      return nil
    }
    guard index < n, bytes[index] == .asciiColon, let minute = twoDigits(bytes, at: index + 1), minute <= 59 else {
      return nil
    }
    index += 3
    var second = 0
    if index < n, bytes[index] == .asciiColon {
      guard let value = twoDigits(bytes, at: index + 1), value <= 60 else { return nil }
      second = value
      index += 3
    }
    guard hour < 24 || (hour == 24 && minute == 0 && second == 0) else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  /// A numeric UTC offset filling `bytes[index...]` exactly: `±HH`, `±HH:MM` or `±HHMM` (`±H`
  /// and `±H:MM` too when `singleDigitHour`), in seconds east of UTC; nil for any other shape or
  /// an offset beyond `maximumMinutes` (hours above `maximumMinutes / 60`, minutes above 59).
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  static func utcOffset(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, singleDigitHour: Bool, maximumMinutes: Int
  ) -> Int? {
    let n = bytes.count
    guard start < n, bytes[start] == .asciiPlus || bytes[start] == .asciiMinus else { return nil }
    let negative = bytes[start] == .asciiMinus
    var index = start + 1
    guard index < n, bytes[index].isASCIIDigit else { return nil }
    var hours = Int(bytes[index] &- .ascii0)
    index += 1
    if index < n, bytes[index].isASCIIDigit {
      hours = hours * 10 + Int(bytes[index] &- .ascii0)
      index += 1
    } else if !singleDigitHour {
      return nil
    }
    guard hours <= maximumMinutes / 60 else { return nil }
    var minutes = 0
    if index < n {
      if bytes[index] == .asciiColon { index += 1 }
      guard index + 2 == n, let value = twoDigits(bytes, at: index), value <= 59 else { return nil }
      minutes = value
    }
    guard hours * 60 + minutes <= maximumMinutes else { return nil }
    let seconds = hours * 3600 + minutes * 60
    return negative ? -seconds : seconds
  }

  /// The two decimal digits at `index` and `index + 1`, or nil when either is not a digit or
  /// past the end. O(1).
  @inlinable @inline(__always)
  static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    guard index + 2 <= bytes.count else { return nil }
    let high = bytes[index] &- .ascii0
    let low = bytes[index + 1] &- .ascii0
    guard high < 10, low < 10 else { return nil }
    return Int(high) * 10 + Int(low)
  }
}
