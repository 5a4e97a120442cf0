import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// Google location history (`Records.json`, the on-device Timeline export for Android and iOS,
/// Semantic Location History): real files pinned to the metre, every construct's records,
/// sessions, detection, chunk invariance, hostile input and bounded memory.
@Suite struct TakeoutReaderTests: FormatReaderSuite {
  // MARK: Helpers

  static let format = FeedFormat.takeout

  static func position(
    _ time: Double, _ latitude: Double, _ longitude: Double, accuracy: Double? = nil, altitude: Double? = nil,
    session: Int, line: Int
  ) -> FeedRecord {
    .position(
      RouteSample(
        timestamp: time, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, altitude: altitude),
      session: session, line: line)
  }

  // MARK: Real files and the Records.json fixture

  /// The three real files and the hand-written `Records.json` of two phones. The unfiltered
  /// figures, segments, gaps and position counts were computed separately (a Python reading of
  /// the same JSON with the design's rules: sort by time, collapse equal times, continuous when
  /// the same session and at most 120 s apart, haversine on a 6,371,008.8 m sphere).
  static let files: [GPXRealFile] = [
    // iOS: 4 entries (visit, a 1-point path, timelineMemory, a 9-point path); repeated points.
    GPXRealFile(
      "realdata/takeout/dawarich_location-history.json", records: 10, estimatedAccuracy: 0,
      // Filtered, the point back at minute 108 where minute 10 was is negligible movement, so
      // the one step of 60 s (108 to 109) starts from minute 10: a gap, nothing measured.
      filtered: .init(
        retained: 6, rejected: ["duplicate": 3, "negligibleMovement": 1], sessions: 2, meters: nil, segments: 0, gaps: 5
      ),
      unfiltered: .init(retained: 10, rejected: [:], sessions: 2, meters: 1258.461, segments: 1, gaps: 5)),
    // Semantic Location History: 3 activitySegments of 2 waypoints, no times.
    GPXRealFile(
      "realdata/takeout/dawarich_semantic-history.json", records: 6, estimatedAccuracy: 0,
      eitherWay: .init(retained: 0, rejected: ["missingTime": 6], sessions: 0, meters: nil, segments: 0, gaps: 0)),
    // Android: 20 segments (8 paths of 80 points, 7 visits, 5 activities), 5 raw signals (3
    // positions from 3 sources, 2 Wi-Fi scans).
    GPXRealFile(
      "realdata/takeout/reitti_timeline-from-android-randomized.json", records: 83, estimatedAccuracy: 0,
      filtered: .init(
        retained: 78, rejected: ["duplicate": 5], sessions: 11, meters: 30503.543, segments: 17, gaps: 35),
      unfiltered: .init(retained: 83, rejected: [:], sessions: 11, meters: 30503.543, segments: 17, gaps: 35)),
    // Two phones interleaved (timestampMs and timestamp styles), one untagged cell fix, 5 broken
    // records.
    GPXRealFile(
      "takeout/records-two-phones.json", records: 33, estimatedAccuracy: 0,
      // Two phones in one car: two recordings that overlap in time, measured apart; the figure
      // is the first phone's (it covers the most time), the second's 13 positions are
      // `otherRecording`. (The 1,500 m cell fix, untagged, is a recording of its own.)
      filtered: .init(
        retained: 15,
        rejected: ["missingTime": 1, "coordinateOutOfRange": 1, "missingPosition": 1, "otherRecording": 13],
        sessions: 3,
        meters: 3635.942, segments: 2, gaps: 1),
      unfiltered: .init(
        retained: 15,
        rejected: ["missingTime": 1, "coordinateOutOfRange": 1, "missingPosition": 1, "otherRecording": 13],
        sessions: 3,
        meters: 3635.942, segments: 2, gaps: 1)),
  ]

  /// What each file holds besides its records, by reason.
  static let ignored: [String: [String: Int]] = [
    "realdata/takeout/dawarich_location-history.json": ["timelineVisit": 1, "timelineMemory": 1],
    "realdata/takeout/dawarich_semantic-history.json": [:],
    "realdata/takeout/reitti_timeline-from-android-randomized.json": [
      "timelineVisit": 7, "timelineActivity": 5, "wifiScan": 2,
    ],
    "takeout/records-two-phones.json": [:],
  ]

  static let errors: [String: [String: Int]] = ["takeout/records-two-phones.json": ["badNumber": 1, "badTime": 1]]

  @Test(arguments: files)
  func pinnedFigures(_ file: GPXRealFile) throws {
    try file.expectPinned(
      format: .takeout, allowsFailureWhenNothingIsRetained: true, errors: Self.errors[file.name, default: [:]],
      ignored: Self.ignored[file.name], measure: GPXRealFile.measureFile(at: Fixtures.path(file.name)))
  }

  @Test func everyTakeoutFileHasItsExpectations() throws {
    try GPXRealFile.expectEveryFixture(
      in: [("realdata/takeout", ".json", "realdata/takeout/"), ("takeout", ".json", "takeout/")], pinnedBy: Self.files)
    // The files the acceptance-rule test below is run on: a filter of this table, never empty.
    #expect(Self.bracketed.count == 2)
  }

  /// The files measured as one route (two phones that overlap in time are two routes, each
  /// figure its own phone's; `interleavedDevicesNeverZigzag` checks them).
  static let bracketed = files.filter { $0.unfiltered.meters != nil && $0.unfiltered.rejected["otherRecording"] == nil }

  /// The acceptance rule: every timed position is read, and the unfiltered figure lies between
  /// the sum of the within-session steps of 120 s or less and the line joining every point in
  /// the order read.
  @Test(arguments: bracketed)
  func unfilteredFigureLiesBetweenTheSessionSumAndTheJoinedLine(_ file: GPXRealFile) throws {
    try file.expectUnfilteredFigureBracketed(by: Self.read(try Fixtures.bytes(file.name)))
  }

  @Test(arguments: files.map(\.name))
  func chunkSizeDoesNotChangeAFile(_ name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let whole = Self.read(bytes)
    #expect(whole.error == nil)
    for size in [1, 2, 3, 7, 64, 4096] {
      let chunked = Self.read(bytes, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)")
      #expect(chunked.error == whole.error, "chunk size \(size)")
    }
  }

  /// Split in two at every byte: the same records as the whole read.
  @Test(arguments: ["realdata/takeout/dawarich_location-history.json", "takeout/records-two-phones.json"])
  func everySplitPointGivesTheSameRecords(_ name: String) throws {
    let bytes = try Fixtures.bytes(name)
    let whole = Self.read(bytes)
    for split in 1..<bytes.count {
      var reader = AnyFeedReader(format: .takeout, options: FeedOptions())
      var sink = FeedRecordCollector()
      var failure: FeedError?
      bytes.withUnsafeBufferPointer { all in
        do throws(FeedError) {
          try reader.read(UnsafeBufferPointer(rebasing: all[..<split]), into: &sink)
          try reader.read(UnsafeBufferPointer(rebasing: all[split...]), into: &sink)
          try reader.finish(into: &sink)
        } catch {
          failure = error
        }
      }
      guard sink.records == whole.records, failure == nil else {
        Issue.record("split at byte \(split) differs")
        return
      }
    }
  }

  // MARK: Sessions

  /// Two phones in one car, their records interleaved: each phone is its own session, so the
  /// figure never joins one phone's fix to the other's (which would zigzag 60 m across the road
  /// every 10 s). Without the device tags, the same file measures the zigzag.
  @Test func interleavedDevicesNeverZigzag() throws {
    let bytes = try Fixtures.bytes("takeout/records-two-phones.json")
    let read = Self.read(bytes)
    let positions = Self.positions(read.records)
    let sessionsByTag = Dictionary(grouping: positions, by: \.session)
    #expect(sessionsByTag.count == 3)
    // Within each session, a path that only moves east along its own side of the road (the two
    // phones; the untagged cell fix is a session of one).
    #expect(sessionsByTag.values.filter { $0.count > 1 }.count == 2)
    for (_, fixes) in sessionsByTag where fixes.count > 1 {
      let latitudes = Set(fixes.map { ($0.sample.latitude * 1000).rounded() })
      #expect(latitudes.count == 1, "one side of the road per session")
    }
    var tagged = MemoryByteSource(bytes)
    let withTags = FeedIngest.measure(&tagged, settings: IngestSettings(filter: nil))
    var text = String(decoding: bytes, as: UTF8.self)
    text = text.split(separator: "\n").filter { !$0.contains("\"deviceTag\"") }.joined(separator: "\n")
    // Removing the member leaves a trailing comma on the previous line in some records.
    text = text.replacingOccurrences(of: ",\n  }", with: "\n  }")
    var untagged = MemoryByteSource(Array(text.utf8))
    let withoutTags = FeedIngest.measure(&untagged, settings: IngestSettings(filter: nil))
    #expect(withoutTags.report.failure == nil)
    #expect(withoutTags.report.sessions == 1)
    // The two phones are two recordings that overlap in time: each measured on its own, the
    // first phone's drive is the figure, never added to the second's.
    #expect(abs(withTags.distance.meters - 3_635.942) < 0.5)
    #expect(withTags.recordings.map { ($0.distance.meters * 1000).rounded() / 1000 } == [3_635.942, 3_076.511, 0])
    #expect(withTags.recordings.map(\.isChosen) == [true, false, false])
    #expect(withoutTags.recordings.isEmpty)
    #expect(
      withoutTags.distance.meters > withTags.distance.meters, "\(withoutTags.distance.meters) m joined across phones")
  }

  // MARK: Every construct

  static let recordsEverything = """
    {"locations": [
    {"latitudeE7": 525200000, "longitudeE7": 134000000, "accuracy": 12, "altitude": 40, "deviceTag": 7, "timestamp": "2021-06-14T07:00:00Z"},
    {"timestampMs": "1623654010000", "latitudeE7": "525201000", "longitudeE7": 134001000, "deviceTag": -3,
     "activity": [{"timestampMs": "1", "activity": [{"type": "STILL", "confidence": 100}]}], "inferredLocation": [{"latitudeE7": 1, "longitudeE7": 2, "timestamp": "2021-06-14T07:00:11Z"}]},
    {"latitudeE7": 525202000, "longitudeE7": 134002000, "timestampMs": 1623654020000, "timestamp": "2021-06-14T07:00:30Z", "deviceTag": 7},
    {"latitudeE7": 525203000, "longitudeE7": 134003000, "source": "CELL", "timestamp": "2021-06-14T07:00:40Z", "timestamp": "garbage"},
    {"latitudeE7": 525204000, "longitudeE7": 134004000, "activity": [{"activity": [], "timestamp": "2021-06-14T07:00:50Z"}]},
    {"latitudeE7": 925204000, "longitudeE7": 134004000, "timestamp": "2021-06-14T07:01:00Z"},
    {"latitudeE7": 525204000, "timestamp": "2021-06-14T07:01:10Z"},
    {"latitudeE7": {"value": 1}, "longitudeE7": 134004000, "timestamp": "2021-06-14T07:01:20Z"},
    {"latitudeE7": 525204000, "longitudeE7": 134004000, "accuracy": "wide", "timestamp": "2021-06-14T07:01:30Z"},
    {"latitudeE7": 525204000, "longitudeE7": 134004000, "timestamp": 1623654100},
    {"latitudeE7": null, "longitudeE7": null, "timestamp": null},
    42, "x", [1], {}
    ], "other": {"locations": [{"latitudeE7": 1}]}}
    """

  @Test func everyRecordsConstructGivesTheDocumentedRecords() {
    let t0 = Self.t("2021-06-14T07:00:00Z")
    Self.expectRead(
      Self.read(Self.recordsEverything),
      gives: [
        Self.position(t0, 52.52, 13.4, accuracy: 12, altitude: 40, session: 0, line: 2),
        Self.position(t0 + 10, 52.5201, 13.4001, session: 1, line: 3),
        Self.position(t0 + 30, 52.5202, 13.4002, session: 0, line: 5),
        Self.position(t0 + 40, 52.5203, 13.4003, session: 2, line: 6),
        .rejected(.missingTime, line: 7),
        .rejected(.coordinateOutOfRange, line: 8),
        .rejected(.missingPosition, line: 9),
        .unreadable(.badNumber, line: 10),
        .unreadable(.badNumber, line: 11),
        .unreadable(.badTime, line: 12),
        .rejected(.missingPosition, line: 13),
        .unreadable(.notAnObject, line: 14),
        .unreadable(.notAnObject, line: 14),
        .unreadable(.notAnObject, line: 14),
        .rejected(.missingPosition, line: 14),
      ])
  }

  static let androidEverything = """
    {
      "semanticSegments": [
        {"startTime": "2024-05-01T08:00:00+02:00", "endTime": "2024-05-01T09:00:00+02:00", "timelinePath": [
          {"point": "48.1000000°, 11.5000000°", "time": "2024-05-01T08:01:00+02:00"},
          {"time": "2024-05-01T08:02:00+02:00", "point": "48.1010000°,11.5010000°"},
          {"point": "48.102, 11.502", "time": "2024-05-01T08:03:00+02:00"},
          {"point": "north", "time": "2024-05-01T08:04:00+02:00"},
          {"point": "48.104°, 11.504°"},
          {"point": "91.0°, 11.504°", "time": "2024-05-01T08:05:00+02:00"}
        ]},
        {"startTime": "2024-05-01T09:00:00+02:00", "visit": {"topCandidate": {"placeLocation": {"latLng": "48.1°, 11.5°"}}}},
        {"startTime": "2024-05-01T09:10:00+02:00", "activity": {"start": {"latLng": "48.1°, 11.5°"}, "distanceMeters": 1200.0}},
        {"timelinePath": [{"point": "48.2°, 11.6°", "time": "2024-05-01T10:00:00+02:00"}]},
        {"startTime": "2024-05-01T11:00:00+02:00"}
      ],
      "rawSignals": [
        {"position": {"LatLng": "48.3°, 11.7°", "accuracyMeters": 8, "altitudeMeters": 520.5, "source": "GPS", "timestamp": "2024-05-01T12:00:00+02:00"}},
        {"wifiScan": {"deliveryTime": "2024-05-01T12:00:01+02:00", "devicesRecords": []}},
        {"position": {"LatLng": "48.3001°, 11.7001°", "accuracyMeters": 40, "source": "WIFI", "timestamp": "2024-05-01T12:00:05+02:00"}},
        {"activityRecord": {"probableActivities": [{"type": "STILL", "confidence": 1}]}},
        {"position": {"LatLng": "48.3002°, 11.7002°", "accuracyMeters": 6, "source": "GPS", "timestamp": "2024-05-01T12:00:10+02:00"}},
        {"position": {"LatLng": "48.3003°, 11.7003°", "timestamp": "2024-05-01T12:00:15+02:00"}},
        {"somethingNew": true}
      ],
      "userLocationProfile": {"frequentPlaces": [{"placeLocation": "48.1°, 11.5°"}]}
    }
    """

  @Test func everyAndroidTimelineConstructGivesTheDocumentedRecords() {
    let t0 = Self.t("2024-05-01T06:00:00Z")
    Self.expectRead(
      Self.read(Self.androidEverything),
      gives: [
        Self.position(t0 + 60, 48.1, 11.5, session: 0, line: 4),
        Self.position(t0 + 120, 48.101, 11.501, session: 0, line: 5),
        Self.position(t0 + 180, 48.102, 11.502, session: 0, line: 6),
        .unreadable(.badNumber, line: 7),
        .rejected(.missingTime, line: 8),
        .rejected(.coordinateOutOfRange, line: 9),
        .ignored(.timelineVisit, line: 11),
        .ignored(.timelineActivity, line: 12),
        Self.position(t0 + 7200, 48.2, 11.6, session: 1, line: 13),
        .ignored(.otherEntry, line: 14),
        Self.position(t0 + 14400, 48.3, 11.7, accuracy: 8, altitude: 520.5, session: 2, line: 17),
        .ignored(.wifiScan, line: 18),
        Self.position(t0 + 14405, 48.3001, 11.7001, accuracy: 40, session: 3, line: 19),
        .ignored(.activityRecord, line: 20),
        Self.position(t0 + 14410, 48.3002, 11.7002, accuracy: 6, session: 2, line: 21),
        Self.position(t0 + 14415, 48.3003, 11.7003, session: 4, line: 22),
        .ignored(.otherSignal, line: 23),
      ])
  }

  /// iOS: numbers as strings, `geo:` points, times as minutes after the entry's start, which
  /// may come after the path.
  static let iosEverything = """
    [
      {"endTime": "2023-08-27T17:04:26.999-05:00", "startTime": "2023-08-27T15:48:56.000-05:00",
       "visit": {"hierarchyLevel": "0", "topCandidate": {"placeLocation": "geo:27.720022,-97.347951"}}},
      {"startTime": "2023-08-27T20:00:00.000Z", "timelinePath": [
        {"point": "geo:27.700000,-97.300000", "durationMinutesOffsetFromStartTime": "4"},
        {"point": "geo:27.701000,-97.301000", "durationMinutesOffsetFromStartTime": 5},
        {"point": "geo:27.702000,-97.302000", "durationMinutesOffsetFromStartTime": "soon"},
        {"point": "geo:27.703000,-97.303000"}
      ]},
      {"timelinePath": [
        {"point": "geo:27.710000,-97.310000", "durationMinutesOffsetFromStartTime": "1"},
        {"point": "geo:27.711000,-97.311000,12;u=35", "durationMinutesOffsetFromStartTime": "2"}
      ], "endTime": "2023-08-27T22:30:00.000Z", "startTime": "2023-08-27T22:00:00.000Z"},
      {"timelinePath": [{"point": "geo:27.72,-97.32", "durationMinutesOffsetFromStartTime": "1"}]},
      {"timelinePath": [{"point": "geo:27.73,-97.33", "durationMinutesOffsetFromStartTime": "1"}], "startTime": "tomorrow"},
      {"startTime": "2023-08-27T14:48:56.000-06:00", "timelineMemory": {"distanceFromOriginKms": "1594"}}
    ]
    """

  @Test func everyIOSTimelineConstructGivesTheDocumentedRecords() {
    let read = Self.read(Self.iosEverything)
    #expect(read.error == nil)
    let t20 = Self.t("2023-08-27T20:00:00Z")
    let t22 = Self.t("2023-08-27T22:00:00Z")
    #expect(
      read.records == [
        .ignored(.timelineVisit, line: 2),
        Self.position(t20 + 240, 27.7, -97.3, session: 0, line: 5),
        Self.position(t20 + 300, 27.701, -97.301, session: 0, line: 6),
        .unreadable(.badTime, line: 7),
        .rejected(.missingTime, line: 8),
        Self.position(t22 + 60, 27.71, -97.31, session: 1, line: 11),
        Self.position(t22 + 120, 27.711, -97.311, session: 1, line: 12),
        .rejected(.missingTime, line: 14),
        .unreadable(.badTime, line: 15),
        .ignored(.timelineMemory, line: 16),
      ])
  }

  static let semanticEverything = """
    {"timelineObjects": [
      {"activitySegment": {"startLocation": {"latitudeE7": 533407440, "longitudeE7": 837026901},
        "waypointPath": {"waypoints": [{"latE7": 533407440, "lngE7": 837026901}, {"latE7": 533410301, "lngE7": 837051010}]},
        "simplifiedRawPath": {"points": [
          {"latE7": 533407440, "lngE7": 837026901, "accuracyMeters": 10, "timestamp": "2013-12-01T07:05:14.222Z"},
          {"latE7": 533408440, "lngE7": 837027901, "accuracyMeters": 12, "timestampMs": "1385881534222"}
        ]}}},
      {"placeVisit": {"location": {"latitudeE7": 533410301, "longitudeE7": 837051010}, "duration": {}}},
      {"activitySegment": {"duration": {}, "distance": 3853}},
      {"placeVisit": {"simplifiedRawPath": {"points": [{"latE7": 533410301, "lngE7": 837051010, "timestamp": "2013-12-01T08:00:00Z"}]}}},
      {"somethingElse": {}}
    ]}
    """

  @Test func everySemanticHistoryConstructGivesTheDocumentedRecords() {
    let read = Self.read(Self.semanticEverything)
    #expect(read.error == nil)
    let t = Self.t("2013-12-01T07:05:14.222Z")
    #expect(
      read.records == [
        .rejected(.missingTime, line: 3),
        .rejected(.missingTime, line: 3),
        Self.position(t, 53.340744, 83.7026901, accuracy: 10, session: 0, line: 5),
        Self.position(t + 20, 53.340844, 83.7027901, accuracy: 12, session: 0, line: 6),
        .ignored(.timelineVisit, line: 8),
        .ignored(.timelineActivity, line: 9),
        Self.position(Self.t("2013-12-01T08:00:00Z"), 53.3410301, 83.705101, session: 1, line: 10),
        .ignored(.otherEntry, line: 11),
      ])
  }

  @Test(arguments: [recordsEverything, androidEverything, iosEverything, semanticEverything])
  func chunkSizeDoesNotChangeEveryConstruct(_ text: String) {
    let whole = Self.read(text)
    for size in [1, 2, 3, 5, 7, 64] {
      let chunked = Self.read(text, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)")
      #expect(chunked.error == whole.error, "chunk size \(size)")
    }
    let problems = FeedInvariants.violations(of: Array(text.utf8), format: .takeout, options: FeedOptions())
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func pointTextsInBothShapes() {
    func degrees(_ text: String) -> [Double]? {
      Array(text.utf8).withUnsafeBufferPointer { TakeoutPointText.degrees($0).map { [$0.latitude, $0.longitude] } }
    }
    #expect(degrees("-27.4127738°, 163.5638958°") == [-27.4127738, 163.5638958])
    #expect(degrees("48.1,11.5") == [48.1, 11.5])
    #expect(degrees(" 48.1° ,  11.5° ") == [48.1, 11.5])
    #expect(degrees("geo:27.720007,-97.348044") == [27.720007, -97.348044])
    #expect(degrees("GEO:27.7,-97.3;u=20") == [27.7, -97.3])
    #expect(degrees("geo:27.7, -97.3") == nil)
    #expect(degrees("48.1°") == nil)
    #expect(degrees("48.1°, 11.5°, 3") == nil)
    #expect(degrees("") == nil)
    #expect(degrees("°,°") == nil)
  }

  // MARK: Detection

  @Test func theFirstMembersChooseTheFormat() {
    let detect = detectedFormat
    #expect(detect("{\n  \"locations\": [{") == .takeout)
    #expect(detect("\u{FEFF}  {\"semanticSegments\" : [") == .takeout)
    #expect(detect("{\"rawSignals\": []}") == .takeout)
    #expect(detect("{\"userLocationProfile\": {}}") == .takeout)
    #expect(detect("{\"timelineObjects\": [") == .takeout)
    #expect(detect("[\n  {\n    \"endTime\": \"2023-08-27T17:04:26.999-05:00\",") == .takeout)
    #expect(detect("[{\"timelinePath\": [") == .takeout)
    // GeoJSON is decided in the same function, after the first-member check.
    #expect(detect("{\"type\": \"FeatureCollection\"}") == .geojson)
    #expect(detect("{\"semanticSegments\": [{\"coordinates\": \"Point\"}]}") == .takeout)
    #expect(detect("[{\"_type\": \"location\"}]") != .takeout)
    #expect(detect("{\"locationsX\": []}") != .takeout)
    #expect(detect("[1, 2]") != .takeout)
    #expect(detect("{") != .takeout)
  }

  // MARK: Hostile input

  /// Cut at every byte: never a crash; a cut inside the document is a truncation naming a line;
  /// every record before the cut is read and the account balances.
  @Test func aFileCutAtEveryByteIsATruncationNeverACrash() throws {
    let bytes = try Fixtures.bytes("realdata/takeout/dawarich_location-history.json")
    let whole = Self.read(bytes)
    let wholePositions = Self.positions(whole.records).count
    var previousPositions = 0
    for length in 1..<bytes.count where bytes[length...].contains(where: { !$0.isASCIIWhitespace }) {
      let cut = Array(bytes[..<length])
      let read = Self.read(cut)
      guard case .truncated(let line, _) = read.error else {
        Issue.record("cut at \(length): \(String(describing: read.error))")
        continue
      }
      #expect(line >= 1)
      let count = Self.positions(read.records).count
      #expect(count >= previousPositions && count <= wholePositions, "cut at \(length)")
      previousPositions = count
      let measured = HostileFeed.measure(cut, format: .takeout)
      #expect(measured.report.isBalanced, "cut at \(length)")
    }
  }

  @Test func notALocationHistoryDocument() {
    #expect(Self.read("").error != nil)
    #expect(Self.read("42").error != nil)
    #expect(Self.read("{\"type\": \"FeatureCollection\", \"features\": []}").error != nil)
    #expect(Self.read("{\"locations\": [] } x").error != nil)
    #expect(Self.read("{\"locations\": []}").error == nil)
  }

  @Test func deepNestingIsAnErrorNotARecursion() {
    let nested = "{\"locations\": [{\"activity\": " + String(repeating: "[", count: 100_000)
    let read = Self.read(nested)
    #expect(read.error != nil)
    let objects = "{\"locations\": [" + String(repeating: "{\"a\":", count: 100_000)
    #expect(Self.read(objects).error != nil)
  }

  /// A million entries: each counted, none held.
  @Test func aHugeArrayIsCountedWithoutBeingHeld() {
    let source = SyntheticByteSource([
      .text("{\"locations\": [\n"),
      .repeated("{\"latitudeE7\": 525200000, \"accuracy\": 5},\n", count: 1_000_000),
      .text("{}]}"),
    ])
    let outcome = HostileFeed.stream(TakeoutReader(options: FeedOptions()), source, format: .takeout) { $0.heldBytes }
    let report = outcome.measurement.report
    #expect(report.failure == nil)
    #expect(report.records == 1_000_001)
    #expect(report.rejected == [.missingPosition: 1_000_001])
    #expect(report.isBalanced)
    #expect(outcome.largestHeld <= Self.heldBound, "\(outcome.largestHeld) bytes")
  }

  /// The most a Takeout reader holds between chunks, whatever the document's size.
  static var heldBound: Int { TakeoutReader.heldBound }

  /// A generated Records.json of a long drive, 200,000 locations (about 45 MB) never in memory
  /// at once: every location measured, the reader's buffers no larger than for 1,000 (give or take
  /// the allocator's rounding) and under `TakeoutReader.heldBound`.
  @Test func aLargeRecordsFileStreamsInBoundedMemory() {
    func drive(_ count: Int) -> (HostileFeed.Outcome, Int) {
      // One location a second, 11 m apart in latitude, zigzagging like `HostileDrive`.
      let template = Array(
        "{\"latitudeE7\": 450000000, \"longitudeE7\": 132500000, \"accuracy\": 5, \"activity\": [{\"activity\": [{\"type\": \"IN_VEHICLE\", \"confidence\": 90}], \"timestampMs\": \"0\"}], \"source\": \"GPS\", \"deviceTag\": 42, \"timestampMs\": \"1700000000000\"},\n"
          .utf8)
      let latitudeAt = template.firstRange(of: Array("450000000".utf8))!.lowerBound
      let timeAt = template.firstRange(of: Array("1700000000000".utf8))!.lowerBound
      let source = SyntheticByteSource([
        .text("{\n  \"locations\": [\n"),
        .repeated(template, count: count) { bytes, index in
          let step = index % 120 < 60 ? index % 60 : 60 - index % 60
          let latitude = Array(String(450_000_000 + step * 1000).utf8)
          bytes.replaceSubrange(latitudeAt..<(latitudeAt + 9), with: latitude)
          let time = Array(String(1_700_000_000_000 + index * 1000).utf8)
          bytes.replaceSubrange(timeAt..<(timeAt + 13), with: time)
        },
        .text("{\"timestampMs\": \"1\"}]\n}\n"),
      ])
      let size = source.size
      return (
        HostileFeed.stream(TakeoutReader(options: FeedOptions()), source, format: .takeout) { $0.heldBytes }, size
      )
    }
    let (small, _) = drive(1_000)
    let (large, size) = drive(200_000)
    #expect(size > 40_000_000)
    let report = large.measurement.report
    #expect(report.failure == nil)
    #expect(report.records == 200_001)
    #expect(report.retained == 200_000)
    #expect(report.rejected == [.missingPosition: 1])
    #expect(report.sessions == 1)
    let step = GeographicDistance.meters(
      from: RoutePosition(timestamp: 0, latitude: 45, longitude: 13.25),
      to: RoutePosition(timestamp: 0, latitude: 45.0001, longitude: 13.25))
    #expect(abs(large.measurement.distance.meters - step * 199_999) < 1)
    // 200 times the input, no more held: the same buffers as for 1,000 locations, give or take
    // what the allocator rounds each of the four (two token buffers, the role stack, the
    // waiting points) up to; never an exact equality, which would test the allocator.
    let slack = 4 * HostileFeed.allocatorSlack
    #expect(
      large.largestHeld <= small.largestHeld + slack,
      "\(large.largestHeld) bytes for 200,000 vs \(small.largestHeld) for 1,000")
    #expect(large.largestHeld <= Self.heldBound, "\(large.largestHeld) bytes, limit \(Self.heldBound)")
  }

  @Test func tooManyDevicesAreCountedNotHeld() {
    var text = "{\"locations\": [\n"
    for index in 0...TakeoutSessions.keyLimit {
      text +=
        "{\"latitudeE7\": 450000000, \"longitudeE7\": 132500000, \"deviceTag\": \(index), \"timestampMs\": \"\(1_700_000_000_000 + index * 1000)\"},\n"
    }
    text +=
      "{\"latitudeE7\": 450000000, \"longitudeE7\": 132500000, \"deviceTag\": 0, \"timestampMs\": \"1800000000000\"}]}"
    let read = Self.read(text)
    #expect(read.error == nil)
    #expect(Self.positions(read.records).count == TakeoutSessions.keyLimit + 1)
    #expect(read.records[TakeoutSessions.keyLimit] == .rejected(.tooManySessions, line: TakeoutSessions.keyLimit + 2))
  }

  @Test func iOSPointsWaitingForTheirStartAreBounded() {
    var text = "[{\"timelinePath\": [\n"
    for _ in 0...TakeoutDocumentMapper.pendingLimit {
      text += "{\"point\": \"geo:1,2\", \"durationMinutesOffsetFromStartTime\": \"1\"},\n"
    }
    text += "{}], \"startTime\": \"2023-08-27T20:00:00Z\"}]"
    let read = Self.read(text)
    #expect(read.error == nil)
    // The point past the limit is counted at once, then the empty object; the start times the rest.
    #expect(
      Array(read.records.prefix(2)) == [
        .rejected(.pathTooLong, line: TakeoutDocumentMapper.pendingLimit + 2),
        .rejected(.missingPosition, line: TakeoutDocumentMapper.pendingLimit + 3),
      ])
    #expect(Self.positions(read.records).count == TakeoutDocumentMapper.pendingLimit)
    #expect(read.records.count == TakeoutDocumentMapper.pendingLimit + 2)
  }
}
