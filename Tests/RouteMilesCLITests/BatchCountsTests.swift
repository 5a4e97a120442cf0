import Foundation
import Testing

@testable import RouteMilesCLI

/// `batch`: folders it cannot read, summary counts that add up to the rows, the CSV status column.
@Suite("routemiles batch: unreadable folders, counts, CSV status")
struct BatchCountsTests {
  /// The same through the tool, as user `nobody` (`setpriv`), for whom a 0700 folder of root's is
  /// unreadable.
  @Test func batchExitsOneNamingAnUnreadableFolder() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let locked = directory.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    _ = try CLITestSupport.write(IntegrityCommandTests.csv(rows: 60), to: "a.csv", in: directory)
    _ = try CLITestSupport.write(IntegrityCommandTests.csv(rows: 60), to: "b.csv", in: locked)
    chmod(directory.path, 0o755)
    chmod(locked.path, 0o700)
    let setpriv = "/usr/bin/setpriv"
    try #require(
      geteuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv), "runs as nobody through setpriv")
    let binary = directory.appendingPathComponent("routemiles")
    try FileManager.default.copyItem(at: CLITestSupport.binary, to: binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: setpriv)
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "batch", "--format", "csv", directory.path,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let rows = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(
      message.hasPrefix(
        "routemiles: \(locked.path): cannot read this folder (Permission denied); no file in it was measured\n"))
    #expect(rows.split(separator: "\n").count == 2, "the header and a.csv")
  }

  @Test func summaryCountsAddUpToTheRowsAndTheCSVCarriesTheStatus() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let whole = IntegrityCommandTests.csv(rows: 120)
    _ = try CLITestSupport.write(whole, to: "a.csv", in: directory)
    // Cut off mid-row after 100 rows: measured up to there, truncated.
    let cut =
      whole.split(separator: "\n", omittingEmptySubsequences: false).prefix(101).joined(separator: "\n")
      + "\n2025-11-29T08:0"
    _ = try CLITestSupport.write(cut, to: "b.csv", in: directory)
    _ = try CLITestSupport.write(
      "timestamp,latitude,longitude\n2025-11-29T08:00:00Z,47.0,8.5\n", to: "c.csv", in: directory)
    _ = try CLITestSupport.write("<gpx", to: "d.gpx", in: directory)
    let table = CLITestSupport.run(["batch", directory.path])
    #expect(table.status == 1)
    let rows = table.output.split(separator: "\n").dropFirst().dropLast()
    #expect(rows.count == 4)
    #expect(rows.map { $0.contains("  truncated ") }.filter { $0 }.count == 2, "b.csv and d.gpx")
    #expect(
      table.output.hasSuffix(
        "\n4 shifts: 1 measured (0 partial), 1 unmeasurable, 2 truncated, 0 failed · sum of recorded figures: 1.4 mi\n")
    )

    let csv = CLITestSupport.run(["batch", "--format", "csv", directory.path])
    let lines = csv.output.split(separator: "\n")
    #expect(
      lines[0]
        == "source,format,meters,miles,floor_meters,floor_miles,segments,gaps,usable_positions,inferred_continuity,measured,partial,records,retained,rejected,errors,summary,error,delivered,cancelled,in_progress,delivery_active_seconds,status"
    )
    #expect(
      lines.dropFirst().map { $0.split(separator: ",").last.map(String.init) } == [
        "measured", "truncated", "unmeasurable", "truncated",
      ])
  }
}
