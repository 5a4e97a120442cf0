import Foundation
import RouteTestSupport
import Testing

/// A file stored newest-first or shuffled gives exactly the figure of its in-order twin, with
/// the filter on, in every command that reads recorded files (issue 14).
@Suite("Recorded files in any order, through the tool")
struct TimeOrderCLITests {
  /// 900 fixes 2 s apart along a road, with GPS noise: about 6 mi, a few dozen parked fixes.
  static let rows: [String] = {
    var random = SeededRandom(seed: 14)
    func unit() -> Double { random.unit() }
    var latitude = 51.5
    var longitude = -0.12
    return (0..<900).map { index in
      let parked = (300..<340).contains(index)
      if !parked {
        latitude += 0.0001 * cos(Double(index) / 50)
        longitude += 0.00015 * sin(Double(index) / 70) + 0.0001
      }
      let time = 1_764_403_200 + index * 2
      return String(format: "%d,%.6f,%.6f,8", time, latitude + 0.00002 * unit(), longitude + 0.00002 * unit())
    }
  }()

  static let header = "timestamp,latitude,longitude,accuracy\n"
  static func csv(_ rows: [String]) -> String { header + rows.joined(separator: "\n") + "\n" }

  static var shuffled: [String] {
    var rows = rows
    // A fixed permutation: every 7th row to the front, the rest reversed.
    let front = stride(from: 0, to: rows.count, by: 7).map { rows[$0] }
    rows = rows.enumerated().filter { $0.offset % 7 != 0 }.map(\.element).reversed()
    return front + rows
  }

  /// The fields that make a figure and its account, without the file name.
  static func figure(_ json: [String: Any]) -> String {
    let keys = [
      "meters", "miles", "summary", "segmentCount", "gapCount", "usablePositionCount", "isPartial", "rejectedByReason",
    ]
    return keys.map { "\($0)=\(json[$0].map { "\($0)" } ?? "nil")" }.joined(separator: " ")
  }

  static func files() throws -> (directory: URL, inOrder: String, newestFirst: String, shuffled: String) {
    let directory = try CLITestSupport.temporaryDirectory()
    let inOrder = try CLITestSupport.write(csv(rows), to: "in-order.csv", in: directory)
    let newestFirst = try CLITestSupport.write(csv(rows.reversed()), to: "newest-first.csv", in: directory)
    let shuffled = try CLITestSupport.write(csv(shuffled), to: "shuffled.csv", in: directory)
    return (directory, inOrder, newestFirst, shuffled)
  }

  @Test func measureGivesTheInOrderFigureForNewestFirstAndShuffledFiles() throws {
    let (directory, inOrder, newestFirst, shuffled) = try Self.files()
    defer { try? FileManager.default.removeItem(at: directory) }
    let expected = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", inOrder]).output)[0]
    #expect((expected["meters"] as? Double ?? 0) > 9000)
    #expect(expected["isMeasured"] as? Bool == true)
    for path in [newestFirst, shuffled] {
      let result = CLITestSupport.run(["measure", "--json", path])
      #expect(result.status == 0)
      #expect(Self.figure(try CLITestSupport.jsonLines(result.output)[0]) == Self.figure(expected), "\(path)")
    }
    // From a pipe, which cannot be read twice: sorted from the start, the same figure.
    let piped = try CLITestSupport.runProcess(
      ["measure", "--json", "-"], input: Data(Self.csv(Self.rows.reversed()).utf8))
    #expect(piped.status == 0, "\(piped.error)")
    #expect(Self.figure(try CLITestSupport.jsonLines(piped.output)[0]) == Self.figure(expected))
  }

  @Test func batchGivesTheInOrderFigureOnEveryRow() throws {
    let (directory, inOrder, newestFirst, shuffled) = try Self.files()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = CLITestSupport.run(["batch", "--format", "jsonl", "--jobs", "2", inOrder, newestFirst, shuffled])
    #expect(result.status == 0, "\(result.error)")
    let lines = try CLITestSupport.jsonLines(result.output)
    #expect(lines.count == 3)
    #expect(Set(lines.map(Self.figure)).count == 1)
  }

  @Test func importStoresTheSameRowsAndFigureWhateverTheOrder() throws {
    let (directory, inOrder, newestFirst, shuffled) = try Self.files()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("store.sqlite").path
    // A batch size of 64 commits batches before the first pass meets a row out of order, so
    // the restart has rows to delete.
    let imported = CLITestSupport.run([
      "import", "--store", store, "--json", "--batch-size", "64", inOrder, newestFirst, shuffled,
    ])
    #expect(imported.status == 0, "\(imported.error)")
    let figures = try CLITestSupport.jsonLines(imported.output).map(Self.figure)
    #expect(figures.count == 3)
    #expect(Set(figures).count == 1)
    let measured = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", inOrder]).output)[0]
    let stored = try CLITestSupport.jsonLines(
      CLITestSupport.run(["batch", "--store", store, "--format", "jsonl"]).output)
    #expect(stored.count == 3)
    for shift in stored {
      #expect(shift["meters"] as? Double == measured["meters"] as? Double)
      #expect(shift["usablePositionCount"] as? Int == measured["usablePositionCount"] as? Int)
    }
  }

  @Test func pipeJudgesARecordsSamplesInTimeOrderWithTheFilter() throws {
    func record(_ rows: [String]) -> String {
      let samples = rows.map { row -> String in
        let cells = row.split(separator: ",")
        return #"{"t":\#(cells[0]),"lat":\#(cells[1]),"lon":\#(cells[2]),"acc":\#(cells[3])}"#
      }
      return #"{"id":1,"samples":[\#(samples.joined(separator: ","))]}"#
    }
    let expected = CLITestSupport.run(["pipe", "--filter"], input: record(Self.rows) + "\n")
    let json = try CLITestSupport.jsonLines(expected.output)[0]
    #expect((json["meters"] as? Double ?? 0) > 9000)
    for rows in [Self.rows.reversed(), Self.shuffled] {
      let result = CLITestSupport.run(["pipe", "--filter"], input: record(rows) + "\n")
      #expect(result.output == expected.output)
    }
    // A record naming a file measures it as `measure` does.
    let (directory, _, newestFirst, _) = try Self.files()
    defer { try? FileManager.default.removeItem(at: directory) }
    let byPath = CLITestSupport.run(["pipe", "--filter"], input: #"{"id":1,"path":"\#(newestFirst)"}"# + "\n")
    #expect(Self.figure(try CLITestSupport.jsonLines(byPath.output)[0]) == Self.figure(json))
  }

  @Test func replayPlaysARecordedFileInTheOrderItWouldHaveArrived() throws {
    let (directory, inOrder, newestFirst, _) = try Self.files()
    defer { try? FileManager.default.removeItem(at: directory) }
    func end(_ path: String) throws -> [String: Any] {
      let result = CLITestSupport.run(["replay", "--speed", "max", "--json", path])
      #expect(result.status == 0, "\(result.error)")
      return try #require(try CLITestSupport.jsonLines(result.output).last)
    }
    let a = try end(inOrder)
    let b = try end(newestFirst)
    #expect((a["finalMeters"] as? Double ?? 0) > 9000)
    #expect(a["finalMeters"] as? Double == b["finalMeters"] as? Double)
    #expect(b["identical"] as? Bool == true)
  }
}
