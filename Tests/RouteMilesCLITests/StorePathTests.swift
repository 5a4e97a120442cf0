import Foundation
import RouteStore
import Testing

/// What `shifts`, `import` and `batch --store` say about a store path that is missing, a
/// directory or unreadable; and that reading or deleting never creates a file.
@Suite("routemiles: store paths that are missing, directories or unreadable")
struct StorePathTests {
  @Test func aMissingStoreIsCalledMissingAndNeitherListingNorDeletingCreatesIt() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("missing.sqlite").path
    let said =
      "routemiles: the store \(store) does not exist (no such file); `routemiles import --store \(store) FILE` creates it\n"
    for arguments in [
      ["shifts", "--store", store], ["shifts", "--store", store, "--delete", "1"], ["batch", "--store", store],
    ] {
      let result = CLITestSupport.run(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error == said, "\(arguments)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [], "\(arguments) created a file")
    }
    // A missing folder is still named as such.
    let deeper = directory.appendingPathComponent("no-such-folder/s.sqlite").path
    #expect(
      CLITestSupport.run(["shifts", "--store", deeper]).error.hasPrefix(
        "routemiles: cannot open the store \(deeper): its directory does not exist"))
  }

  @Test func aStorePathThatIsADirectoryIsCalledADirectory() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(IntegrityCommandTests.csv(rows: 60), to: "d.csv", in: directory)
    let said = "the store \(directory.path) is a directory, not a store file; give the path of a store file"
    for arguments in [
      ["shifts", "--store", directory.path], ["import", "--store", directory.path, feed],
      ["shifts", "--store", directory.path, "--delete", "1"],
    ] {
      let result = CLITestSupport.run(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error == "routemiles: \(said)\n", "\(arguments)")
    }
    #expect(throws: StoreError(.isADirectory, path: directory.path, systemErrno: EISDIR)) {
      try RouteStore(path: directory.path, access: .readOnly)
    }
  }

  /// As user `nobody` (through `setpriv`, where the machine has it: tests run as root, whom
  /// file modes do not stop), a store file only its owner may read is unreadable, not read-only.
  @Test func aStoreTheUserMayNotReadIsCalledUnreadable() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(IntegrityCommandTests.csv(rows: 60), to: "d.csv", in: directory)
    let store = CLITestSupport.importedStore(feed, named: "s.sqlite", in: directory)
    chmod(store, 0o600)
    chmod(directory.path, 0o755)
    let setpriv = "/usr/bin/setpriv"
    try #require(
      FileManager.default.isExecutableFile(atPath: setpriv) || geteuid() != 0, "needs setpriv to run as another user")
    let binary = directory.appendingPathComponent("routemiles")
    try FileManager.default.copyItem(at: CLITestSupport.binary, to: binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: geteuid() == 0 ? setpriv : binary.path)
    process.arguments =
      (geteuid() == 0 ? ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] : []) + [
        "shifts", "--store", store,
      ]
    if geteuid() != 0 { chmod(store, 0o000) }
    let errors = Pipe()
    process.standardOutput = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(message == "routemiles: cannot read the store \(store): permission denied\n")
  }
}
