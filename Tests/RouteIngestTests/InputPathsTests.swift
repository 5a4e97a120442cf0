import Foundation
import RouteIngest
import Testing

/// Batch operands expanded into feed files: a folder that cannot be read is named, not skipped.
@Suite("InputPaths")
struct InputPathsTests {
  /// Root reads every folder, so the refusal is injected: a directory opener that refuses one
  /// folder with EACCES, as `opendir` does for a folder the user may not read.
  @Test func aFolderTheWalkCannotReadIsNamedNotSkipped() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "InputPathsTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let locked = directory.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try Data("time,lat,lon\n".utf8).write(to: directory.appendingPathComponent("a.csv"))
    try Data("time,lat,lon\n".utf8).write(to: locked.appendingPathComponent("b.csv"))
    let refusing: InputPaths.DirectoryOpener = { path in
      path == locked.path ? (nil, EACCES) : InputPaths.openDirectory(path)
    }
    let walked = InputPaths.expand([directory.path], open: refusing)
    #expect(walked.paths.map(\.path) == [directory.appendingPathComponent("a.csv").path])
    #expect(
      walked.problems == ["\(locked.path): cannot read this folder (Permission denied); no file in it was measured"])
    // The folder named itself: its refusal, not "no feed file here".
    #expect(
      InputPaths.expand([locked.path], open: refusing).problems == [
        "\(locked.path): cannot read this folder (Permission denied); no file in it was measured"
      ])
  }
}
