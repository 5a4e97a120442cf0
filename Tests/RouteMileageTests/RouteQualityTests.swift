import RouteMileage
import RouteTestSupport
import Testing

/// The words: sentence by sentence, exactly as a driver reads or hears them.
@Suite("RouteQuality: the wording")
struct RouteQualityTests {
  typealias F = Fixture

  static let partialSentence = "Partial route: any driving outside the recorded stretches is not included."
  static let inferredSentence =
    "Continuity was inferred from timestamps rather than recorded capture sessions, so gaps in capture may not be visible."
  static let noUsable = "No usable position was recorded, so no distance could be measured."
  static let noTwo =
    "Positions were recorded, but no two of them were captured continuously, so no distance could be measured."

  /// A measured route of `miles` over `segments` stretches with these gaps.
  static func distance(
    miles: Double, segments: Int = 1, gaps: [RouteGap.Kind] = [], inferred: Bool = false
  ) -> RouteDistance {
    let meters = miles * metersPerMile
    let pieces = (0..<segments).map { i in
      RouteSegment(
        start: Double(i) * 1_000, end: Double(i) * 1_000 + 500, positionCount: 10, meters: meters / Double(segments))
    }
    let gapList = gaps.enumerated().map { i, kind in RouteGap(kind: kind, start: Double(i), end: Double(i) + 1) }
    return RouteDistance(
      meters: meters, segments: pieces, gaps: gapList, usablePositionCount: 10 * segments,
      usesInferredContinuity: inferred)
  }

  static let german = MileageLocale(identifier: "de_DE")
  static let french = MileageLocale(identifier: "fr_FR")
  static let american = MileageLocale(identifier: "en_US")

  // MARK: Measured, not partial

  @Test func measuredWholeRoute() {
    let q = RouteQuality(Self.distance(miles: 12.4), locale: Self.american)
    #expect(q.line == "12.4 mi recorded")
    #expect(q.figure == "12.4 mi recorded")
    #expect(q.detailSentences == ["Measured from 1 unbroken stretch of capture.", "No capture gaps detected."])
    #expect(q.spoken == "12.4 miles recorded.")
    #expect(q.bareSpoken == "12.4 miles recorded")
  }

  @Test func measuredWholeRouteWithADecimalComma() {
    for locale in [Self.german, Self.french] {
      let q = RouteQuality(Self.distance(miles: 12.4), locale: locale)
      #expect(q.line == "12,4 mi recorded")
      #expect(q.detailSentences == ["Measured from 1 unbroken stretch of capture.", "No capture gaps detected."])
      #expect(q.spoken == "12,4 miles recorded.")
      #expect(q.bareSpoken == "12,4 miles recorded")
    }
  }

  @Test func defaultLocaleIsEnglish() {
    let q = RouteQuality(Self.distance(miles: 12.4))
    #expect(q.locale == .english)
    #expect(q.line == "12.4 mi recorded")
  }

  // MARK: Partial

  @Test func partialWithOneGap() {
    let q = RouteQuality(Self.distance(miles: 12.4, segments: 2, gaps: [.sessionChange]), locale: Self.american)
    #expect(q.line == "12.4 mi recorded · partial route")
    #expect(q.figure == "12.4 mi recorded")
    #expect(
      q.detailSentences == [
        "Measured from 2 unbroken stretches of capture.",
        "1 gap in capture was left out; no distance is counted across it.",
        Self.partialSentence,
      ])
    #expect(q.spoken == "12.4 miles recorded. " + Self.partialSentence)
    #expect(q.bareSpoken == "12.4 miles recorded")
  }

  @Test func partialWithOneGapWithADecimalComma() {
    let d = Self.distance(miles: 12.4, segments: 2, gaps: [.sessionChange])
    for locale in [Self.german, Self.french] {
      let q = RouteQuality(d, locale: locale)
      #expect(q.line == "12,4 mi recorded · partial route")
      #expect(q.spoken == "12,4 miles recorded. " + Self.partialSentence)
      #expect(q.detailSentences[1] == "1 gap in capture was left out; no distance is counted across it.")
    }
  }

  @Test func partialWithSeveralGaps() {
    let d = Self.distance(miles: 4.5, segments: 3, gaps: [.windowStart, .silence, .sessionChange, .windowEnd])
    let q = RouteQuality(d)
    #expect(q.line == "4.5 mi recorded · partial route")
    #expect(
      q.detailSentences == [
        "Measured from 3 unbroken stretches of capture.",
        "4 gaps in capture were left out; no distance is counted across them.",
        Self.partialSentence,
      ])
    #expect(q.spoken == "4.5 miles recorded. " + Self.partialSentence)
  }

  @Test func oneStretchWithAWindowGap() {
    let q = RouteQuality(Self.distance(miles: 0.8, gaps: [.windowEnd]))
    #expect(q.line == "0.8 mi recorded · partial route")
    #expect(
      q.detailSentences == [
        "Measured from 1 unbroken stretch of capture.",
        "1 gap in capture was left out; no distance is counted across it.",
        Self.partialSentence,
      ])
  }

  // MARK: Inferred continuity

  @Test func inferredContinuityWithNoVisibleGap() {
    let q = RouteQuality(Self.distance(miles: 7.25, inferred: true))
    #expect(q.line == "7.3 mi recorded · partial route")
    #expect(
      q.detailSentences == [
        "Measured from 1 unbroken stretch of capture.",
        "No capture gaps detected.",
        Self.inferredSentence,
        Self.partialSentence,
      ])
    #expect(q.spoken == "7.3 miles recorded. " + Self.partialSentence)
    #expect(q.bareSpoken == "7.3 miles recorded")
  }

  @Test func inferredContinuityWithGapsInADecimalCommaLocale() {
    let q = RouteQuality(
      Self.distance(miles: 7.25, segments: 2, gaps: [.silence, .legacySessionBoundary], inferred: true),
      locale: Self.german)
    #expect(q.line == "7,3 mi recorded · partial route")
    #expect(
      q.detailSentences == [
        "Measured from 2 unbroken stretches of capture.",
        "2 gaps in capture were left out; no distance is counted across them.",
        Self.inferredSentence,
        Self.partialSentence,
      ])
  }

  // MARK: Unmeasurable

  @Test(arguments: ["en_US", "de_DE", "fr_FR"])
  func noUsablePosition(locale: String) {
    let q = RouteQuality(RouteDistance(), locale: MileageLocale(identifier: locale))
    #expect(q.line == "No route recorded")
    #expect(q.figure == nil)
    #expect(q.bareSpoken == nil)
    #expect(q.detailSentences == [Self.noUsable])
    #expect(q.spoken == Self.noUsable)
  }

  @Test func everyPositionOutsideTheWindowSaysSoWithoutCounts() {
    let window = ShiftWindow(start: 1_000, end: 2_000)!
    let d = RouteMileageCalculator().distance(
      of: [F.position(at: 10, session: 1), F.position(at: 11, north: 20, session: 1)], covering: window)
    #expect(d.unmeasurable == .noUsablePosition)
    #expect(d.positionsOutsideWindow == 2)
    let q = RouteQuality(d)
    #expect(q.line == "No route recorded")
    #expect(
      q.detailSentences == ["No usable position was recorded during the shift, so no distance could be measured."])
  }

  @Test(arguments: ["en_US", "de_DE", "fr_FR"])
  func noTwoContinuousPositions(locale: String) {
    // Two positions across a silence: counts exist in the value, but the words give none.
    let d = F.measure([F.position(at: 0, session: 1), F.position(at: 500, north: 100, session: 1)])
    #expect(d.unmeasurable == .noTwoContinuousPositions)
    let q = RouteQuality(d, locale: MileageLocale(identifier: locale))
    #expect(q.line == "No distance measured")
    #expect(q.figure == nil)
    #expect(q.bareSpoken == nil)
    #expect(q.detailSentences == [Self.noTwo])
    #expect(q.spoken == Self.noTwo)
  }

  @Test func unmeasuredRoutesAreNeverShownAsZeroMiles() {
    for d in [
      RouteDistance(), RouteDistance(usablePositionCount: 1, isolatedPositionCount: 1),
      RouteDistance(
        gaps: [RouteGap(kind: .silence, start: 0, end: 500)], usablePositionCount: 2, usesInferredContinuity: true),
    ] {
      #expect(d.formattedMiles() == nil)
      #expect(d.spokenMiles() == nil)
      for locale in [MileageLocale.english, Self.german, Self.french] {
        for text in allWording(RouteQuality(d, locale: locale)) {
          #expect(!text.contains("0.0") && !text.contains("0,0") && !text.contains(" mi"), "\(text)")
        }
      }
    }
  }

  // MARK: From real measurements

  @Test func wordingOfAMeasuredShift() {
    // 12.4 mi is 19,955.87 m; drive it in one session inside the shift's window.
    let legs = 1_330
    let speed = 19_956.0 / Double(legs)
    let route = F.drive(count: legs + 1, from: 60, speed: speed, session: 1)
    let window = ShiftWindow(start: F.t0, end: F.t0 + 60 + Double(legs) + 60)!
    let d = F.measure(route, window: window)
    #expect(abs(d.meters - 19_956) < 1e-6)
    #expect(RouteQuality(d).line == "12.4 mi recorded")
    #expect(RouteQuality(d, locale: Self.german).line == "12,4 mi recorded")
    #expect(
      RouteQuality(d).detailSentences == ["Measured from 1 unbroken stretch of capture.", "No capture gaps detected."])
    // Stop capture an hour before the shift ended: the same figure, now partial.
    let early = F.measure(route, window: ShiftWindow(start: F.t0, end: window.end + 3_600)!)
    #expect(RouteQuality(early).line == "12.4 mi recorded · partial route")
    #expect(RouteQuality(early, locale: Self.french).line == "12,4 mi recorded · partial route")
    #expect(
      RouteQuality(early).detailSentences[1] == "1 gap in capture was left out; no distance is counted across it.")
  }

  @Test func wordingOfAMeasuredLegacyShift() {
    let d = F.measure(F.drive(count: 201, speed: 10))
    #expect(RouteQuality(d).line == "1.2 mi recorded · partial route")
    #expect(RouteQuality(d).detailSentences.contains(Self.inferredSentence))
  }

  // MARK: Forbidden words

  static let forbidden = ["total", "complete", "tax", "deductible", "%"]

  @Test func noWordingClaimsMoreThanTheDataSupports() {
    var rng = SeededRandom(seed: 0x776F_7264)
    var checked = 0
    for _ in 0..<300 {
      let route = GeneratedRoute.random(&rng, maximumCount: 60)
      let d = route.calculator.distance(of: route.rows, covering: route.window)
      for locale in [Self.american, Self.german, Self.french] {
        let q = RouteQuality(d, locale: locale)
        for text in allWording(q) {
          let lower = text.lowercased()
          for word in Self.forbidden {
            #expect(!lower.contains(word), "\(text)")
          }
          if !d.isMeasured {
            #expect(!text.contains("0.0") && !text.contains("0,0"), "\(text)")
          }
          checked += 1
        }
        // The line is exactly the figure, the figure plus the marker, or an unmeasured line.
        if let figure = q.figure {
          #expect(q.line == (d.isPartial ? figure + " · partial route" : figure))
          #expect(q.spoken.hasPrefix(q.bareSpoken! + "."))
          #expect(q.spoken.contains("miles") && !q.spoken.contains(" mi "))
        } else {
          #expect(q.line == "No route recorded" || q.line == "No distance measured")
        }
      }
    }
    // And the constant vocabulary, across every shape of route.
    for d in [
      Self.distance(miles: 1_234.5, segments: 3, gaps: [.sessionChange, .silence], inferred: true),
      Self.distance(miles: 0.01), RouteDistance(),
    ] {
      for text in allWording(RouteQuality(d)) {
        for word in Self.forbidden { #expect(!text.lowercased().contains(word)) }
      }
    }
    #expect(checked > 1_000)
    #expect(RouteQuality.partialMarker == "partial route")
  }
}
