import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// TCX and KML, the two formats that share GPX's XML scanner: real files pinned to the metre,
/// chunk invariance, what each construct becomes, and hostile input.
@Suite struct XMLFormatReadersTests {
  // MARK: Helpers

  /// Reads `bytes` as `format` with the reader the CLI builds for it, `chunkSize` bytes at a time.
  static func read(_ bytes: [UInt8], _ format: FeedFormat, chunkSize: Int = .max) -> FeedTestRead {
    readChunked(AnyFeedReader(format: format, options: FeedOptions()), bytes, chunkSize: chunkSize)
  }

  static func read(_ text: String, _ format: FeedFormat, chunkSize: Int = .max) -> FeedTestRead {
    read(Array(text.utf8), format, chunkSize: chunkSize)
  }

  static func t(_ text: String) -> Double { ISO8601Parser.timestamp(text)! }

  static func position(
    _ time: String, _ latitude: Double, _ longitude: Double, altitude: Double? = nil, session: Int = 0, line: Int
  )
    -> FeedRecord
  {
    .position(
      RouteSample(timestamp: t(time), latitude: latitude, longitude: longitude, altitude: altitude), session: session,
      line: line)
  }

  static let chunkSizes = [1, 2, 3, 7, 64, 4096]

  // MARK: Real recordings

  static let realFiles: [GPXRealFile] = [
    // Edge 305: one Lap split into 2 Tracks; 3 Trackpoints have only a Time.
    GPXRealFile(
      "tcx/gpsbabel_history.tcx", records: 1205, estimatedAccuracy: 0,
      filtered: .init(
        retained: 1165, rejected: ["missingPosition": 3, "negligibleMovement": 37], sessions: 2, meters: 56738.686,
        segments: 2, gaps: 1),
      unfiltered: .init(
        retained: 1202, rejected: ["missingPosition": 3], sessions: 2, meters: 56762.209, segments: 2, gaps: 1)),
    // Two Laps, each with its own Track.
    GPXRealFile(
      "tcx/tcxreader_cross-country-skiing-activity-1.tcx", records: 486, estimatedAccuracy: 0,
      filtered: .init(
        retained: 365, rejected: ["negligibleMovement": 121], sessions: 2, meters: 5619.279, segments: 2, gaps: 1),
      unfiltered: .init(retained: 486, rejected: [:], sessions: 2, meters: 5651.024, segments: 2, gaps: 1)),
    // The whole document on one line; 7 Trackpoints without a Position.
    GPXRealFile(
      "tcx/tcxreader_mapmyride-biking.tcx", records: 3112, estimatedAccuracy: 0,
      filtered: .init(
        retained: 2453, rejected: ["missingPosition": 7, "negligibleMovement": 652], sessions: 1, meters: 16939.722,
        segments: 1, gaps: 0),
      unfiltered: .init(
        retained: 3105, rejected: ["missingPosition": 7], sessions: 1, meters: 16960.616, segments: 1, gaps: 0)),
    // Times with a +01:00 offset.
    GPXRealFile(
      "tcx/togeojson_tour-hr.tcx", records: 465, estimatedAccuracy: 0,
      filtered: .init(
        retained: 196, rejected: ["negligibleMovement": 269], sessions: 1, meters: 1354.409, segments: 1, gaps: 0),
      unfiltered: .init(retained: 465, rejected: [:], sessions: 1, meters: 1365.842, segments: 1, gaps: 0)),
    // 451 <when> first, then 451 <gx:coord>; gaps up to 301 s.
    GPXRealFile(
      "kml/gpsbabel_google-ext.kml", records: 451, estimatedAccuracy: 0,
      // Three stops with fixes arriving were three of its silences (README, Stops).
      filtered: .init(
        retained: 427, rejected: ["negligibleMovement": 24], sessions: 1, meters: 7725.226, segments: 3, gaps: 3),
      unfiltered: .init(retained: 451, rejected: [:], sessions: 1, meters: 7762.797, segments: 5, gaps: 4)),
    // OpenTracks: the first and last <gx:coord/> are empty pause markers; the two real points
    // are 3 h apart, so nothing is measured.
    GPXRealFile(
      "kml/gpsbabel_opentracks.kml", records: 4, estimatedAccuracy: 0,
      eitherWay: .init(retained: 2, rejected: ["missingPosition": 2], sessions: 1, meters: nil, segments: 0, gaps: 1)),
    // A LineString of 1329 tuples without times, with 20 comments inside <coordinates>.
    GPXRealFile(
      "kml/gpsbabel_skydrop.kml", records: 1329, estimatedAccuracy: 0,
      eitherWay: .init(retained: 0, rejected: ["missingTime": 1329], sessions: 0, meters: nil, segments: 0, gaps: 0)),
    // Each <gx:coord> before its <when>; two Point placemarks.
    GPXRealFile(
      "kml/togeojson_multitrack.kml", records: 18, estimatedAccuracy: 0,
      filtered: .init(
        retained: 8, rejected: ["negligibleMovement": 8, "waypoint": 2], sessions: 1, meters: 39.149, segments: 1,
        gaps: 0),
      unfiltered: .init(retained: 16, rejected: ["waypoint": 2], sessions: 1, meters: 42.558, segments: 1, gaps: 0)),
  ]

  @Test(arguments: realFiles)
  func realRecording(_ file: GPXRealFile) throws {
    try file.expectPinned(
      format: file.name.hasSuffix(".tcx") ? .tcx : .kml, allowsFailureWhenNothingIsRetained: true,
      measure: GPXRealFile.measureFile(at: Fixtures.path("realdata/\(file.name)")))
  }

  @Test func everyRealTCXAndKMLFileHasItsExpectations() throws {
    try GPXRealFile.expectEveryFixture(
      in: [("realdata/tcx", ".tcx", "tcx/"), ("realdata/kml", ".kml", "kml/")], pinnedBy: Self.realFiles)
    // The files the acceptance-rule test below is run on: a filter of this table, never empty.
    #expect(Self.realFiles.filter { $0.unfiltered.meters != nil }.count == 6)
  }

  /// The acceptance rule on every real file with timed positions: every timed position is
  /// read, and the unfiltered figure lies between the sum of the within-track steps of 120 s
  /// or less and the length of the line joining every point in order.
  @Test(arguments: realFiles.filter { $0.unfiltered.meters != nil })
  func unfilteredFigureLiesBetweenTheTrackSumAndTheJoinedLine(_ file: GPXRealFile) throws {
    let format: FeedFormat = file.name.hasSuffix(".tcx") ? .tcx : .kml
    try file.expectUnfilteredFigureBracketed(by: Self.read(try Fixtures.bytes("realdata/\(file.name)"), format))
  }

  @Test(arguments: realFiles.map(\.name))
  func chunkSizeDoesNotChangeARealRecording(_ name: String) throws {
    let format: FeedFormat = name.hasSuffix(".tcx") ? .tcx : .kml
    let bytes = try Fixtures.bytes("realdata/\(name)")
    let whole = Self.read(bytes, format)
    #expect(whole.error == nil)
    for size in [1, 7, 4096] {
      let chunked = Self.read(bytes, format, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)")
      #expect(chunked.error == whole.error, "chunk size \(size)")
    }
  }

  // MARK: Detection

  @Test func theRootElementChoosesTheFormat() {
    let detect = detectedFormat
    #expect(detect("<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"x\">") == .tcx)
    #expect(detect("\u{FEFF}<!-- <kml> in a comment --><tcx:TrainingCenterDatabase>") == .tcx)
    #expect(detect("<!-- pilot: <gpx> -->\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">") == .kml)
    #expect(detect("<?xml version=\"1.0\"?><!DOCTYPE kml><kml>") == .kml)
    #expect(detect("<gpx version=\"1.1\">") == .gpx)
    #expect(detect("<osm version=\"0.6\">") == .gpx)
    #expect(detect("<!-- a comment never closed") == .gpx)
  }

  // MARK: TCX

  static let tcxHead =
    "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities><Activity Sport=\"Biking\"><Lap StartTime=\"2025-01-01T07:00:00Z\">"
  static let tcxTail = "</Lap></Activity></Activities></TrainingCenterDatabase>"
  static func trackpoint(_ time: String?, _ latitude: String?, _ longitude: String? = "13.25") -> String {
    var text = "<Trackpoint>"
    if let time { text += "<Time>\(time)</Time>" }
    if latitude != nil || longitude != nil {
      text += "<Position>"
      if let latitude { text += "<LatitudeDegrees>\(latitude)</LatitudeDegrees>" }
      if let longitude { text += "<LongitudeDegrees>\(longitude)</LongitudeDegrees>" }
      text += "</Position>"
    }
    return text + "<AltitudeMeters>512</AltitudeMeters><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>"
  }

  static let tcxEverything = [
    tcxHead + "<TotalTimeSeconds>600</TotalTimeSeconds><Track>",
    trackpoint("2025-01-01T07:00:00Z", "45.5"),
    trackpoint("2025-01-01T07:00:05Z", nil, nil),
    trackpoint(nil, "45.5002"),
    trackpoint("yesterday", "45.5003"),
    trackpoint("2025-01-01T07:00:20Z", "north"),
    "<Trackpoint><Time>2025-01-01T07:00:25Z</Time><Position><LatitudeDegrees>45.5004</LatitudeDegrees></Position></Trackpoint>",
    "</Track><Track>",
    "<Trackpoint><Time>2025-01-01T08:00:00+01:00</Time><Position><LongitudeDegrees>13.26</LongitudeDegrees><LatitudeDegrees>45.6</LatitudeDegrees></Position>"
      + "<Extensions><TPX><Speed>3.5</Speed><Trackpoint/></TPX></Extensions></Trackpoint>",
    "</Track><Extensions><Trackpoint/></Extensions>" + tcxTail,
  ].joined(separator: "\n")

  @Test func courseTrackpointsArePlannedNotDriven() {
    let text =
      "<TrainingCenterDatabase><Courses><Course><Name>x</Name><Track>\n"
      + Self.trackpoint("2025-01-01T07:00:00Z", "45.5") + "\n" + Self.trackpoint("2025-01-01T07:00:05Z", "45.5001")
      + "\n</Track></Course></Courses></TrainingCenterDatabase>"
    let read = Self.read(text, .tcx)
    #expect(read.error == nil)
    #expect(read.records == [.rejected(.routePoint, line: 2), .rejected(.routePoint, line: 3)])
  }

  @Test func notATCXDocumentAndTruncatedTCX() {
    let wrong = Self.read("<gpx></gpx>", .tcx)
    #expect(
      wrong.error
        == .malformed(
          line: 1, detail: "this is not a TCX document: its root element is <gpx>, not <TrainingCenterDatabase>"))
    let cut = Self.read(
      Self.tcxHead + "<Track>\n" + Self.trackpoint("2025-01-01T07:00:00Z", "45.5") + "\n<Trackpoint><Time>2025", .tcx)
    #expect(cut.error == .truncated(line: 3, detail: "<Time> opened on line 3 is never closed"))
    #expect(
      cut.records == [
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, altitude: 512, line: 2),
        .unreadable(.unfinishedPoint, line: 3),
      ])
    let broken = Self.read(Self.tcxHead + "<Track>\n<Trackpoint><Time>2025-01-01T07:00:00Z</Position>", .tcx)
    #expect(
      broken.error == .malformed(line: 2, detail: "the closing tag </Position> does not match <Time> opened on line 2"))
    #expect(broken.records == [.unreadable(.unfinishedPoint, line: 2)])
  }

  // MARK: KML

  static let kmlHead =
    "<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\"><Document><Folder><Placemark>"
  static let kmlTail = "</Placemark></Folder></Document></kml>"

  static let kmlEverything = [
    kmlHead
      + "<name><![CDATA[Drive & more]]></name><TimeStamp><when>2025-01-01T06:00:00Z</when></TimeStamp><gx:MultiTrack><gx:Track>",
    "<when>2025-01-01T07:00:00Z</when>",
    "<when>2025-01-01T07:00:05Z</when>",
    "<when>2025-01-01T07:00:10Z</when>",
    "<when>later</when>",
    "<when/>",
    "<gx:coord>13.25 45.5 512</gx:coord>",
    "<gx:coord/>",
    "<gx:coord>13.25 45.5002</gx:coord>",
    "<gx:coord>13.25 45.5003</gx:coord>",
    "<gx:coord>13.25 45.5004</gx:coord>",
    "<gx:coord>east</gx:coord>",
    "<ExtendedData><when>2025-01-01T07:00:30Z</when><gx:coord>1 2</gx:coord></ExtendedData></gx:Track>",
    "<Track><gx:coord>13.26 45.6</gx:coord><when>2025-01-01T08:00:00Z</when><when>2025-01-01T08:00:05Z</when></Track>",
    "</gx:MultiTrack></Placemark><Placemark><Point><coordinates>13,45</coordinates></Point></Placemark>",
    "<Placemark><LineString><coordinates> 13.1,45.1,0 13.2,45.2,0<!-- battery -->\n13.3,45.3 </coordinates></LineString>",
    "<Polygon><outerBoundaryIs><LinearRing><coordinates>1,2 3,4 5,6 1,2</coordinates></LinearRing></outerBoundaryIs></Polygon>",
    kmlTail,
  ].joined(separator: "\n")

  @Test func aTrackCutOffCountsWhatWasWaiting() {
    let text =
      Self.kmlHead
      + "<gx:Track>\n<when>2025-01-01T07:00:00Z</when>\n<when>2025-01-01T07:00:05Z</when>\n<gx:coord>13.25 45.5</gx:coord>\n"
    let read = Self.read(text, .kml)
    #expect(read.error == .truncated(line: 4, detail: "<Track> opened on line 1 is never closed"))
    #expect(
      read.records == [
        Self.position("2025-01-01T07:00:00Z", 45.5, 13.25, line: 4), .unreadable(.unfinishedPoint, line: 3),
      ])
    let malformed = Self.read(Self.kmlHead + "<LineString><coordinates>1,2 3,4\n5,6 <b></coordinates>", .kml)
    #expect(
      malformed.error == .malformed(line: 2, detail: "the closing tag </coordina…> does not match <b> opened on line 2")
    )
    #expect(
      malformed.records == [
        .unreadable(.unfinishedPoint, line: 1), .unreadable(.unfinishedPoint, line: 1),
        .unreadable(.unfinishedPoint, line: 1),
      ])
  }

  @Test func notAKMLDocument() {
    let read = Self.read("<?xml version=\"1.0\"?>\n<gpx></gpx>", .kml)
    #expect(
      read.error == .malformed(line: 2, detail: "this is not a KML document: its root element is <gpx>, not <kml>"))
    #expect(read.records.isEmpty)
  }

  // MARK: Every construct, TCX and KML

  /// What each construct of `tcxEverything` and `kmlEverything` gives, in order.
  static let everything: [FeedFormat: (text: String, records: [FeedRecord])] = [
    .tcx: (
      tcxEverything,
      [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, altitude: 512, line: 2),
        .rejected(.missingPosition, line: 3),
        .rejected(.missingTime, line: 4),
        .unreadable(.badTime, line: 5),
        .unreadable(.badNumber, line: 6),
        .unreadable(.badNumber, line: 7),
        .ignored(.misplacedTrackPoint, line: 9),
        position("2025-01-01T07:00:00Z", 45.6, 13.26, session: 1, line: 9),
        .ignored(.misplacedTrackPoint, line: 10),
      ]
    ),
    .kml: (
      kmlEverything,
      [
        position("2025-01-01T07:00:00Z", 45.5, 13.25, altitude: 512, line: 7),
        .rejected(.missingPosition, line: 8),
        position("2025-01-01T07:00:10Z", 45.5002, 13.25, line: 9),
        .unreadable(.badTime, line: 10),
        .rejected(.missingTime, line: 11),
        .unreadable(.badNumber, line: 12),
        position("2025-01-01T08:00:00Z", 45.6, 13.26, session: 1, line: 14),
        .rejected(.missingPosition, line: 14),
        .rejected(.waypoint, line: 15),
        .rejected(.missingTime, line: 16),
        .rejected(.missingTime, line: 16),
        .rejected(.missingTime, line: 16),
      ]
    ),
  ]

  @Test(arguments: [FeedFormat.tcx, .kml])
  func everyConstructGivesTheDocumentedRecords(_ format: FeedFormat) throws {
    let everything = try #require(Self.everything[format])
    let read = Self.read(everything.text, format)
    #expect(read.error == nil)
    #expect(read.records == everything.records)
  }

  @Test(arguments: [FeedFormat.tcx, .kml], chunkSizes)
  func chunkSizeDoesNotChangeEveryConstruct(_ format: FeedFormat, _ size: Int) throws {
    let text = try #require(Self.everything[format]).text
    let whole = Self.read(text, format)
    let chunked = Self.read(text, format, chunkSize: size)
    #expect(chunked.records == whole.records)
    #expect(chunked.error == nil)
  }

  // MARK: Hostile input

  /// A gx:Track with all its times first, then all its coordinates: every pair measured.
  @Test func aMillionTimesBeforeTheirCoordinatesArePairedInOrder() {
    let count = 200_000
    var text = Self.kmlHead + "<gx:Track>\n"
    for index in 0..<count { text += "<when>2025-01-01T07:00:\(String(format: "%02d", index % 60))Z</when>\n" }
    for index in 0..<count { text += "<gx:coord>13.25 \(45 + Double(index % 60) * 0.0001)</gx:coord>\n" }
    text += "</gx:Track>" + Self.kmlTail
    let measured = HostileFeed.measure(text, settings: IngestSettings(filter: nil))
    #expect(measured.format == .kml)
    #expect(measured.report.failure == nil)
    #expect(measured.report.records == count)
    #expect(measured.report.retained == count)
    #expect(measured.report.isBalanced)
  }

  @Test func aHugeLineStringIsCountedWithoutBeingHeld() {
    let source = SyntheticByteSource([
      .text(Self.kmlHead + "<LineString><coordinates>\n"),
      .repeated("13.25,45.5,100 ", count: 1_000_000),
      .text("\n</coordinates></LineString>" + Self.kmlTail),
    ])
    let outcome = HostileFeed.stream(KMLReader(options: FeedOptions()), source, format: .kml) {
      $0.scanner.stack.storageCapacity * MemoryLayout<XMLOpenElement<KMLRole>>.stride + $0.scanner.value.bytes.capacity
    }
    let report = outcome.measurement.report
    #expect(report.records == 1_000_000)
    #expect(report.rejected == [.missingTime: 1_000_000])
    #expect(report.isBalanced)
    #expect(outcome.largestHeld <= HostileInputTests.gpxBound)
  }

  @Test func tooManyWaitingValuesStopPairingThatTrackOnly() {
    var pairing = KMLTrackPairing()
    var sink = FeedRecordCollector()
    for index in 0...KMLTrackPairing.pendingLimit {
      pairing.add(KMLTrackPairing.When(time: .seconds(Double(index)), line: 1), session: 0, into: &sink)
    }
    #expect(sink.records.count == KMLTrackPairing.pendingLimit + 1)
    #expect(sink.records.allSatisfy { $0 == .unreadable(.trackTooLong, line: 1) })
    pairing.add(
      KMLTrackPairing.Coord(place: .point(latitude: 1, longitude: 2, altitude: nil), line: 2), session: 0, into: &sink)
    #expect(sink.records.last == .unreadable(.trackTooLong, line: 2))
    pairing.finishTrack(into: &sink)
    pairing.add(KMLTrackPairing.When(time: .seconds(5), line: 3), session: 1, into: &sink)
    pairing.add(
      KMLTrackPairing.Coord(place: .point(latitude: 1, longitude: 2, altitude: nil), line: 4), session: 1, into: &sink)
    #expect(sink.records.last == .position(RouteSample(timestamp: 5, latitude: 1, longitude: 2), session: 1, line: 4))
  }

  @Test(arguments: [FeedFormat.tcx, .kml])
  func garbageAndEmptyInputGiveAnErrorNotACrash(_ format: FeedFormat) {
    #expect(Self.read("", format).error == .truncated(line: 1, detail: "the document is empty"))
    #expect(
      Self.read("hello", format).error
        == .malformed(line: 1, detail: "text before the <\(format == .tcx ? "TrainingCenterDatabase" : "kml")> element")
    )
    let nested = String(repeating: "<a>", count: 100_000)
    let root = format == .tcx ? "<TrainingCenterDatabase>" : "<kml>"
    #expect(
      Self.read(root + nested, format).error == .truncated(line: 1, detail: "100001 nested elements are never closed"))
  }
}
