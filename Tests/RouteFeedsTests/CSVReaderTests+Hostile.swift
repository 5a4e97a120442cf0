import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// Bad and hostile input: each gives a documented count or a clear error, never a crash, and
/// keeps everything valid around it.
extension CSVReaderTests {
  static let header = "timestamp,latitude,longitude,horizontal_accuracy\n"

  static func row(_ second: Int, _ latitude: String = "37.7749", _ longitude: String = "-122.4194") -> String {
    "2025-11-29T08:00:\(second < 10 ? "0" : "")\(second)Z,\(latitude),\(longitude),5\n"
  }

  @Test func badRowsAreCountedWithTheirLineNumbersAndReadingContinues() {
    let text =
      Self.header + Self.row(0) + "yesterday,37.7,-122.4,5\n" + Self.row(2, "north") + Self.row(3, "37.8", "")
      + "2025-11-29T08:00:04Z\n" + "2025-11-29T08:00:05Z,37.9,-122.1,five\n" + Self.row(6)
    let measured = CSVTestSupport.measure(text, settings: IngestSettings(filter: nil))
    let report = measured.report
    #expect(report.records == 7)
    #expect(report.retained == 2)
    #expect(report.errors == 5)
    #expect(report.errorLines == [3, 4, 5, 6, 7])
    #expect(report.errorReasons == [.badTime: 1, .badNumber: 4])
    #expect(report.isBalanced)
  }

  @Test(arguments: [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", String(repeating: "1", count: 400) + ".5", "0x1p3",
    "--1", "", " ",
  ])
  func nonNumbersAreUnreadable(_ value: String) {
    let read = CSVTestSupport.read(Self.header + Self.row(0, value) + Self.row(1))
    #expect(read.sink.unreadable == [.unreadable(.badNumber, line: 2)])
    #expect(read.sink.samples.count == 1)
  }

  @Test func hugeButFiniteNumbersParseAndAreJudgedDownstream() {
    let digits = String(repeating: "9", count: 300)
    let read = CSVTestSupport.read(Self.header + Self.row(0, digits) + Self.row(1, "1e308"))
    #expect(read.sink.samples.map(\.latitude) == [Double(digits)!, 1e308])
    let measured = CSVTestSupport.measure(Self.header + Self.row(0, digits) + Self.row(1, "1e308"))
    #expect(measured.report.rejected[FeedReason("invalidCoordinate")] == 2)
  }

  @Test func timestampsAtTheEdgesOfTheCalendar() {
    let text =
      "timestamp,lat,lon\n0000-01-01T00:00:00Z,1,2\n9999-12-31T23:59:59Z,1,2\n10000-01-01T00:00:00Z,1,2\n2025-13-01T00:00:00Z,1,2\n2025-02-29T00:00:00Z,1,2\n2024-02-29T24:00:00Z,1,2\n"
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.map(\.timestamp) == [-62_167_219_200, 253_402_300_799, 1_709_251_200])
    #expect(
      read.sink.unreadable == [
        .unreadable(.badTime, line: 4), .unreadable(.badTime, line: 5), .unreadable(.badTime, line: 6),
      ])
  }

  @Test func timeRunningBackwardsIsJudgedInTimeOrder() {
    // A row stored before an earlier one is no longer lost: the file is judged in time order.
    let text = Self.header + Self.row(10) + Self.row(5, "37.7750") + Self.row(20, "37.7760")
    let measured = CSVTestSupport.measure(text)
    #expect(measured.report.rejected[FeedReason("outOfOrder")] == nil)
    #expect(measured.report.retained == 3)
    let inOrder = CSVTestSupport.measure(Self.header + Self.row(5, "37.7750") + Self.row(10) + Self.row(20, "37.7760"))
    #expect(measured == inOrder)
  }

  @Test func aTenMegabyteLineIsSkippedWithoutLosingItsNeighbours() {
    var bytes = Array((Self.header + Self.row(0)).utf8)
    bytes += Array("2025-11-29T08:00:01Z,".utf8) + [UInt8](repeating: 0x37, count: 10 << 20) + Array(",1,5\n".utf8)
    bytes += Array((Self.row(2) + Self.row(3)).utf8)
    for size in [4096, 1 << 20, 0] {
      let read = CSVTestSupport.read(bytes, chunkSize: size)
      #expect(
        read.sink.events.map(\.description) == [
          "2: position t=1764403200.0 session=nil", "3: unreadable lineTooLong",
          "4: position t=1764403202.0 session=nil", "5: position t=1764403203.0 session=nil",
        ], "chunk size \(size)")
    }
  }

  @Test func aFiftyMegabyteLineIsSkippedInTheIngestChunking() {
    var bytes = Array((Self.header + Self.row(0)).utf8)
    bytes += [UInt8](repeating: 0x41, count: 50 << 20) + [0x0A]
    bytes += Array(Self.row(2).utf8)
    let read = CSVTestSupport.read(bytes, chunkSize: FeedIngest.chunkSize)
    #expect(
      read.sink.events.map(\.description) == [
        "2: position t=1764403200.0 session=nil", "3: unreadable lineTooLong", "4: position t=1764403202.0 session=nil",
      ])
  }

  @Test func anOverlongQuotedRecordIsSkippedToTheFirstLineFeedPastTheLimit() {
    // The open quote would swallow every line; the limit stops it, and reading resumes at the
    // first line feed after 64 bytes.
    let text = Self.header + "2025-11-29T08:00:00Z,1,2,\"" + String(repeating: "x\n", count: 40) + "x\"\n" + Self.row(5)
    let read = CSVTestSupport.read(text, maximumRecordLength: 64)
    let events = read.sink.events.map(\.description)
    #expect(events.first == "2: unreadable lineTooLong")
    // Past the limit, the swallowed lines are read as lines again: `x` rows are unreadable.
    #expect(events.last == "43: position t=1764403205.0 session=nil")
    #expect(read.sink.unreadable.count == 1 + 21)
    for size in [1, 3, 64] {
      #expect(CSVTestSupport.read(text, chunkSize: size, maximumRecordLength: 64) == read)
    }
  }

  @Test func aQuoteLeftOpenAtTheEndIsCounted() {
    let read = CSVTestSupport.read(Self.header + Self.row(0) + "2025-11-29T08:00:01Z,\"37.7,-122.4,5\n" + Self.row(2))
    #expect(
      read.sink.events.map(\.description) == [
        "2: position t=1764403200.0 session=nil", "3: unreadable unterminatedQuote",
      ])
  }

  @Test func nulPaddingIsTrimmedButNulInsideAValueIsBinary() {
    let padded =
      "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,SPEED\r\n2419\0\0,T,090204,063821,31.769598N\0,035.208829E,20\0\0\0\r\n"
    let read = CSVTestSupport.read(padded)
    #expect(read.sink.samples.first?.latitude == 31.769598)
    #expect(read.sink.samples.first?.timestamp == 1_233_729_501)  // 2009-02-04T06:38:21Z
    #expect(abs((read.sink.samples.first?.speed ?? 0) - 20 / 3.6) < 1e-12)
    let inside = CSVTestSupport.read(Self.header + Self.row(0, "37.7\0\0749") + Self.row(1))
    #expect(inside.sink.unreadable == [.unreadable(.binary, line: 2)])
  }

  @Test func binaryGarbageAfterAHeaderIsCountedAndBalanced() {
    var random = SeededRandom(seed: 0xB1_4A57)
    var bytes = Array((Self.header + Self.row(0)).utf8)
    bytes += (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    bytes += Array(("\n" + Self.row(59)).utf8)
    let measured = CSVTestSupport.measure(bytes, settings: IngestSettings(filter: nil))
    #expect(measured.report.failure == nil)
    #expect(measured.report.isBalanced)
    #expect(measured.report.errors > 0)
    #expect(measured.report.errorReasons[.binary, default: 0] > 0)
    #expect(measured.report.retained >= 2)
    #expect(measured.distance.meters.isFinite && measured.distance.meters >= 0)
    #expect(CSVTestSupport.read(bytes, chunkSize: 7) == CSVTestSupport.read(bytes))
  }

  @Test func aBinaryFileIsRefusedAsNotCSV() {
    // The start of a gzip file.
    let bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xED, 0x5A, 0x0A, 0x41]
    let read = CSVTestSupport.read(bytes)
    #expect(
      read.error
        == .unmappedColumns(
          line: 1,
          detail:
            "the first line holds binary bytes, so this does not look like a CSV file; if it is GPX or NMEA, pass --input-format gpx or --input-format nmea"
        ))
    // The ingest decompresses gzip (#16): these bytes are a gzip stream cut short, named as such.
    guard case .badCompression? = CSVTestSupport.measure(bytes).report.failure else {
      Issue.record("expected badCompression, got \(String(describing: CSVTestSupport.measure(bytes).report.failure))")
      return
    }
  }

  @Test func randomBytesNeverCrashAndAlwaysBalance() {
    var random = SeededRandom(seed: 0xF00D)
    for round in 0..<40 {
      let length = Int.random(in: 0..<4000, using: &random)
      var bytes = round % 2 == 0 ? Array(Self.header.utf8) : []
      bytes += (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let measured = CSVTestSupport.measure(bytes, chunkSize: 1 + round % 9)
      #expect(measured.report.isBalanced)
      #expect(measured.distance.meters.isFinite && measured.distance.meters >= 0)
      let whole = CSVTestSupport.read(bytes, maximumRecordLength: 256)
      #expect(CSVTestSupport.read(bytes, chunkSize: 3, maximumRecordLength: 256) == whole)
    }
  }

  @Test func invalidUTF8AndMixedLineEndingsInData() {
    let text: [UInt8] =
      Array((Self.header + Self.row(0)).utf8) + Array("2025-11-29T08:00:01Z,3\u{7}.5,1,5\r\n".utf8)
      + [0xC3, 0x28, 0x0A] + Array((Self.row(2) + "2025-11-29T08:00:03Z,37.7,-122.4,5\r" + Self.row(4)).utf8)
    let read = CSVTestSupport.read(text)
    #expect(
      read.sink.events.map(\.description) == [
        "2: position t=1764403200.0 session=nil", "3: unreadable binary", "4: unreadable badTime",
        "5: position t=1764403202.0 session=nil", "6: unreadable loneCarriageReturn",
      ])
  }

  @Test func aFileThatTurnsIntoNMEAPartwayCountsTheForeignLines() {
    let text =
      Self.header + Self.row(0)
      + "$GPRMC,080001,A,3746.494,N,12225.164,W,0.0,0.0,291125,,*1C\n"
      + "<trkpt lat=\"37.7\" lon=\"-122.4\"><time>2025-11-29T08:00:02Z</time></trkpt>\n" + Self.row(3)
    let measured = CSVTestSupport.measure(text, settings: IngestSettings(filter: nil))
    #expect(measured.report.records == 4)
    #expect(measured.report.retained == 2)
    #expect(measured.report.errorReasons == [.badTime: 2])
    #expect(measured.report.errorLines == [3, 4])
  }

  @Test func aSessionValueLongerThanTheLimitIsUnreadable() {
    let long = String(repeating: "s", count: CSVReader.maximumSessionLength + 1)
    let text = "timestamp,lat,lon,session\n2025-11-29T08:00:00Z,1,2,\(long)\n2025-11-29T08:00:01Z,1,2,ok\n"
    let read = CSVTestSupport.read(text)
    #expect(read.sink.unreadable == [.unreadable(FeedReason("badSession"), line: 2)])
    #expect(read.sink.sessions == [0])
  }

  @Test func manyColumnsAndWideHeadersStayBounded() {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let columns = (1...5000).map { "c" + String($0, radix: 26).map { letters[Int(String($0), radix: 26)!] } }
    let header = (columns + ["timestamp", "lat", "lon"]).joined(separator: ",")
    let read = CSVTestSupport.read(header + "\n")
    // Only the first 4096 columns are matched; the error lists 24 of them.
    if case .unmappedColumns(_, let detail)? = read.error {
      #expect(detail.contains("among the 4,096 columns"))
      #expect(
        detail.hasPrefix(
          "found no timestamp, latitude or longitude column among the 4,096 columns of the header (cb, cc,"))
      #expect(detail.contains(", … 4072 more);"))
    } else {
      Issue.record("expected an unmapped-columns error, got \(String(describing: read.error))")
    }
  }
}
