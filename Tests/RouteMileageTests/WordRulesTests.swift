import RouteMileage
import Testing

/// The one plural rule and the one small-figure rule, pinned word for word in English, German
/// and French numbers: every sentence the tool writes goes through them.
@Suite("Word rules: one plural, one small figure")
struct WordRulesTests {
  static let english = MileageLocale(identifier: "en")
  static let german = MileageLocale(identifier: "de_DE")
  static let french = MileageLocale(identifier: "fr_FR")
  static let nbsp = "\u{00A0}"

  // MARK: Plural

  @Test func zeroOneAndManyTakeTheRightNoun() {
    #expect(Self.english.counted(0, "position") == "0 positions")
    #expect(Self.english.counted(1, "position") == "1 position")
    #expect(Self.english.counted(2, "position") == "2 positions")
    #expect(Self.english.counted(4_067, "position") == "4,067 positions")
    #expect(Self.german.counted(4_067, "position") == "4.067 positions")
    #expect(Self.french.counted(4_067, "position") == "4\(Self.nbsp)067 positions")
    #expect(Self.german.counted(1, "batch") == "1 batch")
    #expect(Self.german.counted(0, "batch") == "0 batches")
    #expect(Self.english.counted(1, "other entry") == "1 other entry")
    #expect(Self.english.counted(2, "other entry") == "2 other entries")
    #expect(Self.english.counted(2, "day") == "2 days")
    #expect(Self.english.counted(1, "gap in capture", plural: "gaps in capture") == "1 gap in capture")
    #expect(Self.english.counted(3, "gap in capture", plural: "gaps in capture") == "3 gaps in capture")
    #expect(MileageLocale.noun("CRC does", count: 2, plural: "CRCs do") == "CRCs do")
  }

  @Test(arguments: [
    ("line", "lines"), ("entry", "entries"), ("element", "elements"), ("message", "messages"), ("batch", "batches"),
    ("box", "boxes"), ("key", "keys"), ("capture session", "capture sessions"),
  ])
  func regularPlurals(singular: String, plural: String) {
    #expect(MileageLocale.regularPlural(singular) == plural)
  }

  // MARK: Small figures

  @Test func aFigureUnderAHalfTenthReadsUnderWhateverItsQualifier() {
    for (locale, tenth) in [(Self.english, "0.1"), (Self.german, "0,1"), (Self.french, "0,1")] {
      #expect(locale.formattedMiles(0.01, unit: "mi") == "under \(tenth) mi")
      #expect(locale.formattedMiles(0.049, unit: "mi", qualifier: "At least") == "Under \(tenth) mi")
      #expect(locale.formattedMiles(0.049, unit: "mi", qualifier: "about") == "under \(tenth) mi")
      #expect(locale.formattedMiles(0.05, unit: "mi", qualifier: "At least") == "At least \(tenth) mi")
      // Nothing is nothing, unless it is a measured route's figure.
      #expect(locale.formattedMiles(0, unit: "mi", qualifier: "At most") == "At most 0\(locale.decimalSeparator)0 mi")
      #expect(locale.formattedMiles(0, unit: "mi", isSomething: true) == "under \(tenth) mi")
    }
    #expect(Self.german.formattedMiles(1_234.56, unit: "mi", qualifier: "At least") == "At least 1.234,6 mi")
    #expect(Self.french.formattedMiles(1_234.56, unit: "mi") == "1\(Self.nbsp)234,6 mi")
  }

  /// A route whose positions measured 0 m is measured: never `0.0 mi recorded`.
  @Test func aMeasuredRouteOfNoMetresReadsUnderATenth() {
    let still = RouteDistance(
      meters: 0, segments: [RouteSegment(start: 0, end: 1, positionCount: 2, meters: 0)], usablePositionCount: 2)
    #expect(RouteQuality(still).line == "under 0.1 mi recorded")
    #expect(RouteQuality(still, locale: Self.german).line == "under 0,1 mi recorded")
    #expect(RouteQuality(still).bareSpoken == "under 0.1 miles recorded")
    #expect(RouteQuality(still).milesColumn == "<0.1")
    #expect(RouteQuality(still, locale: Self.french).milesColumn == "<0,1")
    #expect(RouteQuality(still).floorMilesColumn == "0.0")
  }

  static func distance(meters: Double, floor: Double, creepingMeters: Double = 0) -> RouteDistance {
    RouteDistance(
      meters: meters, segments: [RouteSegment(start: 0, end: 60, positionCount: 5, meters: meters, floorMeters: floor)],
      usablePositionCount: 5, floorMeters: floor, creepingSeconds: creepingMeters > 0 ? 30 : 0,
      creepingMeters: creepingMeters)
  }

  @Test func theFloorAndJitterSentencesOfASmallRoute() {
    let assumption = "(each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid)"
    let small = Self.distance(meters: 70, floor: 65, creepingMeters: 3)
    #expect(RouteQuality(small).floorSentence == "Under 0.1 mi of it is proven by the positions \(assumption).")
    #expect(
      RouteQuality(small, locale: Self.german).floorSentence
        == "Under 0,1 mi of it is proven by the positions (each taken to lie within 1,35 × its reported accuracy; lengths on the WGS84 ellipsoid)."
    )
    #expect(
      RouteQuality(small).jitterSentence
        == "Under 0.1 mi of the recorded figure was gathered while standing or crawling and is likely jitter; "
        + "under 0.1 mi can be: the recorded figure less what the positions prove.")
    let still = Self.distance(meters: 70, floor: 65)
    #expect(
      RouteQuality(still, locale: Self.french).jitterSentence
        == "Under 0,1 mi of the recorded figure can be jitter: the recorded figure less what the positions prove.")
    let large = Self.distance(meters: 20_000, floor: 19_200, creepingMeters: 400)
    #expect(
      RouteQuality(large, locale: Self.german).jitterSentence
        == "About 0,2 mi of the recorded figure was gathered while standing or crawling and is likely jitter; "
        + "at most 0,5 mi can be: the recorded figure less what the positions prove.")
  }

  // MARK: RouteQuality's counts

  static func route(segments: Int, gaps: Int) -> RouteDistance {
    var pieces: [RouteSegment] = []
    for index in 0..<segments {
      let start = Double(index) * 100
      pieces.append(RouteSegment(start: start, end: start + 50, positionCount: 2, meters: 1))
    }
    var breaks: [RouteGap] = []
    for index in 0..<gaps {
      let start = Double(index) * 100 + 50
      breaks.append(RouteGap(kind: .silence, start: start, end: start + 50))
    }
    return RouteDistance(
      meters: 10_000, segments: pieces, gaps: breaks, usablePositionCount: 2 * segments, floorMeters: 9_500)
  }

  @Test func stretchesAndGapsForZeroOneAndMany() {
    #expect(
      RouteQuality(Self.route(segments: 1, gaps: 0)).detailSentences == [
        "Measured from 1 unbroken stretch of capture.", "No capture gaps detected.",
      ])
    #expect(
      RouteQuality(Self.route(segments: 2, gaps: 1)).detailSentences == [
        "Measured from 2 unbroken stretches of capture.",
        "1 gap in capture was left out; no distance is counted across it.",
        "Partial route: any driving outside the recorded stretches is not included.",
      ])
    #expect(
      RouteQuality(Self.route(segments: 1_235, gaps: 1_234), locale: Self.german).detailSentences == [
        "Measured from 1.235 unbroken stretches of capture.",
        "1.234 gaps in capture were left out; no distance is counted across them.",
        "Partial route: any driving outside the recorded stretches is not included.",
      ])
    #expect(
      RouteQuality(Self.route(segments: 1_235, gaps: 1_234), locale: Self.french).detailSentences.prefix(2) == [
        "Measured from 1\(Self.nbsp)235 unbroken stretches of capture.",
        "1\(Self.nbsp)234 gaps in capture were left out; no distance is counted across them.",
      ])
  }

  @Test func oneOfSeveralPositionsAgreesWithItsVerb() {
    let poor = RouteDistance(
      meters: 20_000,
      segments: [RouteSegment(start: 0, end: 1_000, positionCount: 2, meters: 20_000, floorMeters: 1_000)],
      usablePositionCount: 2, floorMeters: 1_000, positionsWithPoorAccuracy: 1)
    #expect(
      RouteQuality(poor).floorSentence?.hasSuffix("because 1 of 2 positions reports an accuracy worse than 20 m.")
        == true)
  }

  // MARK: Names in words

  @Test(arguments: [
    ("badTime", "bad time"), ("negligibleMovement", "negligible movement"), ("badJSON", "bad JSON"),
    ("notASentence", "not a sentence"), ("sessionChange", "session change"), ("speed", "speed"),
    ("legacySessionBoundary", "legacy session boundary"),
  ])
  func camelCaseNamesBecomeWords(name: String, words: String) {
    #expect(NameWords.words(name) == words)
  }

  @Test func gapKindsInWords() {
    #expect(RouteGap.Kind.windowStart.words == "window start")
    #expect(RouteGap.Kind.sessionChange.words == "session change")
  }
}
