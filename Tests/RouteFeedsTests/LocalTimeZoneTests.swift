import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// `--time-zone`: compiled zone files (`TZifParser`), the offsets they give, and times written
/// without a zone read as local time across a daylight-saving change (`LocalTimeReading`).
@Suite struct LocalTimeZoneTests {
  static func zone() throws -> ZoneRules { try TZifParser.parse(TZif.london, name: "Europe/London") }
  static func t(_ text: String) -> Double { ISO8601Parser.timestamp(text)! }

  @Test func aTZifFileGivesItsTransitionsAndItsFooterForLaterYears() throws {
    let zone = try Self.zone()
    #expect(zone.transitions.count == 4)
    #expect(zone.offset(at: Self.t("2024-01-15T12:00:00Z")) == 0)
    #expect(zone.offset(at: Self.t("2024-07-01T12:00:00Z")) == 3600)
    #expect(zone.offset(at: Self.t("2025-10-26T00:59:59Z")) == 3600)
    #expect(zone.offset(at: Self.t("2025-10-26T01:00:00Z")) == 0)
    // After the last transition the footer's rule (last Sunday of March / October, 01:00 UTC).
    #expect(zone.offset(at: Self.t("2030-03-31T00:59:59Z")) == 0)
    #expect(zone.offset(at: Self.t("2030-03-31T01:00:00Z")) == 3600)
    #expect(zone.offset(at: Self.t("2030-10-27T00:59:59Z")) == 3600)
    #expect(zone.offset(at: Self.t("2030-10-27T01:00:00Z")) == 0)
    // A slim file (no transitions) gives the same offsets from its footer alone.
    let slim = try TZifParser.parse(
      TZif.file(types: [.init(0, false, "GMT")], transitions: [], footer: "GMT0BST,M3.5.0/1,M10.5.0"), name: "slim")
    for text in ["2024-07-01T12:00:00Z", "2025-10-26T00:59:59Z", "2025-10-26T01:00:00Z", "2025-03-30T01:00:00Z"] {
      #expect(slim.offset(at: Self.t(text)) == zone.offset(at: Self.t(text)), "\(text)")
    }
    // A southern zone (daylight time across the new year) and a half-hour one.
    let auckland = try TZifParser.parse(
      TZif.file(types: [.init(43200, false, "NZST")], transitions: [], footer: "NZST-12NZDT,M9.5.0,M4.1.0/3"),
      name: "NZ")
    #expect(auckland.offset(at: Self.t("2030-01-15T00:00:00Z")) == 46800)
    #expect(auckland.offset(at: Self.t("2030-07-15T00:00:00Z")) == 43200)
    let tehran = try TZifParser.parse(
      TZif.file(types: [.init(12600, false, "+0330")], transitions: [], footer: "<+0330>-3:30"), name: "T")
    #expect(tehran.offset(at: Self.t("2030-07-15T00:00:00Z")) == 12600)
  }

  @Test func aFileThatIsNotAZoneIsRefusedWithTheReason() {
    #expect(throws: TZifParser.Failure(detail: "it is not a compiled time zone file (no TZif signature)")) {
      try TZifParser.parse(Array("Europe/London\n".utf8), name: "x")
    }
    #expect(throws: TZifParser.Failure(detail: "the file ends inside its transition data")) {
      try TZifParser.parse(Array(TZif.london.prefix(120)), name: "x")
    }
  }

  @Test func theRepeatedAutumnHourReadsInFileOrderAsOneContinuousDrive() throws {
    var reading = LocalTimeReading(zone: try Self.zone())
    // 01:30 BST, 01:59 BST, then the clock goes back: 01:00 GMT, 01:00:10 GMT, 01:30 GMT.
    let locals = [
      "2025-10-26T01:30:00Z", "2025-10-26T01:59:00Z", "2025-10-26T01:00:00Z", "2025-10-26T01:00:10Z",
      "2025-10-26T01:30:00Z",
    ]
    let instants = locals.map { reading.instant(local: Self.t($0)) }
    #expect(
      instants == [
        Self.t("2025-10-26T00:30:00Z"), Self.t("2025-10-26T00:59:00Z"), Self.t("2025-10-26T01:00:00Z"),
        Self.t("2025-10-26T01:00:10Z"), Self.t("2025-10-26T01:30:00Z"),
      ])
    // A fix a few seconds out of order inside the first pass stays in the first pass.
    var jitter = LocalTimeReading(zone: try Self.zone())
    #expect(jitter.instant(local: Self.t("2025-10-26T01:20:05Z")) == Self.t("2025-10-26T00:20:05Z"))
    #expect(jitter.instant(local: Self.t("2025-10-26T01:20:00Z")) == Self.t("2025-10-26T00:20:00Z"))
  }

  @Test func aSkippedSpringTimeTakesTheOffsetBeforeTheChange() throws {
    var reading = LocalTimeReading(zone: try Self.zone())
    #expect(reading.instant(local: Self.t("2025-03-30T00:59:00Z")) == Self.t("2025-03-30T00:59:00Z"))
    // 01:30 local does not exist on 2025-03-30: read with GMT, it is 01:30Z (02:30 BST).
    #expect(reading.instant(local: Self.t("2025-03-30T01:30:00Z")) == Self.t("2025-03-30T01:30:00Z"))
    #expect(reading.instant(local: Self.t("2025-03-30T02:31:00Z")) == Self.t("2025-03-30T01:31:00Z"))
    #expect(reading.instant(local: Self.t("2025-07-01T12:00:00Z")) == Self.t("2025-07-01T11:00:00Z"))
  }

  /// A drive from 00:30 to 01:30 UTC on 2025-10-26, a fix a minute, 55.6 m apart, written in
  /// London local time without a zone (01:30 BST … 01:59 BST, 01:00 GMT … 01:30 GMT).
  static func autumnDrive(zoned: Bool) -> String {
    var text = "timestamp,latitude,longitude\n"
    for minute in 0...60 {
      let utc = Self.t("2025-10-26T00:30:00Z") + Double(minute) * 60
      let local = zoned ? utc : utc + (utc < Self.t("2025-10-26T01:00:00Z") ? 3600 : 0)
      let written = String(CivilTime.iso8601(local).dropLast())  // no `Z`
      let latitude = 51.5 + Double(minute) * 0.0005
      text += "\(zoned ? written + "Z" : written),\(latitude),-0.12\n"
    }
    return text
  }

  @Test func zoneLessTimesAcrossTheAutumnChangeMeasureAsTheDrive() throws {
    let truth = CSVTestSupport.measure(Self.autumnDrive(zoned: true))
    #expect(truth.distance.meters.rounded() == 3336)
    // As UTC: the repeated hour folds the drive back on itself, and the step back is noted.
    let asUTC = CSVTestSupport.measure(Self.autumnDrive(zoned: false))
    #expect(asUTC.distance.meters.rounded() == 6505)
    #expect(asUTC.report.notes[.zoneLessStepBack] == 1)
    #expect(truth.report.notes[.zoneLessStepBack] == nil)
    // In the zone: the drive itself, nothing noted.
    var options = FeedOptions()
    options.timeZone = try Self.zone()
    var source = MemoryByteSource(Array(Self.autumnDrive(zoned: false).utf8), chunkSize: 4096)
    let local = FeedIngest.measure(&source, format: .csv, options: options, settings: IngestSettings())
    #expect(local.distance.meters == truth.distance.meters)
    #expect(local.report.notes.isEmpty)
    #expect(local.report.firstTimestamp == Self.t("2025-10-26T00:30:00Z"))
  }

  @Test func zoneLessGPXTimesAreLocalTimeAndZonedOnesAreNotMoved() throws {
    func gpx(_ times: [String]) -> [UInt8] {
      let points = times.enumerated().map { index, time in
        "<trkpt lat=\"\(51.5 + Double(index) * 0.0005)\" lon=\"-0.12\"><time>\(time)</time></trkpt>"
      }
      return Array("<gpx><trk><trkseg>\(points.joined())</trkseg></trk></gpx>\n".utf8)
    }
    var options = FeedOptions()
    options.timeZone = try Self.zone()
    let read = readChunked(
      GPXReader(options: options), gpx(["2025-07-01T09:00:00", "2025-07-01T09:01:00+01:00", "2025-07-01T08:02:00Z"]))
    #expect(read.error == nil)
    #expect(
      positionsWithSessions(read.records).map(\.sample.timestamp) == [
        Self.t("2025-07-01T08:00:00Z"), Self.t("2025-07-01T08:01:00Z"), Self.t("2025-07-01T08:02:00Z"),
      ])
    // Without a zone the same times are UTC, and an hour's step back is noted.
    let plain = readChunked(GPXReader(options: FeedOptions()), gpx(["2025-10-26T01:59:00", "2025-10-26T01:00:00"]))
    #expect(plain.records.contains(.noted(.zoneLessStepBack, line: 0)))
  }

  @Test func localTimeColumnsMappedWithColumnsAreReadInTheNamedZone() throws {
    let text = Array("Lcl Date,Lcl Time,Latitude,Longitude\n2025-07-01,09:00:00,51.5,-0.12\n".utf8)
    var options = FeedOptions()
    options.timeZone = try Self.zone()
    // Detected as local time with no UTC offset column: refused, with or without a zone.
    guard case .unmappedColumns(line: 1, _)? = readChunked(CSVReader(options: options), text).error else {
      Issue.record("a detected local-time header without an offset column is refused")
      return
    }
    // Mapped with --columns: a time without a zone, read as local time in the zone.
    options.csvColumns = try CSVColumnMapping(parsing: "date=Lcl Date,time=Lcl Time")
    let read = readChunked(CSVReader(options: options), text)
    #expect(read.error == nil)
    #expect(positionsWithSessions(read.records).map(\.sample.timestamp) == [Self.t("2025-07-01T08:00:00Z")])
  }
}
