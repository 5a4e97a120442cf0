/// How numbers are written for a reader: the decimal and grouping separators.
///
/// A small built-in table rather than ICU, so the domain needs no Foundation and the tool's
/// binary stays small. It covers the common languages; an unknown identifier falls back to
/// English (`12.4`, `1,234.5`). Identifiers are BCP 47 or POSIX (`de`, `de_DE`, `de-DE`,
/// `fr_FR.UTF-8`).
public struct MileageLocale: Sendable, Hashable {
  public var identifier: String
  public var decimalSeparator: String
  public var groupingSeparator: String

  /// English separators (`12.4`, `1,234.5`), from the table like every other locale.
  public static let english = MileageLocale(identifier: "en")

  /// Looks `identifier` up in the table; unknown languages get English separators.
  public init(identifier: String) {
    let (language, region) = Self.languageAndRegion(identifier)
    self.identifier = identifier
    let nbsp = "\u{00A0}"
    switch (language, region) {
    case ("de", "ch"), ("fr", "ch"), ("it", "ch"), ("rm", _):
      (decimalSeparator, groupingSeparator) = (".", "’")
    case ("es", "mx"), ("es", "us"), ("es", "pr"):
      (decimalSeparator, groupingSeparator) = (".", ",")
    case ("pt", "pt"):
      (decimalSeparator, groupingSeparator) = (",", nbsp)
    case ("de", _), ("es", _), ("it", _), ("nl", _), ("pt", _), ("da", _), ("id", _), ("tr", _),
      ("el", _), ("ro", _), ("hr", _), ("sl", _), ("sr", _), ("vi", _), ("ca", _), ("gl", _),
      ("eu", _), ("is", _), ("az", _), ("bs", _), ("mk", _):
      (decimalSeparator, groupingSeparator) = (",", ".")
    case ("fr", _), ("ru", _), ("pl", _), ("cs", _), ("sk", _), ("sv", _), ("fi", _), ("nb", _),
      ("nn", _), ("no", _), ("uk", _), ("hu", _), ("bg", _), ("lt", _), ("lv", _), ("et", _),
      ("be", _), ("kk", _), ("ky", _), ("uz", _), ("hy", _), ("ka", _), ("sq", _), ("mn", _),
      ("af", _):
      (decimalSeparator, groupingSeparator) = (",", nbsp)
    default:
      (decimalSeparator, groupingSeparator) = (".", ",")
    }
  }

  /// The lowercased language and region of a BCP 47 or POSIX identifier (`de_DE`, `de-DE`,
  /// `fr_FR.UTF-8`): the first part and, when there are more, the last; "" for a missing one.
  static func languageAndRegion(_ identifier: String) -> (language: String, region: String) {
    let trimmed = identifier.split(separator: ".").first.map(String.init) ?? identifier
    let parts = trimmed.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.lowercased() }
    return (parts.first ?? "", parts.count > 1 ? parts[parts.count - 1] : "")
  }

  /// Languages written with English separators that the table knows on purpose (the default
  /// case), so `known(_:)` can tell them from a typo.
  static let englishSeparatorLanguages: Set<String> = [
    "en", "c", "posix", "ja", "zh", "ko", "he", "iw", "th", "hi", "bn", "ms", "fil", "tl", "ga", "cy",
    "sw", "ta", "te", "mr", "gu", "kn", "ml", "pa", "ur", "my", "km", "lo", "ne", "si", "zu", "xh",
  ]

  /// The locale for `identifier`, or nil when its language is not in the table (a typo such as
  /// `xx_YY` or `english` is refused rather than silently written in English).
  public static func known(_ identifier: String) -> MileageLocale? {
    let language = languageAndRegion(identifier).language
    guard !language.isEmpty else { return nil }
    let locale = MileageLocale(identifier: identifier)
    if locale.decimalSeparator == ".", locale.groupingSeparator == ",", !englishSeparatorLanguages.contains(language),
      !["es"].contains(language)
    {
      return nil
    }
    return locale
  }

  /// A count grouped in thousands by this locale: `4,067` in English, `4.067` in German.
  public func formattedCount(_ value: Int) -> String {
    let digits = String(value.magnitude)
    guard digits.count > 3 else { return String(value) }
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped += groupingSeparator }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// A number rounded half away from zero to one decimal place, grouped in thousands, without a
  /// unit. A distance in words goes through `formattedMiles(_:unit:qualifier:isSomething:)`,
  /// which adds the small-figure rule.
  public func formattedOneDecimal(_ value: Double) -> String {
    formattedTenths((value * 10).rounded(.toNearestOrAwayFromZero))
  }

  /// A small positive factor to at most two decimals, trailing zeros dropped: `1.35`, `1.5`,
  /// `2` (`1,35` in German). For the stated assumptions behind a figure, not for the figure.
  public func formattedFactor(_ value: Double) -> String {
    let hundredths = Int((max(0, min(value, 1e6)) * 100).rounded(.toNearestOrAwayFromZero))
    let whole = String(hundredths / 100)
    let fraction = hundredths % 100
    if fraction == 0 { return whole }
    if fraction % 10 == 0 { return whole + decimalSeparator + String(fraction / 10) }
    return whole + decimalSeparator + (fraction < 10 ? "0" : "") + String(fraction)
  }

  private func formattedTenths(_ tenths: Double) -> String {
    guard tenths.isFinite, abs(tenths) < 9e17 else { return tenths.isNaN ? "—" : (tenths < 0 ? "-∞" : "∞") }
    let scaled = Int64(tenths)
    let negative = scaled < 0
    let magnitude = negative ? UInt64(-scaled) : UInt64(scaled)
    var whole = String(magnitude / 10)
    if whole.count > 3 {
      var grouped = ""
      for (index, digit) in whole.enumerated() {
        if index > 0, (whole.count - index) % 3 == 0 { grouped += groupingSeparator }
        grouped.append(digit)
      }
      whole = grouped
    }
    return (negative ? "-" : "") + whole + decimalSeparator + String(magnitude % 10)
  }
}
