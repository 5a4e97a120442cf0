import Foundation
import RouteMileage
import Testing

/// Issue #15's acceptance: a feed with a fix every 5 s all day, a timeline 08:00–12:00 with a
/// pause 10:00–10:20 and a park 11:00–11:10.
@Suite("Shift timeline: acceptance", .serialized)
struct TimelineAcceptanceTests {
  /// 2025-11-04T00:00:00Z.
  static let midnight = 1_762_214_400.0

  static func iso(_ seconds: Double) -> String {
    let date = Date(timeIntervalSince1970: seconds)
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// Where the vehicle is at `second` of the day: driving a wavy road at 6–14 m/s, standing
  /// still (with a few metres of receiver wander) through the park.
  static func fix(_ second: Int) -> (latitude: Double, longitude: Double) {
    let t = Double(second)
    let parked = second >= 11 * 3600 && second <= 11 * 3600 + 600
    let moving = parked ? Double(11 * 3600) : t
    let north = moving * 10 + 400 * sin(moving / 300)
    let east = 300 * cos(moving / 170)
    let wander = parked ? 2 * sin(t / 7) : 0
    return (51.2 + (north + wander) / 111_195, -0.4 + (east + wander) / 69_600)
  }

  /// The whole day, one capture session, as CSV.
  static func dayFeed() -> String {
    var text = "timestamp,latitude,longitude,session\n"
    for second in stride(from: 0, to: 86_400, by: 5) {
      let (latitude, longitude) = fix(second)
      text += "\(iso(midnight + Double(second))),\(latitude),\(longitude),day\n"
    }
    return text
  }

  static let timelineText = """
    {"at": "2025-11-04T08:00:00Z", "event": "start"}
    {"at": "2025-11-04T10:00:00Z", "event": "pause"}
    {"at": "2025-11-04T10:20:00Z", "event": "resume"}
    {"at": "2025-11-04T11:00:00Z", "event": "park"}
    {"at": "2025-11-04T11:10:00Z", "event": "drive"}
    {"at": "2025-11-04T12:00:00Z", "event": "end"}

    """

  /// The reference: the positions inside the pause, the park and outside the window removed,
  /// and a new session at each resume (capture intervals are closed at both ends).
  static func referenceFeed() -> String {
    var text = "timestamp,latitude,longitude,session\n"
    let intervals = [(8 * 3600, 10 * 3600, "a"), (10 * 3600 + 1200, 11 * 3600, "b"), (11 * 3600 + 600, 12 * 3600, "c")]
    for second in stride(from: 0, to: 86_400, by: 5) {
      guard let interval = intervals.first(where: { second >= $0.0 && second <= $0.1 }) else { continue }
      let (latitude, longitude) = fix(second)
      text += "\(iso(midnight + Double(second))),\(latitude),\(longitude),\(interval.2)\n"
    }
    return text
  }

  struct Files {
    let directory: URL
    let feed: String
    let timeline: String
    let reference: String
  }

  static func files() throws -> Files {
    let directory = try CLITestSupport.temporaryDirectory()
    return Files(
      directory: directory,
      feed: try CLITestSupport.write(dayFeed(), to: "drive.csv", in: directory),
      timeline: try CLITestSupport.write(timelineText, to: "day.jsonl", in: directory),
      reference: try CLITestSupport.write(referenceFeed(), to: "reference.csv", in: directory))
  }

  static func measure(_ arguments: [String]) throws -> [String: Any] {
    let result = CLITestSupport.run(["measure", "--json"] + arguments)
    #expect(result.status == 0, "\(result.error)")
    return try #require(try CLITestSupport.jsonLines(result.output).first)
  }

  @Test func theFigureEqualsTheReferenceAndTheShiftIsReported() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let measured = try Self.measure(["--timeline", files.timeline, files.feed])
    let reference = try Self.measure([files.reference])
    let meters = try #require(measured["meters"] as? Double)
    #expect(meters == reference["meters"] as? Double)
    #expect(meters > 50_000)
    #expect(measured["segmentCount"] as? Int == reference["segmentCount"] as? Int)

    let shift = try #require(measured["shift"] as? [String: Any])
    #expect(shift["state"] as? String == "ended")
    #expect(shift["start"] as? String == "2025-11-04T08:00:00Z")
    #expect(shift["end"] as? String == "2025-11-04T12:00:00Z")
    #expect(shift["workingSeconds"] as? Double == 13_200)
    #expect(shift["pausedSeconds"] as? Double == 1_200)
    #expect(shift["parkedSeconds"] as? Double == 600)
    #expect(shift["pauses"] as? Int == 1)
    #expect(shift["parks"] as? Int == 1)

    let gaps = try #require(measured["gaps"] as? [[String: Any]])
    let kinds = gaps.compactMap { $0["kind"] as? String }
    #expect(kinds.contains("pause"))
    #expect(kinds.contains("parked"))
    let pause = try #require(gaps.first { $0["kind"] as? String == "pause" })
    #expect(pause["start"] as? String == "2025-11-04T10:00:00Z")
    #expect(pause["seconds"] as? Double == 1_200)

    // Every position is accounted for by reason.
    let ingest = try #require(measured["ingest"] as? [String: Any])
    #expect(ingest["records"] as? Int == 17_280)
    #expect(ingest["positionsOutsideWindow"] as? Int == 17_280 - 2_881)
    #expect(ingest["positionsInsidePause"] as? Int == 239)
    #expect(ingest["positionsWhileParked"] as? Int == 119)
    #expect(ingest["sessions"] as? Int == 3, "each resume or drive starts a new capture session")

    // The human report says the same.
    let human = CLITestSupport.run(["measure", "--timeline", files.timeline, files.feed]).output
    #expect(human.contains("working time 3h 40m, 1 pause (20m 00s), 1 park (10m 00s)"))
    // Not kept: rejected at capture by reason, so every record is accounted for.
    #expect(human.contains("rejected (outside shift 14,399, inside pause 239, while parked 119"), "\(human)")
    #expect(!human.contains("Kept but not measured"))
  }

  /// Issues #14 and #15 together: the timeline is applied in time order, so a newest-first or
  /// shuffled copy of the day gives the in-order figure, segments and sessions, filter on or off.
  @Test(arguments: [false, true])
  func anyStoredOrderGivesTheInOrderFigureWithATimeline(filterOff: Bool) throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let rows = Self.dayFeed().split(separator: "\n").dropFirst()
    var generator = SystemRandomNumberGenerator()
    var shuffledRows = Array(rows)
    shuffledRows.shuffle(using: &generator)
    let header = "timestamp,latitude,longitude,session\n"
    let reversed = try CLITestSupport.write(
      header + rows.reversed().joined(separator: "\n") + "\n", to: "reversed.csv", in: files.directory)
    let shuffled = try CLITestSupport.write(
      header + shuffledRows.joined(separator: "\n") + "\n", to: "shuffled.csv", in: files.directory)
    let flags = ["--timeline", files.timeline] + (filterOff ? ["--no-filter"] : [])
    let inOrder = try Self.measure(flags + [files.feed])
    for copy in [reversed, shuffled] {
      let measured = try Self.measure(flags + [copy])
      #expect(measured["meters"] as? Double == inOrder["meters"] as? Double, "\(copy)")
      #expect(measured["floorMeters"] as? Double == inOrder["floorMeters"] as? Double, "\(copy)")
      #expect(measured["segmentCount"] as? Int == inOrder["segmentCount"] as? Int, "\(copy)")
      #expect(measured["gapCount"] as? Int == inOrder["gapCount"] as? Int, "\(copy)")
      let ingest = measured["ingest"] as? [String: Any]
      #expect(ingest?["sessions"] as? Int == 3, "\(copy): each resume or drive starts one capture session")
    }
  }

  @Test func withoutATimelineNothingChanges() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let plain = try Self.measure([files.feed])
    #expect(plain["shift"] == nil)
    #expect(plain["window"] == nil)
    // The park is a stop (fixes kept arriving; stop fixes carry it). The feed then resumes
    // where the vehicle would have been had it not stopped, 6 km on in 5 s: the filter rejects
    // that jump for its speed and re-anchors, so the only break is a session change.
    let gaps = try #require(plain["gaps"] as? [[String: Any]])
    #expect(gaps.compactMap { $0["kind"] as? String } == ["sessionChange"])
    #expect((plain["stops"] as? [[String: Any]])?.first?["start"] as? String == "2025-11-04T11:00:00Z")
    #expect((plain["ingest"] as? [String: Any])?["positionsInsidePause"] == nil)
  }

  @Test func aRefusedTimelineExitsOneNamingItsLineAndMeasuresNothing() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let refused = try CLITestSupport.write(
      """
      {"at": "2025-11-04T08:00:00Z", "event": "start"}
      {"at": "2025-11-04T10:00:00Z", "event": "pause"}
      {"at": "2025-11-04T10:05:00Z", "event": "park"}
      """, to: "refused.jsonl", in: files.directory)
    for command in [["measure", "--json"], ["batch", "--format", "jsonl"]] {
      let result = CLITestSupport.run(command + ["--timeline", refused, files.feed])
      #expect(result.status == 1, "\(command)")
      #expect(
        result.error.contains("\(refused):3: the event on line 3 is refused: park while the shift is paused"),
        "\(result.error)")
      let json = try #require(try CLITestSupport.jsonLines(result.output).first)
      #expect(json["meters"] == nil, "nothing is measured from that feed")
    }
    let human = CLITestSupport.run(["measure", "--timeline", refused, files.feed])
    #expect(human.output.contains("Not measured: its shift timeline was refused."))
    // import stores nothing.
    let store = files.directory.appendingPathComponent("store.sqlite").path
    let imported = CLITestSupport.run(["import", "--store", store, "--timeline", refused, files.feed])
    #expect(imported.status == 1)
    #expect(imported.error.contains(":3: the event on line 3 is refused:"))
    let listed = CLITestSupport.run(["shifts", "--store", store, "--json"])
    #expect(listed.output.isEmpty)
    // replay too.
    let replayed = CLITestSupport.run(["replay", "--speed", "max", "--json", "--timeline", refused, files.feed])
    #expect(replayed.status == 1)
    #expect(replayed.error.contains(":3: the event on line 3 is refused:"))
  }

  @Test func theSidecarIsPickedUpUnlessToldNot() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let withFlag = try Self.measure(["--timeline", files.timeline, files.feed])
    _ = try CLITestSupport.write(Self.timelineText, to: "drive.timeline.jsonl", in: files.directory)
    let sidecar = try Self.measure([files.feed])
    #expect(sidecar["meters"] as? Double == withFlag["meters"] as? Double)
    #expect((sidecar["shift"] as? [String: Any])?["workingSeconds"] as? Double == 13_200)
    let off = try Self.measure(["--no-timeline", files.feed])
    #expect(off["shift"] == nil)
    #expect(off["meters"] as? Double != withFlag["meters"] as? Double)
    let batch = CLITestSupport.run(["batch", "--format", "jsonl", files.feed])
    let row = try #require(try CLITestSupport.jsonLines(batch.output).first)
    #expect(row["meters"] as? Double == withFlag["meters"] as? Double)
  }

  @Test func importThenBatchStoreAndReplayEndOnTheMeasureFigure() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let measured = try Self.measure(["--timeline", files.timeline, files.feed])
    let figure = try #require(measured["meters"] as? Double)

    let store = files.directory.appendingPathComponent("store.sqlite").path
    let imported = CLITestSupport.run(["import", "--store", store, "--json", "--timeline", files.timeline, files.feed])
    #expect(imported.status == 0, "\(imported.error)")
    let importJSON = try #require(try CLITestSupport.jsonLines(imported.output).first)
    #expect(importJSON["meters"] as? Double == figure)
    #expect((importJSON["shiftTimeline"] as? [String: Any])?["workingSeconds"] as? Double == 13_200)

    let batch = CLITestSupport.run(["batch", "--store", store, "--format", "jsonl"])
    let row = try #require(try CLITestSupport.jsonLines(batch.output).first)
    #expect(row["meters"] as? Double == figure)
    #expect((row["shift"] as? [String: Any])?["pauses"] as? Int == 1)
    #expect(((row["gaps"] as? [[String: Any]]) ?? []).contains { $0["kind"] as? String == "parked" })

    let listed = CLITestSupport.run(["shifts", "--store", store])
    #expect(
      listed.output.contains("ended         2025-11-04T08:00:00Z  2025-11-04T12:00:00Z  3h 40m"), "\(listed.output)")
    let listedJSON = try #require(
      try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--store", store, "--json"]).output).first)
    #expect(listedJSON["workingSeconds"] as? Double == 13_200)
    #expect((listedJSON["window"] as? [String: Any])?["end"] as? String == "2025-11-04T12:00:00Z")

    let replayStore = files.directory.appendingPathComponent("replay.sqlite").path
    let replay = CLITestSupport.run(
      ["replay", "--speed", "max", "--json", "--store", replayStore, "--timeline", files.timeline, files.feed])
    #expect(replay.status == 0, "\(replay.error)")
    let lines = try CLITestSupport.jsonLines(replay.output)
    let end = try #require(lines.last)
    #expect(end["liveMeters"] as? Double == figure)
    #expect(end["finalMeters"] as? Double == figure)
    #expect(end["identical"] as? Bool == true)
    #expect(end["shiftSeconds"] as? Double == 14_400, "the replay ends with the shift")

    // The card follows the timeline at its times.
    let updates = lines.filter { $0["type"] as? String == "update" }
    func update(at seconds: Double) throws -> [String: Any] {
      try #require(updates.first { ($0["shiftSeconds"] as? Double ?? -1) >= seconds })
    }
    let paused = try update(at: 2 * 3600 + 1)
    #expect(paused["state"] as? String == "paused")
    #expect(paused["stateLine"] as? String == "Shift Paused")
    #expect(paused["controls"] as? [String] == ["Resume Shift", "End Shift"])
    #expect(paused["workingSeconds"] as? Double == 7_200)
    let parked = try update(at: 3 * 3600 + 1)
    #expect(parked["parkedLine"] as? String == "Parked · route not recording")
    #expect(parked["controls"] as? [String] == ["Resume Driving", "Start Delivery", "Pause Shift", "End Shift"])
    let pausedAt = try #require(updates.first { $0["state"] as? String == "paused" })
    #expect(pausedAt["shiftSeconds"] as? Double == 7_200, "the pause goes out at its instant")
    #expect(pausedAt["pushed"] as? Bool == true)
    let running = try update(at: 3 * 3600 + 700)
    #expect(running["parkedLine"] is NSNull)
    #expect((running["controls"] as? [String])?.contains("Park Vehicle") == true)
    let last = try #require(updates.last)
    #expect(last["workingSeconds"] as? Double == 13_200)

    // The replayed shift is stored with its timeline: batch --store gives the same figure.
    let replayBatch = CLITestSupport.run(["batch", "--store", replayStore, "--format", "jsonl"])
    #expect(try CLITestSupport.jsonLines(replayBatch.output).first?["meters"] as? Double == figure)
  }

  @Test func importingTheSameContentTwiceIsFlaggedAndSkipped() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let store = files.directory.appendingPathComponent("store.sqlite").path
    #expect(CLITestSupport.run(["import", "--store", store, files.reference]).status == 0)
    // Same bytes under another name.
    let copy = files.directory.appendingPathComponent("copy.csv").path
    try FileManager.default.copyItem(atPath: files.reference, toPath: copy)
    let again = CLITestSupport.run(["import", "--store", store, copy])
    #expect(again.status == 0)
    #expect(
      again.output
        == "\(copy): already stored as shift 1 (same content); skipped. Use --allow-duplicate to import it again.\n")
    let json = CLITestSupport.run(["import", "--store", store, "--json", files.reference])
    let skipped = try #require(try CLITestSupport.jsonLines(json.output).first)
    #expect(skipped["skipped"] as? Bool == true)
    #expect(skipped["duplicateOf"] as? Int == 1)
    #expect(try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--store", store, "--json"]).output).count == 1)
    let allowed = CLITestSupport.run(["import", "--store", store, "--allow-duplicate", copy])
    #expect(allowed.output.contains("→ shift 2"))
    #expect(try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--store", store, "--json"]).output).count == 2)
  }

  @Test func aShiftWithNeitherTimelineNorWindowIsListedAsHavingNoWindow() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let store = files.directory.appendingPathComponent("store.sqlite").path
    #expect(CLITestSupport.run(["import", "--store", store, files.reference]).status == 0)
    let listed = CLITestSupport.run(["shifts", "--store", store])
    #expect(listed.output.contains("no window"))
    #expect(!listed.output.contains("complete"))
    let json = try #require(
      try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--store", store, "--json"]).output).first)
    #expect(json["status"] as? String == "no window")
    #expect(json["window"] is NSNull)
    #expect(json["workingSeconds"] is NSNull)
  }

  @Test func contradictoryOptionsAreUsageErrors() throws {
    let files = try Self.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    #expect(CLITestSupport.run(["measure", "--timeline", files.timeline, "--no-timeline", files.feed]).status == 64)
    #expect(
      CLITestSupport.run([
        "measure", "--timeline", files.timeline, "--shift-start", "2025-11-04T08:00:00Z", "--shift-end",
        "2025-11-04T12:00:00Z", files.feed,
      ]).status == 64)
  }
}
