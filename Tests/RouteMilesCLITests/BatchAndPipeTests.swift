import Foundation
import RouteTestSupport
import Testing

/// `routemiles batch` and `routemiles pipe`.
@Suite("routemiles batch and pipe")
struct BatchAndPipeTests {
  static var acceptance: URL { get throws { try Fixtures.acceptanceFolder() } }

  @Test func outputIsInInputOrderWhateverTheJobs() throws {
    let one = CLITestSupport.run(["batch", "--jobs", "1", "--no-filter", "--format", "jsonl", try Self.acceptance.path])
    let two = CLITestSupport.run(["batch", "--jobs", "2", "--no-filter", "--format", "jsonl", try Self.acceptance.path])
    let four = CLITestSupport.run([
      "batch", "--jobs", "4", "--no-filter", "--format", "jsonl", try Self.acceptance.path,
    ])
    #expect(one.status == 0)
    #expect(one.output == two.output)
    #expect(one.output == four.output)
    let sources = try CLITestSupport.jsonLines(one.output).map {
      ($0["source"] as? String ?? "").split(separator: "/").last.map(String.init)
    }
    #expect(sources == sources.sorted { ($0 ?? "") < ($1 ?? "") }, "a directory's files in path order")
    #expect(sources.count == 11)
    #expect(one.error.contains("11 shifts:"), "with jsonl the summary goes to standard error")
  }

  @Test func tableSummaryNeverSaysTotal() throws {
    let result = CLITestSupport.run(["batch", "--no-filter", try Self.acceptance.path])
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n")
    #expect(lines.first?.contains("miles") == true)
    let summary = try #require(lines.last.map(String.init))
    #expect(
      summary.hasPrefix("11 shifts: 8 measured (5 partial), 3 unmeasurable, 0 failed · sum of recorded figures: "))
    #expect(!result.output.lowercased().contains("total"))
    #expect(lines.contains { $0.contains("unmeasurable") && $0.hasSuffix("c12_empty.csv") })
  }

  @Test func oneBadFileNeverStopsTheBatch() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = try String(contentsOf: Self.acceptance.appendingPathComponent("c01_one_session.csv"), encoding: .utf8)
    _ = try CLITestSupport.write(good, to: "a.csv", in: directory)
    _ = try CLITestSupport.write("<gpx><trk><trkseg></wrong>", to: "b.gpx", in: directory)
    _ = try CLITestSupport.write(good, to: "c.csv", in: directory)
    _ = try CLITestSupport.write("not a feed", to: "notes.md", in: directory)
    let result = CLITestSupport.run(["batch", directory.path, "--format", "csv"])
    #expect(result.status == 1)
    let rows = result.output.split(separator: "\n")
    #expect(rows.count == 4, "a header and three rows; notes.md is not a feed extension")
    #expect(rows[0].hasPrefix("source,format,meters,miles,floor_meters,floor_miles,segments,gaps"))
    #expect(rows[2].contains("b.gpx") && rows[2].contains("malformed"))
    #expect(rows[1].contains("a.csv") && rows[3].contains("c.csv"))
    #expect(result.error.contains("b.gpx:1: malformed document"))
    // Reading b.gpx stopped at its line 1: it is truncated there (nothing measured), not lost.
    #expect(result.error.contains("3 shifts: 2 measured (0 partial), 0 unmeasurable, 1 truncated, 0 failed"))
  }

  @Test func globsAreExpandedAndUnmatchedOnesReported() throws {
    let pattern = try Self.acceptance.path + "/c0*.csv"
    let result = CLITestSupport.run(["batch", "--no-filter", "--format", "jsonl", pattern])
    #expect(result.status == 0)
    #expect(result.output.split(separator: "\n").count == 6)
    let none = CLITestSupport.run(["batch", try Self.acceptance.path + "/zz*.gpx"])
    #expect(none.status == 1)
    #expect(none.error.contains("no file matches this pattern"))
  }

  @Test func progressGoesToStandardErrorOnlyWhenAskedOrOnATerminal() throws {
    let quiet = CLITestSupport.run(["batch", "--no-filter", try Self.acceptance.path])
    #expect(!quiet.error.contains("files ·"))
    let forced = CLITestSupport.run(["batch", "--no-filter", "--progress", try Self.acceptance.path])
    // 11 feeds and expected.json, which the walk takes (`.json`, for Google location history)
    // and skips with a note: it is not a feed.
    #expect(forced.error.contains("12/12 files · "))
    let folder = try Self.acceptance.path
    #expect(forced.error.contains("skipped \(folder)/expected.json"))
    #expect(forced.error.contains("positions/s · ETA"))
    #expect(forced.output == quiet.output)
  }

  // MARK: pipe

  @Test func pipeAnswersEveryRecordInOrderAndCarriesOnAfterABadOne() throws {
    let records = [
      #"{"id":"s1","samples":[{"t":"2025-11-29T08:00:00Z","lat":0.5,"lon":-160,"session":"a"},{"t":"2025-11-29T08:00:05Z","lat":0.5004,"lon":-160,"session":"a"}]}"#,
      "this is not json",
      #"{"id":2,"shiftStart":"2025-11-29T07:00:00Z","shiftEnd":1764406800,"samples":[{"t":1764403200,"lat":0.5,"lon":-160},{"t":1764403210,"lat":0.5009,"lon":-160}]}"#,
      #"{"samples":[]}"#,
      #"{"id":"p","path":"\#(try Self.acceptance.appendingPathComponent("c02_session_change.csv").path)"}"#,
    ]
    let result = CLITestSupport.run(["pipe"], input: records.joined(separator: "\n") + "\n")
    #expect(result.status == 0)
    let lines = try CLITestSupport.jsonLines(result.output)
    #expect(lines.count == 5, "one result line per record")
    #expect(lines[0]["id"] as? String == "s1")
    #expect(abs((lines[0]["meters"] as? Double ?? 0) - 44.48) < 0.01)
    #expect(lines[0]["format"] as? String == "samples")
    #expect(lines[1]["id"] is NSNull)
    #expect((lines[1]["error"] as? String)?.contains("line 2") == true)
    #expect(lines[1]["error"] as? String == "record on line 2: invalid JSON: expected a value at byte offset 0")
    #expect(lines[2]["id"] as? Int == 2)
    #expect(lines[2]["usesInferredContinuity"] as? Bool == true)
    #expect((lines[2]["gaps"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["windowStart", "windowEnd"])
    #expect((lines[3]["error"] as? String)?.contains("\"id\"") == true)
    #expect(lines[4]["gapCount"] as? Int == 1)
  }

  @Test func pipeIsPermutationInvariantAndStrictStops() throws {
    var rows = (0..<40).map { index in
      #"{"t":\#(1_764_403_200 + index * 3),"lat":\#(0.5 + Double(index) * 0.0002),"lon":-160,"session":"\#(index < 20 ? "x" : "y")"}"#
    }
    let forward = #"{"id":1,"samples":[\#(rows.joined(separator: ","))]}"#
    rows.reverse()
    rows.swapAt(3, 17)
    let shuffled = #"{"id":1,"samples":[\#(rows.joined(separator: ","))]}"#
    let a = CLITestSupport.run(["pipe"], input: forward + "\n")
    let b = CLITestSupport.run(["pipe"], input: shuffled + "\n")
    #expect(a.output == b.output)
    #expect(try CLITestSupport.jsonLines(a.output)[0]["gapCount"] as? Int == 1)

    let strict = CLITestSupport.run(["pipe", "--strict"], input: forward + "\nnope\n" + forward + "\n")
    #expect(strict.status == 1)
    #expect(strict.output.split(separator: "\n").count == 1)
    #expect(strict.error.contains("line 2"))
  }

  @Test func pipeFilterIsOptInAndRecordsAreBounded() throws {
    let record = #"{"id":1,"samples":[{"t":0,"lat":0,"lon":0},{"t":1,"lat":0.00001,"lon":0}]}"#
    let stored = try CLITestSupport.jsonLines(CLITestSupport.run(["pipe"], input: record).output)[0]
    #expect(stored["isMeasured"] as? Bool == true, "historical rows: no filter by default")
    let filtered = try CLITestSupport.jsonLines(CLITestSupport.run(["pipe", "--filter"], input: record).output)[0]
    #expect((filtered["rejectedByReason"] as? [String: Int])?["nullIsland"] == 1)
    #expect(CLITestSupport.run(["pipe", "--max-speed", "10"], input: record).status == 64)
    let keepWithoutFilter = CLITestSupport.run(["pipe", "--keep-null-island"], input: record)
    #expect(keepWithoutFilter.status == 64)
    #expect(keepWithoutFilter.error.contains("'--keep-null-island' sets a capture filter rule; pass --filter"))
    let kept = try CLITestSupport.jsonLines(
      CLITestSupport.run(["pipe", "--filter", "--keep-null-island"], input: record).output)[0]
    #expect((kept["rejectedByReason"] as? [String: Int])?["nullIsland"] == nil)
    let long = #"{"id":1,"samples":[\#(String(repeating: #"{"t":0,"lat":0,"lon":0},"#, count: 100))]}"#
    let bounded = try CLITestSupport.jsonLines(
      CLITestSupport.run(["pipe", "--max-record-bytes", "200"], input: long + "\n" + record).output)
    #expect(bounded.count == 2)
    #expect((bounded[0]["error"] as? String)?.contains("longer than 200 bytes") == true)
    #expect(bounded[1]["isMeasured"] as? Bool == true)
  }
}
