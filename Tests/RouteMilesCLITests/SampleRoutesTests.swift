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
      file: "shift-12h-gaps.gpx", meters: 305_409.907, segments: 12, gaps: 11, usable: 5_306, inferred: false,
      summary: "189.8 mi recorded · partial route", records: 7_970,
      rejected: ["accuracy": 17, "negligibleMovement": 2_644, "speed": 3], errors: 0, reanchored: 0),
    Expected(
      file: "shift-12h-gaps.nmea", meters: 305_408.648, segments: 12, gaps: 11, usable: 5_305, inferred: false,
      summary: "189.8 mi recorded · partial route", records: 7_982,
      rejected: ["accuracy": 17, "negligibleMovement": 2_645, "noFix": 12, "speed": 3], errors: 0, reanchored: 0),
    Expected(
      file: "legacy-no-session.csv", meters: 39_471.424, segments: 2, gaps: 1, usable: 2_835, inferred: true,
      summary: "24.5 mi recorded · partial route", records: 4_441, rejected: ["negligibleMovement": 1_606], errors: 0,
      reanchored: 0),
    Expected(
      file: "fix-loss-midnight.nmea", meters: 27_142.381, segments: 3, gaps: 2, usable: 2_100, inferred: false,
      summary: "16.9 mi recorded · partial route", records: 3_302,
      rejected: ["negligibleMovement": 1_016, "noFix": 185], errors: 1, reanchored: 0),
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
      file: "shift-timeline.csv", meters: 68_866.456, segments: 5, gaps: 4, usable: 1_151, inferred: false,
      summary: "42.8 mi recorded · partial route", records: 2_161,
      rejected: ["negligibleMovement": 472, "insidePause": 179, "whileParked": 359], errors: 0, reanchored: 0),
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
    #expect(kinds == ["silence", "parked", "silence", "pause"])
    let ingest = try #require(json["ingest"] as? [String: Any])
    #expect(ingest["positionsInsidePause"] as? Int == 179)
    #expect(ingest["positionsWhileParked"] as? Int == 359)
    // Without it, the same file measures the standing vehicle's jitter and sees no pause.
    let plain = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", "--no-timeline", path]).output)[0]
    #expect(abs((plain["meters"] as? Double ?? 0) - 69_449.935) < 0.01)
    #expect(plain["shift"] == nil)
  }
}
