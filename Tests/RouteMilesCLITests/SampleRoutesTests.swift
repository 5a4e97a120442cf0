import Foundation
import Testing

/// Every bundled sample drive, measured by the tool, to the metre: the figures
/// `SampleRoutes/README.md` states.
@Suite("SampleRoutes measured by routemiles")
struct SampleRoutesMeasureTests {
  struct Expected: Sendable, CustomTestStringConvertible {
    var file: String
    var meters: Double
    var segments: Int
    var gaps: Int
    var usable: Int
    var inferred: Bool
    var summary: String
    var records: Int
    var rejected: [String: Int]
    var errors: Int
    var reanchored: Int
    var testDescription: String { file }
  }

  static let expected: [Expected] = [
    Expected(
      file: "clean-2h-drive.gpx", meters: 58_437.198, segments: 1, gaps: 0, usable: 5_059, inferred: false,
      summary: "36.3 mi recorded", records: 7_201, rejected: ["negligibleMovement": 2_142], errors: 0, reanchored: 0),
    Expected(
      // Its 7 silences were stops with fixes arriving (the parked lunch, deliveries): 8 stops
      // now, each carried by stop fixes (README, Stops); the 4 session changes stay gaps.
      file: "shift-12h-gaps.gpx", meters: 305_479.520, segments: 5, gaps: 4, usable: 5_309, inferred: false,
      summary: "189.8 mi recorded · partial route", records: 7_970,
      rejected: ["accuracy": 17, "negligibleMovement": 2_641, "speed": 3], errors: 0, reanchored: 0),
    Expected(
      file: "shift-12h-gaps.nmea", meters: 305_479.394, segments: 5, gaps: 4, usable: 5_309, inferred: false,
      summary: "189.8 mi recorded · partial route", records: 7_982,
      rejected: ["accuracy": 17, "negligibleMovement": 2_641, "noFix": 12, "speed": 3], errors: 0, reanchored: 0),
    Expected(
      file: "legacy-no-session.csv", meters: 39_471.424, segments: 2, gaps: 1, usable: 2_835, inferred: true,
      summary: "24.5 mi recorded · partial route", records: 4_441, rejected: ["negligibleMovement": 1_606], errors: 0,
      reanchored: 0),
    Expected(
      // The stop across midnight is a stop (one stop fix), the fix loss a silence.
      file: "fix-loss-midnight.nmea", meters: 27_149.052, segments: 2, gaps: 1, usable: 2_101, inferred: false,
      summary: "16.9 mi recorded · partial route", records: 3_302,
      rejected: ["negligibleMovement": 1_015, "noFix": 185], errors: 1, reanchored: 0),
    Expected(
      // Judged in time order: the 14 late rows are measured in place and the 16 duplicated
      // rows are `duplicate`, so it lands 0.6 m above the domain preview (stored order).
      file: "messy-feed.csv", meters: 35_631.746, segments: 2, gaps: 2, usable: 2_854, inferred: false,
      summary: "22.1 mi recorded · partial route", records: 4_067,
      rejected: ["accuracy": 28, "negligibleMovement": 1_161, "nullIsland": 1, "duplicate": 16, "speed": 7],
      errors: 0, reanchored: 1),
    // Measured with its sidecar, shift-timeline.timeline.jsonl: 179 fixes inside the paused
    // break and 359 inside the parked lunch are counted, not measured.
    Expected(
      file: "shift-timeline.csv", meters: 68_917.307, segments: 3, gaps: 2, usable: 1_153, inferred: false,
      summary: "42.8 mi recorded · partial route", records: 2_161,
      rejected: ["negligibleMovement": 470, "insidePause": 179, "whileParked": 359], errors: 0, reanchored: 0),
    // Measured with its sidecar, shift-deliveries.timeline.jsonl (stacked deliveries and a park
    // 18:10–18:20): 59 fixes while parked are rejected by the timeline, not measured; its three
    // stops at pickups and doors (fixes kept arriving) are stops, not gaps.
    Expected(
      file: "shift-deliveries.csv", meters: 71_788.263, segments: 2, gaps: 1, usable: 627, inferred: false,
      summary: "44.6 mi recorded · partial route", records: 901,
      rejected: ["negligibleMovement": 215, "whileParked": 59],
      errors: 0, reanchored: 0),
  ]

  static let directory = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes")

  @Test(arguments: expected)
  func measuresToTheMetre(_ expected: Expected) throws {
    let path = Self.directory.appendingPathComponent(expected.file).path
    let result = CLITestSupport.run(["measure", "--json", path])
    #expect(result.status == 0, "\(result.error)")
    let json = try CLITestSupport.jsonLines(result.output)[0]
    let meters = try #require(json["meters"] as? Double)
    #expect(abs(meters - expected.meters) < 0.01, "\(expected.file): \(meters) m")
    #expect(json["segmentCount"] as? Int == expected.segments)
    #expect(json["gapCount"] as? Int == expected.gaps)
    #expect(json["usablePositionCount"] as? Int == expected.usable)
    #expect(json["usesInferredContinuity"] as? Bool == expected.inferred)
    #expect(json["summary"] as? String == expected.summary)
    let ingest = try #require(json["ingest"] as? [String: Any])
    #expect(ingest["records"] as? Int == expected.records)
    #expect(ingest["rejected"] as? [String: Int] == expected.rejected)
    #expect(ingest["errors"] as? Int == expected.errors)
    #expect(ingest["reanchored"] as? Int == expected.reanchored)
    let retained = try #require(ingest["retained"] as? Int)
    // Every record is accounted for, the sidecar timeline's refusals as rejections by reason.
    #expect(retained + expected.rejected.values.reduce(0, +) + expected.errors == expected.records)
  }

  @Test func theGPXAndNMEAVersionsOfTheShiftAgree() throws {
    let gpx = try #require(Self.expected.first { $0.file == "shift-12h-gaps.gpx" })
    let nmea = try #require(Self.expected.first { $0.file == "shift-12h-gaps.nmea" })
    // The same drive in two formats: coordinates rounded differently, the same story.
    #expect(abs(gpx.meters - nmea.meters) < 5)
    #expect(gpx.segments == nmea.segments && gpx.gaps == nmea.gaps && gpx.summary == nmea.summary)
  }
}

extension SampleRoutesMeasureTests {
  @Test func theTimelineSampleIsMeasuredWithItsSidecar() throws {
    let path = Self.directory.appendingPathComponent("shift-timeline.csv").path
    let json = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", path]).output)[0]
    let shift = try #require(json["shift"] as? [String: Any])
    #expect(shift["workingSeconds"] as? Double == 9_900)
    #expect(shift["pausedSeconds"] as? Double == 900)
    #expect(shift["parkedSeconds"] as? Double == 1_800)
    let kinds = (json["gaps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    // Two traffic stops longer than 120 s are stops, not silences; the park and the pause are gaps.
    #expect(kinds == ["parked", "pause"])
    #expect((json["stops"] as? [[String: Any]])?.count == 2)
    let ingest = try #require(json["ingest"] as? [String: Any])
    #expect(ingest["positionsInsidePause"] as? Int == 179)
    #expect(ingest["positionsWhileParked"] as? Int == 359)
    // Without it, the same file measures the standing vehicle's jitter and sees no pause.
    let plain = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", "--no-timeline", path]).output)[0]
    #expect(abs((plain["meters"] as? Double ?? 0) - 69_554.278) < 0.01)
    #expect(plain["shift"] == nil)
  }
}

extension SampleRoutesMeasureTests {
  @Test func theDeliveriesSampleReportsItsStackedDeliveriesAndTheSameRoute() throws {
    let path = Self.directory.appendingPathComponent("shift-deliveries.csv").path
    let json = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", path]).output)[0]
    let deliveries = try #require(json["deliveries"] as? [String: Any])
    #expect(deliveries["delivered"] as? Int == 3)
    #expect(deliveries["cancelled"] as? Int == 1)
    #expect(deliveries["inProgress"] as? Int == 0)
    // 17:05–17:52 and 18:00–19:05 of 17:00–19:30.
    #expect(deliveries["activeSeconds"] as? Int == 6_720)
    #expect(deliveries["nonDeliverySeconds"] as? Int == 2_280)
    let offers = try #require(deliveries["offers"] as? [[String: Any]])
    #expect(offers.map { $0["status"] as? String } == ["completed", "cancelled", "completed"])
    let items = try #require(deliveries["items"] as? [[String: Any]])
    #expect(items.map { $0["waitedAtPickupSeconds"] as? Int } == [540, 660, nil, 360])
    #expect(items.map { $0["acceptedToDeliveredSeconds"] as? Int } == [2_160, 2_820, nil, 3_900])
    // The same timeline without its delivery lines: the same route, to the bit.
    let sidecar = try String(
      contentsOfFile: Self.directory.appendingPathComponent("shift-deliveries.timeline.jsonl").path, encoding: .utf8)
    let directory = try CLITestSupport.temporaryDirectory()
    let shiftOnly = try CLITestSupport.write(
      sidecar.split(separator: "\n").filter { !$0.contains("delivery") }.joined(separator: "\n") + "\n",
      to: "shift.jsonl", in: directory)
    let plain = try CLITestSupport.jsonLines(
      CLITestSupport.run(["measure", "--json", "--timeline", shiftOnly, path]).output)[0]
    #expect(plain["meters"] as? Double == json["meters"] as? Double)
    #expect(plain["floorMeters"] as? Double == json["floorMeters"] as? Double)
    #expect(plain["deliveries"] == nil)
  }
}
