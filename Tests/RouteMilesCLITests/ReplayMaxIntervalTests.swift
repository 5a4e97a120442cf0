import Foundation
import Testing

/// `--max-interval` reaches every reader `replay` runs, through the one place the interval is
/// held (issue 17, item 3): an NMEA log's clock starts a new capture session only after a
/// silence longer than the interval given.
@Suite("replay: the maximum interval reaches the NMEA clock")
struct ReplayMaxIntervalTests {
  /// 30 fixes a second apart, a 200 s silence, 30 more; 10 m/s northwards throughout.
  static func log() -> String {
    let seconds = Array(0..<30) + Array(230..<260)
    return seconds.map { second in
      let minutes = 22.0 + Double(second) * 10 / 1852.0
      let time = String(format: "12%02d%02d.00", second / 60, second % 60)
      let body = "GPRMC,\(time),A,47\(String(format: "%09.6f", minutes)),N,00833.0000,E,19.4,0.0,010524,,,A"
      return "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
    }.joined()
  }

  @Test func aSilenceShorterThanTheIntervalGivenIsNoGap() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(Self.log(), to: "silence.nmea", in: directory)
    let measured = try CLITestSupport.jsonLines(
      CLITestSupport.run(["measure", "--json", "--max-interval", "300", feed]).output)[0]
    #expect(measured["segmentCount"] as? Int == 1)
    #expect(measured["gapCount"] as? Int == 0)
    let replay = CLITestSupport.run(["replay", "--speed", "max", "--json", "--max-interval", "300", feed])
    #expect(replay.status == 0, "\(replay.error)")
    let lines = try CLITestSupport.jsonLines(replay.output)
    let update = try #require(lines.last { $0["type"] as? String == "update" })
    #expect(update["segmentCount"] as? Int == 1)
    #expect(update["gapCount"] as? Int == 0)
    let end = try #require(lines.last)
    #expect(end["identical"] as? Bool == true)
    #expect(end["finalLine"] as? String == measured["summary"] as? String)
  }
}
