import RouteFeeds
import RouteMileage
import Testing

/// `ISO8601Parser`: the timestamp forms the readers accept straight from bytes, and what they
/// refuse (nil, which the readers count as `badTime`).
@Suite struct ISO8601ParserTests {
  /// 2025-11-29T08:00:00Z.
  static let eight = 1_764_403_200.0

  @Test(arguments: [
    ("2025-11-29T08:00:00Z", 0.0),
    ("2025-11-29t08:00:00z", 0),
    ("2025-11-29 08:00:00Z", 0),
    ("2025-11-29T08:00:00", 0),  // no zone: read as UTC
    ("2025-11-29T08:00Z", 0),  // minutes without seconds
    ("2025-11-29T08:00:00.5Z", 0.5),
    ("2025-11-29T08:00:00,250Z", 0.25),
    ("2025-11-29T08:00:00.123456789Z", 0.123456789),
    ("2025-11-29T09:00:00+01:00", 0),
    ("2025-11-29T09:00:00+0100", 0),
    ("2025-11-29T09:00:00+01", 0),
    ("2025-11-29T02:30:00-05:30", 0),
    ("2025-11-29T22:00:00+14:00", 0),  // Kiribati, the largest offset in use
    ("2025-11-28T20:00:00-12:00", 0),
    ("2025-11-29T07:59:60Z", 0),  // a leap second reads as the next second
    ("2025-11-29", -28_800.0),  // a date alone is its midnight, UTC
  ])
  func acceptedForms(text: String, offset: Double) throws {
    let parsed = try #require(ISO8601Parser.timestamp(text), "\(text)")
    #expect(abs(parsed - (Self.eight + offset)) < 1e-6, "\(text): \(parsed)")
  }

  @Test(arguments: [
    "", "2025-11-2", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-11-31T00:00:00Z",
    "2025-11-29T24:00:01Z", "2025-11-29T08:60:00Z", "2025-11-29T08:00:61Z", "2025-11-29X08:00:00Z",
    "2025-11-29T08:00:00+25:00", "2025-11-29T08:00:00Q",
    // Offsets beyond ±14:00 belong to no zone: a damaged or invented time.
    "2025-11-29T23:00:00+15:00", "2025-11-29T22:30:00+14:30", "2025-11-29T08:00:00-1500", "2025-11-29T08:00:00+23",
    "2025-11-29T08:00:00.000+15:00", "25-11-29T08:00:00Z", "yesterday at eight",
    "2025-11-29T08:00:00Z" + String(repeating: "0", count: 60),
  ])
  func refusedForms(text: String) {
    #expect(ISO8601Parser.timestamp(text) == nil, "\(text)")
  }

  @Test func leapDaysAndTheEdgesOfTheSupportedYears() throws {
    #expect(ISO8601Parser.timestamp("2024-02-29T00:00:00Z") == 1_709_164_800)
    #expect(ISO8601Parser.timestamp("2000-02-29T00:00:00Z") == 951_782_400)
    #expect(ISO8601Parser.timestamp("1900-02-29T00:00:00Z") == nil)
    #expect(ISO8601Parser.timestamp("1970-01-01T00:00:00Z") == 0)
    #expect(ISO8601Parser.timestamp("1969-12-31T23:59:59Z") == -1)
    #expect(ISO8601Parser.timestamp("0000-01-01T00:00:00Z") == -62_167_219_200)
    #expect(ISO8601Parser.timestamp("9999-12-31T23:59:59Z") == 253_402_300_799)
  }

  @Test func bytesAndTextGiveTheSameTimestamp() {
    // The text overload reads through the bytes one, so each is held to the timestamp itself.
    let cases: [(text: String, expected: Double?)] = [
      ("2025-11-29T08:00:00.250+02:00", Self.eight - 7_200 + 0.25), ("2025-11-29 08:00", Self.eight),
      ("2025-02-30T00:00:00Z", nil),
    ]
    for (text, expected) in cases {
      let fromBytes = Array(text.utf8).withUnsafeBufferPointer { ISO8601Parser.timestamp($0) }
      #expect(fromBytes == expected, "\(text)")
      #expect(ISO8601Parser.timestamp(text) == expected, "\(text)")
    }
  }

  @Test func readsBackWhatCivilTimeWrites() {
    // What the parser reads back is what `CivilTime.iso8601` wrote, to the millisecond.
    for timestamp in [1_764_403_200.0, 951_782_400.125, -62_167_219_200, 253_402_300_799] {
      #expect(ISO8601Parser.timestamp(CivilTime.iso8601(timestamp)) == timestamp)
    }
  }
}
