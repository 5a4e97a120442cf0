import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// GeoJSON on the shared JSON tokenizer: real files pinned to the metre, the GPX twin, what each
/// construct becomes, member order, chunk invariance, hostile input and bounded memory.
@Suite struct GeoJSONReaderTests: FormatReaderSuite {
  // MARK: Helpers

  static let format = FeedFormat.geojson

  static func position(
    _ time: String, _ latitude: Double, _ longitude: Double, altitude: Double? = nil, accuracy: Double? = nil,
    session: Int,
    line: Int
  ) -> FeedRecord {
    .position(
      RouteSample(
        timestamp: t(time), latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, altitude: altitude),
      session: session, line: line)
  }

  static func measure(_ bytes: [UInt8], filter: Bool) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: 1 << 16)
    return FeedIngest.measure(&source, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
  }

  // MARK: Real recordings

  static let realFiles: [GPXRealFile] = [
    // togeojson of a Garmin Connect run: one LineString, 206 coordTimes, one repeated time.
    GPXRealFile(
      "geojson/mapbox-togeojson_run.gpx.geojson", records: 206, estimatedAccuracy: 0,
      filtered: .init(
        retained: 185, rejected: ["duplicate": 1, "negligibleMovement": 20], sessions: 1, meters: 3095.047, segments: 1,
        gaps: 0),
      unfiltered: .init(retained: 206, rejected: [:], sessions: 1, meters: 3098.534, segments: 1, gaps: 0)),
    // A MultiLineString of 3/10/3 points, nested coordTimes, geometry before properties.
    GPXRealFile(
      "geojson/mapbox-togeojson_missing-hr.gpx.geojson", records: 16, estimatedAccuracy: 0,
      filtered: .init(
        retained: 9, rejected: ["negligibleMovement": 7], sessions: 3, meters: 55.398, segments: 1, gaps: 2),
      unfiltered: .init(retained: 16, rejected: [:], sessions: 3, meters: 61.784, segments: 3, gaps: 2)),
    // Two named, timed Point features (start, end) around a 16-point LineString: waypoints
    // beside the track, as its KML twin reads them.
    GPXRealFile(
      "geojson/mapbox-togeojson_multitrack.kml.geojson", records: 18, estimatedAccuracy: 0,
      filtered: .init(
        retained: 8, rejected: ["negligibleMovement": 8, "waypoint": 2], sessions: 1, meters: 39.149, segments: 1,
        gaps: 0),
      unfiltered: .init(retained: 16, rejected: ["waypoint": 2], sessions: 1, meters: 42.558, segments: 1, gaps: 0)),
    // GPSLogger: one Point with time (+07:00), time_long and accuracy; keys sorted, type last.
    GPXRealFile(
      "geojson/dawarich_gpslogger-example.json", records: 1, estimatedAccuracy: 0,
      eitherWay: .init(retained: 1, rejected: [:], sessions: 1, meters: nil, segments: 0, gaps: 0)),
  ]

  @Test(arguments: realFiles)
  func realRecording(_ file: GPXRealFile) throws {
    let bytes = try Fixtures.bytes("realdata/\(file.name)")
    file.expectPinned(format: .geojson) { settings in
      Self.measure(bytes, filter: settings.filter != nil)
    } more: {
      measurement, expected, label in
      #expect(measurement.report.estimatedAccuracy == file.estimatedAccuracy, "\(label)")
      if expected.meters == nil { #expect(measurement.distance.meters == 0, "\(label)") }
    }
  }

  @Test func everyRealGeoJSONFileHasItsExpectations() throws {
    try GPXRealFile.expectEveryFixture(in: [("realdata/geojson", "json", "geojson/")], pinnedBy: Self.realFiles)
    // The files the acceptance-rule test below is run on: a filter of this table, never empty.
    #expect(Self.realFiles.filter { $0.unfiltered.meters != nil }.count == 3)
  }

  /// The acceptance rule: every timed position is read, and the unfiltered figure lies between
  /// the within-track sum (steps of 120 s or less) and the line joining every point in order.
  @Test(arguments: realFiles.filter { $0.unfiltered.meters != nil })
  func unfilteredFigureLiesBetweenTheTrackSumAndTheJoinedLine(_ file: GPXRealFile) throws {
    let read = Self.read(try Fixtures.bytes("realdata/\(file.name)"))
    try file.expectUnfilteredFigureBracketed(by: read)
    #expect(read.records.count == file.records)
  }

  @Test(arguments: realFiles.map(\.name))
  func chunkSizeDoesNotChangeARealRecording(_ name: String) throws {
    let bytes = try Fixtures.bytes("realdata/\(name)")
    let whole = Self.read(bytes)
    #expect(whole.error == nil)
    for size in [1, 7, 4096] {
      let chunked = Self.read(bytes, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)")
      #expect(chunked.error == whole.error, "chunk size \(size)")
    }
  }

  /// togeojson's conversion of run.gpx gives the GPX reader's positions, times and figure.
  @Test func theGeoJSONTwinOfAGPXMeasuresLikeIt() throws {
    let geojson = try Fixtures.bytes("realdata/geojson/mapbox-togeojson_run.gpx.geojson")
    let gpx = try Fixtures.bytes("realdata/gpx/togeojson_run.gpx")
    func samples(_ records: [FeedRecord]) -> [[Double?]] {
      records.compactMap { record in
        guard case .position(let sample, _, _) = record else { return nil }
        return [sample.timestamp, sample.latitude, sample.longitude, sample.altitude]
      }
    }
    let fromGPX = samples(XMLFormatReadersTests.read(gpx, .gpx).records)
    #expect(fromGPX.count == 206)
    #expect(samples(Self.read(geojson).records) == fromGPX)
    for filter in [true, false] {
      let a = Self.measure(geojson, filter: filter)
      let b = Self.measure(gpx, filter: filter)
      #expect(a.distance == b.distance, "filter \(filter)")
      #expect(a.report.retained == b.report.retained, "filter \(filter)")
    }
  }

  @Test func aGzippedGeoJSONMeasuresExactlyLikeThePlainOne() throws {
    let plain = try Fixtures.bytes("realdata/geojson/mapbox-togeojson_run.gpx.geojson")
    let compressed = Gzip.compress(plain)
    for filter in [true, false] {
      let expected = Self.measure(plain, filter: filter)
      #expect(expected.format == .geojson)
      #expect(Self.measure(compressed, filter: filter) == expected, "filter \(filter)")
    }
  }

  // MARK: What each construct becomes

  static let lineProperties =
    #""properties": {"name": "x", "time": "2024-05-01T09:00:00Z", "coordTimes": ["2024-05-01T09:00:00Z", "2024-05-01T09:00:05Z", null, "yesterday"]}"#
  static let lineGeometry =
    #""geometry": {"type": "LineString", "coordinates": [[13.4, 52.5, 34], [13.401, 52.5], [13.402, 52.5], [13.403, 52.5], [13.404, 52.5]]}"#

  @Test func aLineStringPairsEachCoordinateWithItsTimeWhateverTheMemberOrder() {
    let expected: [FeedRecord] = [
      Self.position("2024-05-01T09:00:00Z", 52.5, 13.4, altitude: 34, session: 0, line: 1),
      Self.position("2024-05-01T09:00:05Z", 52.5, 13.401, session: 0, line: 1),
      .rejected(.missingTime, line: 1),
      .unreadable(.badTime, line: 1),
      .rejected(.missingTime, line: 1),
    ]
    let propertiesFirst = "{\"type\": \"Feature\", \(Self.lineProperties), \(Self.lineGeometry)}"
    let geometryFirst = "{\(Self.lineGeometry), \(Self.lineProperties), \"type\": \"Feature\"}"
    let typeLast =
      "{\"type\": \"Feature\", \(Self.lineProperties), \"geometry\": {\"coordinates\": [[13.4, 52.5, 34], [13.401, 52.5], [13.402, 52.5], [13.403, 52.5], [13.404, 52.5]], \"type\": \"LineString\"}}"
    for text in [propertiesFirst, geometryFirst, typeLast] {
      let read = Self.read(text)
      #expect(read.error == nil)
      #expect(read.records == expected, "\(text.prefix(30))")
    }
  }

  @Test func aMultiLineStringIsOneSessionPerLineInBothTimeStyles() {
    let geometry = """
      "geometry": {"type": "MultiLineString", "coordinates": [
        [[1.0, 50.0], [1.001, 50.0]],
        [[1.002, 50.0], [1.003, 50.0], [1.004, 50.0]]]}
      """
    let times = #"[["2024-05-01T09:00:00Z", "2024-05-01T09:00:01Z"], ["2024-05-01T09:10:00Z", "2024-05-01T09:10:01Z"]]"#
    let expected: [FeedRecord] = [
      Self.position("2024-05-01T09:00:00Z", 50, 1.0, session: 0, line: 2),
      Self.position("2024-05-01T09:00:01Z", 50, 1.001, session: 0, line: 2),
      Self.position("2024-05-01T09:10:00Z", 50, 1.002, session: 1, line: 3),
      Self.position("2024-05-01T09:10:01Z", 50, 1.003, session: 1, line: 3),
      .rejected(.missingTime, line: 3),
    ]
    let coordTimes =
      "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \(geometry), \"properties\": {\"coordTimes\": \(times)}}]}"
    let coordinateProperties =
      "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \(geometry), \"properties\": {\"coordinateProperties\": {\"heart\": [[1, 2], [3, 4]], \"times\": \(times)}}}]}"
    #expect(Self.read(coordTimes).records == expected)
    #expect(Self.read(coordinateProperties).records == expected)
    #expect(Self.read(coordTimes).error == nil)
  }

  /// GPSLogger writes one Point feature per fix; consecutive ones are one session. A line
  /// among them makes the Points after it waypoints (places beside a track). Time from `time`,
  /// `timestamp` or `time_long`; accuracy from `accuracy`, `acc` or `hAccuracy`.
  @Test func pointFeaturesCarryTimeAndAccuracyAndShareASession() {
    let text = """
      {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"time": "2024-11-03T16:30:11.331+07:00", "time_long": 1730626211331, "accuracy": 4.75}, "geometry": {"type": "Point", "coordinates": [106.6, 10.7, 17.5]}},
      {"type": "Feature", "geometry": {"coordinates": [106.601, 10.7], "type": "Point"}, "properties": {"time_long": 1730626216331, "acc": 8}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [106.602, 10.7]}, "properties": {"timestamp": "2024-11-03T09:30:21Z", "hAccuracy": "3.5"}},
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[106.603, 10.7]]}, "properties": {"coordTimes": [1730626226]}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [106.604, 10.7]}, "properties": {"time": "not a time"}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [106.605, 10.7]}, "properties": {"name": "no time"}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [106.606, 10.7]}, "properties": {"time": 1730626236, "horizontalAccuracy": 12}}
      ]}
      """
    let read = Self.read(text)
    #expect(read.error == nil)
    #expect(
      read.records == [
        Self.position("2024-11-03T09:30:11.331Z", 10.7, 106.6, altitude: 17.5, accuracy: 4.75, session: 0, line: 2),
        Self.position("2024-11-03T09:30:16.331Z", 10.7, 106.601, accuracy: 8, session: 0, line: 3),
        Self.position("2024-11-03T09:30:21Z", 10.7, 106.602, accuracy: 3.5, session: 0, line: 4),
        Self.position("2024-11-03T09:30:26Z", 10.7, 106.603, session: 1, line: 5),
        .rejected(.waypoint, line: 6),
        .rejected(.waypoint, line: 7),
        .rejected(.waypoint, line: 8),
      ])
  }

  @Test func everyCoordinateIsAccountedForByReason() {
    let text = """
      {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [1, 2.001]]}},
      {"type": "Feature", "properties": {"coordTimes": ["2024-05-01T09:00:00Z", "2024-05-01T09:00:01Z", "2024-05-01T09:00:02Z", "2024-05-01T09:00:03Z"]},
       "geometry": {"type": "LineString", "coordinates": [[1, "2"], [1], [1e999, 2], [1, 2, [3]]]}},
      {"type": "Feature", "properties": {"time": "2024-05-01T09:00:00Z"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}},
      {"type": "Feature", "properties": null, "geometry": null},
      {"type": "Feature", "properties": {"coordTimes": "2024-05-01T09:00:00Z"}, "geometry": {"type": "Point", "coordinates": "here"}},
      {"type": "Feature", "properties": {"coordTimes": [1714554000, 1714554001, 1714554002]}, "geometry": {"type": "LineString", "coordinates": [[1, 2], 3, {"a": 1}, [1, 2.001]]}}
      ]}
      """
    let read = Self.read(text)
    #expect(read.error == nil)
    #expect(
      read.records == [
        .rejected(.missingTime, line: 2), .rejected(.missingTime, line: 2),
        .unreadable(.badNumber, line: 4), .unreadable(.badNumber, line: 4), .unreadable(.badNumber, line: 4),
        .unreadable(.badNumber, line: 4),
        .rejected(.polygonVertex, line: 5), .rejected(.polygonVertex, line: 5), .rejected(.polygonVertex, line: 5),
        .rejected(.polygonVertex, line: 5),
        .unreadable(.badNumber, line: 7),
        // Stray elements among positions are malformed coordinates of that line, in order.
        .position(RouteSample(timestamp: 1_714_554_000, latitude: 2, longitude: 1), session: 4, line: 8),
        .unreadable(.badNumber, line: 8), .unreadable(.badNumber, line: 8), .rejected(.missingTime, line: 8),
      ])
  }

  @Test func aBareGeometryAndASingleFeatureAreRead() {
    let bare = Self.read(#"{"type": "LineString", "coordinates": [[1, 2], [1, 2.001]]}"#)
    #expect(bare.records == [.rejected(.missingTime, line: 1), .rejected(.missingTime, line: 1)])
    let feature = Self.read(
      #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"time": "2024-05-01T09:00:00Z"}}"#
    )
    #expect(feature.records == [Self.position("2024-05-01T09:00:00Z", 2, 1, session: 0, line: 1)])
  }

  @Test func geoJSONIsDetected() {
    let detect = detectedFormat
    #expect(detect("{\"type\": \"FeatureCollection\", \"features\": []}") == .geojson)
    #expect(detect("\u{FEFF}\n  {\"features\": [{\"geometry\": null}]}") == .geojson)
    #expect(detect("{\"type\":\"Feature\",\"properties\":{}}") == .geojson)
    #expect(detect("{\"type\": \"LineString\", \"coordinates\": []}") == .geojson)
    // A JSON document GeoJSON does not claim: Google location history's Records.json is takeout
    // (see TakeoutReaderTests), another object is left to the text rules.
    #expect(detect("{\"locations\": []}") == .takeout)
    #expect(detect("{\"places\": []}") == .csv)
    #expect(detect("time,lat,lon\n") == .csv)
  }

  // MARK: Chunks, hostile input, memory

  static let small = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"LineString","coordinates":[[-77.0,38.9,1.5e1],[-77.0001,38.9001]]},
     "properties":{"coordTimes":["2012-10-24T23:29:40.000Z","2012-10-24T23:29:41Z"],"name":"caf\\u00e9 \u{00e9}"}},
    {"type":"Feature","properties":{"time":"2012-10-24T23:30:00+01:00","accuracy":5},"geometry":{"type":"Point","coordinates":[-77.0002,38.9002]}}
    ]}
    """

  /// Every split into two chunks, and 1-byte chunks, give the same records.
  @Test func everyChunkBoundaryGivesTheSameRecords() {
    let bytes = Array(Self.small.utf8)
    let whole = Self.read(bytes)
    #expect(whole.error == nil)
    #expect(whole.records.count == 3)
    #expect(Self.read(bytes, chunkSize: 1).records == whole.records)
    for split in 1..<bytes.count {
      var reader = GeoJSONReader(options: FeedOptions())
      var sink = FeedRecordCollector()
      bytes.withUnsafeBufferPointer { all in
        try! reader.read(UnsafeBufferPointer(rebasing: all[0..<split]), into: &sink)
        try! reader.read(UnsafeBufferPointer(rebasing: all[split...]), into: &sink)
        try! reader.finish(into: &sink)
      }
      #expect(sink.records == whole.records, "split at \(split)")
    }
  }

  /// Every prefix of a document: never a crash, a truncation error naming a line, and the
  /// coordinates read before the cut stand.
  @Test func aTruncatedDocumentIsAnErrorAndKeepsWhatWasRead() {
    let bytes = Array(Self.small.utf8)
    let whole = Self.read(bytes).records
    for end in 0..<(bytes.count - 1) {
      let read = Self.read(Array(bytes[0..<end]))
      guard case .truncated(let line, _)? = read.error else {
        Issue.record(
          "prefix of \(end) bytes: \(String(describing: read.error)) \(String(decoding: bytes[max(0, end - 10)..<end], as: UTF8.self))"
        )
        continue
      }
      #expect(line >= 1 && line <= 5)
      let positions = read.records.filter { if case .position = $0 { true } else { false } }
      #expect(positions.count <= 3)
    }
    let cut = Self.read(Array(bytes[0..<(bytes.count - 3)]))
    #expect(cut.records.prefix(3) == whole.prefix(3))
    #expect(
      cut.error
        == .truncated(line: 4, detail: "the input ends where ',' or ']' was expected at byte offset \(bytes.count - 3)")
    )
  }

  @Test func hostileInputIsAnErrorWithLineAndOffsetNeverACrash() {
    let deep = "{\"features\": " + String(repeating: "[", count: 100_000)
    #expect(Self.read(deep).error == .malformed(line: 1, detail: "JSON nested deeper than 64 levels at byte offset 76"))
    let badUTF8 =
      Array("{\"type\": \"Feature\",\n \"properties\": {\"name\": \"a".utf8) + [0xC3, 0x28] + Array("\"}}".utf8)
    #expect(
      Self.read(badUTF8).error
        == .malformed(line: 2, detail: "a string holds bytes that are not UTF-8 at byte offset 46"))
    #expect(
      Self.read("[1, 2]").error
        == .malformed(
          line: 1, detail: "expected a GeoJSON object (a FeatureCollection, a Feature or a geometry) at byte offset 0"))
    #expect(
      Self.read("{\"type\": \"Feature\" \"geometry\": null}").error
        == .malformed(line: 1, detail: "expected ',' or '}' at byte offset 19"))
    let huge = Self.read("{\"type\": \"Point\", \"coordinates\": [1" + String(repeating: "0", count: 5000) + ", 2]}")
    #expect(huge.records == [.unreadable(.badNumber, line: 1)])
    // Wrong types everywhere: counted or skipped, never trusted.
    let wrong = Self.read(
      #"{"type": 7, "features": {"a": 1}, "geometry": [1], "properties": "x", "coordinates": {"x": 1}}"#)
    #expect(wrong.error == nil)
    #expect(wrong.records.isEmpty)
    let wrongTimes = Self.read(
      #"{"type": "Feature", "properties": {"coordTimes": [true, {"a": 1}, [[1]]]}, "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [1, 2], [1, 2]]}}"#
    )
    // A nested line among flat times makes the table per line: the first line's one entry is
    // an array (unreadable), the rest have none.
    #expect(
      wrongTimes.records == [
        .unreadable(.badTime, line: 1), .rejected(.missingTime, line: 1), .rejected(.missingTime, line: 1),
      ])
  }

  /// Random mutations of a valid document never crash, and reads in chunks agree with the
  /// whole read.
  @Test func mutatedDocumentsNeverCrashAndStayChunkInvariant() {
    var random = SeededRandom(seed: 16)
    let base = Array(Self.small.utf8)
    for round in 0..<300 {
      var bytes = base
      for _ in 0..<(1 + round % 3) {
        bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
      }
      let whole = Self.read(bytes)
      let chunked = Self.read(bytes, chunkSize: 1 + round % 13)
      #expect(whole.records == chunked.records)
      #expect(whole.error == chunked.error)
    }
  }

  /// 100,000 GPSLogger points (8 MB) stream in memory bounded by one feature, and a 20,000-point
  /// LineString written geometry-first is held only while its feature lasts.
  @Test func memoryIsBoundedByOneFeature() {
    var text = "{\"type\": \"FeatureCollection\", \"features\": [\n"
    for index in 0..<100_000 {
      if index > 0 { text += ",\n" }
      text +=
        "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [13.\(index), 52.5]}, \"properties\": {\"time_long\": \(1_700_000_000_000 + index * 1000), \"accuracy\": 5}}"
    }
    text += "]}"
    let outcome = HostileFeed.stream(
      GeoJSONReader(options: FeedOptions()), MemoryByteSource(Array(text.utf8), chunkSize: 1 << 16), format: .geojson
    ) {
      $0.heldBytes
    }
    #expect(outcome.measurement.report.failure == nil)
    #expect(outcome.measurement.report.records == 100_000)
    #expect(outcome.largestHeld < 8192, "\(outcome.largestHeld) bytes held")
  }

  @Test func aGeometryFirstFeatureIsHeldUntilItEnds() {
    var coordinates: [String] = []
    var times: [String] = []
    for index in 0..<20_000 {
      coordinates.append("[13.\(index), 52.5]")
      times.append("\(1_700_000_000 + index)")
    }
    let feature =
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(coordinates.joined(separator: ","))]}, \"properties\": {\"coordTimes\": [\(times.joined(separator: ","))]}}"
    var reader = GeoJSONReader(options: FeedOptions())
    var sink = FeedRecordCollector()
    let unfinished = feature[..<feature.range(of: "\"properties\"")!.lowerBound]
    let bytes = Array(("{\"features\": [" + feature + ", " + unfinished).utf8)
    bytes.withUnsafeBufferPointer { try! reader.read($0, into: &sink) }
    #expect(sink.records.count == 20_000)
    #expect(reader.mapper.heldCapacity > 20_000 * MemoryLayout<GeoJSONPosition>.stride)
  }
}
