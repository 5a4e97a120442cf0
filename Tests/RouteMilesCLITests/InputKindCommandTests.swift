import Foundation
import RouteTestSupport
import Testing

/// What the commands say about input that is not a feed, and about standard input given twice.
@Suite struct InputKindCommandTests {
  @Test func anEmptyFileSaysSoAndExitsOne() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    let empty = try CLITestSupport.write("", to: "empty.csv", in: directory)
    let result = CLITestSupport.run(["measure", empty])
    #expect(result.status == 1)
    #expect(
      result.output == """
        \(empty)
          No route recorded
          No usable position was recorded, so no distance could be measured.
          Not measured: the file is empty: it holds no bytes, so nothing was recorded in it (or it was not copied or downloaded whole).
          Read 0 records (empty file): 0 retained, 0 rejected.

        """)
    #expect(
      result.error
        == "routemiles: \(empty): the file is empty: it holds no bytes, so nothing was recorded in it (or it was not copied or downloaded whole)\n"
    )
    let piped = CLITestSupport.run(["measure", "-"], input: "")
    #expect(piped.status == 1)
    #expect(piped.output.contains("Read 0 records (empty file)"))
  }

  @Test func standardInputGivenTwiceIsAUsageError() {
    for command in ["measure", "batch", "import"] {
      let result = CLITestSupport.run([command, "-", "-"], input: "timestamp,latitude,longitude\n")
      #expect(result.status == 64, "\(command)")
      #expect(
        result.error.hasPrefix("routemiles: standard input ('-') is given more than once; it can be read only once\n"),
        "\(command)")
    }
  }

  @Test func aGzippedFeedPicksUpTheSidecarTimelineOfTheFeedInside() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    var csv = "timestamp,latitude,longitude\n"
    for minute in 0..<30 {
      csv += "2025-11-04T08:\(minute < 10 ? "0" : "")\(minute):00Z,\(51.5 + Double(minute) * 0.001),-0.12\n"
    }
    let feed = directory.appendingPathComponent("drive.csv.gz")
    try Data(Gzip.compress(Array(csv.utf8))).write(to: feed)
    _ = try CLITestSupport.write(
      "{\"at\": \"2025-11-04T08:00:00Z\", \"event\": \"start\"}\n{\"at\": \"2025-11-04T08:20:00Z\", \"event\": \"end\"}\n",
      to: "drive.timeline.jsonl", in: directory)
    let result = CLITestSupport.run(["measure", feed.path])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("  Shift 2025-11-04T08:00:00Z – 2025-11-04T08:20:00Z: working time 20m 00s"))
    #expect(result.output.contains("9 rejected (outside shift 9)"))
  }
}
