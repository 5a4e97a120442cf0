/// An amount of money as exact integer minor units (cents for a currency with two decimals),
/// never a `Double`: 12.34 is 1,234 and stays 1,234 through every sum and print.
///
///     try Money(parsing: "12.3")    // 1,230 minor units, prints "12.30"
///     try Money(parsing: "12.345")  // refused: more decimals than the currency has
///
/// Absent is absent: a delivery with no amount holds `nil`, never `Money.zero`.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Decimals of the currency's minor unit: 2 (cents). One currency per store; none is named.
  public static let fractionDigits = 2
  /// The largest amount accepted, in minor units: 999,999,999.99, far above any delivery and
  /// small enough that a rate's integer arithmetic never overflows.
  public static let maximumMinorUnits: Int64 = 99_999_999_999

  /// Why a typed amount is not money.
  public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not digits with at most one decimal point (signs, exponents, spaces and commas included).
    case notADecimal
    /// More decimals than the currency has.
    case tooManyDecimals(digits: Int)
    /// Above `maximumMinorUnits`.
    case tooLarge

    public var description: String {
      switch self {
      case .notADecimal: "an amount is written as digits with an optional decimal point, like 12.34"
      case .tooManyDecimals(let digits):
        "an amount has at most \(Money.fractionDigits) decimals; this one has \(digits)"
      case .tooLarge: "an amount is at most \(Money(minorUnits: Money.maximumMinorUnits))"
      }
    }
  }

  /// The amount in minor units, never negative.
  public let minorUnits: Int64

  public init(minorUnits: Int64) {
    precondition(minorUnits >= 0 && minorUnits <= Self.maximumMinorUnits, "Money out of range")
    self.minorUnits = minorUnits
  }

  /// Parses `12`, `12.3` or `12.34` exactly, digit by digit (no floating point anywhere).
  ///
  /// - Complexity: O(*n*) in the text's length.
  public init(parsing text: String) throws(Refusal) {
    let bytes = Array(text.utf8)
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var wholeDigits = 0
    var fractionDigits = 0
    var seenPoint = false
    for byte in bytes {
      if byte == UInt8(ascii: ".") {
        guard !seenPoint else { throw .notADecimal }
        seenPoint = true
        continue
      }
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { throw .notADecimal }
      let digit = Int64(byte - UInt8(ascii: "0"))
      if seenPoint {
        fractionDigits += 1
        if fractionDigits <= Self.fractionDigits { fraction = fraction * 10 + digit }
      } else {
        wholeDigits += 1
        guard wholeDigits <= 12 else { throw .tooLarge }
        whole = whole * 10 + digit
      }
    }
    guard wholeDigits > 0, !seenPoint || fractionDigits > 0 else { throw .notADecimal }
    guard fractionDigits <= Self.fractionDigits else { throw .tooManyDecimals(digits: fractionDigits) }
    for _ in fractionDigits..<Self.fractionDigits { fraction *= 10 }
    var scale: Int64 = 1
    for _ in 0..<Self.fractionDigits { scale *= 10 }
    let total = whole * scale + fraction
    guard total <= Self.maximumMinorUnits else { throw .tooLarge }
    self.minorUnits = total
  }

  /// `12.34`, always with the currency's decimals.
  public var description: String {
    var scale: Int64 = 1
    for _ in 0..<Self.fractionDigits { scale *= 10 }
    let fraction = String(minorUnits % scale)
    return "\(minorUnits / scale).\(String(repeating: "0", count: Self.fractionDigits - fraction.count))\(fraction)"
  }

  public static func < (a: Money, b: Money) -> Bool { a.minorUnits < b.minorUnits }
}

/// What one delivered delivery earned per recorded delivery hour: its amount plus its tips,
/// divided by its own accepted-to-delivered interval (seed 000), in minor units per hour rounded
/// half to even. Integer arithmetic over milliseconds; never summed, averaged or compared across
/// deliveries (their lifecycles overlap).
public struct HourlyEarnings: Sendable, Hashable, CustomStringConvertible {
  public let minorUnitsPerHour: Int64

  /// Nil for an interval shorter than a millisecond: there is no hour to divide by.
  public init?(earned: Int64, seconds: Double) {
    guard seconds.isFinite, seconds > 0 else { return nil }
    let milliseconds = Int64((seconds * 1000).rounded())
    guard milliseconds > 0 else { return nil }
    let numerator = earned * 3_600_000
    var quotient = numerator / milliseconds
    let remainder = numerator % milliseconds
    if 2 * remainder > milliseconds || (2 * remainder == milliseconds && quotient % 2 == 1) { quotient += 1 }
    minorUnitsPerHour = quotient
  }

  /// `18.50/h`.
  public var description: String {
    var scale: Int64 = 1
    for _ in 0..<Money.fractionDigits { scale *= 10 }
    let fraction = String(minorUnitsPerHour % scale)
    return
      "\(minorUnitsPerHour / scale).\(String(repeating: "0", count: Money.fractionDigits - fraction.count))\(fraction)/h"
  }
}
