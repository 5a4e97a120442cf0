import Foundation
import Testing

/// With a shift timeline, every record is still accounted for (`records = retained + Σ rejected +
/// errors`) in every format; and a timeline with only a start is a running shift whose working
/// time runs to the last position.
@Suite("routemiles: the ingest account with a timeline")
struct TimelineAccountingTests {
  static let realdata = CLITestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/realdata")

  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

  /// start at 10 % of the recording, a pause from 20 to 30 %, a park from 50 to 60 %, the end
  /// at 90 %: positions fall before, inside and after each.
  static func timeline(from first: Date, to last: Date) -> String {
    let span = last.timeIntervalSince(first)
    let events = [(0.1, "start"), (0.2, "pause"), (0.3, "resume"), (0.5, "park"), (0.6, "drive"), (0.9, "end")]
    return events.map {
      "{\"at\": \"\(iso(first.addingTimeInterval(($0.0 * span).rounded(.down))))\", \"event\": \"\($0.1)\"}\n"
    }.joined()
  }

  static func balance(_ object: [String: Any], _ label: String) throws -> [String: Int] {
    let ingest = try #require(object["ingest"] as? [String: Any], "\(label)")
    let rejected = ingest["rejected"] as? [String: Int] ?? [:]
    let records = try #require(ingest["records"] as? Int)
    let retained = try #require(ingest["retained"] as? Int)
    let errors = try #require(ingest["errors"] as? Int)
    #expect(records == retained + rejected.values.reduce(0, +) + errors, "\(label): \(ingest)")
    return rejected
  }

  @Test(arguments: ["csv", "fit", "geojson", "gpx", "kml", "nmea", "owntracks", "takeout", "tcx"])
  func everyRecordIsAccountedForWithATimeline(_ format: String) throws {
    let folder = Self.realdata.appendingPathComponent(format)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var checked = 0
    for file in files where checked < 2 {
      let feed = folder.appendingPathComponent(file).path
      let plain = CLITestSupport.run(["measure", "--json", "--no-timeline", feed])
      guard let object = try? CLITestSupport.jsonLines(plain.output).first,
        let ingest = object["ingest"] as? [String: Any], (ingest["records"] as? Int ?? 0) >= 5,
        let first = (ingest["firstTime"] as? String).flatMap(Self.date),
        let last = (ingest["lastTime"] as? String).flatMap(Self.date), last.timeIntervalSince(first) > 600
      else { continue }
      checked += 1
      let timeline = try CLITestSupport.write(Self.timeline(from: first, to: last), to: "\(file).jsonl", in: directory)
      for extra in [[], ["--no-filter"]] {
        let result = CLITestSupport.run(["measure", "--json", "--timeline", timeline] + extra + [feed])
        let measured = try #require(
          try CLITestSupport.jsonLines(result.output).first, "\(file) \(extra): \(result.error)")
        let rejected = try Self.balance(measured, "\(file) \(extra)")
        let ingest = try #require(measured["ingest"] as? [String: Any])
        #expect((rejected["outsideShift"] ?? 0) > 0, "\(file) \(extra): positions before the start and after the end")
        #expect(rejected["insidePause"] ?? 0 == ingest["positionsInsidePause"] as? Int ?? 0, "\(file) \(extra)")
        #expect(rejected["whileParked"] ?? 0 == ingest["positionsWhileParked"] as? Int ?? 0, "\(file) \(extra)")
      }
      let store = directory.appendingPathComponent("\(file).sqlite").path
      let imported = CLITestSupport.run(["import", "--json", "--store", store, "--timeline", timeline, feed])
      _ = try Self.balance(
        try #require(try CLITestSupport.jsonLines(imported.output).first, "\(file): \(imported.error)"),
        "import \(file)")
    }
    #expect(checked > 0, "a \(format) file with timed positions")
  }

  @Test func aTimelineWithOnlyAStartIsARunningShiftWhoseWorkingTimeRunsToTheLastPosition() throws {
    try CLITestSupport.withFeed(IntegrityCommandTests.csv(rows: 600), named: "run.csv") { directory, feed in
      // The drive runs 08:00:00 to 08:09:59; the shift started at 07:58 and was never ended.
      let timeline = try CLITestSupport.write(
        "{\"at\": \"2025-11-29T07:58:00Z\", \"event\": \"start\"}\n", to: "t.jsonl", in: directory)
      let human = CLITestSupport.run(["measure", "--timeline", timeline, feed])
      #expect(human.status == 0)
      #expect(
        human.output.contains(
          "  Shift 2025-11-29T07:58:00Z – still running: working time 11m 59s, 0 pauses (0s), 0 parks (0s).\n"))
      let json = try #require(
        try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", "--timeline", timeline, feed]).output)
          .first)
      let shift = try #require(json["shift"] as? [String: Any])
      #expect(shift["workingSeconds"] as? Double == 719)
      #expect(shift["end"] is NSNull)
    }
  }
}
