import RouteMileage
import Testing

/// The one way durations are written (issue 17, item 3).
@Suite("DurationWords")
struct DurationWordsTests {
  @Test func shortWordsRoundToTheNearestSecond() {
    #expect(DurationWords.short(0) == "0s")
    #expect(DurationWords.short(12.4) == "12s")
    #expect(DurationWords.short(250) == "4m 10s")
    #expect(DurationWords.short(7_530) == "2h 05m")
    #expect(DurationWords.short(59.6) == "1m 00s")
    #expect(DurationWords.short(.nan) == "?")
  }

  @Test func theClockCountsWholeSecondsElapsed() {
    #expect(DurationWords.clock(0) == "0:00:00")
    #expect(DurationWords.clock(303.9) == "0:05:03")
    #expect(DurationWords.clock(7_530) == "2:05:30")
    #expect(DurationWords.clock(93_600) == "26:00:00")
    #expect(DurationWords.clock(-5) == "0:00:00")
    #expect(DurationWords.clock(.infinity) == "-:--:--")
  }
}
