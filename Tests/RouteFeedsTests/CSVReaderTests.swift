import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// The CSV reader against real recordings, the acceptance cases, and chunking. Layout, mapping
/// and hostile-input tests are in the extensions beside this file.
@Suite struct CSVReaderTests {
  // MARK: Real recordings

  /// One real file's expected result, with the capture filter on and off.
  struct RealFile: CustomTestStringConvertible, Sendable {
    var name: String
    var records: Int
    var filteredMeters: Double
    var filteredRetained: Int
    var filteredRejected: [String: Int]
    var unfilteredMeters: Double
    var unfilteredUsable: Int
    var unfilteredSegments: Int
    var unfilteredGaps: Int
    var readerRejected: [String: Int] = [:]
    var sessions: Int
    var ignored: [String: Int] = [:]
    var testDescription: String { name }
  }

  // Metres are pinned to the metre. MANIFEST.tsv gives, for comparison:
  // - 70mai 141.6 km: 141.57 km unfiltered (548 repeated timestamps collapse) and 141.47 km
  //   filtered (the repeats are exact duplicates, 1001 jitter fixes under 5 m dropped);
  //   each of the four `$V02` recordings is a session; the two status-V rows are no-fix.
  // - iblue747 68.1 km: that is every fix joined; 17 of its silences exceed 120 s and are gaps,
  //   so 67.74 km is recorded (68.07 − 0.33 km across the gaps, checked independently).
  // - mtk-m241 10.5 km: 10.46 km; 78 rows repeat the previous whole-second time (the logger
  //   wrote `.000` for sub-second fixes): collapsed unfiltered; filtered, 5 are exact
  //   duplicates and 57 out of order (same second, another place: the first in time order and
  //   then by latitude, longitude is kept).
  // - motoactv 1.0 km: 0.999 km unfiltered, 0.981 km filtered (143 repeated or jitter fixes).
  // - v900: two fragments out of time order (rows 2419–2424, then 1705–1719): unfiltered they
  //   sort into two segments with a 12-minute gap; filtered, the file is judged in time order
  //   too: the earlier fragment is a parked vehicle (one fix kept), then the 12-minute gap.
  // - G1000: no distance in the manifest; a 7.5-minute taxi and take-off, local time with a
  //   +00:00 UTC offset column; 5.76 km.
  static let realFiles: [RealFile] = [
    RealFile(
      name: "gpsbabel_70mai-a810-dashcam-car.csv", records: 7140,
      // Two stops longer than 120 s with fixes arriving (README, Stops): 4 stop fixes.
      filteredMeters: 141_490.231, filteredRetained: 5593,
      filteredRejected: ["noFix": 2, "duplicate": 548, "negligibleMovement": 997],
      unfilteredMeters: 141_573.995, unfilteredUsable: 6590, unfilteredSegments: 4, unfilteredGaps: 3,
      readerRejected: ["noFix": 2], sessions: 4),
    RealFile(
      name: "gpsbabel_garmin-g1000-flight.csv", records: 442,
      filteredMeters: 5732.361, filteredRetained: 237, filteredRejected: ["negligibleMovement": 205],
      unfilteredMeters: 5756.048, unfilteredUsable: 442, unfilteredSegments: 1, unfilteredGaps: 0,
      sessions: 0, ignored: ["comment": 2]),
    RealFile(
      name: "gpsbabel_iblue747.csv", records: 747,
      // Two stops with fixes arriving: one stop fix each (README, Stops).
      filteredMeters: 67_637.646, filteredRetained: 714, filteredRejected: ["negligibleMovement": 33],
      unfilteredMeters: 67_742.334, unfilteredUsable: 747, unfilteredSegments: 11, unfilteredGaps: 17,
      sessions: 0),
    RealFile(
      name: "gpsbabel_motoactv.csv", records: 276,
      filteredMeters: 980.907, filteredRetained: 133, filteredRejected: ["negligibleMovement": 143],
      unfilteredMeters: 999.025, unfilteredUsable: 276, unfilteredSegments: 1, unfilteredGaps: 0,
      sessions: 0),
    RealFile(
      name: "gpsbabel_mtk-m241.csv", records: 1199,
      filteredMeters: 10_420.935, filteredRetained: 946,
      filteredRejected: ["negligibleMovement": 191, "outOfOrder": 57, "duplicate": 5],
      unfilteredMeters: 10_460.838, unfilteredUsable: 1121, unfilteredSegments: 1, unfilteredGaps: 0,
      sessions: 0),
    RealFile(
      name: "gpsbabel_v900-advanced.csv", records: 21,
      filteredMeters: 51.519, filteredRetained: 7, filteredRejected: ["negligibleMovement": 14],
      unfilteredMeters: 52.984, unfilteredUsable: 21, unfilteredSegments: 2, unfilteredGaps: 1,
      sessions: 0),
  ]

  @Test func everyRealCSVFileHasAnExpectation() throws {
    let names = try Fixtures.names(in: "realdata/csv", suffix: ".csv")
    #expect(names == Self.realFiles.map(\.name).sorted())
  }

  /// The CLI detects the format from the first bytes: every real CSV must be taken for CSV.
  @Test(arguments: realFiles.map(\.name))
  func realFilesAreDetectedAsCSV(_ name: String) throws {
    let bytes = try CSVTestSupport.bytes(ofRealFile: name)
    let detected = bytes.withUnsafeBufferPointer {
      FeedFormat.detect(prefix: UnsafeBufferPointer(rebasing: $0.prefix(8192)))
    }
    #expect(detected == .csv)
  }

  @Test(arguments: realFiles)
  func realFileFiltered(_ file: RealFile) throws {
    let measurement = CSVTestSupport.measure(try CSVTestSupport.bytes(ofRealFile: file.name))
    let report = measurement.report
    #expect(report.failure == nil)
    #expect(report.isBalanced)
    #expect(report.records == file.records)
    #expect(report.errors == 0)
    #expect(report.retained == file.filteredRetained)
    #expect(
      Dictionary(uniqueKeysWithValues: report.rejected.map { ($0.key.rawValue, $0.value) }) == file.filteredRejected)
    #expect(abs(measurement.distance.meters - file.filteredMeters) < 0.5, "\(measurement.distance.meters)")
    #expect(report.sessions == file.sessions)
    #expect(report.legacyPositions == (file.sessions == 0 ? file.records - (file.readerRejected["noFix"] ?? 0) : 0))
    #expect(Dictionary(uniqueKeysWithValues: report.ignored.map { ($0.key.rawValue, $0.value) }) == file.ignored)
  }

  @Test(arguments: realFiles)
  func realFileUnfiltered(_ file: RealFile) throws {
    let measurement = CSVTestSupport.measure(
      try CSVTestSupport.bytes(ofRealFile: file.name), settings: IngestSettings(filter: nil))
    let report = measurement.report
    let distance = measurement.distance
    #expect(report.failure == nil)
    #expect(report.isBalanced)
    #expect(report.records == file.records)
    #expect(
      Dictionary(uniqueKeysWithValues: report.rejected.map { ($0.key.rawValue, $0.value) }) == file.readerRejected)
    #expect(abs(distance.meters - file.unfilteredMeters) < 0.5, "\(distance.meters)")
    #expect(distance.usablePositionCount == file.unfilteredUsable)
    #expect(distance.contributingSegmentCount == file.unfilteredSegments)
    #expect(distance.gapCount == file.unfilteredGaps)
    #expect(distance.usesInferredContinuity == (file.sessions == 0))
  }

  @Test func realFilesAgreeWithTheManifestWithinTheirDocumentedDifferences() throws {
    // Kilometres the manifest gives, and how far the recorded figure may sit below them.
    let manifest: [(String, Double, Double)] = [
      ("gpsbabel_70mai-a810-dashcam-car.csv", 141.6, 0.2),
      ("gpsbabel_iblue747.csv", 68.1, 0.4),  // 0.33 km lies across 17 gaps over 120 s
      ("gpsbabel_mtk-m241.csv", 10.5, 0.1),
      ("gpsbabel_motoactv.csv", 1.0, 0.05),
    ]
    for (name, kilometres, allowance) in manifest {
      let measurement = CSVTestSupport.measure(
        try CSVTestSupport.bytes(ofRealFile: name), settings: IngestSettings(filter: nil))
      let recorded = measurement.distance.meters / 1000
      #expect(recorded <= kilometres + 0.05 && recorded >= kilometres - allowance, "\(name): \(recorded) km")
    }
  }

  /// The iBlue 747 file read by an independent route: `joined` is every fix joined, the
  /// manifest's figure; the measured route leaves out the 17 silences over 120 s.
  @Test func iblueGapsExplainTheManifestDifference() throws {
    let read = CSVTestSupport.read(try CSVTestSupport.bytes(ofRealFile: "gpsbabel_iblue747.csv"))
    let samples = read.sink.samples
    #expect(samples.count == 747)
    var joined = 0.0
    var acrossGaps = 0.0
    var gaps = 0
    for (a, b) in zip(samples, samples.dropFirst()) {
      let meters = GeographicDistance.meters(from: a.position, to: b.position)
      joined += meters
      if b.timestamp - a.timestamp > 120 {
        acrossGaps += meters
        gaps += 1
      }
    }
    #expect(abs(joined / 1000 - 68.07) < 0.01)
    #expect(gaps == 17)
    #expect(abs((joined - acrossGaps) - 67_742.334) < 0.5)
    // 2005-05-01 10:12:47 UTC, speed 4.2 km/h in the second row (BT747 layouts write km/h).
    #expect(samples[0].timestamp == 1_114_942_367)
    #expect(abs((samples[1].speed ?? 0) - 4.2 / 3.6) < 1e-12)
    #expect(samples[0].altitude == 146)
  }

  /// The first row of each device layout, field by field.
  @Test func realFilesFirstRowsAreReadFieldByField() throws {
    func first(_ name: String) throws -> (RouteSample, Int?) {
      let read = CSVTestSupport.read(try CSVTestSupport.bytes(ofRealFile: name))
      guard
        case .position(let sample, let session, _)? = read.events.first(where: {
          if case .position = $0 { true } else { false }
        })
      else { throw CSVTestFailure.noPosition }
      return (sample, session)
    }
    let (mtk, _) = try first("gpsbabel_mtk-m241.csv")
    #expect(mtk.timestamp == 1_209_905_567)  // 2008/05/04 12:52:47.000
    #expect(mtk.latitude == 41.805592 && mtk.longitude == 12.679832)
    #expect(mtk.altitude == 374.812)  // "374.812 m"
    #expect(abs((mtk.speed ?? 0) - 0.865 / 3.6) < 1e-12)  // "0.865 km/h"
    #expect(mtk.horizontalAccuracy == nil)  // HDOP is not an accuracy

    let (v900, _) = try first("gpsbabel_v900-advanced.csv")
    #expect(v900.timestamp == 1_233_729_501)  // 090204 063821
    #expect(v900.latitude == 31.769598 && v900.longitude == 35.208829)  // N/E suffixes, NUL padding
    #expect(v900.altitude == 787 && v900.course == 318)
    #expect(abs((v900.speed ?? 0) - 20 / 3.6) < 1e-12)

    let (moto, _) = try first("gpsbabel_motoactv.csv")
    #expect(moto.timestamp == 1_340_931_788.091)  // timestamp_epoch in milliseconds
    #expect(moto.latitude == 37.781487 && moto.longitude == -122.40523)
    #expect(moto.altitude == 151 && moto.course == 228 && moto.speed == 0)

    let (g1000, _) = try first("gpsbabel_garmin-g1000-flight.csv")
    #expect(g1000.timestamp == 1_396_133_422)  // 2014-03-29 22:50:22 local, +00:00
    #expect(g1000.latitude == 40.2171326 && g1000.longitude == -111.7177124)

    let (dashcam, session) = try first("gpsbabel_70mai-a810-dashcam-car.csv")
    #expect(dashcam.timestamp == 1_740_170_756)
    #expect(dashcam.latitude == 46.840330 && dashcam.longitude == 29.463088)
    #expect(session == 0)
  }

  enum CSVTestFailure: Error { case noPosition }

  // MARK: Acceptance cases

  static let acceptanceCases = [
    "c01_one_session", "c02_session_change", "c03_silence", "c04_interval_inclusive",
    "c05_interval_exceeded", "c06_legacy", "c11_single", "c12_empty", "c13_no_two_continuous",
    "f01_filter_defaults",
  ]

  /// The acceptance CSVs measured as `routemiles measure FILE --json [--no-filter]` would:
  /// metres to 1e-6 relative, counts and flags exactly.
  @Test(arguments: acceptanceCases)
  func acceptanceCase(_ name: String) throws {
    let json = Data(try Fixtures.bytes("acceptance/expected.json"))
    let all = try #require(try JSONSerialization.jsonObject(with: json) as? [String: [String: Any]])
    let expected = try #require(all[name])
    let command = try #require(expected["command"] as? String)
    let filtered = !command.contains("--no-filter")
    let bytes = try Fixtures.bytes("acceptance/\(name).csv")
    let measurement = CSVTestSupport.measure(
      bytes, settings: filtered ? IngestSettings() : IngestSettings(filter: nil))
    let distance = measurement.distance
    let report = measurement.report
    #expect(report.failure == nil)
    #expect(report.isBalanced)
    #expect(report.records == expected["inputRows"] as? Int)
    #expect(distance.isMeasured == expected["isMeasured"] as? Bool)
    #expect(distance.usablePositionCount == expected["usablePositionCount"] as? Int)
    if let meters = expected["meters"] as? Double {
      #expect(abs(distance.meters - meters) <= meters * 1e-6, "\(distance.meters) vs \(meters)")
      #expect(distance.contributingSegmentCount == expected["segmentCount"] as? Int)
      #expect(distance.gapCount == expected["gapCount"] as? Int)
      #expect(distance.isPartial == expected["isPartial"] as? Bool)
      #expect(distance.usesInferredContinuity == expected["usesInferredContinuity"] as? Bool)
    }
    if let reasons = expected["rejectedByReason"] as? [String: Int] {
      #expect(report.rejectedCount == reasons.values.reduce(0, +))
    }
  }

  // MARK: Chunking

  static let chunkSizes = [1, 2, 3, 7, 64, 4096, 0]

  @Test(arguments: realFiles.map(\.name))
  func realFilesReadTheSameInAnyChunking(_ name: String) throws {
    let bytes = try CSVTestSupport.bytes(ofRealFile: name)
    let whole = CSVTestSupport.read(bytes)
    #expect(!whole.events.isEmpty)
    for size in Self.chunkSizes.dropLast() {
      let chunked = CSVTestSupport.read(bytes, chunkSize: size)
      #expect(chunked == whole, "chunk size \(size)")
    }
  }

  /// Everything the grammar has — BOM, comments, quotes with delimiters, doubled quotes and
  /// line feeds inside, CRLF, blank lines, an over-long line, bad rows, no final line feed —
  /// in every chunking.
  static let trickyFeed =
    "\u{FEFF}# exported \"by hand\n"
    + "timestamp;latitude;longitude;horizontal_accuracy;capture_session_id\r\n"
    + "2025-11-29T08:00:00Z;37,7749;-122,4194;5;\"a;b\"\r\n"
    + "\r\n"
    + "\"2025-11-29T08:00:01Z\";\"37.7750\";\"-122.4195\";\"\";\"x\"\"y\"\r\n"
    + "2025-11-29T08:00:02Z;37.7751;-122.4196;;\"multi\nline\"\r\n"
    + "2025-11-29T08:00:03Z;nan;-122.4196;;a\r\n"
    + "2025-11-29T08:00:04Z;" + String(repeating: "9", count: 150) + ";1;;a\r\n"
    + "  \"2025-11-29T08:00:05Z\" ; 37.7752 ;-122.4197; 4 ;a\r\n"
    + "# a comment between rows; \"unbalanced\r\n"
    + ";;;;\r\n"
    + "2025-11-29T08:00:06Z;37.7753;-122.4198;;\"x\"\"y\"junk\r\n"
    + "2025-11-29T08:00:08Z;37.7755;-122.4200;;a"

  @Test func trickyFeedReadsAsDocumented() {
    let read = CSVTestSupport.read(Self.trickyFeed, maximumRecordLength: 100)
    #expect(read.error == nil)
    let sink = read.sink
    #expect(
      sink.events.map(\.description) == [
        "1: ignored comment",
        "3: position t=1764403200.0 session=0",
        "5: position t=1764403201.0 session=1",
        "6: position t=1764403202.0 session=2",
        "8: unreadable badNumber",
        "9: unreadable lineTooLong",
        "10: position t=1764403205.0 session=3",
        "11: ignored comment",
        "13: position t=1764403206.0 session=4",
        "14: position t=1764403208.0 session=3",
      ])
    // Decimal commas in a semicolon file; the quoted empty accuracy is absent.
    #expect(sink.samples[0].latitude == 37.7749)
    #expect(sink.samples[0].longitude == -122.4194)
    #expect(sink.samples[0].horizontalAccuracy == 5)
    #expect(sink.samples[1].horizontalAccuracy == nil)
    #expect(sink.samples[3].horizontalAccuracy == 4)
  }

  @Test(arguments: chunkSizes)
  func trickyFeedIsChunkInvariant(_ size: Int) {
    let whole = CSVTestSupport.read(Self.trickyFeed, maximumRecordLength: 100)
    #expect(CSVTestSupport.read(Self.trickyFeed, chunkSize: size, maximumRecordLength: 100) == whole)
  }

  /// Random bytes drawn from the grammar's alphabet after a valid header, with a small record
  /// limit: the in-place scanner and the resumable state machine must agree on every record.
  @Test func randomFeedsAreChunkInvariant() {
    var random = SeededRandom(seed: 0xC5F)
    let alphabet = Array(",;\"\n\r #0123456789.-eZT:ab\t".utf8)
    for round in 0..<60 {
      var bytes = Array("timestamp,latitude,longitude,capture_session_id\n".utf8)
      let length = Int.random(in: 0..<600, using: &random)
      for _ in 0..<length {
        if Int.random(in: 0..<8, using: &random) == 0 {
          bytes += Array("2025-11-29T08:00:0\(Int.random(in: 0..<10, using: &random))Z,1.5,2.5,s\n".utf8)
        } else {
          bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
        }
      }
      let limit = [24, 64, 1 << 20][round % 3]
      let whole = CSVTestSupport.read(bytes, maximumRecordLength: limit)
      for size in [1, 2, 3, 7, 64] {
        let chunked = CSVTestSupport.read(bytes, chunkSize: size, maximumRecordLength: limit)
        #expect(chunked == whole, "round \(round), chunk size \(size)")
      }
    }
  }

  @Test func ingestIsChunkInvariantForTheAcceptanceFeeds() throws {
    let bytes = try Fixtures.bytes("acceptance/f01_filter_defaults.csv")
    let whole = CSVTestSupport.measure(bytes)
    for size in [1, 7, 4096] {
      #expect(CSVTestSupport.measure(bytes, chunkSize: size) == whole)
    }
  }
}
