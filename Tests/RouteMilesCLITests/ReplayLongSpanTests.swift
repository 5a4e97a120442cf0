import Foundation
import RouteStore
import Testing

/// `replay` on feeds spanning days or years, and Ctrl-C during `replay --store`.
@Suite("routemiles replay: long spans, idle time, Ctrl-C")
struct ReplayLongSpanTests {
  /// Six fixes, each `days` days after the one before, 1 km apart, as CSV.
  static func sparseFixes(daysApart days: Int) -> String {
    var text = "time,latitude,longitude\n"
    for index in 0..<6 {
      let seconds = 1_551_441_600 + index * days * 86_400  // 2019-03-01T12:00:00Z
      text += "\(seconds),\(51.5 + Double(index) * 0.009),-0.1\n"
    }
    return text
  }

  @Test func maxSpeedSkipsIdleTimeOnAFeedWithDaysBetweenFixes() throws {
    try CLITestSupport.withFeed(Self.sparseFixes(daysApart: 1), named: "days.csv") { _, feed in
      let result = CLITestSupport.run(["replay", "--speed", "max", "--json", feed])
      #expect(result.status == 0, "\(result.error)")
      let lines = try CLITestSupport.jsonLines(result.output)
      let updates = lines.filter { $0["type"] as? String == "update" }
      // The first fix: its count at the next refresh (2 s), its batch's figure at the refresh
      // after the batch (6 s); each later fix lands on a refresh tick (whole days are multiples
      // of 2 s and 5 s) and shows once; then the shift ends. Every 2 s of 5 days would be 216,000.
      #expect(updates.count == 8)
      #expect(
        updates.map { $0["shiftSeconds"] as? Double } == [2, 6, 86_400, 172_800, 259_200, 345_600, 432_000, 432_000])
      #expect(lines.last?["type"] as? String == "end")
      #expect(lines.last?["shiftSeconds"] as? Double == 432_000)
    }
  }

  @Test func aFeedSpanningYearsIsRefusedUnlessAskedAndThenFinishesQuickly() throws {
    try CLITestSupport.withFeed(Self.sparseFixes(daysApart: 365), named: "years.csv") { directory, feed in
      let store = directory.appendingPathComponent("r.sqlite").path
      let refused = CLITestSupport.run(["replay", "--speed", "max", "--json", "--store", store, feed])
      #expect(refused.status == 1)
      #expect(refused.output == "")
      #expect(
        refused.error
          == "routemiles: \(feed): its positions span 1825.0 days (first to last); a replay plays one shift, of at most 7 days: give --allow-long-span to replay it all\n"
      )
      #expect(try RouteStore(path: store, access: .readOnly).shifts().isEmpty, "nothing is stored")

      let started = Date()
      let result = CLITestSupport.run(["replay", "--speed", "max", "--json", "--allow-long-span", feed])
      #expect(result.status == 0, "\(result.error)")
      #expect(Date().timeIntervalSince(started) < 10)
      let updates = try CLITestSupport.jsonLines(result.output).filter { $0["type"] as? String == "update" }
      // 2 for the first fix, 1 for each of the 5 others, 1 when the shift ends.
      #expect(updates.count == 8)
      #expect(updates.last?["shiftSeconds"] as? Double == Double(5 * 365 * 86_400))
    }
  }

  @Test func ctrlCDuringAStoredReplayExits130AndLeavesTheShiftInterrupted() throws {
    let feed = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes/clean-2h-drive.gpx").path
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("replay.sqlite").path
    let process = Process()
    process.executableURL = CLITestSupport.binary
    // 2 hours at 600×: 12 s, stopped after about one.
    process.arguments = ["replay", "--speed", "600", "--json", "--store", store, feed]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    var stored = 0
    for _ in 0..<200 where stored < 100 {
      usleep(50_000)
      stored = (try? RouteStore(path: store, access: .readOnly).shifts().first?.sampleCount) ?? 0
    }
    kill(process.processIdentifier, SIGINT)
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    let end = try #require(try CLITestSupport.jsonLines(text).last)
    #expect(end["type"] as? String == "end")
    #expect(end["interrupted"] as? Bool == true)
    let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
    #expect(listed.count == 1)
    #expect(listed.first?["status"] as? String == "interrupted")
    #expect(listed.first?["isPartial"] as? Bool == true)
    #expect(listed.first?["end"] is NSNull, "nothing says the shift was over")
    let samples = try #require(listed.first?["samples"] as? Int)
    #expect(samples >= 100 && samples < 5_000, "\(samples) of the drive's 5,059 retained samples")
    #expect(
      (listed.first?["details"] as? [String] ?? []).contains {
        $0.hasPrefix("This shift's import stopped before the end of its feed")
      })
  }
}
