import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// Hostile input, across the three readers, through the ingest stage as `measure` and `import`
/// run it: each case gives a clear error (kind and line) or a documented count, keeps what was
/// valid around it, and stays within a structural memory bound. Large inputs are synthesised
/// while they are read (`SyntheticByteSource`), so a 100 MB feed never exists in memory.
/// docs/robustness.md has the table of outcomes these tests pin.
@Suite struct HostileInputTests {
  static let gpxHead = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
  static let gpxTail = "</trkseg></trk></gpx>\n"
  static func point(_ time: String, _ latitude: String = "45.5", _ longitude: String = "13.25") -> String {
    "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(time)</time></trkpt>\n"
  }
  static let csvHeader = "timestamp,latitude,longitude\n"
  static let unfiltered = IngestSettings(filter: nil)
  /// 0.0001° of latitude: what consecutive test positions are apart.
  static let step = HostileDrive.step
  /// 2025-01-01T07:00:00Z and 2025-11-29T07:00:00Z.
  static let newYear7 = 1_735_714_800.0
  static let november7 = 1_764_399_600.0

  /// The most a GPX reader holds between chunks: the element stack's tracked levels and the
  /// value buffer.
  /// (Capacities may be rounded up, hence twice the value buffer.)
  static let gpxBound =
    XMLElementStack<GPXRole>.trackedDepth * MemoryLayout<XMLOpenElement<GPXRole>>.stride + 2 * XMLValueBuffer.capacity

  // MARK: Deeply nested XML

  @Test func twoMillionNestedElementsStreamThroughInBoundedMemory() {
    let depth = 2_000_000
    let source = SyntheticByteSource([
      .text(Self.gpxHead + "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time><extensions>\n"),
      .repeated("<x>", count: depth),
      .repeated("</x>", count: depth),
      .text("</extensions></trkpt>\n" + Self.point("2025-01-01T07:00:10Z", "45.5001") + Self.gpxTail),
    ])
    let outcome = HostileFeed.gpx(source)
    let measured = outcome.measurement
    #expect(measured.report.failure == nil)
    #expect(measured.report.records == 2)
    #expect(measured.report.retained == 2)
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, Self.step))
    #expect(outcome.largestHeld <= Self.gpxBound)
  }

  @Test func nestingNeverClosedIsATruncatedDocumentNotARecursion() {
    let source = SyntheticByteSource([
      .text(Self.gpxHead + Self.point("2025-01-01T07:00:00Z") + "<trkpt lat=\"45.5001\" lon=\"13.25\"><extensions>\n"),
      .repeated("<x>", count: 2_000_000),
    ])
    let outcome = HostileFeed.gpx(source)
    let report = outcome.measurement.report
    // The document's last line, and the five open schema elements plus the two million.
    #expect(report.failure == .truncated(line: 5, detail: "2000005 nested elements are never closed"))
    #expect(report.retained == 1)
    #expect(report.errorReasons == [.unfinishedPoint: 1])
    #expect(report.errorLines == [4])
    #expect(report.isBalanced)
    #expect(outcome.largestHeld <= Self.gpxBound)
  }

  @Test func trackElementsNestedWhereTheSchemaHasNoneAreNotRead() {
    // Only a trkpt in trk/trkseg is a track point; one nested anywhere else is not a record.
    let text =
      Self.gpxHead + "<trkseg>" + Self.point("2025-01-01T07:00:00Z") + "</trkseg>"
      + "<trkpt lat=\"45.5001\" lon=\"13.25\"><trk><trkseg>" + Self.point("2025-01-01T07:00:05Z") + "</trkseg></trk>"
      + "<time>2025-01-01T07:00:10Z</time></trkpt>\n" + Self.gpxTail
    let measured = HostileFeed.measure(text)
    #expect(measured.report.failure == nil)
    #expect(measured.report.records == 1)
    #expect(measured.report.firstTimestamp == Self.newYear7 + 10)
  }

  // MARK: A 100 MB file with an unclosed tag at the end

  @Test func anUnclosedTagAtTheEndOfA100MegabyteFileKeepsEveryPointBeforeIt() {
    let minutes = 24_000  // 60 points a minute, ~75 bytes each: 108 MB
    let points = minutes * 60
    let source = SyntheticByteSource([
      .text(Self.gpxHead), HostileDrive.gpxMinutes(minutes), .text("<trkpt lat=\"45.5\" lon=\"13.25\""),
    ])
    #expect(source.size > 100 << 20)
    let outcome = HostileFeed.gpx(source)
    let report = outcome.measurement.report
    let lastLine = points + 3
    #expect(
      report.failure == .truncated(line: lastLine, detail: "it stops inside the tag that begins on line \(lastLine)"))
    #expect(report.records == points + 1)
    #expect(report.retained == points)
    #expect(report.errorReasons == [.unfinishedPoint: 1])
    #expect(report.errorLines == [lastLine])
    #expect(report.isBalanced)
    let distance = outcome.measurement.distance
    #expect(distance.segments.count == 1)
    #expect(distance.gaps.isEmpty)
    #expect(abs(distance.meters - Double(points - 1) * Self.step) < 0.01)
    #expect(outcome.largestHeld <= Self.gpxBound)
  }

  // MARK: Entity expansion

  @Test func noCustomEntityIsEverExpanded() {
    var lines = [
      "<?xml version=\"1.0\"?>",
      "<!DOCTYPE gpx [",
      "<!ENTITY lol \"lol\">",
    ]
    for level in 1...9 {
      lines.append(
        "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">")
    }
    lines += [
      "<!ENTITY time \"2025-01-01T07:00:00Z\">",
      "<!ENTITY latitude \"45.5\">",
      "<!ENTITY external SYSTEM \"file:///etc/passwd\">",
      "<!ENTITY % parameter \"<!ENTITY inner 'x'>\"> %parameter;",
      "]>",
      "<gpx><trk><trkseg>",
      Self.point("&time;"),  // line 19: would be a valid time if expanded
      Self.point("2025-01-01T07:00:01Z", "&latitude;"),
      Self.point("&external;"),
      Self.point("&lol9;"),
      Self.point("&inner;"),
      "<trkpt lat=\"45.5\" lon=\"13.25\"><desc>&lol9;&external;</desc><time>&#50;025-01-01T07:00:02Z</time></trkpt>",
      Self.gpxTail,
    ]
    let measured = HostileFeed.measure(
      lines.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(separator: "\n"))
    let report = measured.report
    #expect(report.failure == nil)
    #expect(report.records == 6)
    #expect(report.errorReasons == [.badTime: 4, .badNumber: 1])
    #expect(report.errorLines == [19, 20, 21, 22, 23])
    // Text the reader skips is never decoded; a character reference in a value is.
    #expect(report.retained == 1)
    #expect(report.firstTimestamp == Self.newYear7 + 2)
  }

  // MARK: A 50 MB line

  /// A feed of `head`, then 50 MB of `filler` (a 1 KB run 51,200 times, never held whole by the
  /// source), then `tail`.
  static func fiftyMegabytes(of filler: Character, after head: String, before tail: String) -> SyntheticByteSource {
    SyntheticByteSource([.text(head), .repeated(String(repeating: filler, count: 1024), count: 50 * 1024), .text(tail)])
  }

  /// Three GPX points 10 s apart on lines 3 to 5; inside the second, `opening`, 50 MB of
  /// `filler`, then `closing`.
  static func gpxWithFiftyMegabytes(of filler: Character, after opening: String, before closing: String)
    -> SyntheticByteSource
  {
    fiftyMegabytes(
      of: filler, after: gpxHead + point("2025-01-01T07:00:00Z") + "<trkpt lat=\"45.5001\" lon=\"13.25\">" + opening,
      before: closing + "</trkpt>\n" + point("2025-01-01T07:00:20Z", "45.5002") + gpxTail)
  }

  /// What a 50 MB line that cannot be read leaves: the feed read to its end, the line counted as
  /// one `reason` on `line`, and its two neighbours retained.
  static func expectOneLongLine(
    _ report: IngestReport, _ reason: FeedReason, onLine line: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(report.failure == nil, sourceLocation: sourceLocation)
    #expect(report.errorReasons == [reason: 1], sourceLocation: sourceLocation)
    #expect(report.errorLines == [line], sourceLocation: sourceLocation)
    #expect(report.retained == 2, sourceLocation: sourceLocation)
  }

  @Test func aFiftyMegabyteGPXLineIsSkippedText() {
    let outcome = HostileFeed.gpx(
      Self.gpxWithFiftyMegabytes(of: "a", after: "<desc>", before: "</desc><time>2025-01-01T07:00:10Z</time>"))
    #expect(outcome.measurement.report.failure == nil)
    #expect(outcome.measurement.report.retained == 3)
    #expect(Tolerance.constructedMeters.accepts(outcome.measurement.distance.meters, 2 * Self.step))
    #expect(outcome.largestHeld <= Self.gpxBound)
  }

  @Test func aFiftyMegabyteValueIsUnreadableNotBuffered() {
    let outcome = HostileFeed.gpx(
      Self.gpxWithFiftyMegabytes(of: "0", after: "<time>2025-01-01T07:00:10", before: "Z</time>"))
    Self.expectOneLongLine(outcome.measurement.report, .badTime, onLine: 4)
    #expect(outcome.largestHeld <= Self.gpxBound)
  }

  @Test func aFiftyMegabyteNMEALineIsCountedAndItsNeighboursRead() {
    let source = Self.fiftyMegabytes(
      of: "7",
      after: HostileNMEA.rmc("070000") + "\r\n$GPGGA,",
      before: "\r\n" + HostileNMEA.rmc("070010", latitude: "4807.0500") + "\r\n")
    let outcome = HostileFeed.nmea(source)
    Self.expectOneLongLine(outcome.measurement.report, .lineTooLong, onLine: 2)
    #expect(outcome.measurement.distance.segments.count == 1)
    // The partial-line buffer: one 4 KB line (its capacity rounded up), never the 50 MB.
    #expect(outcome.largestHeld <= 2 * NMEAReader.maximumLineLength)
  }

  @Test func aFiftyMegabyteCSVLineIsCountedAndItsNeighboursRead() {
    let source = Self.fiftyMegabytes(
      of: "1",
      after: Self.csvHeader + "2025-01-01T07:00:00Z,45.5,13.25\n2025-01-01T07:00:05Z,45.5",
      before: ",13.25\n2025-01-01T07:00:10Z,45.5001,13.25\n")
    let outcome = HostileFeed.csv(source)
    Self.expectOneLongLine(outcome.measurement.report, .lineTooLong, onLine: 3)
    #expect(Tolerance.constructedMeters.accepts(outcome.measurement.distance.meters, Self.step))
    // The carried record stops growing at the 1 MiB limit (its capacity doubles past it once).
    #expect(outcome.largestHeld <= 2 * CSVReader.defaultMaximumRecordLength + 64 << 10)
  }

  // MARK: Invalid UTF-8, NUL bytes, mixed line endings

  @Test func gpxWithInvalidUTF8NulBytesAndMixedLineEndings() {
    var bytes = Array((Self.gpxHead + Self.point("2025-01-01T07:00:00Z")).utf8)
    // lines 4-5
    bytes += Array("<trkpt lat=\"45.5001\" lon=\"13.25\">\r<time>2025-01-01T07:00:10Z</time></trkpt>\r\n".utf8)
    bytes += Array("<trkpt lat=\"45.5002\" lon=\"13.25\"><time>2025-01-01T07:00:20Z</time><name>\u{0}\u{0}".utf8)
    bytes += [0xFF, 0xFE, 0xC3] + Array("</name></trkpt>\n\r\n".utf8)  // lines 6-7
    // line 8
    bytes += Array("<trkpt lat=\"45.5003\" lon=\"13.25\"><time>2025-01-01T07:00:30Z\u{0}</time></trkpt>\n".utf8)
    bytes += Array("<trkpt lat=\"45.50".utf8) + [0xC3, 0xA9]
    bytes += Array("\" lon=\"13.25\"><time>2025-01-01T07:00:40Z</time></trkpt>\r".utf8)  // line 9
    bytes += Array(Self.point("2025-01-01T07:00:50Z", "45.5005").utf8) + Array(Self.gpxTail.utf8) + [0, 0, 0, 0]
    let measured = HostileFeed.measure(bytes)
    let report = measured.report
    #expect(report.failure == nil)
    #expect(report.records == 6)
    #expect(report.retained == 4)
    #expect(report.errorReasons == [.badTime: 1, .badNumber: 1])
    #expect(report.errorLines == [8, 9])
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, 5 * Self.step))
  }

  @Test func nmeaWithInvalidUTF8NulBytesAndMixedLineEndings() {
    var text = HostileNMEA.rmc("070000") + "\r" + HostileNMEA.rmc("070001", latitude: "4807.0420") + "\r\n"
    text += HostileNMEA.rmc("070002", latitude: "4807.0440") + "\n\r"  // LF, then an empty line ended by CR
    text += HostileNMEA.rmc("070003", latitude: "4807.0460") + "\r\r\n"  // CR CR LF is one line end
    text += "\u{0}\u{0}" + HostileNMEA.rmc("070004", latitude: "4807.0480") + "\n"  // NUL padding is trimmed
    text += HostileNMEA.rmc("070005", latitude: "4807.0500") + "\u{0}x\n"  // line 7: a NUL inside
    var bytes = Array(text.utf8)
    bytes += [0xFF, 0xFE] + Array((HostileNMEA.rmc("070006", latitude: "4807.0520") + "\n").utf8)  // line 8
    bytes += Array("$GPTXT,01,01,02,caf".utf8) + [0xC3, 0xA9] + Array("*00\n".utf8)  // line 9
    bytes += Array((HostileNMEA.rmc("070007", latitude: "4807.0540") + "\n").utf8)
    let measured = HostileFeed.measure(bytes)
    let report = measured.report
    #expect(measured.format == .nmea)
    #expect(report.failure == nil)
    #expect(report.records == 9)
    #expect(report.errorReasons == [.binary: 3])
    #expect(report.errorLines == [7, 8, 9])
    #expect(report.ignored == [.blankLine: 1])
    // 3.7 m apart each second: every other fix is under the 5 m movement floor.
    #expect(report.retained == 4)
    #expect(report.rejected == [FeedReason("negligibleMovement"): 2])
    #expect(report.isBalanced)
  }

  @Test func csvWithInvalidUTF8NulBytesAndMixedLineEndings() {
    var bytes = Array("timestamp,latitude,longitude,caf".utf8) + [0xE9] + Array("\r\n".utf8)
    bytes += Array("2025-01-01T07:00:00Z,45.5,13.25,".utf8) + [0xFF] + Array("\n".utf8)  // an unread column
    bytes += Array("2025-01-01T07:00:10Z,45.5".utf8) + [0xC3] + Array("001,13.25,\r\n".utf8)  // line 3
    bytes += [0xC3, 0x28] + Array(",45.5,13.25,\n".utf8)  // line 4
    bytes += Array("2025-01-01T07:00:20Z,45.5\u{0}002,13.25,\n".utf8)  // line 5
    bytes += Array("2025-01-01T07:00:30Z,45.5003,13.25\u{0}\u{0},\n\u{0}\u{0}\n\r\n".utf8)
    bytes += Array("2025-01-01T07:00:40Z,45.5004,13.25,\r2025-01-01T07:00:50Z,45.5005,13.25,\n".utf8)  // line 9
    bytes += Array("2025-01-01T07:01:00Z,45.5006,13.25,\n".utf8)
    let measured = HostileFeed.measure(bytes)
    let report = measured.report
    #expect(measured.format == .csv)
    #expect(report.failure == nil)
    #expect(report.records == 7)
    #expect(report.retained == 3)
    #expect(report.errorReasons == [.badNumber: 1, .badTime: 1, .binary: 1, .csvLoneCarriageReturn: 1])
    #expect(report.errorLines == [3, 4, 5, 9])
    #expect(report.isBalanced)
  }

  /// Regression (found here): a lone CR is not a CSV line end, so it joins two rows into one
  /// record. When the header has a column nobody reads, the second row's values fell into
  /// unread and extra columns and the first row was read as if nothing were wrong: a position
  /// vanished without a count. Now a row holding a lone CR is `loneCarriageReturn`, whichever
  /// column the CR falls in.
  @Test func aLoneCarriageReturnJoiningTwoCSVRowsIsCountedNotSwallowed() {
    let wide =
      "timestamp,latitude,longitude,note\n2025-01-01T07:00:00Z,45.5,13.25,a\n"
      + "2025-01-01T07:00:10Z,45.5001,13.25,b\r2025-01-01T07:00:20Z,45.5002,13.25,c\n2025-01-01T07:00:30Z,45.5003,13.25,d\n"
    let narrow =
      Self.csvHeader + "2025-01-01T07:00:00Z,45.5,13.25\n"
      + "2025-01-01T07:00:10Z,45.5001,13.25\r2025-01-01T07:00:20Z,45.5002,13.25\n2025-01-01T07:00:30Z,45.5003,13.25\n"
    for text in [wide, narrow, wide.replacingOccurrences(of: "\n", with: "\r\n")] {
      for settings in [IngestSettings(), Self.unfiltered] {
        let measured = HostileFeed.measure(text, settings: settings)
        #expect(measured.report.errorReasons == [.csvLoneCarriageReturn: 1])
        #expect(measured.report.errorLines == [3])
        #expect(measured.report.records == 3)
        #expect(measured.report.retained == 2)
        #expect(measured.report.isBalanced)
      }
    }
    // A quoted CRLF inside a field is data, and a row as wide as the header is not scanned.
    let quoted = "timestamp,latitude,longitude,note\n2025-01-01T07:00:00Z,45.5,13.25,\"two\r\nlines\"\n"
    #expect(HostileFeed.measure(quoted).report.retained == 1)
  }

  // MARK: Numbers: 400 digits, 1e999, nan, inf

  static let notNumbers = [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", String(repeating: "9", count: 400),
    "4" + String(repeating: "0", count: 399),
  ]

  @Test(arguments: notNumbers)
  func gpxCoordinatesAndTimesThatAreNotFiniteNumbers(_ value: String) {
    let latitude = HostileFeed.measure(
      Self.gpxHead + Self.point("2025-01-01T07:00:00Z", value) + Self.point("2025-01-01T07:00:10Z") + Self.gpxTail)
    #expect(latitude.report.errorReasons == [.badNumber: 1])
    #expect(latitude.report.errorLines == [3])
    #expect(latitude.report.retained == 1)
    let longitude = HostileFeed.measure(Self.gpxHead + Self.point("2025-01-01T07:00:00Z", "45.5", value) + Self.gpxTail)
    #expect(longitude.report.errorReasons == [.badNumber: 1])
    let time = HostileFeed.measure(Self.gpxHead + Self.point(value) + Self.point("2025-01-01T07:00:10Z") + Self.gpxTail)
    #expect(time.report.errorReasons == [.badTime: 1])
    #expect(time.report.errorLines == [3])
    #expect(time.report.retained == 1)
  }

  @Test(arguments: notNumbers)
  func nmeaCoordinatesTimesAndSpeedsThatAreNotFiniteNumbers(_ value: String) {
    let good = HostileNMEA.rmc("070010", latitude: "4807.0500") + "\n"
    for (sentence, reason) in [
      (HostileNMEA.rmc("070000", latitude: value), FeedReason.badNumber),
      (HostileNMEA.rmc("070000", longitude: value), .badNumber),
      (HostileNMEA.rmc(value), .badTime),
      (HostileNMEA.sentence("GPRMC,070000,A,4807.0380,N,01131.0000,E,\(value),0.0,291125,,,A"), .badNumber),
    ] {
      let measured = HostileFeed.measure(sentence + "\n" + good)
      #expect(measured.report.errorReasons == [reason: 1], "\(sentence.prefix(40))")
      #expect(measured.report.errorLines == [1])
      #expect(measured.report.retained == 1)
    }
    // An RMC date that names no day is no date: the fix is dated by the next one.
    let date = HostileFeed.measure(HostileNMEA.rmc("070000", value) + "\n" + good)
    #expect(date.report.errors == 0)
    #expect(date.report.retained == 2)
    #expect(date.report.firstTimestamp == Self.november7)
  }

  @Test(arguments: notNumbers)
  func csvCoordinatesAndTimesThatAreNotFiniteNumbers(_ value: String) {
    let good = "2025-01-01T07:00:10Z,45.5001,13.25\n"
    let latitude = HostileFeed.measure(Self.csvHeader + "2025-01-01T07:00:00Z,\(value),13.25\n" + good)
    #expect(latitude.report.errorReasons == [.badNumber: 1])
    #expect(latitude.report.errorLines == [2])
    #expect(latitude.report.retained == 1)
    let time = HostileFeed.measure(Self.csvHeader + "\(value),45.5,13.25\n" + good)
    #expect(time.report.errorReasons == [.badTime: 1])
    #expect(time.report.errorLines == [2])
    let epoch = HostileFeed.measure("time_ms,lat,lon\n\(value),45.5,13.25\n1735714810000,45.5001,13.25\n")
    #expect(epoch.report.errorReasons == [.badTime: 1])
    #expect(epoch.report.retained == 1)
  }

  @Test func fourHundredCharacterNumbersAreReadAndLongerOnesAreNot() {
    let fits = "45.5" + String(repeating: "0", count: 396)
    let tooLong = fits + "0"
    let gpx = HostileFeed.measure(
      Self.gpxHead + Self.point("2025-01-01T07:00:00Z", fits) + Self.point("2025-01-01T07:00:10Z", tooLong)
        + Self.gpxTail)
    #expect(gpx.report.retained == 1)
    #expect(gpx.report.errorReasons == [.badNumber: 1])
    #expect(gpx.report.errorLines == [4])
    let csv = HostileFeed.measure(
      Self.csvHeader + "2025-01-01T07:00:00Z,\(fits),13.25\n2025-01-01T07:00:10Z,\(tooLong),13.25\n")
    #expect(csv.report.retained == 1)
    #expect(csv.report.errorReasons == [.badNumber: 1])
    #expect(csv.report.errorLines == [3])
  }

  // MARK: Timestamps in the year 0 and 9999, and times that run backwards

  @Test func gpxAndCSVTimestampsAtTheEdgesOfTheCalendar() {
    let year0 = -62_167_219_200.0
    let end9999 = 253_402_300_799.0
    let gpx = HostileFeed.measure(
      Self.gpxHead + Self.point("0000-01-01T00:00:00Z") + Self.point("0000-01-01T00:00:10Z", "45.5001")
        + Self.point("9999-12-31T23:59:59Z", "45.5002") + Self.point("10000-01-01T00:00:00Z")
        + Self.point("-0001-01-01T00:00:00Z")
        + Self.gpxTail)
    // The year-9999 fix is read, then rejected as alone in time (`timeOutlier`): ten
    // thousand years from the stretch in the year 0.
    #expect(gpx.report.retained == 2)
    #expect(gpx.report.rejected == [.timeOutlier: 1])
    #expect(gpx.report.firstTimestamp == year0)
    #expect(gpx.report.lastTimestamp == year0 + 10)
    #expect(gpx.report.errorReasons == [.badTime: 2])
    #expect(gpx.report.errorLines == [6, 7])
    #expect(gpx.distance.segments.count == 1)
    #expect(gpx.distance.gaps.isEmpty)
    #expect(Tolerance.constructedMeters.accepts(gpx.distance.meters, Self.step))
    // With the outlier rule off it is kept: ten thousand years between two fixes is a silence,
    // never a distance.
    var noOutlierRule = IngestSettings()
    noOutlierRule.timeOutlierSeparation = .infinity
    let kept = HostileFeed.measure(
      Self.gpxHead + Self.point("0000-01-01T00:00:00Z") + Self.point("0000-01-01T00:00:10Z", "45.5001")
        + Self.point("9999-12-31T23:59:59Z", "45.5002") + Self.gpxTail, settings: noOutlierRule)
    #expect(kept.report.retained == 3)
    #expect(kept.report.lastTimestamp == end9999)
    #expect(kept.distance.segments.count == 1)
    #expect(kept.distance.gaps.count == 1)
    #expect(Tolerance.constructedMeters.accepts(kept.distance.meters, Self.step))

    let csv = HostileFeed.measure(
      Self.csvHeader
        + "0000-01-01T00:00:00Z,45.5,13.25\n0000-01-01T00:00:10Z,45.5001,13.25\n9999-12-31T23:59:59Z,45.5002,13.25\n"
        + "10000-01-01T00:00:00Z,45.5,13.25\n-0001-01-01T00:00:00Z,45.5,13.25\n")
    #expect(csv.report.retained == 2)
    #expect(csv.report.rejected == [.timeOutlier: 1])
    #expect(csv.report.firstTimestamp == year0)
    #expect(csv.report.errorReasons == [.badTime: 2])
    #expect(csv.report.errorLines == [5, 6])
    #expect(Tolerance.constructedMeters.accepts(csv.distance.meters, Self.step))
  }

  @Test func nmeaDatesAtTheEdgesOfTheCalendar() {
    func gga(_ time: String, _ latitude: String) -> String {
      HostileNMEA.sentence("GPGGA,\(time),\(latitude),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\n"
    }
    let year0 = HostileFeed.measure(
      HostileNMEA.sentence("GPZDA,070000,01,01,0000,00,00") + "\n" + gga("070000", "4807.038")
        + gga("070010", "4807.048"))
    #expect(year0.report.retained == 2)
    #expect(year0.report.firstTimestamp == Double(-62_167_219_200 + 7 * 3600))
    // The last day of 9999 rolls over into the year 10000 at midnight, as the clock says.
    let year9999 = HostileFeed.measure(
      HostileNMEA.sentence("GPZDA,235950,31,12,9999,00,00") + "\n" + gga("235950", "4807.038")
        + gga("000005", "4807.048"))
    #expect(year9999.report.retained == 2)
    #expect(year9999.report.lastTimestamp == 253_402_300_805)
    #expect(year9999.distance.segments.count == 1)
    // A five-digit ZDA year is no date: the sentence is unreadable and the log needs --date.
    let year10000 = HostileFeed.measure(
      HostileNMEA.sentence("GPZDA,235950,31,12,10000,00,00") + "\n" + gga("235950", "4807.038"))
    #expect(year10000.report.errorReasons == [.badTime: 1])
    #expect(year10000.report.failure == .needsDate(line: 2))
    // Two-digit RMC years pivot at 80.
    let pivot = HostileFeed.measure(
      HostileNMEA.rmc("070000", "311279") + "\n" + HostileNMEA.rmc("070010", "010180", latitude: "4807.0500") + "\n")
    #expect(pivot.report.firstTimestamp == 315_558_010)  // 1980-01-01T07:00:10Z
    #expect(pivot.report.lastTimestamp == 3_471_231_600)  // 2079-12-31T07:00:00Z
  }

  @Test func timesThatRunBackwards() {
    // A recorded file is judged in time order, filter on or off: the same figure either way.
    let gpx =
      Self.gpxHead + Self.point("2025-01-01T07:00:20Z") + Self.point("2025-01-01T07:00:10Z", "45.5001")
      + Self.point("2025-01-01T07:00:30Z", "45.5002") + Self.gpxTail
    let csv =
      Self.csvHeader
      + "2025-01-01T07:00:20Z,45.5,13.25\n2025-01-01T07:00:10Z,45.5001,13.25\n2025-01-01T07:00:30Z,45.5002,13.25\n"
    for text in [gpx, csv] {
      let filtered = HostileFeed.measure(text)
      #expect(filtered.report.rejected == [:])
      #expect(filtered.report.retained == 3)
      #expect(Tolerance.constructedMeters.accepts(filtered.distance.meters, 3 * Self.step))
      let unfiltered = HostileFeed.measure(text, settings: Self.unfiltered)
      #expect(unfiltered.report.retained == 3)
      #expect(Tolerance.constructedMeters.accepts(unfiltered.distance.meters, 3 * Self.step))
    }
    // NMEA: time running backwards (other than at midnight) also starts a new capture session,
    // so nothing is measured across it either way; in time order the two sessions alternate.
    let nmea =
      HostileNMEA.rmc("070020") + "\n" + HostileNMEA.rmc("070010", latitude: "4807.0400") + "\n"
      + HostileNMEA.rmc("070030", latitude: "4807.0500") + "\n"
    let filtered = HostileFeed.measure(nmea)
    #expect(filtered.report.sessions == 2)
    #expect(filtered.report.rejected == [:])
    #expect(filtered.report.retained == 3)
    #expect(filtered.distance.gaps.count == 2)
    #expect(filtered.distance.meters == 0)
    let unfiltered = HostileFeed.measure(nmea, settings: Self.unfiltered)
    #expect(unfiltered.report.retained == 3)
    #expect(unfiltered.distance.gaps.count == 2)
    #expect(unfiltered.distance.meters == 0)
  }

  // MARK: A file that changes format partway

  @Test func gpxFollowedByCSVOrNMEALinesStopsAfterTheDocument() {
    for trailer in ["timestamp,lat,lon\n2025-01-01T07:00:10Z,45.5001,13.25\n", HostileNMEA.rmc("070010") + "\n"] {
      let measured = HostileFeed.measure(Self.gpxHead + Self.point("2025-01-01T07:00:00Z") + Self.gpxTail + trailer)
      #expect(measured.format == .gpx)
      #expect(measured.report.failure == .malformed(line: 5, detail: "text after the end of the <gpx> element"))
      #expect(measured.report.retained == 1)
    }
    // Cut off by CSV lines before it closes: the lines are text inside <trkseg>, and the
    // document never ends.
    let cut = HostileFeed.measure(
      Self.gpxHead + Self.point("2025-01-01T07:00:00Z") + "timestamp,lat,lon\n2025-01-01T07:00:10Z,45.5001,13.25\n")
    #expect(cut.report.failure == .truncated(line: 5, detail: "<trkseg> opened on line 2 is never closed"))
    #expect(cut.report.retained == 1)
  }

  @Test func nmeaFollowedByGPXCountsEachForeignLineAndReadsOn() {
    let text =
      HostileNMEA.rmc("070000") + "\n" + Self.gpxHead + Self.point("2025-11-29T07:00:05Z") + Self.gpxTail
      + HostileNMEA.rmc("070010", latitude: "4807.0500") + "\n"
    let measured = HostileFeed.measure(text)
    #expect(measured.format == .nmea)
    #expect(measured.report.failure == nil)
    #expect(measured.report.errorReasons == [FeedReason("notASentence"): 4])
    #expect(measured.report.errorLines == [2, 3, 4, 5])
    #expect(measured.report.retained == 2)
    #expect(measured.distance.segments.count == 1)
  }

  @Test func csvFollowedByGPXCountsEachForeignLineAndReadsOn() {
    let text =
      Self.csvHeader + "2025-01-01T07:00:00Z,45.5,13.25\n" + Self.gpxHead + Self.point("2025-01-01T07:00:05Z")
      + Self.gpxTail
      + "2025-01-01T07:00:10Z,45.5001,13.25\n"
    let measured = HostileFeed.measure(text)
    #expect(measured.format == .csv)
    #expect(measured.report.failure == nil)
    #expect(measured.report.errorReasons == [.badTime: 4])
    #expect(measured.report.errorLines == [3, 4, 5, 6])
    #expect(measured.report.retained == 2)
    #expect(Tolerance.constructedMeters.accepts(measured.distance.meters, Self.step))
  }
}
