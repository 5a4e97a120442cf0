import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import Testing

@testable import RouteMilesCLI

/// The human reports follow the one plural rule and the one small-figure rule, name a format as
/// its documentation does, count what a format passes over in its own unit, and write a
/// reason in words, never as its JSON name.
@Suite("Report words: plurals, small figures, formats and reasons")
struct ReportWordsTests {
  static let german = MileageLocale(identifier: "de_DE")

  @Test func oneRecordOnePositionInTheIngestSummary() throws {
    let text = "time,lat,lon\n2025-01-01T12:00:00Z,51.5,-0.1\n"
    try CLITestSupport.withFeed(text, named: "one.csv") { _, feed in
      let run = CLITestSupport.run(["measure", feed])
      #expect(
        run.output.contains("  Read 1 record (CSV): 1 retained, 0 rejected. 1 position without a capture session.\n"))
    }
  }

  /// Two fixes at one place, measured as stored: a measured route of 0 m reads `under 0.1`,
  /// never `0.0 mi recorded`, in the line and in the batch column.
  @Test func aMeasuredRouteOfNoMetres() throws {
    let text = "time,lat,lon\n2025-01-01T12:00:00Z,51.5,-0.1\n2025-01-01T12:00:10Z,51.5,-0.1\n"
    try CLITestSupport.withFeed(text, named: "still.csv") { _, feed in
      let run = CLITestSupport.run(["measure", "--no-filter", feed])
      #expect(run.output.contains("\n  under 0.1 mi recorded · partial route\n"))
      #expect(!run.output.contains("0.0 mi"))
      let german = CLITestSupport.run(["measure", "--no-filter", "--locale", "de_DE", feed])
      #expect(german.output.contains("\n  under 0,1 mi recorded · partial route\n"))
      let batch = CLITestSupport.run(["batch", "--no-filter", feed])
      #expect(batch.output.split(separator: "\n")[1].hasPrefix("    <0.1       0.0 "))
      #expect(
        batch.output.contains(
          "1 shift: 1 measured (1 partial), 0 unmeasurable, 0 failed · sum of recorded figures: under 0.1 mi"))
    }
  }

  @Test func whatAFormatPassesOverIsCountedInItsOwnUnit() {
    #expect(FeedFormat.takeout.ignoredPart == "entry")
    #expect(FeedFormat.geojson.ignoredPart == "entry")
    #expect(FeedFormat.nmea.ignoredPart == "line")
    #expect(FeedFormat.csv.ignoredPart == "line")
    #expect(FeedFormat.owntracks.ignoredPart == "line")
    #expect(FeedFormat.gpx.ignoredPart == "element")
    #expect(FeedFormat.fit.ignoredPart == "message")
    var report = IngestReport()
    report.records = 3
    report.retained = 3
    report.ignored = [.timelineVisit: 1]
    #expect(
      HumanReport.ingestSummary(report, format: .takeout, locale: .english)
        == "Read 3 records (Takeout): 3 retained, 0 rejected. 1 other entry ignored.")
    report.ignored = [.timelineVisit: 1, .otherEntry: 1]
    #expect(
      HumanReport.ingestSummary(report, format: .geojson, locale: .english)
        == "Read 3 records (GeoJSON): 3 retained, 0 rejected. 2 other entries ignored.")
    report.ignored = [.blankLine: 1_234]
    #expect(
      HumanReport.ingestSummary(report, format: .nmea, locale: Self.german)
        == "Read 3 records (NMEA): 3 retained, 0 rejected. 1.234 other lines ignored.")
    report.ignored = [.nonRecordMessage: 1]
    report.sessions = 1
    #expect(
      HumanReport.ingestSummary(report, format: .fit, locale: .english)
        == "Read 3 records (FIT): 3 retained, 0 rejected. 1 other message ignored. 1 capture session.")
  }

  @Test func reasonsAreWrittenInWords() {
    var report = IngestReport()
    report.records = 4
    report.retained = 1
    report.rejected = [.missingTime: 2]
    report.errors = 1
    report.errorReasons = [.badTime: 1]
    report.errorLines = [7]
    #expect(
      HumanReport.ingestSummary(report, format: .gpx, locale: .english)
        == "Read 4 records (GPX): 1 retained, 2 rejected (missing time 2), 1 unreadable (lines 7).")
    #expect(
      FeedError.nothingReadable(records: 1, reasons: [.badTime: 1]).description
        == "none of its 1 record could be read (bad time 1)")
    #expect(
      FeedError.nothingReadable(records: 1_500, reasons: [.recorderBadJSON: 1_000, .crcMismatch: 500]).description
        == "none of its 1,500 records could be read (bad JSON 1,000, CRC mismatch 500)")
  }

  /// A GPX whose points mostly have no time: `measure`, `batch` and `import` say how many were
  /// left out, and the route is partial.
  @Test func positionsWithoutATimeAreNamedByEveryCommand() throws {
    var points = ""
    for index in 0..<12 {
      let time = index < 4 ? "<time>2025-01-01T12:0\(index):00Z</time>" : ""
      points += "<trkpt lat=\"\(51.5 + Double(index) * 0.001)\" lon=\"-0.1\">\(time)</trkpt>\n"
    }
    let gpx = "<gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>\n"
    try CLITestSupport.withFeed(gpx, named: "untimed.gpx") { directory, feed in
      let measured = CLITestSupport.run(["measure", feed])
      #expect(measured.status == 0)
      let expected: [String] = [
        "  0.2 mi recorded · partial route", "  Measured from 1 unbroken stretch of capture.",
        "  No capture gaps detected.",
        "  8 positions have no time and cannot be measured.",
        "  Partial route: any driving outside the recorded stretches is not included.",
        "  At least 0.1 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy, "
          + "or 15.0 m where it reports none; lengths on the WGS84 ellipsoid); the rest may be jitter, because most positions report no accuracy.",
        "  Read 12 records (GPX): 4 retained, 8 rejected (missing time 8). 1 capture session.",
      ]
      let lines = measured.output.split(separator: "\n").dropFirst().map(String.init)
      #expect(lines == expected)
      let json = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", feed]).output)[0]
      #expect(json["isPartial"] as? Bool == true)
      let batch = CLITestSupport.run(["batch", feed])
      #expect(batch.output.split(separator: "\n")[1].contains("  partial  "))
      let store = directory.appendingPathComponent("shifts.sqlite").path
      let imported = CLITestSupport.run(["import", "--store", store, feed])
      #expect(imported.status == 0)
      #expect(
        imported.output.contains(
          "  0.2 mi recorded · partial route\n  8 positions have no time and cannot be measured.\n"))
    }
  }
}
