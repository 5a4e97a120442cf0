import RouteMileage
import Testing

/// Numbers in words: one decimal, half away from zero, grouped, in the reader's separators.
@Suite("MileageLocale and RouteDistance miles: one decimal, grouped, localised")
struct MileageLocaleTests {
  static let english = MileageLocale(identifier: "en_US")
  static let german = MileageLocale(identifier: "de_DE")
  static let french = MileageLocale(identifier: "fr_FR")
  static let nbsp = "\u{00A0}"

  static func measured(meters: Double) -> RouteDistance {
    RouteDistance(
      meters: meters, segments: [RouteSegment(start: 0, end: 1, positionCount: 2, meters: meters)],
      usablePositionCount: 2)
  }

  static func measured(miles: Double) -> RouteDistance { measured(meters: miles * metersPerMile) }

  @Test(arguments: [
    ("en_US", ".", ","), ("en", ".", ","), ("en_GB", ".", ","),
    ("de_DE", ",", "."), ("de-DE", ",", "."), ("de", ",", "."), ("de_AT.UTF-8", ",", "."),
    ("fr_FR", ",", "\u{00A0}"), ("fr_FR.UTF-8", ",", "\u{00A0}"), ("fr-CA", ",", "\u{00A0}"),
    ("es_ES", ",", "."), ("es_MX", ".", ","), ("pt_BR", ",", "."), ("pt_PT", ",", "\u{00A0}"),
    ("de_CH", ".", "’"), ("ja_JP", ".", ","), ("xx_YY", ".", ","), ("", ".", ","), ("C", ".", ","),
    ("POSIX", ".", ","),
  ])
  func separatorsByIdentifier(identifier: String, decimal: String, grouping: String) {
    let locale = MileageLocale(identifier: identifier)
    #expect(locale.decimalSeparator == decimal)
    #expect(locale.groupingSeparator == grouping)
    #expect(locale.identifier == identifier)
  }

  @Test func englishIsTheFallback() {
    #expect(MileageLocale.english.decimalSeparator == ".")
    #expect(MileageLocale.english.groupingSeparator == ",")
  }

  // MARK: The figure

  @Test func figureInTwoLocales() {
    let d = Self.measured(miles: 12.4)
    #expect(d.formattedMiles() == "12.4 mi")
    #expect(d.formattedMiles(locale: Self.english) == "12.4 mi")
    #expect(d.formattedMiles(locale: Self.german) == "12,4 mi")
    #expect(d.formattedMiles(locale: Self.french) == "12,4 mi")
    #expect(d.spokenMiles(locale: Self.english) == "12.4 miles")
    #expect(d.spokenMiles(locale: Self.german) == "12,4 miles")
  }

  @Test func groupingFromAThousand() {
    let cases: [(Double, String, String, String)] = [
      (999.94, "999.9", "999,9", "999,9"),
      (999.95, "1,000.0", "1.000,0", "1\(Self.nbsp)000,0"),
      (1_000, "1,000.0", "1.000,0", "1\(Self.nbsp)000,0"),
      (1_234.5, "1,234.5", "1.234,5", "1\(Self.nbsp)234,5"),
      (12_345.6, "12,345.6", "12.345,6", "12\(Self.nbsp)345,6"),
      (123_456.7, "123,456.7", "123.456,7", "123\(Self.nbsp)456,7"),
      (1_234_567.8, "1,234,567.8", "1.234.567,8", "1\(Self.nbsp)234\(Self.nbsp)567,8"),
    ]
    for (miles, en, de, fr) in cases {
      let d = Self.measured(miles: miles)
      #expect(RouteQuality(d, locale: Self.english).line == "\(en) mi recorded")
      #expect(RouteQuality(d, locale: Self.german).line == "\(de) mi recorded")
      #expect(RouteQuality(d, locale: Self.french).line == "\(fr) mi recorded")
    }
    #expect(MileageLocale(identifier: "de_CH").formattedOneDecimal(1_234.5) == "1’234.5")
  }

  @Test func roundingIsHalfAwayFromZero() throws {
    // Values whose tenths land exactly on .5 in binary, so the rule (not representation noise)
    // decides: banker's rounding would give 0.2, 2.2, 12.2 for the first three.
    let exactHalves: [(Double, String)] = [
      (0.25, "0.3"), (2.25, "2.3"), (12.25, "12.3"), (0.75, "0.8"), (12.75, "12.8"), (1_023.25, "1,023.3"),
    ]
    for (value, text) in exactHalves {
      #expect(MileageLocale.english.formattedMiles(value, unit: "mi") == "\(text) mi")
      #expect(MileageLocale.english.formattedOneDecimal(value) == text)
      #expect(MileageLocale.english.formattedOneDecimal(-value) == "-\(text)")
    }
    // Decimal x.x5 values as a driver would think of them.
    let decimalHalves: [(Double, String, String)] = [
      (0.05, "0.1", "0,1"), (0.15, "0.2", "0,2"), (1.05, "1.1", "1,1"), (4.45, "4.5", "4,5"),
      (12.35, "12.4", "12,4"), (12.45, "12.5", "12,5"), (99.95, "100.0", "100,0"),
    ]
    for (value, en, de) in decimalHalves {
      try #require((value * 10).rounded(.down) + 0.5 == value * 10, "\(value) is not a binary half")
      #expect(MileageLocale.english.formattedMiles(value, unit: "mi") == "\(en) mi")
      #expect(Self.german.formattedMiles(value, unit: "mi") == "\(de) mi")
    }
    // Just either side of a half.
    #expect(MileageLocale.english.formattedOneDecimal(12.449) == "12.4")
    #expect(MileageLocale.english.formattedOneDecimal(12.4501) == "12.5")
    #expect(MileageLocale.english.formattedOneDecimal(0.04) == "0.0")
  }

  @Test func roundingThroughTheMeasuredMetres() {
    // 12.45 mi and 12.35 mi of metres read as a driver expects.
    #expect(RouteQuality(Self.measured(miles: 12.45)).line == "12.5 mi recorded")
    #expect(RouteQuality(Self.measured(miles: 12.35)).line == "12.4 mi recorded")
    #expect(RouteQuality(Self.measured(miles: 12.25)).line == "12.3 mi recorded")
    // 160.9344 m is exactly 0.1 mi.
    #expect(RouteQuality(Self.measured(meters: 160.9344)).line == "0.1 mi recorded")
    // 1 mi is 1,609.344 m: one metre short still reads 1.0.
    #expect(RouteQuality(Self.measured(meters: 1_608.344)).line == "1.0 mi recorded")
  }

  // MARK: Under 0.1

  @Test(arguments: [1e-9, 1.0, 50.0, 80.0, 80.46])
  func aMeasuredRouteUnderAHalfTenthReadsUnder(meters: Double) {
    let d = Self.measured(meters: meters)
    #expect(d.formattedMiles() == "under 0.1 mi")
    #expect(RouteQuality(d, locale: Self.english).line == "under 0.1 mi recorded")
    #expect(RouteQuality(d, locale: Self.german).line == "under 0,1 mi recorded")
    #expect(RouteQuality(d, locale: Self.french).line == "under 0,1 mi recorded")
    #expect(RouteQuality(d).spoken == "under 0.1 miles recorded.")
    #expect(RouteQuality(d).bareSpoken == "under 0.1 miles recorded")
  }

  @Test func halfATenthIsATenth() {
    // 0.05 mi = 80.4672 m rounds half away from zero to 0.1.
    #expect(Self.measured(meters: 80.4672).formattedMiles() == "0.1 mi")
    #expect(RouteQuality(Self.measured(meters: 80.4672), locale: Self.german).line == "0,1 mi recorded")
  }

  @Test func aPartialRouteUnderATenth() {
    var d = Self.measured(meters: 40)
    d.gaps = [RouteGap(kind: .sessionChange, start: 0, end: 10)]
    #expect(RouteQuality(d).line == "under 0.1 mi recorded · partial route")
    #expect(RouteQuality(d, locale: Self.german).line == "under 0,1 mi recorded · partial route")
  }
}

@Suite("MileageLocale factors: the floor's stated assumption")
struct MileageLocaleFactorTests {
  @Test func factorsKeepTheirSecondDecimalAndDropTrailingZeros() {
    let english = MileageLocale(identifier: "en_US")
    let german = MileageLocale(identifier: "de_DE")
    #expect(english.formattedFactor(1.35) == "1.35")
    #expect(english.formattedFactor(1.5) == "1.5")
    #expect(english.formattedFactor(2) == "2")
    #expect(english.formattedFactor(1.05) == "1.05")
    #expect(german.formattedFactor(1.35) == "1,35")
  }
}
