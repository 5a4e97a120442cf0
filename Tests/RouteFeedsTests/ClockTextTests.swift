import Testing

@testable import RouteFeeds

/// The time-of-day and offset grammar ISO 8601 timestamps and CSV time columns share
/// (`ClockText`): the same clock reads the same, and each keeps its own limits.
@Suite struct ClockTextTests {
  static let clocks = [
    "08:00", "08:00:00", "23:59:59", "24:00", "24:00:00", "24:00:01", "24:01", "25:00", "08:60", "08:00:60", "08:00:61",
    "8:00", "08:0", "08:", "0800", "08:00:0", "08-00", "08:00:00.5", "08:00:00,250", "08:00:00.",
  ]

  static func csvClock(_ text: String) -> (seconds: Double, offset: Double?)? {
    Array(text.utf8).withUnsafeBufferPointer { CSVValues.timeOfDay($0) }
  }

  static func csvOffset(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { CSVValues.utcOffset($0) }
  }

  @Test(arguments: clocks)
  func aClockReadsTheSameInAnISOTimestampAndACSVTimeColumn(clock: String) {
    let iso = ISO8601Parser.timestamp("1970-01-01T\(clock)")
    let csv = Self.csvClock(clock)
    if clock.hasPrefix("8:") {
      // A one-digit hour is CSV's only.
      #expect(iso == nil)
      #expect(csv?.seconds == 28_800.0)
    } else if clock == "0800" {
      #expect(iso == nil)
      #expect(csv?.seconds == 28_800.0)
    } else {
      #expect(iso == csv?.seconds, "\(clock)")
    }
  }

  @Test func offsetsKeepEachGrammarsLimits() {
    // ISO 8601: two-digit hours, at most ±14:00.
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+14:00") == -7_200.0)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00-0530") == 63_000.0)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+05") == 25_200.0)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+14:01") == nil)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+15:00") == nil)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+5") == nil)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+05:3") == nil)
    #expect(ISO8601Parser.timestamp("1970-01-01T12:00:00+05:60") == nil)
    // CSV offset column: a one-digit hour, names, up to ±23:59.
    #expect(Self.csvOffset("+5") == 18_000.0)
    #expect(Self.csvOffset("-5:30") == -19_800.0)
    #expect(Self.csvOffset("UTC+01:00") == 3_600.0)
    #expect(Self.csvOffset("gmt") == 0)
    #expect(Self.csvOffset("+23:59") == 86_340.0)
    #expect(Self.csvOffset("+24:00") == nil)
    #expect(Self.csvOffset("+123") == nil)
    #expect(Self.csvOffset("+1:3") == nil)
    #expect(Self.csvOffset("+:30") == nil)
    #expect(Self.csvClock("08:00:00.5-0600")?.offset == -21_600.0)
    #expect(Self.csvClock("08:00:00.5-0600")?.seconds == 28_800.5)
  }
}
