import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// What a GPX reader told its sink, in order, so two readings can be compared whole.
typealias GPXRecordingSink = FeedRecordCollector

extension FeedRecordCollector {
  typealias Event = FeedRecord
}

/// One real recording and what it must give, with the capture filter and without it.
struct GPXRealFile: Sendable, CustomTestStringConvertible {
  struct Outcome: Sendable {
    var retained: Int
    var rejected: [String: Int]
    var sessions: Int
    /// Nil: unmeasurable.
    var meters: Double?
    var segments: Int
    var gaps: Int
  }

  var name: String
  var records: Int
  var estimatedAccuracy: Int
  var filtered: Outcome
  var unfiltered: Outcome

  init(_ name: String, records: Int, estimatedAccuracy: Int, filtered: Outcome, unfiltered: Outcome) {
    self.name = name
    self.records = records
    self.estimatedAccuracy = estimatedAccuracy
    self.filtered = filtered
    self.unfiltered = unfiltered
  }

  /// A file the capture filter changes nothing in: one outcome, expected filter on and off.
  init(_ name: String, records: Int, estimatedAccuracy: Int, eitherWay: Outcome) {
    self.init(name, records: records, estimatedAccuracy: estimatedAccuracy, filtered: eitherWay, unfiltered: eitherWay)
  }

  var testDescription: String { name }
}

@Suite struct GPXReaderTests: FeedReaderSuite {
  // MARK: Helpers

  static func makeReader() -> GPXReader { GPXReader(options: FeedOptions()) }

  static func position(
    _ time: String, _ latitude: Double, _ longitude: Double, session: Int = 0, line: Int
  ) -> GPXRecordingSink.Event {
    .position(RouteSample(timestamp: t(time), latitude: latitude, longitude: longitude), session: session, line: line)
  }

  /// A document made of lines joined by `\n`, so line numbers are indices + 1.
  static func document(_ lines: [String]) -> String { lines.joined(separator: "\n") }

  static let head = "<gpx version=\"1.1\" creator=\"test\"><trk><trkseg>"
  static let goodPoint = "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpt>"
  static let tail = "</trkseg></trk></gpx>"

  // MARK: Real recordings

  static let realFiles: [GPXRealFile] = [
    GPXRealFile(
      "gpsbabel_dg100.gpx", records: 12027, estimatedAccuracy: 0,
      filtered: .init(
        retained: 11991, rejected: ["negligibleMovement": 35, "speed": 1], sessions: 1, meters: 316999.159,
        segments: 16, gaps: 22),
      unfiltered: .init(retained: 12027, rejected: [:], sessions: 1, meters: 317004.447, segments: 16, gaps: 22)),
    GPXRealFile(
      "gpsbabel_expertgps-mixed.gpx", records: 196, estimatedAccuracy: 0,
      eitherWay: .init(
        retained: 64, rejected: ["routePoint": 46, "waypoint": 86], sessions: 1, meters: 5864.462, segments: 7, gaps: 9)
    ),
    GPXRealFile(
      "gpsbabel_garmin-edge-800.gpx", records: 1287, estimatedAccuracy: 0,
      filtered: .init(
        retained: 1230, rejected: ["negligibleMovement": 56, "waypoint": 1], sessions: 8, meters: 25089.342,
        segments: 7, gaps: 7),
      unfiltered: .init(retained: 1286, rejected: ["waypoint": 1], sessions: 8, meters: 25121.773, segments: 8, gaps: 7)
    ),
    GPXRealFile(
      "gpsbabel_holux-rte-wpt.gpx", records: 35, estimatedAccuracy: 0,
      eitherWay: .init(
        retained: 0, rejected: ["routePoint": 10, "waypoint": 25], sessions: 0, meters: nil, segments: 0, gaps: 0)),
    GPXRealFile(
      "gpsbabel_mtk-logger.gpx", records: 821, estimatedAccuracy: 0,
      // Its one gap was a 2m 35s stop with fixes arriving (README, Stops).
      filtered: .init(
        retained: 564, rejected: ["negligibleMovement": 239, "noFix": 14, "waypoint": 4], sessions: 1, meters: 7202.206,
        segments: 1, gaps: 0),
      unfiltered: .init(
        retained: 803, rejected: ["noFix": 14, "waypoint": 4], sessions: 1, meters: 7299.257, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpsbabel_mtk-m241-multiple-tracks.gpx", records: 14263, estimatedAccuracy: 0,
      // 33 stops with fixes arriving were 33 of its gaps (README, Stops).
      filtered: .init(
        retained: 6210, rejected: ["negligibleMovement": 8051, "speed": 2], sessions: 6, meters: 98491.956,
        segments: 34, gaps: 35),
      unfiltered: .init(retained: 14263, rejected: [:], sessions: 6, meters: 104520.194, segments: 34, gaps: 34)),
    GPXRealFile(
      "gpsbabel_nmea-converted.gpx", records: 154, estimatedAccuracy: 154,
      // Standing still for 2 minutes: a stop, not a gap; its 3.8 m are jitter the floor does not prove.
      filtered: .init(
        retained: 2, rejected: ["negligibleMovement": 152], sessions: 1, meters: 3.765, segments: 1, gaps: 0),
      unfiltered: .init(retained: 154, rejected: [:], sessions: 1, meters: 30.318, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpsbabel_sbn-v13-car.gpx", records: 3453, estimatedAccuracy: 3364,
      filtered: .init(
        retained: 2520, rejected: ["accuracy": 6, "negligibleMovement": 838, "noFix": 89], sessions: 1,
        meters: 36028.767, segments: 1, gaps: 0),
      unfiltered: .init(retained: 3364, rejected: ["noFix": 89], sessions: 1, meters: 36194.269, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpsbabel_wbt-201-notime.gpx", records: 4028, estimatedAccuracy: 0,
      eitherWay: .init(
        retained: 0, rejected: ["missingTime": 4023, "waypoint": 5], sessions: 0, meters: nil, segments: 0, gaps: 0)),
    GPXRealFile(
      "gpxpy_around-visnjan-with-car.gpx", records: 104, estimatedAccuracy: 0,
      filtered: .init(
        retained: 84, rejected: ["negligibleMovement": 20], sessions: 1, meters: 2712.795, segments: 1, gaps: 0),
      unfiltered: .init(retained: 104, rejected: [:], sessions: 1, meters: 2733.243, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpxpy_cerknicko-jezero.gpx", records: 303, estimatedAccuracy: 0,
      filtered: .init(
        retained: 292, rejected: ["negligibleMovement": 3, "speed": 1, "waypoint": 7], sessions: 7, meters: 4427.346,
        segments: 10, gaps: 13),
      unfiltered: .init(retained: 296, rejected: ["waypoint": 7], sessions: 7, meters: 4438.619, segments: 10, gaps: 13)
    ),
    GPXRealFile(
      "gpxpy_cerknicko-without-times.gpx", records: 303, estimatedAccuracy: 0,
      eitherWay: .init(
        retained: 5, rejected: ["missingTime": 291, "waypoint": 7], sessions: 1, meters: 53.098, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpxpy_korita-zbevnica.gpx", records: 873, estimatedAccuracy: 0,
      filtered: .init(
        retained: 511, rejected: ["missingTime": 358, "negligibleMovement": 2, "waypoint": 2], sessions: 2,
        meters: 6171.191, segments: 5, gaps: 7),
      unfiltered: .init(
        retained: 513, rejected: ["missingTime": 358, "waypoint": 2], sessions: 2, meters: 6174.912, segments: 5,
        gaps: 7)),
    // Every time is the 32-bit epoch minimum, written as 1901-12-13T20:45:52.2073437Z except
    // once as …52.207Z, 0.34 ms earlier. The filter keeps one fix (the rest are not after it):
    // unmeasurable. Unfiltered, the calculator collapses equal timestamps and keeps two
    // positions 0.34 ms apart, 764 m apart, and measures them: the rows as stored.
    GPXRealFile(
      "gpxpy_mojstrovka_badtime.gpx", records: 184, estimatedAccuracy: 0,
      // Every time is the same 1901 instant give or take fractions of a second: in time order
      // each later fix is far too fast from the first.
      filtered: .init(retained: 1, rejected: ["speed": 183], sessions: 1, meters: nil, segments: 0, gaps: 0),
      unfiltered: .init(retained: 184, rejected: [:], sessions: 1, meters: 764.474, segments: 1, gaps: 0)),
    GPXRealFile(
      "gpxpy_route-only.gpx", records: 55, estimatedAccuracy: 0,
      eitherWay: .init(retained: 0, rejected: ["routePoint": 55], sessions: 0, meters: nil, segments: 0, gaps: 0)),
    GPXRealFile(
      "gpxpy_track-with-empty-segment.gpx", records: 9, estimatedAccuracy: 0,
      filtered: .init(
        retained: 7, rejected: ["negligibleMovement": 2], sessions: 1, meters: 84.984, segments: 1, gaps: 0),
      unfiltered: .init(retained: 9, rejected: [:], sessions: 1, meters: 85.853, segments: 1, gaps: 0)),
    // Garmin Connect run, one repeated timestamp; the GPX twin of
    // geojson/mapbox-togeojson_run.gpx.geojson, which measures the same (GeoJSONReaderTests).
    GPXRealFile(
      "togeojson_run.gpx", records: 206, estimatedAccuracy: 0,
      filtered: .init(
        retained: 185, rejected: ["duplicate": 1, "negligibleMovement": 20], sessions: 1, meters: 3095.047, segments: 1,
        gaps: 0),
      unfiltered: .init(retained: 206, rejected: [:], sessions: 1, meters: 3098.534, segments: 1, gaps: 0)),
  ]

  @Test(arguments: realFiles)
  func realRecording(_ file: GPXRealFile) throws {
    try file.expectPinned(
      format: .gpx, measure: GPXRealFile.measureFile(at: Fixtures.path("realdata/gpx/\(file.name)"))
    ) {
      measurement, expected, label in
      let distance = measurement.distance
      #expect(measurement.report.legacyPositions == 0, "\(label)")
      #expect(measurement.report.estimatedAccuracy == file.estimatedAccuracy, "\(label)")
      if expected.meters != nil {
        #expect(distance.unmeasurable == nil, "\(label)")
      } else {
        #expect(distance.meters == 0, "\(label)")
        let kind: RouteDistance.Unmeasurable = expected.retained == 0 ? .noUsablePosition : .noTwoContinuousPositions
        #expect(distance.unmeasurable == kind, "\(label)")
      }
    }
  }

  @Test func everyRealGPXFileHasItsExpectations() throws {
    try GPXRealFile.expectEveryFixture(in: [("realdata/gpx", ".gpx", "")], pinnedBy: Self.realFiles)
  }

  @Test func acceptanceCaseEachSegmentIsASession() throws {
    var source = try FileByteSource(path: Fixtures.path("acceptance/g01_two_segments.gpx"))
    let measurement = FeedIngest.measure(&source)
    #expect(Tolerance.pinnedFigure.accepts(measurement.distance.meters, 14945.848549))
    #expect(measurement.distance.contributingSegmentCount == 2)
    #expect(measurement.distance.gapCount == 1)
    #expect(measurement.report.records == 1200)
    #expect(measurement.report.sessions == 2)
    #expect(measurement.report.rejected == [FeedReason("negligibleMovement"): 2])
  }

  // MARK: Streaming

  static let chunkSizes = [1, 2, 3, 7, 64, 4096]

  /// Every construct the reader knows, with CRLF, lone CR and LF line ends mixed.
  static let everything: [UInt8] = {
    let lines = [
      "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>",  // 1
      "<!DOCTYPE gpx [",  // 2
      "  <!ENTITY lol \"lol\">",  // 3
      "  <!-- a comment with ' \" ] and > -->",  // 4
      "  <?pi x > y?>",  // 5
      "]>",  // 6
      "<!-- prolog comment -->",  // 7
      "<g:gpx xmlns:g=\"http://www.topografix.com/GPX/1/1\" version=\"1.1\" creator='me &amp; you'>",  // 8
      "<g:metadata><g:time>2025-01-01T00:00:00Z</g:time></g:metadata>",  // 9
      "<g:wpt lat=\"1\" lon=\"2\"><g:time>2025-01-01T00:00:00Z</g:time></g:wpt>",  // 10
      "<g:rte><g:rtept lat=\"1\" lon=\"2\"/><g:rtept lat=\"1\" lon=\"2\"></g:rtept></g:rte>",  // 11
      "<g:trk><g:name>A &lol; name<![CDATA[ <not markup> ]]]]></g:name>",  // 12
      "<g:trkseg >",  // 13
      // 14
      "<g:trkpt lat = \"45.5\" lon='13.25'\t><g:ele>12.5</g:ele><g:time>2025-01-01T08:00:00.250+01:00</g:time><g:hdop>1.2</g:hdop><g:speed>3.5</g:speed><g:course>90</g:course><g:fix>3d</g:fix></g:trkpt>",
      "<g:trkpt lon=\"13.2501\"",  // 15
      // 16
      "   lat=\"45.5001\"><!-- c --><g:time><![CDATA[2025-01-01T07:00:01Z]]></g:time><g:extensions><x:a><x:b><g:time>2000-01-01T00:00:00Z</g:time></x:b></x:a></g:extensions></g:trkpt>",
      "<g:trkpt lat=\"&#52;5.5002\" lon=\"13.2502\"><g:time>2025-01-01T07:00:02&#x5A;</g:time></g:trkpt>",  // 17
      "<g:trkpt lat=\"45.5003\" lon=\"13.2503\"><g:time>2025-01-01T07:00<!-- split -->:03Z</g:time></g:trkpt>",  // 18
      "<g:trkpt lat=\"45.5004\" lon=\"13.2504\"/>",  // 19: no time
      "<g:trkpt lat=\"45.5005\" lon=\"13.2505\"><g:time>&lol;</g:time></g:trkpt>",  // 20: custom entity
      "<g:trkpt lat=\"x\" lon=\"13.2506\"><g:time>2025-01-01T07:00:06Z</g:time></g:trkpt>",  // 21: bad number
      // 22
      "<g:trkpt lat=\"45.5007\" lon=\"13.2507\"><g:time>2025-01-01T07:00:07Z</g:time><g:fix>none</g:fix></g:trkpt>",
      "<g:trkpt lat=\"45.5008\" lon=\"13.2508\"><g:time>" + String(repeating: " ", count: 2000)
        + "2025-01-01T07:00:08Z</g:time></g:trkpt>",  // 23: value over 1 KB
      // 24
      "<g:trkpt lat=\"45.5009\" lon=\"13.2509\"><g:time>2025-01-01T07:00:09Z</g:time><g:time>2025-01-01T09:00:00Z</g:time></g:trkpt>",
      "<?pi inside?></g:trkseg>",  // 25
      "<g:trkseg/>",  // 26
      "<g:trkseg><g:trkpt lat=\"45.6\" lon=\"13.3\"><g:time>2025-01-01T07:10:00Z</g:time></g:trkpt>",  // 27
      "</g:trkseg></g:trk >",  // 28
      "</g:gpx>",  // 29
      "<!-- epilog -->",  // 30
    ]
    var text = ""
    for (index, line) in lines.enumerated() {
      text += line
      text += ["\r\n", "\r", "\n"][index % 3]
    }
    return Array(text.utf8) + [0, 0, 0]
  }()

  @Test func everyConstructGivesTheDocumentedEvents() {
    let (events, error) = Self.read(Self.everything)
    #expect(error == nil)
    let first = RouteSample(
      timestamp: Self.t("2025-01-01T07:00:00.25Z"), latitude: 45.5, longitude: 13.25,
      horizontalAccuracy: 1.2 * AccuracyEstimate.metersPerHDOP, horizontalAccuracyIsEstimated: true,
      speed: 3.5, course: 90, altitude: 12.5)
    let expected: [GPXRecordingSink.Event] = [
      .rejected(.waypoint, line: 10),
      .rejected(.routePoint, line: 11),
      .rejected(.routePoint, line: 11),
      .position(first, session: 0, line: 14),
      Self.position("2025-01-01T07:00:01Z", 45.5001, 13.2501, line: 15),
      Self.position("2025-01-01T07:00:02Z", 45.5002, 13.2502, line: 17),
      Self.position("2025-01-01T07:00:03Z", 45.5003, 13.2503, line: 18),
      .rejected(.missingTime, line: 19),
      .unreadable(.badTime, line: 20),
      .unreadable(.badNumber, line: 21),
      .rejected(.noFix, line: 22),
      .unreadable(.badTime, line: 23),
      Self.position("2025-01-01T07:00:09Z", 45.5009, 13.2509, line: 24),
      Self.position("2025-01-01T07:10:00Z", 45.6, 13.3, session: 2, line: 27),
    ]
    #expect(events == expected)
  }

  @Test(arguments: [
    "gpxpy_around-visnjan-with-car.gpx", "gpsbabel_expertgps-mixed.gpx", "gpxpy_cerknicko-jezero.gpx",
    "gpxpy_track-with-empty-segment.gpx", "gpsbabel_holux-rte-wpt.gpx", "gpsbabel_nmea-converted.gpx",
  ])
  func chunkSizeDoesNotChangeARealRecording(_ name: String) throws {
    let bytes = try Fixtures.bytes("realdata/gpx/\(name)")
    let whole = Self.read(bytes)
    #expect(whole.error == nil)
    #expect(!whole.records.isEmpty)
    for size in Self.chunkSizes {
      let chunked = Self.read(bytes, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)")
      #expect(chunked.error == whole.error, "chunk size \(size)")
    }
  }

  @Test(arguments: chunkSizes)
  func chunkSizeDoesNotChangeEveryConstruct(_ size: Int) {
    let whole = Self.read(Self.everything)
    let chunked = Self.read(Self.everything, chunkSize: size)
    #expect(chunked.records == whole.records)
    #expect(chunked.error == nil)
  }

  @Test(arguments: chunkSizes)
  func chunkSizeDoesNotChangeAnError(_ size: Int) {
    let text = Self.document([Self.head, Self.goodPoint, "<trkpt lat=\"1\" lon=\"2\"><time>x</trkpt>"])
    let whole = Self.read(text)
    let chunked = Self.read(text, chunkSize: size)
    #expect(chunked.records == whole.records)
    #expect(chunked.error == whole.error)
    #expect(whole.error?.line == 3)
  }

  // MARK: Points

  @Test func fieldsOfATrackPoint() throws {
    let text = Self.document([
      "<?xml version=\"1.0\"?>",
      "<gpx version=\"1.0\"><trk><trkseg>",
      "<trkpt lat=\"-33.8688\" lon=\"151.2093\"><ele>-3.5</ele><time>2025-06-30T23:59:59.5-02:30</time>"
        + "<course>359.9</course><speed>27.25</speed><hdop>0.8</hdop><fix>dgps</fix><sat>9</sat></trkpt>",
      "</trkseg></trk></gpx>",
    ])
    let (events, error) = Self.read(text)
    #expect(error == nil)
    let expected = RouteSample(
      timestamp: Self.t("2025-07-01T02:29:59.5Z"), latitude: -33.8688, longitude: 151.2093,
      horizontalAccuracy: 0.8 * 5, horizontalAccuracyIsEstimated: true, speed: 27.25, course: 359.9, altitude: -3.5)
    #expect(events == [.position(expected, session: 0, line: 3)])
    #expect(AccuracyEstimate.metersPerHDOP == 5)
  }

  @Test func eachSegmentIsANewSessionInDocumentOrder() {
    let text = Self.document([
      "<gpx><trk>",
      "<trkseg>" + Self.goodPoint + "</trkseg>",
      "<trkseg></trkseg><trkseg/>",
      "</trk><trk><trkseg>",
      "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:05:00Z</time></trkpt>",
      "</trkseg></trk></gpx>",
    ])
    let sessions = Self.read(text).records.compactMap { event -> Int? in
      if case .position(_, let session, _) = event { return session } else { return nil }
    }
    #expect(sessions == [0, 3])
  }

  @Test func pointsThatCannotBeMeasured() {
    let text = Self.document([
      Self.head,
      "<trkpt lat=\"45.5\" lon=\"13.25\"></trkpt>",  // no time
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time> </time></trkpt>",  // an empty time is no time
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>yesterday</time></trkpt>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-02-30T00:00:00Z</time></trkpt>",
      "<trkpt lat=\"nan\" lon=\"13.25\"><time>2025-01-01T00:00:00Z</time></trkpt>",
      "<trkpt lon=\"13.25\"><time>2025-01-01T00:00:00Z</time></trkpt>",  // no lat
      "<trkpt lat=\"45.5\" lon=\"\"><time>2025-01-01T00:00:00Z</time></trkpt>",
      "<trkpt lat=\"4" + String(repeating: "0", count: 400) + "\" lon=\"1\"><time>2025-01-01T00:00:00Z</time></trkpt>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T00:00:00Z</time><fix>none</fix></trkpt>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><fix>none</fix></trkpt>",  // no fix comes before no time
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T00:00:00Z<b>bold</b></time></trkpt>",
      "<trkpt lat=\"95\" lon=\"13.25\"><time>2025-01-01T00:00:00Z</time></trkpt>",  // read; the filter judges it
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T15:00:00+15:00</time></trkpt>",  // no zone is 15 h ahead
      Self.tail,
    ])
    Self.expectRead(
      Self.read(text),
      gives: [
        .rejected(.missingTime, line: 2),
        .rejected(.missingTime, line: 3),
        .unreadable(.badTime, line: 4),
        .unreadable(.badTime, line: 5),
        .unreadable(.badNumber, line: 6),
        .unreadable(.badNumber, line: 7),
        .unreadable(.badNumber, line: 8),
        .unreadable(.badNumber, line: 9),
        .rejected(.noFix, line: 10),
        .rejected(.noFix, line: 11),
        .unreadable(.badTime, line: 12),
        Self.position("2025-01-01T00:00:00Z", 95, 13.25, line: 13),
        .unreadable(.badTime, line: 14),
      ])
  }

  @Test func routesAndWaypointsAreCountedButNeverMeasured() {
    let text = Self.document([
      "<gpx>",
      "<wpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></wpt>",
      "<rte><rtept lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></rtept>",
      "<rtept lat=\"45.6\" lon=\"13.25\"><time>2025-01-01T07:01:00Z</time></rtept></rte>",
      "<trk><trkseg>" + Self.goodPoint + "</trkseg></trk>",
      "<extensions><wpt lat=\"1\" lon=\"2\"/><trk><trkseg>" + Self.goodPoint + "</trkseg></trk></extensions>",
      "</gpx>",
    ])
    #expect(
      Self.read(text).records == [
        .rejected(.waypoint, line: 2),
        .rejected(.routePoint, line: 3),
        .rejected(.routePoint, line: 4),
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 5),
        .ignored(.misplacedTrackPoint, line: 6),
      ])
    var source = MemoryByteSource(text)
    let measurement = FeedIngest.measure(&source)
    #expect(measurement.report.records == 4)
    #expect(measurement.report.rejected == [.waypoint: 1, .routePoint: 2])
    #expect(
      measurement.report.ignored == [.misplacedTrackPoint: 1], "a track point in extensions is counted, not measured")
    #expect(measurement.report.isBalanced)
  }

  // MARK: XML

  /// A document and every record it must give, in order.
  struct DocumentCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var records: [FeedRecord]
    var testDescription: String { name }
  }

  static let documentCases: [DocumentCase] = [
    DocumentCase(
      name: "optional fields that cannot be read are left out",
      text: head + "<trkpt lat=\"1\" lon=\"2\"><time>2025-01-01T00:00:00Z</time><ele>high</ele><hdop></hdop>"
        + "<speed>1e999</speed><course>nan</course></trkpt>" + tail,
      records: [position("2025-01-01T00:00:00Z", 1, 2, line: 1)]),
    DocumentCase(
      name: "attributes in any order with either quote and spaces",
      text: document([
        head,
        "<trkpt lon='13.25' lat=\"45.5\"><time>2025-01-01T07:00:00Z</time></trkpt>",
        "<trkpt\n  lon\n=\n'13.26'\n  lat = \"45.51\"\n><time>2025-01-01T07:00:01Z</time></trkpt>",
        tail,
      ]),
      records: [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2),
        position("2025-01-01T07:00:01Z", 45.51, 13.26, line: 3),
      ]),
    DocumentCase(
      name: "unknown elements and extensions are skipped at any depth",
      text: document([
        head,
        "<trkpt lat=\"45.5\" lon=\"13.25\"><extensions><time>1999-01-01T00:00:00Z</time></extensions>"
          + "<link href=\"a>b\"><text>x</text></link><time>2025-01-01T07:00:00Z</time></trkpt>",
        "<unknown><trkpt lat=\"1\" lon=\"2\"><time>2025-01-01T07:00:01Z</time></trkpt></unknown>",
        tail,
      ]),
      records: [position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2), .ignored(.misplacedTrackPoint, line: 3)]),
    DocumentCase(
      name: "namespace prefixes are ignored",
      text: "<gpx:gpx xmlns:gpx=\"http://www.topografix.com/GPX/1/1\"><gpx:trk><gpx:trkseg>"
        + "<gpx:trkpt lat=\"45.5\" lon=\"13.25\"><gpx:time>2025-01-01T07:00:00Z</gpx:time></gpx:trkpt>"
        + "</gpx:trkseg></gpx:trk></gpx:gpx>",
      records: [position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 1)]),
    DocumentCase(
      name: "comments, CDATA and processing instructions",
      text: document([
        "<?xml version=\"1.0\"?><!-- <trkpt lat=\"1\" lon=\"2\"> -->",
        "<gpx><trk><trkseg><?note <trkpt>?>",
        "<trkpt lat=\"45.5\" lon=\"13.25\"><time><![CDATA[2025-01-01T07:00:00Z]]></time></trkpt>",
        "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00<!-- -->:01Z</time><!-- </trkpt> --></trkpt>",
        "<![CDATA[<trkpt lat=\"1\" lon=\"2\"><time>2025-01-01T07:00:02Z</time></trkpt>]]>",
        "<trkpt lat=\"45.52\" lon=\"13.25\"><time><![CDATA[2025-01-01T07:00:03Z]]]]></time></trkpt>",
        tail,
      ]),
      records: [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 3),
        position("2025-01-01T07:00:01Z", 45.51, 13.25, line: 4),
        .unreadable(.badTime, line: 6),  // `]]` is text: the CDATA section ends at the last `]]>`
      ]),
    DocumentCase(
      name: "predefined entities and character references are decoded",
      text: document([
        "<gpx creator=\"a &amp; b &lt;c&gt;\"><trk><name>Tom &amp; Jerry &unknown;</name><trkseg>",
        "<trkpt lat=\"&#52;&#x35;.5\" lon='13.25'><time>2025-01-01T07:00:00&#x5a;</time></trkpt>",
        "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00:01Z&#0;</time></trkpt>",
        "<trkpt lat=\"45.52\" lon=\"13.25\"><time>2025-01-01T07:00:02Z&amp</time></trkpt>",
        "<trkpt lat=\"45.53\" lon=\"13.25\"><time>&quot;2025-01-01T07:00:03Z&quot;</time></trkpt>",
        tail,
      ]),
      records: [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2),
        .unreadable(.badTime, line: 3),  // &#0; is not a character
        .unreadable(.badTime, line: 4),  // a reference without `;`
        .unreadable(.badTime, line: 5),  // decoded, but quotes are not part of a time
      ]),
    DocumentCase(
      name: "a whole document on one line",
      text: "<?xml version=\"1.0\"?><gpx><trk><trkseg>" + goodPoint
        + "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00:01Z</time></trkpt></trkseg></trk></gpx>",
      records: [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 1),
        position("2025-01-01T07:00:01Z", 45.51, 13.25, line: 1),
      ]),
  ]

  @Test(arguments: documentCases)
  func aDocumentGivesItsRecords(_ document: DocumentCase) {
    #expect(Self.read(document.text).records == document.records)
  }

  @Test func byteOrderMarkAndLineEndings() {
    let lines = [
      Self.head, Self.goodPoint, "<trkpt lat=\"45.5\" lon=\"13.25\"/>", "", "<trkpt lat=\"45.5\" lon=\"13.25\"/>",
      Self.tail,
    ]
    for ending in ["\r\n", "\r", "\n"] {
      let text = "\u{FEFF}" + lines.joined(separator: ending)
      Self.expectRead(
        Self.read(text),
        gives: [
          Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2),
          .rejected(.missingTime, line: 3),
          .rejected(.missingTime, line: 5),
        ], "line ending \(ending.debugDescription)")
    }
  }

  // MARK: Malformed and truncated documents

  struct BrokenCase: Sendable, CustomTestStringConvertible {
    var name: String
    var thirdLine: String
    var line: Int
    var detail: String
    /// Whether the broken line leaves a track point open (counted as unfinished).
    var cutsAPoint: Bool
    var testDescription: String { name }
  }

  static let brokenCases: [BrokenCase] = [
    .init(
      name: "mismatched closing tag",
      thirdLine: "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00:01Z</trkpt>",
      line: 3, detail: "the closing tag </trkpt> does not match <time> opened on line 3", cutsAPoint: true),
    .init(
      name: "closing an outer element", thirdLine: "</trk>", line: 3,
      detail: "the closing tag </trk> does not match <trkseg> opened on line 1", cutsAPoint: false),
    .init(
      name: "< inside an attribute", thirdLine: "<trkpt lat=\"45.51<\" lon=\"13.25\">", line: 3,
      detail: "“<” inside an attribute value of <trkpt>", cutsAPoint: true),
    .init(
      name: "space after <", thirdLine: "< trkpt lat=\"45.51\" lon=\"13.25\">", line: 3,
      detail: "“<” is not followed by a tag name", cutsAPoint: false),
    .init(
      name: "unquoted attribute", thirdLine: "<trkpt lat=45.51 lon=13.25>", line: 3,
      detail: "an attribute value of <trkpt> is not quoted", cutsAPoint: true),
    .init(
      name: "attribute without value", thirdLine: "<trkpt lat lon=\"13.25\">", line: 3,
      detail: "an attribute of <trkpt> has no value", cutsAPoint: true),
    .init(
      name: "attributes run together", thirdLine: "<trkpt lat=\"45.51\"lon=\"13.25\">", line: 3,
      detail: "attributes of <trkpt> are not separated by whitespace", cutsAPoint: true),
    .init(
      name: "repeated lat", thirdLine: "<trkpt lat=\"45.51\" lat=\"45.52\" lon=\"13.25\">", line: 3,
      detail: "<trkpt> has its lat attribute twice", cutsAPoint: true),
    .init(
      name: "a tag inside a tag", thirdLine: "<trkpt lat=\"45.51\" lon=\"13.25\"<time>", line: 3,
      detail: "unexpected character in the tag <trkpt>", cutsAPoint: true),
    .init(
      name: "NUL inside a tag", thirdLine: "<trkpt\u{0} lat=\"45.51\" lon=\"13.25\">", line: 3,
      detail: "unexpected character in the tag <trkpt>", cutsAPoint: true),
    .init(
      name: "text after the root", thirdLine: Self.tail + "\ntrailing text", line: 4,
      detail: "text after the end of the <gpx> element", cutsAPoint: false),
    .init(
      name: "a second root", thirdLine: Self.tail + "\n<gpx/>", line: 4,
      detail: "a second root element <gpx> after </gpx>", cutsAPoint: false),
    .init(
      name: "a DOCTYPE inside the document", thirdLine: "<!DOCTYPE gpx>", line: 3,
      detail: "a DOCTYPE after the <gpx> element began", cutsAPoint: false),
    .init(
      name: "unknown <! markup", thirdLine: "<!ELEMENT x>", line: 3,
      detail: "“<!” does not begin a comment, CDATA section or DOCTYPE", cutsAPoint: false),
    .init(
      name: "empty closing tag", thirdLine: "</>", line: 3, detail: "“</” is not followed by a tag name",
      cutsAPoint: false),
  ]

  @Test(arguments: brokenCases)
  func malformedXMLStopsWithTheLineAndKeepsTheEarlierPoints(_ broken: BrokenCase) {
    let text = Self.document([Self.head, Self.goodPoint, broken.thirdLine, Self.tail])
    let (events, error) = Self.read(text)
    #expect(error == .malformed(line: broken.line, detail: broken.detail))
    var expected = [Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2)]
    if broken.cutsAPoint { expected.append(.unreadable(.unfinishedPoint, line: 3)) }
    #expect(events == expected)
    #expect(!(error?.description.contains("45.5") ?? true), "no coordinate in the message")
  }

  @Test func malformedXMLThroughTheIngestStageKeepsWhatWasMeasured() {
    let text = Self.document([
      Self.head,
      Self.goodPoint,
      "<trkpt lat=\"45.501\" lon=\"13.25\"><time>2025-01-01T07:00:10Z</time></trkpt>",
      "<trkpt lat=\"45.502\" lon=\"13.25\"><time>2025-01-01T07:00:20Z</time></trkpt>",
      "</trk>",
    ])
    var source = MemoryByteSource(text, chunkSize: 7)
    let measurement = FeedIngest.measure(&source)
    #expect(
      measurement.report.failure
        == .malformed(line: 5, detail: "the closing tag </trk> does not match <trkseg> opened on line 1"))
    #expect(measurement.report.retained == 3)
    #expect(measurement.report.isBalanced)
    #expect(abs(measurement.distance.meters - 222.390) < 0.5)
  }

  @Test func notAGPXDocument() {
    let (events, error) = Self.read("<?xml version=\"1.0\"?>\n<kml><Document/></kml>")
    #expect(events.isEmpty)
    #expect(error == .malformed(line: 2, detail: "this is not a GPX document: its root element is <kml>, not <gpx>"))
    #expect(
      Self.read([0xFF, 0xFE, 0x3C, 0x00]).error
        == .malformed(line: 1, detail: "the document is UTF-16; convert it to UTF-8"))
    #expect(Self.read("hello <gpx/>").error == .malformed(line: 1, detail: "text before the <gpx> element"))
    #expect(
      Self.read("<![CDATA[x]]><gpx/>").error == .malformed(line: 1, detail: "a CDATA section outside the <gpx> element")
    )
  }

  @Test func truncatedDocuments() {
    let cutInAPoint = Self.document([
      Self.head, Self.goodPoint, "<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00:01Z</ti",
    ])
    let (events, error) = Self.read(cutInAPoint)
    #expect(error == .truncated(line: 3, detail: "it stops inside the closing tag that begins on line 3"))
    #expect(
      events == [
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2),
        .unreadable(.unfinishedPoint, line: 3),
      ])

    let cutAfterAPoint = Self.document([Self.head, Self.goodPoint, ""])
    let after = Self.read(cutAfterAPoint)
    #expect(after.error == .truncated(line: 2, detail: "<trkseg> opened on line 1 is never closed"))
    #expect(after.records == [Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2)])

    #expect(Self.read("").error == .truncated(line: 1, detail: "the document is empty"))
    #expect(Self.read(" \n\n").error == .truncated(line: 2, detail: "there is no <gpx> element"))
    #expect(Self.read("<gpx><!-- note").error == .truncated(line: 1, detail: "it stops inside a comment"))
    #expect(
      Self.read("<gpx><trk x=\"1").error == .truncated(line: 1, detail: "it stops inside the tag that begins on line 1")
    )
    #expect(Self.read("<gpx/><!-- after").error == .truncated(line: 1, detail: "it stops inside a comment"))
  }

  @Test func readingOnAfterAnErrorRepeatsIt() {
    var reader = GPXReader(options: FeedOptions())
    var sink = GPXRecordingSink()
    let bytes = Array("<kml/>".utf8)
    var errors: [FeedError] = []
    for _ in 0..<2 {
      do {
        try bytes.withUnsafeBufferPointer { try reader.read($0, into: &sink) }
      } catch let error as FeedError {
        errors.append(error)
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
    do { try reader.finish(into: &sink) } catch { errors.append(error) }
    #expect(errors.count == 3)
    #expect(Set(errors).count == 1)
  }

  // MARK: Hostile input

  @Test func aMillionNestedElementsCostACounter() {
    let depth = 1_000_000
    var bytes = Array(
      (Self.head + "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time><extensions>").utf8)
    bytes.reserveCapacity(bytes.count + depth * 7 + 200)
    for _ in 0..<depth { bytes += [0x3C, 0x78, 0x3E] }  // <x>
    for _ in 0..<depth { bytes += [0x3C, 0x2F, 0x78, 0x3E] }  // </x>
    bytes += Array(
      ("</extensions></trkpt>\n<trkpt lat=\"45.51\" lon=\"13.25\"><time>2025-01-01T07:00:01Z</time></trkpt>" + Self.tail)
        .utf8)

    var maximumCapacity = 0
    let read = readChunked(Self.makeReader(), bytes, chunkSize: 65_536) { reader in
      maximumCapacity = max(maximumCapacity, reader.scanner.stack.storageCapacity)
    }
    #expect(read.error == nil)
    #expect(
      read.records == [
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 1),
        Self.position("2025-01-01T07:00:01Z", 45.51, 13.25, line: 2),
      ])
    #expect(maximumCapacity <= XMLElementStack<GPXRole>.trackedDepth)

    // Left open, it is reported, not recursed into.
    var open = Array((Self.head + "<trkpt lat=\"45.5\" lon=\"13.25\"><extensions>").utf8)
    for _ in 0..<500_000 { open += [0x3C, 0x78, 0x3E] }
    let truncated = Self.read(open, chunkSize: 65_536)
    #expect(truncated.error == .truncated(line: 1, detail: "500005 nested elements are never closed"))
    #expect(truncated.records == [.unreadable(.unfinishedPoint, line: 1)])
  }

  @Test func entityExpansionIsNeverAttempted() {
    var lines = [
      "<?xml version=\"1.0\"?>",
      "<!DOCTYPE gpx [",
      "  <!ENTITY lol \"lol\">",
      "  <!ELEMENT gpx (#PCDATA)>",
    ]
    for level in 1...9 {
      let previous = level == 1 ? "lol" : "lol\(level - 1)"
      lines.append("  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">")
    }
    lines += [
      "]>",
      "<gpx><trk><trkseg>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>&lol9;</time></trkpt>",
      "<trkpt lat=\"&lol9;\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpt>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><name>&lol9;</name><time>2025-01-01T07:00:00Z</time></trkpt>",
      Self.tail,
    ]
    Self.expectRead(
      Self.read(Self.document(lines)),
      gives: [
        .unreadable(.badTime, line: 16),
        .unreadable(.badNumber, line: 17),
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 18),
      ])
  }

  @Test func invalidUTF8IsToleratedWhereItIsSkippedAndUnreadableWhereItIsNeeded() {
    var bytes = Array((Self.head + "\n<trkpt lat=\"45.5\" lon=\"13.25\"><name>").utf8)
    bytes += [0xFF, 0xC3, 0x28, 0xE2, 0x82]
    bytes += Array("</name><time>2025-01-01T07:00:00Z</time></trkpt>\n<trkpt lat=\"45.5".utf8)
    bytes += [0xC3]
    bytes += Array(
      "\" lon=\"13.25\"><time>2025-01-01T07:00:01Z</time></trkpt>\n<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:02"
        .utf8)
    bytes += [0xFF]
    bytes += Array("Z</time></trkpt>\n<".utf8) + [0xFF] + Array("x/>".utf8) + Array(Self.tail.utf8)
    Self.expectRead(
      Self.read(bytes),
      gives: [
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2),
        .unreadable(.badNumber, line: 3),
        .unreadable(.badTime, line: 4),
      ])
    // ISO-8859-1 text (ExpertGPS writes it) is just skipped bytes.
    var latin1 = Array("<gpx><wpt lat=\"1\" lon=\"2\"><name>Caf".utf8) + [0xE9]
    latin1 += Array("</name></wpt></gpx>".utf8)
    #expect(Self.read(latin1).records == [.rejected(.waypoint, line: 1)])
  }

  @Test func nulBytesAreSkippedAsTextButNeverRead() {
    var bytes = Array((Self.head + "\n<trkpt lat=\"45.5\" lon=\"13.25\"><name>a").utf8)
    bytes += [0, 0]
    bytes += Array(
      "b</name><time>2025-01-01T07:00:00Z</time></trkpt>\n<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:01Z"
        .utf8)
    bytes += [0]
    bytes += Array("</time></trkpt>\n".utf8) + Array(Self.tail.utf8) + [UInt8](repeating: 0, count: 4096)
    Self.expectRead(
      Self.read(bytes),
      gives: [Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 2), .unreadable(.badTime, line: 3)])
  }

  @Test func hugeTextIsSkippedWithoutBeingHeld() {
    var bytes = Array((Self.head + "<trkpt lat=\"45.5\" lon=\"13.25\"><desc>").utf8)
    bytes += [UInt8](repeating: 0x61, count: 10_000_000)
    bytes += Array(("</desc><time>2025-01-01T07:00:00Z</time></trkpt><trkpt lat=\"45.5\" lon=\"13.25\"><time>").utf8)
    bytes += [UInt8](repeating: 0x20, count: 5_000_000)
    bytes += Array(("</time></trkpt>" + Self.tail).utf8)
    Self.expectRead(
      Self.read(bytes, chunkSize: 1 << 20),
      gives: [Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 1), .unreadable(.badTime, line: 1)])
  }

  // MARK: Internals

  @Test func packedNamesMatchTheirSpelling() {
    let names: [(String, UInt64)] = [
      ("gpx", GPXName.gpx), ("trk", GPXName.trk), ("trkseg", GPXName.trkseg), ("trkpt", GPXName.trkpt),
      ("rte", GPXName.rte), ("rtept", GPXName.rtept), ("wpt", GPXName.wpt), ("time", GPXName.time),
      ("ele", GPXName.ele), ("hdop", GPXName.hdop), ("speed", GPXName.speed), ("course", GPXName.course),
      ("fix", GPXName.fix), ("lat", GPXName.lat), ("lon", GPXName.lon),
    ]
    for (name, key) in names { #expect(XMLName.key(name) == key, "\(name)") }
    #expect(XMLName.display(prefix: XMLName.key("extensio"), length: 10) == "extensio…")
  }

  @Test(arguments: ["0", "-0", "12", "45.491561890", "-122.4194", ".5", "5.", "123456789012345", "0.000000000000001"])
  func plainDecimalsParseAsTheGeneralParserDoes(_ text: String) {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      let fast = ByteNumberParser.plainDecimal(buffer)
      let general = ByteNumberParser.double(text)
      if let fast { #expect(fast.bitPattern == general?.bitPattern) }
      #expect(general == Double(text))
    }
  }
}
