import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

// MARK: - Helpers

/// Builds NMEA sentences with correct checksums, so each test states only what it is about.
enum NMEATestLog {
  /// `$body*hh` (or `!body*hh`).
  static func sentence(_ body: String, start: String = "$") -> String {
    var checksum: UInt8 = 0
    for byte in body.utf8 { checksum ^= byte }
    let hex = String(checksum, radix: 16, uppercase: true)
    return start + body + "*" + (hex.count == 1 ? "0" + hex : hex)
  }

  static func lines(_ bodies: [String], ending: String = "\r\n") -> String {
    bodies.map { sentence($0) + ending }.joined()
  }

  /// A GGA with a fix at the given time of day (`hhmmss.ss`), near Zürich, `metres` north.
  static func gga(_ time: String, north metres: Double = 0, quality: Int = 1, hdop: String = "1.0") -> String {
    "GPGGA,\(time),\(latitude(metres)),N,00833.0000,E,\(quality),08,\(hdop),410.0,M,48.0,M,,"
  }

  /// An RMC with status A at the given time and `ddmmyy` date.
  static func rmc(
    _ time: String, _ date: String, north metres: Double = 0, status: String = "A", knots: String = "10.0"
  )
    -> String
  {
    "GPRMC,\(time),\(status),\(latitude(metres)),N,00833.0000,E,\(knots),90.0,\(date),,,A"
  }

  /// 47°22' N plus `metres` northwards, as `ddmm.mmmmmm`.
  static func latitude(_ metres: Double) -> String {
    let minutes = 22.0 + metres / 1852.0
    return "47" + String(format: "%09.6f", minutes)
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// Everything a reader delivers, in order, so chunked and whole reading can be compared.
struct NMEARecordingSink: FeedSink {
  enum Event: Hashable {
    case position(RouteSample, session: Int?, line: Int)
    case rejected(FeedReason, line: Int)
    case unreadable(FeedReason, line: Int)
    case ignored(FeedReason, line: Int)
    case noted(FeedReason, line: Int)
    case failed(FeedError)
  }

  var events: [Event] = []

  mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    events.append(.position(sample, session: session, line: line))
  }
  mutating func rejected(_ reason: FeedReason, line: Int) { events.append(.rejected(reason, line: line)) }
  mutating func unreadable(_ reason: FeedReason, line: Int) { events.append(.unreadable(reason, line: line)) }
  mutating func ignored(_ reason: FeedReason, line: Int) { events.append(.ignored(reason, line: line)) }
  mutating func noted(_ reason: FeedReason, line: Int) { events.append(.noted(reason, line: line)) }

  var positions: [(sample: RouteSample, session: Int?, line: Int)] {
    events.compactMap {
      if case .position(let sample, let session, let line) = $0 { return (sample, session, line) }
      return nil
    }
  }

  var failure: FeedError? {
    for event in events { if case .failed(let error) = event { return error } }
    return nil
  }
}

enum NMEATestRun {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func realdata(_ name: String) throws -> [UInt8] {
    try Fixtures.bytes("realdata/nmea/\(name)")
  }

  /// Feeds `bytes` to an `NMEAReader` in chunks of `chunkSize`; a thrown error is the last event.
  static func events(_ bytes: [UInt8], chunkSize: Int = .max, options: FeedOptions = FeedOptions()) -> NMEARecordingSink
  {
    var reader = NMEAReader(options: options)
    var sink = NMEARecordingSink()
    do throws(FeedError) {
      try bytes.withUnsafeBufferPointer { (all) throws(FeedError) in
        var start = 0
        while start < all.count {
          let end = min(all.count, start + min(chunkSize, all.count))
          try reader.read(UnsafeBufferPointer(rebasing: all[start..<end]), into: &sink)
          start = end
        }
      }
      try reader.finish(into: &sink)
    } catch {
      sink.events.append(.failed(error))
    }
    return sink
  }

  static func events(_ text: String, chunkSize: Int = .max, options: FeedOptions = FeedOptions()) -> NMEARecordingSink {
    events(NMEATestLog.bytes(text), chunkSize: chunkSize, options: options)
  }

  /// The whole ingest stage, as the CLI runs it.
  static func measure(
    _ bytes: [UInt8], date: CivilDate? = nil, filtered: Bool = true, chunkSize: Int = 1 << 20,
    maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval
  ) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    var options = FeedOptions()
    options.date = date
    let settings = IngestSettings(
      filter: filtered ? RouteSampleFilter() : nil, maximumSampleInterval: maximumSampleInterval)
    return FeedIngest.measure(&source, format: .nmea, options: options, settings: settings)
  }

  static func measure(_ text: String, date: CivilDate? = nil, filtered: Bool = true) -> FeedMeasurement {
    measure(NMEATestLog.bytes(text), date: date, filtered: filtered)
  }
}

extension Dictionary where Key == FeedReason, Value == Int {
  /// Reason names to counts, for comparing with literals.
  var named: [String: Int] { [String: Int](uniqueKeysWithValues: map { ($0.key.rawValue, $0.value) }) }
}

func iso(_ timestamp: Double?) -> String { timestamp.map(CivilTime.iso8601) ?? "-" }

// MARK: - Real recordings

/// What one real recording gives, pinned. Counts are the report's; metres are rounded.
struct NMEARealdataCase: Sendable, CustomTestStringConvertible {
  struct Outcome: Sendable {
    var meters: Int
    var retained: Int
    var rejected: [String: Int]
  }

  var file: String
  var date: CivilDate? = nil
  var records: Int
  var errors: [String: Int] = [:]
  var ignored: [String: Int]
  var sessions: Int
  var estimated: Int
  var span: (first: String, last: String)
  var filtered: Outcome
  var unfiltered: Outcome

  var testDescription: String { file + (date.map { " --date \($0)" } ?? "") }
}

extension NMEARealdataCase {
  /// Every file in `Tests/Fixtures/realdata/nmea`, checked against MANIFEST.tsv in comments.
  static let all: [NMEARealdataCase] = [
    // Garmin Geko car drive, 26 min, manifest 17.3 km: that figure breaks the route at each fix
    // loss; here the sentence stream continues through the two losses (16 s and 18 s, 409 m and
    // 292 m apart), so they stay one session and are measured straight across (+701 m).
    NMEARealdataCase(
      file: "genivi_geko-regensburg-car.nmea", records: 790,
      ignored: ["otherTalker": 789, "proprietary": 1578, "supportingSentence": 4410], sessions: 1, estimated: 774,
      span: ("2010-04-11T16:57:44Z", "2010-04-11T17:24:00Z"),
      filtered: .init(meters: 17969, retained: 668, rejected: ["accuracy": 2, "negligibleMovement": 104, "noFix": 16]),
      unfiltered: .init(meters: 17987, retained: 774, rejected: ["noFix": 16])),
    // SiRFstarIII car, 2 h 57 min, manifest 240.3 km (again broken at every fix loss; three
    // losses of 35, 35 and 13 s are bridged here). One receiver restart is a 206 s silence: a
    // second session. GSA HDOP 50 (250 m estimated) is rejected as accuracy.
    NMEARealdataCase(
      file: "genivi_z205-switzerland-car.nmea", records: 10412,
      ignored: ["proprietary": 7706, "supportingSentence": 7806], sessions: 2, estimated: 7746,
      span: ("2010-04-03T11:22:25.844Z", "2010-04-03T14:19:29Z"),
      // One stop longer than 120 s with fixes arriving keeps a stop fix (README, Stops).
      filtered: .init(
        meters: 242583, retained: 9635, rejected: ["accuracy": 69, "negligibleMovement": 623, "noFix": 85]),
      unfiltered: .init(meters: 242622, retained: 10327, rejected: ["noFix": 85])),
    // GGA only, crosses midnight 23:56:00 → 00:04:19; manifest 7.5 km. Without --date it is
    // refused (see `ggaOnlyLogNeedsDate`).
    NMEARealdataCase(
      file: "gpsbabel_adddate-gga-only.nmea", date: CivilDate(year: 2011, month: 3, day: 14), records: 500,
      ignored: [:], sessions: 1, estimated: 500, span: ("2011-03-14T23:56:00Z", "2011-03-15T00:04:19Z"),
      filtered: .init(meters: 7357, retained: 379, rejected: ["negligibleMovement": 121]),
      unfiltered: .init(meters: 7510, retained: 500, rejected: [:])),
    // First line starts mid-sentence ("blah7.000,A,…"); two fixes 21 s apart.
    NMEARealdataCase(
      file: "gpsbabel_mtk-locus-truncated.nmea", records: 3, errors: ["notASentence": 1],
      ignored: ["proprietary": 7, "supportingSentence": 3], sessions: 1, estimated: 2,
      span: ("2012-10-26T19:25:18Z", "2012-10-26T19:25:39Z"),
      filtered: .init(meters: 6, retained: 2, rejected: [:]),
      unfiltered: .init(meters: 6, retained: 2, rejected: [:])),
    // 4 Hz, 35 distinct times, 5 backward steps: each starts a session (DESIGN.md), and a time
    // that comes back after a step is a second record of it (37 records). Stationary.
    NMEARealdataCase(
      file: "gpsbabel_nmea-ms.nmea", records: 37, ignored: ["supportingSentence": 36], sessions: 6, estimated: 31,
      span: ("2007-08-17T09:31:56Z", "2007-08-17T09:32:05.750Z"),
      filtered: .init(meters: 0, retained: 6, rejected: ["negligibleMovement": 29, "outOfOrder": 2]),
      unfiltered: .init(meters: 1, retained: 37, rejected: [:])),
    // Stationary, 154 epochs: unfiltered 30.318 m of jitter, the same as its GPX twin
    // (gpx/gpsbabel_nmea-converted.gpx); the filter keeps none of the jitter.
    NMEARealdataCase(
      file: "gpsbabel_track.nmea", records: 154, ignored: ["dateSentence": 154, "supportingSentence": 278],
      sessions: 1, estimated: 154, span: ("2004-08-07T03:29:08.379Z", "2004-08-07T03:31:41.370Z"),
      // A receiver standing still for 2 minutes: one stop fix carries continuity through it.
      filtered: .init(meters: 4, retained: 2, rejected: ["negligibleMovement": 152]),
      unfiltered: .init(meters: 30, retained: 154, rejected: [:])),
    // BD talker; 5 of 10 epochs without a fix; the first fixes converge over ~50 m.
    NMEARealdataCase(
      file: "gpsd_beidou-bd.nmea", records: 10,
      ignored: ["blankLine": 1, "comment": 14, "proprietary": 12, "supportingSentence": 17], sessions: 1, estimated: 5,
      span: ("2015-02-25T07:41:55.799Z", "2015-02-25T07:41:59.799Z"),
      filtered: .init(meters: 52, retained: 4, rejected: ["negligibleMovement": 1, "noFix": 5]),
      unfiltered: .init(meters: 54, retained: 5, rejected: ["noFix": 5])),
    // Every GGA has a wrong checksum (device bug): 23 errors; RMC carries the positions.
    NMEARealdataCase(
      file: "gpsd_firefly-II.nmea", records: 46, errors: ["badChecksum": 23],
      ignored: ["comment": 5, "dateSentence": 23], sessions: 1, estimated: 0,
      span: ("2010-07-08T00:59:47Z", "2010-07-08T01:00:09Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 22]),
      unfiltered: .init(meters: 2, retained: 23, rejected: [:])),
    NMEARealdataCase(
      file: "gpsd_furuno-gl-ga.nmea", records: 16,
      ignored: ["comment": 8, "dateSentence": 16, "proprietary": 114, "supportingSentence": 96], sessions: 1,
      estimated: 16, span: ("2022-07-31T12:02:13Z", "2022-07-31T12:02:28Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 15]),
      unfiltered: .init(meters: 0, retained: 16, rejected: [:])),
    // Cold boot under a simulator: 46 damaged pieces of lines, 2 valid fixes dated by the first
    // status-A RMC (2019-04-07); void RMCs' garbage dates are not read.
    NMEARealdataCase(
      // Its 5 sentences without a checksum are read unchecked (checksumMissing): 2 supporting,
      // 1 proprietary, 1 bad address, 1 with missing fields.
      file: "gpsd_gp320-coldboot.nmea", records: 63,
      errors: ["badChecksum": 36, "notASentence": 2, "truncatedSentence": 3, "badAddress": 1, "missingFields": 1],
      ignored: ["comment": 20, "dateSentence": 7, "supportingSentence": 39, "proprietary": 1], sessions: 1,
      estimated: 2,
      span: ("2019-04-07T00:03:43.030Z", "2019-04-07T00:03:45.030Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 1, "noFix": 18]),
      unfiltered: .init(meters: 0, retained: 2, rejected: ["noFix": 18])),
    // GGA + ZDA, no RMC: 194 untimed quality-0 GGAs (one noFix each), 21 fixes dated by ZDA.
    NMEARealdataCase(
      file: "gpsd_hemi-gga-only.nmea", records: 215,
      ignored: ["comment": 2, "dateSentence": 108, "supportingSentence": 430], sessions: 1, estimated: 21,
      span: ("2018-09-07T19:40:50Z", "2018-09-07T19:41:00Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 20, "noFix": 194]),
      unfiltered: .init(meters: 5, retained: 21, rejected: ["noFix": 194])),
    // GST accuracy on 11 of 12 epochs; two collision lines (a cut GSV, then its tail).
    NMEARealdataCase(
      file: "gpsd_isync-gst.nmea", records: 14, errors: ["notASentence": 1, "truncatedSentence": 1],
      ignored: ["comment": 14, "dateSentence": 11, "proprietary": 12, "supportingSentence": 64], sessions: 1,
      estimated: 1, span: ("2016-02-03T13:15:19Z", "2016-02-03T13:15:30Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 11]),
      unfiltered: .init(meters: 0, retained: 12, rejected: [:])),
    // 5 Hz (manifest says 150 epochs at 1 Hz: 30 s, 151 distinct times), RMC date 2026.
    NMEARealdataCase(
      file: "gpsd_quectel-l76k.nmea", records: 151,
      ignored: ["comment": 16, "dateSentence": 150, "supportingSentence": 1230], sessions: 1, estimated: 150,
      span: ("2026-08-05T05:52:34Z", "2026-08-05T05:53:04Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 150]),
      unfiltered: .init(meters: 1, retained: 151, rejected: [:])),
    // GPGGA and GLGGA per epoch: one record each.
    NMEARealdataCase(
      file: "gpsd_sirfstarv.nmea", records: 59, ignored: ["comment": 10, "supportingSentence": 72], sessions: 1,
      estimated: 59, span: ("2019-02-05T02:09:35Z", "2019-02-05T02:10:33Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 58]),
      unfiltered: .init(meters: 1, retained: 59, rejected: [:])),
    // 37 untimed no-fix cycles, then a fix at 10:51:53.71 followed by 10:51:53.408: time runs
    // back 0.3 s, so the first fix is a session of its own (DESIGN.md); judged in time order,
    // the stepped-back epoch comes first and the lone fix is its own session's first.
    NMEARealdataCase(
      file: "gpsd_telit-he910.nmea", records: 224, ignored: ["comment": 10, "supportingSentence": 662],
      sessions: 2, estimated: 187, span: ("2019-03-12T10:51:53.408Z", "2019-03-12T10:54:59.408Z"),
      filtered: .init(meters: 0, retained: 3, rejected: ["negligibleMovement": 184, "noFix": 37]),
      unfiltered: .init(meters: 9, retained: 187, rejected: ["noFix": 37])),
    // GPGGA + GAGGA, GPRMC + GARMC, GNGNS per epoch: 10 epochs, 10 records. CR CR LF endings.
    NMEARealdataCase(
      file: "gpsd_telit-pls83-w.nmea", records: 10, ignored: ["comment": 9, "supportingSentence": 125],
      sessions: 1, estimated: 10, span: ("2025-09-04T04:35:39Z", "2025-09-04T04:35:48Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 9]),
      unfiltered: .init(meters: 0, retained: 10, rejected: [:])),
    // GST on every epoch: no estimated accuracy.
    NMEARealdataCase(
      file: "gpsd_ublox-neo-m9n.nmea", records: 61,
      ignored: ["comment": 11, "dateSentence": 61, "supportingSentence": 854], sessions: 1, estimated: 0,
      span: ("2020-07-11T22:37:45Z", "2020-07-11T22:38:45Z"),
      filtered: .init(meters: 0, retained: 1, rejected: ["negligibleMovement": 60]),
      unfiltered: .init(meters: 4, retained: 61, rejected: [:])),
  ]
}

// MARK: - Tests

@Suite struct NMEAReaderTests {
  // MARK: Real recordings

  @Test func everyRealdataFileHasACase() throws {
    let files = try Fixtures.names(in: "realdata/nmea", suffix: ".nmea")
    #expect(Set(files) == Set(NMEARealdataCase.all.map(\.file)))
  }

  @Test(arguments: NMEARealdataCase.all)
  func realdata(_ expected: NMEARealdataCase) throws {
    let bytes = try NMEATestRun.realdata(expected.file)
    for (filtered, outcome) in [(true, expected.filtered), (false, expected.unfiltered)] {
      let measurement = NMEATestRun.measure(bytes, date: expected.date, filtered: filtered)
      let report = measurement.report
      #expect(report.failure == nil)
      #expect(report.isBalanced)
      #expect(report.records == expected.records)
      #expect(report.errorReasons.named == expected.errors)
      #expect(report.errors == expected.errors.values.reduce(0, +))
      #expect(report.ignored.named == expected.ignored)
      #expect(report.sessions == expected.sessions)
      #expect(report.estimatedAccuracy == expected.estimated)
      #expect(iso(report.firstTimestamp) == expected.span.first)
      #expect(iso(report.lastTimestamp) == expected.span.last)
      #expect(report.retained == outcome.retained, "filtered: \(filtered)")
      #expect(report.rejected.named == outcome.rejected, "filtered: \(filtered)")
      #expect(Int(measurement.distance.meters.rounded()) == outcome.meters, "filtered: \(filtered)")
      #expect(measurement.distance.meters.isFinite && measurement.distance.meters >= 0)
    }
  }

  @Test(arguments: NMEARealdataCase.all.map(\.file))
  func realdataIsDetectedAsNMEA(_ file: String) throws {
    var source = MemoryByteSource(try NMEATestRun.realdata(file))
    #expect(FeedIngest.measure(&source).format == .nmea)
  }

  @Test func ggaOnlyLogNeedsDate() throws {
    let bytes = try NMEATestRun.realdata("gpsbabel_adddate-gga-only.nmea")
    for filtered in [true, false] {
      let measurement = NMEATestRun.measure(bytes, filtered: filtered)
      #expect(measurement.report.failure == .needsDate(line: 1))
      #expect(measurement.report.failure?.description.contains("--date YYYY-MM-DD") == true)
      #expect(measurement.report.records == 0)
      #expect(measurement.report.isBalanced)
      #expect(!measurement.distance.isMeasured)
    }
  }

  @Test func ggaOnlyLogWithDateCrossesMidnight() throws {
    let bytes = try NMEATestRun.realdata("gpsbabel_adddate-gga-only.nmea")
    let run = NMEATestRun.events(
      bytes,
      options: {
        var options = FeedOptions()
        options.date = CivilDate(year: 2011, month: 3, day: 14)
        return options
      }())
    let positions = run.positions
    #expect(positions.count == 500)
    #expect(Set(positions.map(\.session)) == [0])
    // Strictly increasing through midnight: 23:59:59 is followed by 00:00:00 of the next day.
    #expect(zip(positions, positions.dropFirst()).allSatisfy { $1.sample.timestamp - $0.sample.timestamp == 1 })
    #expect(positions.contains { iso($0.sample.timestamp) == "2011-03-15T00:00:00Z" })
  }

  // MARK: Streaming

  static let chunkSizes = [1, 2, 3, 7, 64, 4096]

  @Test(arguments: NMEARealdataCase.all.map(\.file))
  func chunkSizeDoesNotChangeOutput(_ file: String) throws {
    let bytes = try NMEATestRun.realdata(file)
    let whole = NMEATestRun.events(bytes)
    #expect(!whole.events.isEmpty)
    for size in Self.chunkSizes {
      #expect(NMEATestRun.events(bytes, chunkSize: size).events == whole.events, "chunk size \(size)")
    }
  }

  @Test func chunkSizeDoesNotChangeOutputOnHostileInput() {
    var random = SeededRandom(seed: 83)
    var text = "# header\r\r\n" + NMEATestLog.lines([NMEATestLog.rmc("120000.00", "010524")])
    text += "\0\0" + NMEATestLog.sentence(NMEATestLog.gga("120001.00", north: 20)) + "\r"
    text += "$GPGGA,1200$GPRMC,garbage\n\n   \t \n" + String(repeating: "x", count: 5000) + "\n"
    text += NMEATestLog.sentence(NMEATestLog.gga("120002.00", north: 40)) + "\n$GPGGA,120003.0"
    var bytes = NMEATestLog.bytes(text)
    bytes.insert(contentsOf: (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }, at: 40)
    let whole = NMEATestRun.events(bytes)
    for size in Self.chunkSizes {
      #expect(NMEATestRun.events(bytes, chunkSize: size).events == whole.events, "chunk size \(size)")
    }
  }

  @Test func lineEndingsLFCRCRLFAndDoubledCRReadTheSame() {
    let bodies = [NMEATestLog.rmc("101010.00", "150624"), NMEATestLog.gga("101010.00"), "GPGSV,1,1,00"]
    let reference = NMEATestRun.events(NMEATestLog.lines(bodies, ending: "\n")).events
    #expect(reference.count == 2)
    for ending in ["\r", "\r\n", "\r\r\n"] {
      let text = NMEATestLog.lines(bodies, ending: ending)
      for size in [1, 2, 4096] {
        #expect(NMEATestRun.events(text, chunkSize: size).events == reference, "ending \(ending.debugDescription)")
      }
    }
  }

  // MARK: Checksums and framing

  @Test func aWrongChecksumIsAnErrorAndAMissingOneIsReadAndNoted() {
    let good = NMEATestLog.sentence(NMEATestLog.rmc("080000.00", "010125"))
    let wrong = String(good.dropLast(2)) + (good.hasSuffix("00") ? "01" : "00")
    let missing = "$" + NMEATestLog.rmc("080001.00", "010125", north: 50)
    let lowercase = NMEATestLog.sentence(NMEATestLog.rmc("080002.00", "010125", north: 100)).lowercasedChecksum()
    let run = NMEATestRun.events([good, wrong, missing, lowercase, "$GPRMC,080003*X1"].joined(separator: "\n"))
    #expect(
      run.events.filter { if case .unreadable = $0 { true } else { false } } == [
        .unreadable(.badChecksum, line: 2), .unreadable(.badChecksum, line: 5),
      ])
    #expect(run.events.contains(.noted(.checksumMissing, line: 3)))
    #expect(run.positions.map(\.line) == [1, 3, 4])
    let report = NMEATestRun.measure([good, wrong, missing, ""].joined(separator: "\n")).report
    #expect(report.errorReasons.named == ["badChecksum": 1])
    #expect(report.errorLines == [2])
    #expect(report.notes.named == ["checksumMissing": 1])
    #expect(report.retained == 2)
    #expect(report.isBalanced)
  }

  /// Some loggers write no checksums at all: every sentence is read, none is an error, and the
  /// unterminated last line of such a log is read like the rest.
  @Test func aLogWithoutChecksumsIsMeasured() {
    let bodies = (0..<60).map { NMEATestLog.rmc(String(format: "1200%02d.00", $0), "010524", north: Double($0) * 10) }
    let checked = NMEATestRun.measure(NMEATestLog.lines(bodies))
    let unchecked = NMEATestRun.measure(bodies.map { "$" + $0 }.joined(separator: "\r\n"))
    #expect(unchecked.report.errors == 0)
    #expect(unchecked.report.records == 60)
    #expect(unchecked.report.notes.named == ["checksumMissing": 60])
    #expect(unchecked.report.failure == nil)
    #expect(unchecked.distance == checked.distance)
    #expect((unchecked.distance.meters * 10).rounded() / 10 == 590.4)
  }

  @Test func proprietaryAISCommentsAndOtherSentencesAreCountedNotRecords() {
    let text = [
      "# a comment", "", NMEATestLog.sentence("PGRME,5.5,M,7.0,M,8.9,M"),
      NMEATestLog.sentence("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0", start: "!"),
      NMEATestLog.sentence("HCHDG,212.6,,,1.6,E"), NMEATestLog.sentence("GPGSV,1,1,00"),
      NMEATestLog.sentence("GPVTG,,T,,M,0.0,N,0.0,K,A"),
      NMEATestLog.sentence("GNTXT,01,01,02,hello"), NMEATestLog.sentence("GPZDA,120000.00,01,05,2024,00,00"),
      NMEATestLog.sentence(NMEATestLog.rmc("120000.00", "010524")),
    ].joined(separator: "\n")
    let report = NMEATestRun.measure(text).report
    #expect(
      report.ignored.named == [
        "comment": 1, "blankLine": 1, "proprietary": 1, "ais": 1, "otherTalker": 1, "supportingSentence": 3,
        "dateSentence": 1,
      ])
    #expect(report.records == 1)
    #expect(report.retained == 1)
    #expect(report.errors == 0)
  }

  @Test func talkersOutsideTheGNSSListAreNotRead() {
    let text = NMEATestLog.lines([
      "IIRMC,120000.00,A,4722.0000,N,00833.0000,E,1.0,90.0,010524,,,A", NMEATestLog.rmc("120001.00", "010524"),
      "GNRMC,120002.00,A,4722.1000,N,00833.0000,E,1.0,90.0,010524,,,A",
      "QZGGA,120003.00,4722.2000,N,00833.0000,E,1,08,1.0,410.0,M,48.0,M,,",
    ])
    let run = NMEATestRun.events(text)
    #expect(run.positions.map(\.line) == [2, 3, 4])
    #expect(run.events.first == .ignored(.otherTalker, line: 1))
  }

  @Test func packetCollisionCutsASentenceAndKeepsTheOneThatCutIt() {
    let rmc = NMEATestLog.sentence(NMEATestLog.rmc("131539.00", "030216"))
    let text = "$GPGSV,4,1,15,02,11,115,36,0" + rmc + "\n5,34,060,48,07,00,023,,13,56,090,49*71\n"
    let run = NMEATestRun.events(text)
    #expect(run.events.count == 3)
    #expect(run.events[0] == .unreadable(.truncatedSentence, line: 1))
    #expect(run.events[1] == .unreadable(.notASentence, line: 2))
    #expect(run.positions.map(\.line) == [1])
  }

  @Test func truncatedLastLine() {
    let first = NMEATestLog.sentence(NMEATestLog.rmc("090000.00", "010524"))
    let cut = NMEATestRun.events(first + "\n$GPRMC,090001.00,A,4722.0")
    #expect(cut.events.contains(.unreadable(.truncatedSentence, line: 2)))
    #expect(cut.positions.count == 1)
    // A complete last sentence without a line end is read.
    let unterminated = NMEATestRun.events(
      first + "\n" + NMEATestLog.sentence(NMEATestLog.rmc("090001.00", "010524", north: 50)))
    #expect(unterminated.positions.map(\.line) == [1, 2])
    // Mid-file, the same cut line has no checksum: it is read unchecked, and fails on its fields.
    let middle = NMEATestRun.events("$GPRMC,090001.00,A,4722.0\n" + first)
    #expect(middle.events.prefix(2) == [.noted(.checksumMissing, line: 1), .unreadable(.missingFields, line: 1)])
  }

  // MARK: Hostile bytes

  @Test func nulBytes() {
    let rmc = NMEATestLog.sentence(NMEATestLog.rmc("070000.00", "010524"))
    // NUL padding around a line (a receiver restart) is trimmed like whitespace.
    let padded = NMEATestRun.events(NMEATestLog.bytes("\0\0") + NMEATestLog.bytes(rmc) + [0, 0x0A])
    #expect(padded.positions.count == 1)
    // A NUL inside a line makes the whole line unreadable.
    var inside = NMEATestLog.bytes(rmc)
    inside[12] = 0
    let next = NMEATestLog.sentence(NMEATestLog.rmc("070001.00", "010524"))
    let run = NMEATestRun.events(inside + [0x0A] + NMEATestLog.bytes(next))
    #expect(run.events.first == .unreadable(.binary, line: 1))
    #expect(run.events.count == 2)
  }

  @Test func tenMegabyteLineIsSkippedWithoutLosingItsNeighbours() {
    let before = NMEATestLog.sentence(NMEATestLog.rmc("060000.00", "010524")) + "\n"
    let after = "\n" + NMEATestLog.sentence(NMEATestLog.rmc("060001.00", "010524", north: 30)) + "\n"
    let bytes = NMEATestLog.bytes(before) + [UInt8](repeating: 0x41, count: 10_000_000) + NMEATestLog.bytes(after)
    for size in [4096, 1 << 20, bytes.count] {
      let measurement = NMEATestRun.measure(bytes, chunkSize: size)
      #expect(measurement.report.errorReasons.named == ["lineTooLong": 1])
      #expect(measurement.report.errorLines == [2])
      #expect(measurement.report.retained == 2)
      #expect(measurement.report.isBalanced)
      #expect(Int(measurement.distance.meters.rounded()) == 30)
    }
    // At the very end, without a line end.
    let last = NMEATestRun.events(
      NMEATestLog.bytes(before) + [UInt8](repeating: 0x24, count: 10_000_000), chunkSize: 65536)
    #expect(last.events.contains(.unreadable(.lineTooLong, line: 2)))
    #expect(last.positions.count == 1)
  }

  @Test func lineLengthLimitIsExact() {
    let limit = NMEAReader.maximumLineLength
    let sentence = NMEATestLog.sentence(NMEATestLog.rmc("050000.00", "010524"))
    let fits = sentence + String(repeating: " ", count: limit - sentence.utf8.count)
    let tooLong = fits + " "
    for size in [1, 7, 4096, .max] {
      #expect(NMEATestRun.events(fits + "\n", chunkSize: size).positions.count == 1)
      #expect(NMEATestRun.events(tooLong + "\n", chunkSize: size).events == [.unreadable(.lineTooLong, line: 1)])
    }
  }

  @Test func randomBinaryNeverCrashesAndIsAllAccountedFor() {
    var random = SeededRandom(seed: 2024)
    for _ in 0..<20 {
      let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) }
      let measurement = NMEATestRun.measure(bytes, chunkSize: 977)
      #expect(measurement.report.isBalanced)
      // Named for what it is before any line is read, even with the format forced to NMEA.
      #expect(measurement.report.failure == .notAFeed(.binary))
      #expect(measurement.report.records == 0)
      #expect(measurement.report.retained == 0)
      #expect(measurement.distance.meters == 0)
      #expect(NMEATestRun.events(bytes, chunkSize: 13).events == NMEATestRun.events(bytes).events)
    }
  }

  @Test func garbageTextBetweenSentences() {
    let text = [
      NMEATestLog.sentence(NMEATestLog.rmc("040000.00", "010524")), "hello world", "$$$$", "$GP",
      "$GPGGA,,,,,,0,,,,M,,M,,*XZ", NMEATestLog.sentence("gpgga,040001"), NMEATestLog.sentence("GPRMC"),
      NMEATestLog.sentence("GPRMC,040002.00,A,47x2.0000,N,00833.0000,E,1.0,90.0,010524,,,A"),
      NMEATestLog.sentence("GPRMC,250000.00,A,4722.0000,N,00833.0000,E,1.0,90.0,010524,,,A"),
      NMEATestLog.sentence("GPRMC,040003.00,A,4722.0000,N,00833.0000,X,1.0,90.0,010524,,,A"),
      NMEATestLog.sentence("GPRMC,040004.00,A,4722.0000,N,00833.0000,E,1e999,90.0,010524,,,A"),
      NMEATestLog.sentence("GPRMC,040005.00,A,4722.0000,N,00833.0000,E,nan,90.0,010524,,,A"),
      NMEATestLog.sentence("GPRMC,040006.00,A,4761.0000,N,00833.0000,E,1.0,90.0,010524,,,A"),
    ].joined(separator: "\n")
    let report = NMEATestRun.measure(text).report
    #expect(
      report.errorReasons.named == [
        "notASentence": 1, "truncatedSentence": 1, "badChecksum": 1, "badAddress": 2,
        "missingFields": 1, "badNumber": 5, "badTime": 1,
      ])
    #expect(report.retained == 1)
    #expect(report.isBalanced)
  }

  @Test func aDamagedLineIsOneRecordAndItsGoodSentencesAreRead() {
    let rmc = NMEATestLog.sentence(NMEATestLog.rmc("020000.00", "010524"))
    let run = NMEATestRun.events("$$$junk$GPGGA,02" + rmc + "$" + "\n")
    #expect(
      run.events == [
        .unreadable(.truncatedSentence, line: 1), .position(run.positions[0].sample, session: 0, line: 1),
      ])
  }

  @Test func gnsAndGllGivePositions() {
    let text = NMEATestLog.lines([
      "GNGNS,010000.00,4722.0000,N,00833.0000,E,ANN,08,1.2,410.0,48.0,,,V", "GPZDA,010000.00,01,05,2024,00,00",
      "GPGLL,4722.0100,N,00833.0000,E,010001.00,A,A", "GNGNS,010002.00,4722.0200,N,00833.0000,E,NNN,00,,,,,,V",
      "GPGLL,4722.0300,N,00833.0000,E,010003.00,V,N",
    ])
    let run = NMEATestRun.events(text)
    #expect(run.positions.map { iso($0.sample.timestamp) } == ["2024-05-01T01:00:00Z", "2024-05-01T01:00:01Z"])
    #expect(run.positions.first?.sample.altitude == 410)
    #expect(run.positions.first?.sample.horizontalAccuracy == 1.2 * AccuracyEstimate.metersPerHDOP)
    #expect(run.events.filter { $0 == .rejected(.noFix, line: 4) || $0 == .rejected(.noFix, line: 5) }.count == 2)
  }

  @Test func outOfRangeCoordinatesReachTheFilter() {
    let text = NMEATestLog.lines([
      "GPRMC,030000.00,A,9100.0000,N,00833.0000,E,1.0,90.0,010524,,,A",
      "GPRMC,030001.00,A,0000.0000,N,00000.0000,E,1.0,90.0,010524,,,A",
    ])
    let report = NMEATestRun.measure(text).report
    #expect(report.rejected.named == ["invalidCoordinate": 1, "nullIsland": 1])
  }

  // MARK: Epochs

  @Test func sentencesOfOneTimeMergeIntoOneRecord() throws {
    let text = NMEATestLog.lines([
      NMEATestLog.gga("120000.00", hdop: "0.9"), "GAGGA,120000.00,4722.0000,N,00833.0000,E,1,03,0.9,410.0,M,48.0,M,,",
      NMEATestLog.rmc("120000.00", "010524", knots: "19.4384"), "GPGSA,A,3,01,02,03,04,,,,,,,,,2.0,0.9,1.8",
      "GPGST,120000.00,1.1,,,,3.0,4.0,5.0", NMEATestLog.gga("120001.00", north: 10),
    ])
    let run = NMEATestRun.events(text)
    let first = try #require(run.positions.first)
    #expect(run.positions.count == 2)
    #expect(run.events.count == 2)
    #expect(first.line == 1)
    #expect(iso(first.sample.timestamp) == "2024-05-01T12:00:00Z")
    #expect(abs(first.sample.speed! - 10.0) < 1e-4)  // 19.4384 kn
    #expect(first.sample.course == 90)
    #expect(first.sample.altitude == 410)
    // GST: sqrt(3² + 4²).
    #expect(first.sample.horizontalAccuracy == 5)
    #expect(!first.sample.horizontalAccuracyIsEstimated)
  }

  @Test func hdopEstimateIsMarkedEstimated() throws {
    let text = NMEATestLog.lines([
      NMEATestLog.gga("120000.00", hdop: "1.6"),
      NMEATestLog.rmc("120001.00", "010524", north: 20), "GPGSA,A,3,01,02,03,04,,,,,,,,,4.0,2.5,3.0",
      NMEATestLog.rmc("120002.00", "010524", north: 40),
    ])
    let run = NMEATestRun.events(text)
    let expected: [Double?] = [1.6 * 5, 2.5 * 5, nil]
    #expect(run.positions.map(\.sample.horizontalAccuracy) == expected)
    #expect(run.positions.map(\.sample.horizontalAccuracyIsEstimated) == [true, true, false])
    #expect(AccuracyEstimate.metersPerHDOP == 5)
    let report = NMEATestRun.measure(text).report
    #expect(report.estimatedAccuracy == 2)
  }

  @Test func noFixEpochsAreRejectedRecords() {
    let text = NMEATestLog.lines([
      NMEATestLog.rmc("120000.00", "010524", status: "V"), NMEATestLog.gga("120000.00", quality: 0),
      NMEATestLog.gga("120001.00", quality: 0), NMEATestLog.gga("120002.00", quality: 8),
      "GPRMC,120003.00,A,4722.0000,N,00833.0000,E,1.0,90.0,010524,,,N",
      // RMC void but GGA has a fix: the epoch is a position.
      NMEATestLog.rmc("120004.00", "010524", status: "V"), NMEATestLog.gga("120004.00"),
      // Untimed cycles: one noFix per cycle; an untimed fix has no time.
      "GPGGA,,,,,,0,,,,M,,M,,", "GPRMC,,V,,,,,,,,,,N", "GPGGA,,,,,,0,,,,M,,M,,", "GPRMC,,V,,,,,,,,,,N",
      "GPGGA,,4722.0000,N,00833.0000,E,1,08,1.0,410.0,M,48.0,M,,",
      // A void RMC's date is not read (cold-start receivers send garbage there): the date is
      // the ZDA's.
      "GPZDA,120005.00,01,05,2024,00,00",
    ])
    let report = NMEATestRun.measure(text).report
    #expect(report.rejected.named == ["noFix": 6, "missingTime": 1])
    #expect(report.retained == 1)
    #expect(report.records == 8)
    #expect(report.isBalanced)
  }

  // MARK: Dates

  @Test func midnightRolloverAdvancesTheDateWithoutANewRMCDate() {
    let text = NMEATestLog.lines([
      NMEATestLog.rmc("235958.00", "311224"), NMEATestLog.gga("235959.00", north: 10),
      NMEATestLog.gga("000000.00", north: 20), NMEATestLog.gga("000001.00", north: 30),
    ])
    let run = NMEATestRun.events(text)
    #expect(
      run.positions.map { iso($0.sample.timestamp) } == [
        "2024-12-31T23:59:58Z", "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z",
      ])
    #expect(Set(run.positions.map(\.session)) == [0])
  }

  @Test func epochsBeforeTheFirstDateAreBackFilledAcrossMidnight() {
    let text = NMEATestLog.lines([
      NMEATestLog.gga("235958.00"), NMEATestLog.gga("235959.00", north: 10), NMEATestLog.gga("000000.00", north: 20),
      NMEATestLog.rmc("000001.00", "010125", north: 30),
    ])
    let run = NMEATestRun.events(text)
    #expect(
      run.positions.map { iso($0.sample.timestamp) } == [
        "2024-12-31T23:59:58Z", "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z",
      ])
    #expect(run.positions.map(\.line) == [1, 2, 3, 4])
    // A ZDA dates them the same way.
    let zda = NMEATestLog.lines([
      NMEATestLog.gga("235958.00"), NMEATestLog.gga("000000.00", north: 20), "GPZDA,000000.00,01,01,2025,00,00",
    ])
    #expect(
      NMEATestRun.events(zda).positions.map { iso($0.sample.timestamp) } == [
        "2024-12-31T23:59:58Z", "2025-01-01T00:00:00Z",
      ])
  }

  @Test(arguments: [
    ("010100", "2000-01-01"), ("311279", "2079-12-31"), ("010180", "1980-01-01"), ("311299", "1999-12-31"),
  ])
  func twoDigitYearPivotsAt80(_ ddmmyy: String, _ expected: String) {
    let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc("000000.00", ddmmyy)]))
    #expect(run.positions.map { iso($0.sample.timestamp) } == [expected + "T00:00:00Z"])
  }

  @Test func dateOptionOverridesTheFeedsDates() {
    var options = FeedOptions()
    options.date = CivilDate(year: 2020, month: 2, day: 29)
    let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc("120000.00", "070419")]), options: options)
    #expect(run.positions.map { iso($0.sample.timestamp) } == ["2020-02-29T12:00:00Z"])
  }

  @Test func undatedBufferIsBounded() {
    var text = ""
    let count = 100_001
    text.reserveCapacity(count * 80)
    for index in 0..<count {
      let seconds = index % 86_400
      let time = String(format: "%02d%02d%02d.00", seconds / 3600, seconds / 60 % 60, seconds % 60)
      text += NMEATestLog.sentence(NMEATestLog.gga(time, north: Double(index % 100))) + "\n"
    }
    let measurement = NMEATestRun.measure(NMEATestLog.bytes(text))
    #expect(measurement.report.failure == .needsDate(line: 1))
    #expect(measurement.report.isBalanced)
  }

  // MARK: Sessions

  @Test func backwardTimeStartsASession() {
    let text = NMEATestLog.lines([
      NMEATestLog.rmc("100000.00", "010524"), NMEATestLog.rmc("100001.00", "010524", north: 10),
      NMEATestLog.rmc("100000.50", "010524", north: 20), NMEATestLog.rmc("100002.00", "010524", north: 30),
    ])
    let run = NMEATestRun.events(text)
    #expect(run.positions.map(\.session) == [0, 0, 1, 1])
    let report = NMEATestRun.measure(text).report
    #expect(report.sessions == 2)
    // Judged in time order, the stepped-back fix is its session's first, not out of order.
    #expect(report.rejected.named == [:])
    #expect(report.retained == 4)
  }

  @Test func silenceLongerThanTheIntervalStartsASession() {
    let text = NMEATestLog.lines([
      NMEATestLog.rmc("100000.00", "010524"), NMEATestLog.rmc("100200.00", "010524", north: 100),  // 120 s: same
      NMEATestLog.rmc("100400.01", "010524", north: 200),  // 120.01 s: new session
    ])
    #expect(NMEATestRun.events(text).positions.map(\.session) == [0, 0, 1])
    // No-fix sentences and ZDAs keep the stream talking: no new session across 200 s.
    var bodies = [NMEATestLog.rmc("110000.00", "010524")]
    for second in stride(from: 10, through: 190, by: 10) {
      bodies.append(
        second % 20 == 0
          ? NMEATestLog.rmc(String(format: "11%02d%02d.00", second / 60, second % 60), "010524", status: "V")
          : String(format: "GPZDA,11%02d%02d.00,01,05,2024,00,00", second / 60, second % 60))
    }
    bodies.append(NMEATestLog.rmc("110320.00", "010524", north: 300))
    #expect(NMEATestRun.events(NMEATestLog.lines(bodies)).positions.map(\.session) == [0, 0])
    // The threshold follows the ingest settings.
    let short = NMEATestRun.measure(NMEATestLog.bytes(text), maximumSampleInterval: 60)
    #expect(short.report.sessions == 3)
  }

  @Test func eachFileStartsAtSessionZero() {
    let run = NMEATestRun.events(NMEATestLog.lines([NMEATestLog.rmc("230000.00", "010524")]))
    #expect(run.positions.map(\.session) == [0])
  }
}

extension String {
  /// The sentence with its checksum's hex digits in lower case (which receivers may send).
  func lowercasedChecksum() -> String {
    guard let star = lastIndex(of: "*") else { return self }
    return String(self[...star]) + self[index(after: star)...].lowercased()
  }
}
