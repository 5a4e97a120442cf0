import RouteMileage
import Testing

/// `CivilTime` and `CivilDate`: proleptic Gregorian arithmetic for UTC timestamps, years
/// 0000–9999, and the one ISO 8601 text the tool writes.
@Suite struct CivilTimeTests {
  @Test func dayCountsFromTheEpoch() {
    #expect(CivilTime.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
    #expect(CivilTime.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
    #expect(CivilTime.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
    #expect(CivilTime.daysSinceEpoch(year: 0, month: 1, day: 1) == -719_528)
    #expect(CivilTime.daysSinceEpoch(year: 2025, month: 11, day: 29) * 86_400 == 1_764_374_400)
  }

  @Test func datesRoundTripThroughDayCounts() {
    // Every day of years 0, 1900, 1970, 2000, 2024 and 9999, and a stride through the rest.
    var days: [Int] = []
    for year in [0, 1900, 1970, 2000, 2024, 9999] {
      let first = CivilTime.daysSinceEpoch(year: year, month: 1, day: 1)
      let next = year == 9999 ? first + 365 : CivilTime.daysSinceEpoch(year: year + 1, month: 1, day: 1)
      days += Array(first..<next)
    }
    days += Array(stride(from: -719_528, to: 2_932_897, by: 997))
    for day in days {
      let date = CivilTime.date(daysSinceEpoch: day)
      #expect(CivilTime.isValidDate(year: date.year, month: date.month, day: date.day), "\(day)")
      #expect(CivilTime.daysSinceEpoch(year: date.year, month: date.month, day: date.day) == day, "\(date)")
    }
  }

  @Test func validDates() {
    #expect(CivilTime.isValidDate(year: 2024, month: 2, day: 29))
    #expect(CivilTime.isValidDate(year: 2000, month: 2, day: 29))
    #expect(!CivilTime.isValidDate(year: 1900, month: 2, day: 29))
    #expect(!CivilTime.isValidDate(year: 2025, month: 2, day: 29))
    #expect(!CivilTime.isValidDate(year: 2025, month: 4, day: 31))
    #expect(CivilTime.isValidDate(year: 2025, month: 12, day: 31))
    #expect(!CivilTime.isValidDate(year: 2025, month: 13, day: 1))
    #expect(!CivilTime.isValidDate(year: 2025, month: 0, day: 1))
    #expect(!CivilTime.isValidDate(year: 2025, month: 1, day: 0))
    #expect(!CivilTime.isValidDate(year: 10_000, month: 1, day: 1))
    #expect(!CivilTime.isValidDate(year: -1, month: 1, day: 1))
  }

  @Test func iso8601Text() {
    #expect(CivilTime.iso8601(1_764_403_200) == "2025-11-29T08:00:00Z")
    #expect(CivilTime.iso8601(1_764_403_200.25) == "2025-11-29T08:00:00.250Z")
    #expect(CivilTime.iso8601(-0.5) == "1969-12-31T23:59:59.500Z")
    #expect(CivilTime.iso8601(0) == "1970-01-01T00:00:00Z")
    #expect(CivilTime.iso8601(.nan) == "invalid")
  }

  @Test func civilDates() throws {
    let date = try #require(CivilDate(parsing: "2025-11-29"))
    #expect(date.description == "2025-11-29")
    #expect(date.startTimestamp == 1_764_374_400)
    #expect(CivilDate(year: 7, month: 3, day: 1)?.description == "0007-03-01")
    #expect(CivilDate(parsing: "2025-2-01") == nil)
    #expect(CivilDate(parsing: "2025-02-30") == nil)
    #expect(CivilDate(parsing: "2025-02-01T00:00:00Z") == nil)
    #expect(CivilDate(year: 2025, month: 2, day: 29) == nil)
  }
}
