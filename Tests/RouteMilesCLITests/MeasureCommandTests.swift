import Foundation
import RouteTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `routemiles measure`: every flag, exit codes, the JSON schema, the words and the pictures.
@Suite("routemiles measure")
struct MeasureCommandTests {
  static var acceptance: URL { get throws { try Fixtures.acceptanceFolder() } }
  static func fixture(_ name: String) throws -> String { try Fixtures.path("acceptance/\(name)") }

  // MARK: Conventions

  @Test func versionAndHelp() {
    let version = CLITestSupport.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output == "routemiles 0.1.0\n")
    for command in ["measure", "batch", "import", "shifts", "replay", "pipe"] {
      let help = CLITestSupport.run([command, "--help"])
      #expect(help.status == 0, "\(command) --help")
      #expect(help.output.hasPrefix("USAGE: routemiles \(command)"), "\(command) --help goes to stdout")
      #expect(help.error.isEmpty)
      #expect(CLITestSupport.run([command, "-h"]).output == help.output)
    }
    let top = CLITestSupport.run(["--help"])
    #expect(top.status == 0)
    #expect(top.output.contains("measure") && top.output.contains("replay") && top.output.contains("pipe"))
  }

  @Test(arguments: [
    ["measure"],
    [],
    ["frobnicate"],
    ["measure", "--bogus", "x.csv"],
    ["measure", "--max-interval"],
    ["measure", "--max-interval", "soon", "x.csv"],
    ["measure", "--max-speed", "-3", "x.csv"],
    ["measure", "--shift-start", "2025-11-29T08:00:00Z", "x.csv"],
    ["measure", "--shift-start", "2025-11-29T09:00:00Z", "--shift-end", "2025-11-29T08:00:00Z", "x.csv"],
    ["measure", "--shift-start", "yesterday", "--shift-end", "2025-11-29T08:00:00Z", "x.csv"],
    ["measure", "--no-filter", "--max-accuracy", "50", "x.csv"],
    ["measure", "--format", "shp", "x.csv"],
    ["measure", "--date", "29/11/2025", "x.nmea"],
    ["measure", "--json=yes", "x.csv"],
    ["batch", "--format", "xml", "x.csv"],
    ["batch", "--jobs", "0", "x.csv"],
  ])
  func usageErrorsExit64WithAMessageOnStandardError(_ arguments: [String]) {
    let result = CLITestSupport.run(arguments)
    #expect(result.status == 64, "\(arguments)")
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("routemiles: "))
  }

  @Test func aMissingInputFailsWithExitOneButTheOthersAreStillMeasured() throws {
    let result = CLITestSupport.run(["measure", "/nonexistent/a.csv", try Self.fixture("c01_one_session.csv")])
    #expect(result.status == 1)
    #expect(result.error.contains("/nonexistent/a.csv: cannot read the input: no such file"))
    #expect(result.output.contains("14.0 mi recorded"))
  }

  @Test func dashReadsStandardInputAndDoubleDashEndsOptions() throws {
    let text = try String(contentsOfFile: Self.fixture("c02_session_change.csv"), encoding: .utf8)
    let viaStdin = try CLITestSupport.runProcess(["measure", "--json", "--no-filter", "-"], input: Data(text.utf8))
    #expect(viaStdin.status == 0)
    let json = try CLITestSupport.jsonLines(viaStdin.output)[0]
    #expect(json["source"] as? String == "-")
    #expect(json["gapCount"] as? Int == 1)

    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLITestSupport.write(text, to: "--json", in: directory)
    let ended = try CLITestSupport.runProcess(["measure", "--no-filter", "--", "--json"], in: directory)
    #expect(ended.status == 0, "\(ended.error)")
    #expect(ended.output.hasPrefix("--json\n  9.3 mi recorded · partial route\n"))
  }

  // MARK: Output

  @Test func humanOutputHasTheLineTheSentencesAndTheIngestSummary() throws {
    let result = CLITestSupport.run(["measure", try Self.fixture("f01_filter_defaults.csv")])
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines[0].hasSuffix("f01_filter_defaults.csv"))
    #expect(lines[1] == "  6.9 mi recorded")
    #expect(lines[2] == "  Measured from 1 unbroken stretch of capture.")
    #expect(lines[3] == "  No capture gaps detected.")
    #expect(
      lines[4]
        == "  At least 6.5 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid)."
    )
    #expect(
      lines[5]
        == "  Read 901 records (CSV): 836 retained, 65 rejected (negligible movement 60, accuracy 2, duplicate 1, null island 1, speed 1). 1 capture session."
    )
  }

  @Test func explainListsSegmentsAndGapsWithTimesAndNeverACoordinate() throws {
    let result = CLITestSupport.run(["measure", "--explain", "--no-filter", try Self.fixture("c02_session_change.csv")])
    #expect(result.status == 0)
    #expect(result.output.contains("  Segments:\n    1. 2025-11-29T08:00:00Z → "))
    #expect(result.output.contains("  Gaps (not measured):\n    1. session change: "))
    #expect(result.output.contains("(31s)"))
    let text = try String(contentsOfFile: Self.fixture("c02_session_change.csv"), encoding: .utf8)
    let coordinates = text.split(separator: "\n").dropFirst().flatMap { $0.split(separator: ",").dropFirst().prefix(2) }
    for coordinate in coordinates.prefix(200) {
      #expect(!result.output.contains(coordinate), "a coordinate leaked: \(coordinate)")
    }
  }

  @Test func jsonHasEveryPinnedField() throws {
    let result = CLITestSupport.run(["measure", "--json", try Self.fixture("g01_two_segments.gpx")])
    #expect(result.status == 0)
    let json = try CLITestSupport.jsonLines(result.output)[0]
    for key in ["source", "format", "summary"] { #expect(json[key] is String, "\(key)") }
    for key in ["meters", "miles"] { #expect(json[key] is Double, "\(key)") }
    for key in ["segmentCount", "gapCount", "usablePositionCount"] { #expect(json[key] is Int, "\(key)") }
    for key in ["usesInferredContinuity", "isMeasured", "isPartial"] { #expect(json[key] is Bool, "\(key)") }
    #expect(json["format"] as? String == "gpx")
    #expect(json["summary"] as? String == "9.3 mi recorded · partial route")
    let ingest = try #require(json["ingest"] as? [String: Any])
    #expect(ingest["records"] as? Int == 1200)
    #expect(ingest["retained"] as? Int == 1198)
    #expect(ingest["rejected"] as? [String: Int] == ["negligibleMovement": 2])
    #expect(ingest["errors"] as? Int == 0)
    let segments = try #require(json["segments"] as? [[String: Any]])
    #expect(segments.count == 2)
    for segment in segments {
      #expect((segment["start"] as? String)?.hasSuffix("Z") == true)
      #expect((segment["end"] as? String)?.hasSuffix("Z") == true)
      #expect(segment["positions"] is Int)
      #expect(segment["meters"] is Double)
    }
    let gaps = try #require(json["gaps"] as? [[String: Any]])
    #expect(gaps.count == 1)
    #expect(gaps[0]["kind"] as? String == "sessionChange")
    #expect(ISO8601DateFormatter().date(from: gaps[0]["start"] as? String ?? "") != nil)
  }

  @Test func localeChangesTheNumbersOnly() throws {
    let result = CLITestSupport.run([
      "measure", "--locale", "de_DE", "--no-filter", try Self.fixture("c02_session_change.csv"),
    ])
    #expect(result.output.contains("  9,3 mi recorded · partial route\n"))
    let json = try CLITestSupport.jsonLines(
      CLITestSupport.run([
        "measure", "--json", "--locale", "fr_FR", "--no-filter", try Self.fixture("c02_session_change.csv"),
      ]).output)[0]
    #expect(json["summary"] as? String == "9,3 mi recorded · partial route")
  }

  // MARK: Rules as flags

  @Test func filterThresholdFlagsChangeTheRejections() throws {
    func rejected(_ extra: [String]) throws -> [String: Int] {
      let json = try CLITestSupport.jsonLines(
        CLITestSupport.run(["measure", "--json"] + extra + [try Self.fixture("f01_filter_defaults.csv")]).output)[0]
      return try #require((json["ingest"] as? [String: Any])?["rejected"] as? [String: Int])
    }
    let defaults = try rejected([])
    #expect(try rejected(["--max-accuracy", "20"])["accuracy"]! > defaults["accuracy"]!)
    #expect(try rejected(["--min-movement", "12"])["negligibleMovement"]! > defaults["negligibleMovement"]!)
    #expect(try rejected(["--min-movement", "0"])["negligibleMovement"] == nil)
    #expect(try rejected(["--max-speed", "10"])["speed"]! > defaults["speed"]!)
    #expect(try rejected(["--keep-null-island"])["nullIsland"] == nil)
    #expect(try rejected(["--reanchor-after", "0"]) == defaults)
  }

  @Test(arguments: [
    ("c12_empty.csv", "noUsablePosition"), ("c11_single.csv", "noTwoContinuousPositions"),
    ("c13_no_two_continuous.csv", "noTwoContinuousPositions"),
  ])
  func anUnmeasurableRouteReportsNoCounts(file: String, kind: String) throws {
    // Seed 004: no counts rather than counts of zero, and which kind of nothing it is.
    let result = CLITestSupport.run(["measure", "--json", "--no-filter", try Self.fixture(file)])
    let json = try CLITestSupport.jsonLines(result.output)[0]
    for key in ["meters", "miles", "segmentCount", "gapCount"] {
      #expect(json[key] is NSNull, "\(file): \(key) is \(json[key] ?? "missing"), expected null")
    }
    #expect(json["isMeasured"] as? Bool == false)
    #expect(json["unmeasurable"] as? String == kind)
    let measured = try CLITestSupport.jsonLines(
      CLITestSupport.run(["measure", "--json", "--no-filter", try Self.fixture("c01_one_session.csv")]).output)[0]
    #expect(measured["unmeasurable"] is NSNull)
    #expect(measured["segmentCount"] as? Int == 1)
  }

  @Test func maxIntervalAndTheShiftWindowChangeTheGaps() throws {
    func measure(_ extra: [String], _ file: String = "c01_one_session.csv") throws -> [String: Any] {
      try CLITestSupport.jsonLines(
        CLITestSupport.run(["measure", "--json", "--no-filter"] + extra + [try Self.fixture(file)]).output)[0]
    }
    #expect(try measure([], "c05_interval_exceeded.csv")["gapCount"] as? Int == 1)
    #expect(try measure(["--max-interval", "121"], "c05_interval_exceeded.csv")["gapCount"] as? Int == 0)
    let windowed = try measure(["--shift-start", "2025-11-29T07:00:00Z", "--shift-end", "2025-11-29T10:00:00Z"])
    let gaps = try #require(windowed["gaps"] as? [[String: Any]])
    #expect(gaps.map { $0["kind"] as? String } == ["windowStart", "windowEnd"])
    #expect(windowed["isPartial"] as? Bool == true)
    #expect((windowed["window"] as? [String: String])?["start"] == "2025-11-29T07:00:00Z")
    let narrow = try measure(["--shift-start", "2025-11-29T08:10:00Z", "--shift-end", "2025-11-29T08:20:00Z"])
    #expect((narrow["ingest"] as? [String: Any])?["positionsOutsideWindow"] as? Int == 1800 - 601)
  }

  @Test func formatOverrideDateAndColumns() throws {
    let forced = CLITestSupport.run(["measure", "--json", "--format", "gpx", try Self.fixture("c01_one_session.csv")])
    #expect(forced.status == 1, "a CSV read as GPX is not well-formed XML")
    #expect(forced.error.contains("c01_one_session.csv:1:"))

    let ggaOnly = try Fixtures.path("realdata/nmea/gpsbabel_adddate-gga-only.nmea")
    let refused = CLITestSupport.run(["measure", ggaOnly])
    #expect(refused.status == 1)
    #expect(refused.error.contains("pass --date YYYY-MM-DD"))
    let dated = try CLITestSupport.jsonLines(
      CLITestSupport.run(["measure", "--json", "--date", "2011-03-07", ggaOnly]).output)[0]
    #expect(dated["isMeasured"] as? Bool == true)
    #expect((dated["segments"] as? [[String: Any]])?.first?["start"] as? String == "2011-03-07T23:56:00Z")

    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let odd = try CLITestSupport.write(
      "when;north;east\n2025-11-29T08:00:00Z;0.5;-160\n2025-11-29T08:00:10Z;0.5009;-160\n", to: "odd.csv", in: directory
    )
    let unmapped = CLITestSupport.run(["measure", odd])
    #expect(unmapped.status == 1)
    #expect(unmapped.error.contains("--columns"), "the error says which mapping to pass: \(unmapped.error)")
    let mapped = try CLITestSupport.jsonLines(
      CLITestSupport.run(["measure", "--json", "--columns", "timestamp=when,latitude=north,longitude=3", odd]).output)[
        0]
    #expect(mapped["isMeasured"] as? Bool == true)
    #expect(abs((mapped["meters"] as? Double ?? 0) - 100.08) < 0.1)
  }

  @Test func maxFixAgeJudgesArrivalTimes() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var text = "timestamp,latitude,longitude,received_at\n"
    for index in 0..<20 {
      let lag = index % 2 == 0 ? 3 : 15
      text += "\(1_764_403_200 + index * 2),\(0.5 + Double(index) * 0.0002),-160,\(1_764_403_200 + index * 2 + lag)\n"
    }
    let feed = try CLITestSupport.write(text, to: "arrivals.csv", in: directory)
    func stale(_ extra: [String]) throws -> Int? {
      let json = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json"] + extra + [feed]).output)[0]
      return ((json["ingest"] as? [String: Any])?["rejected"] as? [String: Int])?["stale"]
    }
    #expect(try stale([]) == 10, "a fix 15 s older than its arrival is stale; 3 s is not")
    #expect(try stale(["--max-fix-age", "20"]) == nil)
  }

  @Test func inputFormatInBatchAndPictureNameTemplates() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let csv = try String(contentsOfFile: Self.fixture("c01_one_session.csv"), encoding: .utf8)
    let feed = try CLITestSupport.write(csv, to: "drive.log", in: directory)
    let batch = CLITestSupport.run(["batch", "--format", "jsonl", "--input-format", "gpx", feed])
    #expect(batch.status == 1, "a CSV forced to GPX fails")
    #expect(CLITestSupport.run(["batch", "--format", "jsonl", "--input-format", "csv", feed]).status == 0)

    let template = directory.appendingPathComponent("{n}-{name}.svg").path
    let result = CLITestSupport.run([
      "measure", "--svg", template, try Self.fixture("c01_one_session.csv"), try Self.fixture("c02_session_change.csv"),
    ])
    #expect(result.status == 0)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("1-c01_one_session.svg").path))
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("2-c02_session_change.svg").path))
  }

  // MARK: Pictures

  @Test func geoJSONAndSVGHoldOneShapePerSegmentAndGap() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let geojson = directory.appendingPathComponent("route.geojson")
    let svg = directory.appendingPathComponent("route.svg")
    let result = CLITestSupport.run([
      "measure", "--no-filter", "--shift-start", "2025-11-29T07:00:00Z", "--shift-end", "2025-11-29T08:50:00Z",
      "--geojson", geojson.path, "--svg", svg.path, try Self.fixture("c02_session_change.csv"),
    ])
    #expect(result.status == 0, "\(result.error)")

    let collection = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: geojson)) as? [String: Any])
    let features = try #require(collection["features"] as? [[String: Any]])
    let kinds = features.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String }
    #expect(kinds.filter { $0 == "segment" }.count == 2)
    #expect(kinds.filter { $0 == "gap" }.count == 3, "a session change and two window gaps")
    let sessionGap = try #require(
      features.first { ($0["properties"] as? [String: Any])?["gapKind"] as? String == "sessionChange" })
    #expect((sessionGap["geometry"] as? [String: Any])?["type"] as? String == "LineString")
    #expect(collection["title"] as? String == "9.3 mi recorded · partial route")

    let parser = XMLParser(contentsOf: svg)!
    let counter = SVGPathCounter()
    parser.delegate = counter
    #expect(parser.parse(), "the SVG is well-formed XML")
    #expect(counter.classes.filter { $0 == "segment" }.count == 2)
    #expect(counter.classes.filter { $0.hasPrefix("gap") }.count == 3)
    #expect(counter.classes.contains("scale-bar"))
    #expect(counter.texts.contains("9.3 mi recorded · partial route"))
    #expect(counter.texts.contains { $0.hasSuffix(" mi") }, "a scale bar in miles")
    #expect(counter.texts.contains("31s"), "the gap is labelled with its duration")
  }
}

/// Collects each `<path>`'s class and every text node of an SVG.
final class SVGPathCounter: NSObject, XMLParserDelegate {
  var classes: [String] = []
  var texts: [String] = []
  private var text = ""
  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if name == "path" { classes.append(attributes["class"] ?? "") }
    text = ""
  }
  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    if !text.isEmpty { texts.append(text) }
    text = ""
  }
}
