import RouteFeeds
import RouteMileage
import Testing

/// The NMEA reader's word-at-a-time paths (field splitting, checksum spans, coordinates, short
/// numbers, times of day, GSA read only when it can matter) at their edges: each must read what
/// reading byte by byte reads, or refuse what it refuses.
@Suite("NMEA fast paths")
struct NMEAFastPathTests {
  /// The receiver layout every epoch of a generated log has: RMC, GGA, GSA, GST.
  static func epoch(_ time: String, _ date: String, latitude: String = "4722.12345", longitude: String = "00833.54321")
    -> [String]
  {
    [
      "GPRMC,\(time),A,\(latitude),N,\(longitude),E,4.762,310.6,\(date),,,A",
      "GPGGA,\(time),\(latitude),N,\(longitude),E,1,14,1.6,45.9,M,-7.9,M,,",
      "GPGSA,A,3,02,05,07,09,12,13,15,17,19,20,24,28,2.6,1.6,2.1",
      "GPGST,\(time),2.0,6.4,4.8,90.0,4.8,6.4,12.0",
    ]
  }

  @Test("coordinates of every length read as the digit-by-digit rule gives them")
  func coordinateShapes() throws {
    // (latitude field, longitude field, expected degrees): one to eight fraction digits take the
    // word path; none, more than eight, or other integer widths take the byte path.
    let cases: [(String, String, Double, Double)] = [
      ("4722.5", "00833.25", 47 + (22 + 5 / 1e1) / 60, 8 + (33 + 25 / 1e2) / 60),
      ("4722.12345678", "00833.87654321", 47 + (22 + 12_345_678 / 1e8) / 60, 8 + (33 + 87_654_321 / 1e8) / 60),
      ("4722.123456789", "00833.1", 47 + (22 + 123_456_789 / 1e9) / 60, 8 + (33 + 1 / 1e1) / 60),
      ("4722", "00833", 47 + 22.0 / 60, 8 + 33.0 / 60),
      ("0022.50000", "17959.99999", (22 + 50_000 / 1e5) / 60, 179 + (59 + 99_999 / 1e5) / 60),
      ("512.5", "12345.6", 5 + (12 + 5 / 1e1) / 60, 123 + (45 + 6 / 1e1) / 60),
    ]
    for (latitude, longitude, north, east) in cases {
      let text = NMEATestLog.lines([
        "GPRMC,120000.00,A,\(latitude),N,\(longitude),E,1.0,90.0,010524,,,A",
        "GPRMC,120001.00,A,\(latitude),S,\(longitude),W,1.0,90.0,010524,,,A",
      ])
      let positions = NMEATestRun.events(text).positions
      try #require(positions.count == 2, "\(latitude) \(longitude)")
      #expect(
        positions[0].sample.latitude == north && positions[0].sample.longitude == east, "\(latitude) \(longitude)")
      #expect(positions[1].sample.latitude == -north && positions[1].sample.longitude == -east)
    }
  }

  @Test("a coordinate with a stray byte, 60 minutes or a sign is a bad number on either path")
  func badCoordinates() {
    for latitude in [
      "4722.1234x678", "4760.00000", "-4722.12345", "4722.12a45", "47x2.12345", "4722..2345", "4722.1234.", "47",
    ] {
      let text = NMEATestLog.lines(["GPRMC,120000.00,A,\(latitude),N,00833.54321,E,1.0,90.0,010524,,,A"])
      let run = NMEATestRun.events(text)
      #expect(run.positions.isEmpty, "\(latitude)")
      #expect(run.events.contains(.unreadable(.badNumber, line: 1)), "\(latitude)")
    }
  }

  @Test("speeds, DOPs and altitudes: short decimals as the general parser reads them, the rest handed to it")
  func shortNumbers() throws {
    // (speed field in knots, expected m/s); `10.` and `.5` are not the short shape but are read.
    let cases: [(String, Double)] = [
      ("0.000", 0), ("4.762", 4.762 * 1852 / 3600), ("10", 10.0 * 1852 / 3600), ("10.", 10.0 * 1852 / 3600),
      (".5", 0.5 * 1852 / 3600), ("123456.78901", 123456.78901 * 1852 / 3600), ("1e1", 10.0 * 1852 / 3600),
    ]
    for (knots, metresPerSecond) in cases {
      let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc("120000.00", "010524", knots: knots)]))
      let position = try #require(run.positions.first, "\(knots)")
      #expect(position.sample.speed == metresPerSecond, "\(knots)")
    }
    for knots in ["1.2.3", "12a", "-", "1.5x"] {
      let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc("120000.00", "010524", knots: knots)]))
      #expect(run.positions.isEmpty, "\(knots)")
    }
  }

  @Test("times of day: hhmmss with or without a fraction, a leap second, and out-of-range fields")
  func timesOfDay() {
    let good = [
      ("120000", "2024-05-01T12:00:00Z"), ("235960.5", "2024-05-02T00:00:00.500Z"),
      ("000000.123", "2024-05-01T00:00:00.123Z"),
    ]
    for (time, expected) in good {
      let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc(time, "010524")]))
      #expect(run.positions.map { iso($0.sample.timestamp) } == [expected], "\(time)")
    }
    for time in ["240000.00", "126000.00", "120061.00", "12a000.00", "1200", "120000.", "120000,5"] {
      let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc(time, "010524")]))
      #expect(run.positions.isEmpty, "\(time)")
    }
  }

  @Test("the four-sentence epoch across midnight, split at every chunk size, reads the same")
  func everyChunkSizeAcrossMidnight() {
    let bodies =
      Self.epoch("235959.00", "311224") + Self.epoch("000000.00", "010125", latitude: "4722.12400")
      + Self.epoch("000001.00", "010125", latitude: "4722.12455")
    let text = NMEATestLog.lines(bodies)
    let whole = NMEATestRun.events(text)
    #expect(
      whole.positions.map { iso($0.sample.timestamp) } == [
        "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z",
      ])
    // GST's σ: sqrt(4.8² + 6.4²) = 8.
    #expect(
      whole.positions.allSatisfy { $0.sample.horizontalAccuracy == 8 && !$0.sample.horizontalAccuracyIsEstimated })
    for size in 1...text.utf8.count where size < 12 || size % 7 == 0 {
      #expect(NMEATestRun.events(text, chunkSize: size).events == whole.events, "chunk size \(size)")
    }
  }

  @Test("a checksum that differs in any one byte of the span is caught, whatever the byte's place in its word")
  func checksumsAtEveryOffset() {
    let body = Self.epoch("120000.00", "010524")[0]
    let good = NMEATestLog.sentence(body)
    #expect(NMEATestRun.events(good + "\r\n").positions.count == 1)
    // Change each byte of the body to another printable byte that is neither a separator nor
    // a sentence start: the checksum no longer matches.
    let bytes = Array(good.utf8)
    for index in 1..<(bytes.count - 3) {
      var damaged = bytes
      damaged[index] = bytes[index] == 0x37 ? 0x38 : 0x37
      let run = NMEATestRun.events(damaged + [0x0D, 0x0A])
      #expect(run.events == [.unreadable(.badChecksum, line: 1)], "byte \(index)")
    }
    // A space inside the span (a byte the word test stops at) is still part of the sum.
    let spaced = NMEATestLog.sentence(body.replacingOccurrences(of: ",,,A", with: ", ,,A"))
    #expect(NMEATestRun.events(spaced + "\r\n").positions.count == 1)
  }

  @Test("a GSA's HDOP counts only when the epoch has none of its own, wherever the GSA stands")
  func gsaOnlyWhenItCanMatter() {
    let gsa = "GPGSA,A,3,01,02,03,04,,,,,,,,,4.0,2.5,3.0"
    let checked = NMEATestLog.sentence(gsa)
    let badGSA = String(checked.dropLast(2)) + (checked.hasSuffix("00") ? "01" : "00")
    let text =
      NMEATestLog.lines([
        // GSA after a GGA with HDOP 1.6: the GGA's.
        NMEATestLog.rmc("120000.00", "010524"), NMEATestLog.gga("120000.00", hdop: "1.6"), gsa,
        // GSA between the RMC and a GGA with HDOP 1.2: still the GGA's.
        NMEATestLog.rmc("120001.00", "010524", north: 10), gsa, NMEATestLog.gga("120001.00", north: 10, hdop: "1.2"),
        // GGA without HDOP: the GSA's 2.5, after it or before it.
        NMEATestLog.rmc("120002.00", "010524", north: 20), NMEATestLog.gga("120002.00", north: 20, hdop: ""), gsa,
        NMEATestLog.rmc("120003.00", "010524", north: 30), gsa, NMEATestLog.gga("120003.00", north: 30, hdop: ""),
        // A GSA that cannot matter is still checked: a bad checksum is an error.
        NMEATestLog.rmc("120004.00", "010524", north: 40), NMEATestLog.gga("120004.00", north: 40, hdop: "1.0"),
      ]) + badGSA + "\r\n"
    let run = NMEATestRun.events(text)
    let expected: [Double?] = [1.6 * 5, 1.2 * 5, 2.5 * 5, 2.5 * 5, 1.0 * 5]
    #expect(run.positions.map(\.sample.horizontalAccuracy) == expected)
    #expect(run.events.contains(.unreadable(.badChecksum, line: 15)))
    #expect(NMEATestRun.measure(text).report.isBalanced)
  }
}
