import Foundation
import RouteFeeds
import RouteMileage
import RouteTestSupport
import Testing

/// A stop with fixes arriving is not a gap in capture (DESIGN, "Stops and overlapping
/// recordings"): the words, the JSON, `--no-filter`, and a true silence beside it.
@Suite("Stops with fixes arriving")
struct StopCommandTests {
  /// 1 Hz, session `a`: 120 s north at 10 m/s (1,200 m), standing still for `stop` seconds
  /// (with fixes every second unless `silent`), then 120 s north at 10 m/s again (1,200 m).
  static func drive(stop: Int = 300, silent: Bool = false) -> [String] {
    let metersPerDegree = 111_195.079_734_63
    var rows: [String] = []
    func row(_ second: Int, _ northMeters: Double) {
      let latitude = 51.5 + northMeters / metersPerDegree
      rows.append("\(CivilTime.iso8601(1_764_403_200 + Double(second))),\(latitude),-0.1,5,a")
    }
    for second in 0...120 { row(second, Double(second) * 10) }
    if !silent { for second in 121...(120 + stop) { row(second, 1_200) } }
    for second in (121 + stop)...(240 + stop) { row(second, 1_200 + Double(second - 120 - stop) * 10) }
    return rows
  }

  static let header = "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n"

  static func measure(_ rows: [String], _ extra: [String] = []) throws -> (text: String, json: [String: Any]) {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try CLITestSupport.write(header + rows.joined(separator: "\n") + "\n", to: "drive.csv", in: directory)
    let human = CLITestSupport.run(["measure", "--explain"] + extra + [path])
    #expect(human.status == 0, "\(human.error)")
    let json = CLITestSupport.run(["measure", "--json"] + extra + [path])
    return (human.output, try CLITestSupport.jsonLines(json.output)[0])
  }

  @Test func aFiveMinuteStopWithFixesArrivingIsAStopNotAGap() throws {
    let (text, json) = try Self.measure(Self.drive())
    #expect(text.contains("  1.5 mi recorded\n"))
    #expect(text.contains("  No capture gaps detected.\n"))
    #expect(
      text.contains(
        "  1 stop of 5m 01s: positions kept arriving while the vehicle stood, so it is not a gap in capture.\n"))
    #expect(!text.contains("partial route"))
    #expect(
      text.contains(
        "  Stops (measured through; not gaps):\n    1. 2025-11-29T08:02:00Z → 2025-11-29T08:07:01Z (5m 01s)\n"))
    // Two stop fixes (08:04:00, 08:06:00) carry continuity: 121 + 2 + 120 positions retained.
    #expect(text.contains("Read 541 records (CSV): 243 retained, 298 rejected (negligible movement 298)."))
    #expect((json["meters"] as? Double).map { ($0 * 10).rounded() / 10 } == 2_400)
    #expect(json["gapCount"] as? Int == 0)
    #expect(json["segmentCount"] as? Int == 1)
    #expect(json["isPartial"] as? Bool == false)
    let stops = try #require(json["stops"] as? [[String: Any]])
    #expect(stops.count == 1)
    #expect(stops[0]["start"] as? String == "2025-11-29T08:02:00Z")
    #expect(stops[0]["end"] as? String == "2025-11-29T08:07:01Z")
    #expect(stops[0]["seconds"] as? Double == 301)
  }

  @Test func aTrueSilenceOfTheSameLengthStaysAGap() throws {
    let (text, json) = try Self.measure(Self.drive(silent: true))
    #expect(text.contains("  1.5 mi recorded · partial route\n"))
    #expect(text.contains("  1 gap in capture was left out; no distance is counted across it.\n"))
    #expect(!text.contains("stop"))
    #expect((json["meters"] as? Double).map { ($0 * 10).rounded() / 10 } == 2_390)
    let gaps = try #require(json["gaps"] as? [[String: Any]])
    #expect(gaps.map { $0["kind"] as? String } == ["silence"])
    #expect((json["stops"] as? [Any])?.isEmpty == true)
  }

  @Test func aStopNoLongerThanTheIntervalKeepsNoStopFix() throws {
    let (text, json) = try Self.measure(Self.drive(stop: 119))
    #expect(text.contains("  No capture gaps detected.\n"))
    #expect(!text.contains("stop"))
    #expect(text.contains("241 retained, 119 rejected (negligible movement 119)"))
    #expect((json["stops"] as? [Any])?.isEmpty == true)
  }

  @Test func withoutTheFilterEveryFixIsKeptSoTheStopIsContinuousByTheIntervalAlone() throws {
    let (text, json) = try Self.measure(Self.drive(), ["--no-filter"])
    #expect(text.contains("  1.5 mi recorded\n"))
    #expect(text.contains("  No capture gaps detected.\n"))
    #expect(!text.contains("stop"))
    #expect((json["meters"] as? Double).map { ($0 * 10).rounded() / 10 } == 2_400)
  }

  @Test func anyOrderOfTheRowsGivesTheSameStopAndFigure() throws {
    let rows = Self.drive()
    let (_, ordered) = try Self.measure(rows)
    var random = SeededRandom(seed: 22)
    for _ in 0..<3 {
      let (_, shuffled) = try Self.measure(rows.shuffled(using: &random))
      #expect(shuffled["meters"] as? Double == ordered["meters"] as? Double)
      #expect(shuffled["details"] as? [String] == ordered["details"] as? [String])
      #expect((shuffled["stops"] as? [[String: Any]])?.first?["seconds"] as? Double == 301)
    }
    let (_, reversed) = try Self.measure(rows.reversed())
    #expect(reversed["meters"] as? Double == ordered["meters"] as? Double)
    #expect(reversed["summary"] as? String == "1.5 mi recorded")
  }
}
