import Foundation
import RouteMileage
import RouteTestSupport
import Testing

/// Where a user sees the floor: `measure` (JSON, words, `--explain`), `batch`, stored shifts and
/// `replay`, on a generated drive whose floor is known to the centimetre.
@Suite("The floor in every command")
struct FloorOutputTests {
  /// Two sessions of 300 fixes 10 m apart, accuracy 8 m (radius 10.8 m): every other fix lies
  /// within the radius of the one before and is skipped, and the last walked one (2,980 m) has
  /// no successor to corroborate it, so each segment's floor is the chord to the fix at
  /// 2,960 m on the sphere (2,943.5 m on the WGS84 ellipsoid, whose meridian radius at the
  /// equator is 0.56 % shorter), less 10.8 m at each end.
  static let segmentFloor = WGS84Geodesic.meters(0.5, -160, 0.5 + 296 * 10 / 111_195.080_2, -160) - 21.6
  static let floor = 2 * segmentFloor

  static func feed(in directory: URL) throws -> String {
    try CLITestSupport.write(StoreCommandTests.drive(count: 600, breakAfter: 300), to: "drive.csv", in: directory)
  }

  @Test func measureJSONCarriesTheFloorOverallAndPerSegment() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = CLITestSupport.run(["measure", "--json", try Self.feed(in: directory)])
    #expect(result.status == 0)
    let json = try CLITestSupport.jsonLines(result.output)[0]
    let meters = try #require(json["meters"] as? Double)
    let floor = try #require(json["floorMeters"] as? Double)
    #expect(abs(meters - 5_980) < 0.05)
    #expect(abs(floor - Self.floor) < 0.05)
    #expect(abs((json["floorMiles"] as? Double ?? 0) - floor / 1_609.344) < 1e-12)
    let segments = try #require(json["segments"] as? [[String: Any]])
    #expect(segments.count == 2)
    for segment in segments {
      #expect(abs((segment["floorMeters"] as? Double ?? 0) - Self.segmentFloor) < 0.05)
      #expect(
        abs((segment["floorMiles"] as? Double ?? 0) - (segment["floorMeters"] as? Double ?? 0) / 1_609.344) < 1e-12)
    }
    #expect(
      json["floorSummary"] as? String
        == "At least 3.6 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid)."
    )
  }

  @Test func humanReportAndExplainSayTheFloorAndTheJitterBound() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try Self.feed(in: directory)
    let plain = CLITestSupport.run(["measure", feed]).output
    #expect(
      plain.contains(
        "\n  At least 3.6 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid).\n"
      ))
    #expect(!plain.contains("jitter"))
    let explained = CLITestSupport.run(["measure", "--explain", feed]).output
    #expect(
      explained.contains(
        "\n  At most 0.1 mi of the recorded figure can be jitter: the recorded figure less what the positions prove.\n")
    )
    // `segmentFloor` to one decimal.
    #expect(explained.contains("positions, 2,990.0 m (at least 2,921.9 m proven)"))
  }

  @Test func batchStoredShiftsAndReplayCarryTheSameOnePassFloor() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try Self.feed(in: directory)
    let measured = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", feed]).output)[0]
    let floor = try #require(measured["floorMeters"] as? Double)

    let csv = CLITestSupport.run(["batch", "--format", "csv", feed]).output.split(separator: "\n")
    #expect(csv[0].hasPrefix("source,format,meters,miles,floor_meters,floor_miles,segments"))
    let fields = csv[1].split(separator: ",", omittingEmptySubsequences: false)
    #expect(Double(String(fields[4])) == floor)
    #expect(abs((Double(String(fields[5])) ?? 0) - floor / 1_609.344) < 1e-12)

    let table = CLITestSupport.run(["batch", feed]).output.split(separator: "\n")
    #expect(table[0].hasPrefix("   miles  floor mi  segments"))
    #expect(table[1].hasPrefix("     3.7       3.6         2"))

    let store = directory.appendingPathComponent("shifts.sqlite").path
    #expect(CLITestSupport.run(["import", "--store", store, feed]).status == 0)
    let shifts = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
    #expect(shifts.first?["floorMeters"] as? Double == floor)
    let listed = CLITestSupport.run(["shifts", "--store", store]).output
    #expect(listed.contains("3.7 mi recorded · partial route · at least 3.6 mi proven"))
    let stored = CLITestSupport.run(["batch", "--format", "csv", "--store", store]).output.split(separator: "\n")
    #expect(Double(String(stored[1].split(separator: ",", omittingEmptySubsequences: false)[4])) == floor)
    // A stored shift's format column names the store, as its JSON does, not "csv".
    #expect(stored[1].split(separator: ",", omittingEmptySubsequences: false)[1] == "store")

    let replayStore = directory.appendingPathComponent("replay.sqlite").path
    let replay = CLITestSupport.run(["replay", "--speed", "max", "--json", "--store", replayStore, feed])
    #expect(replay.status == 0, "\(replay.error)")
    let end = try #require(try CLITestSupport.jsonLines(replay.output).last)
    #expect(end["type"] as? String == "end")
    #expect(end["liveFloorMeters"] as? Double == floor)
    #expect(end["finalFloorMeters"] as? Double == floor)
  }
}
