import Foundation
import RouteFeeds
import RouteMilesCLI
import RouteTestSupport
import Testing

/// Paths and runners shared by the CLI tests.
enum CLITestSupport {
  /// The package root.
  static var packageRoot: URL { BuiltProduct.packageRoot }

  /// The built `routemiles` beside the test bundle.
  static var binary: URL { BuiltProduct.url(named: "routemiles") }

  struct ProcessResult {
    var status: Int32
    var output: String
    var error: String
  }

  /// Runs the real binary as a process.
  static func runProcess(
    _ arguments: [String], in directory: URL? = nil, input: Data? = nil, environment: [String: String] = [:]
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(input) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let errData = LockedData()
    let errReader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    errReader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errData.isSet { usleep(1000) }
    return ProcessResult(
      status: process.terminationStatus,
      output: String(decoding: outData, as: UTF8.self),
      error: String(decoding: errData.value, as: UTF8.self))
  }

  /// Runs the tool in process.
  static func run(_ arguments: [String], input: String? = nil) -> (status: Int32, output: String, error: String) {
    let console = CapturingConsole()
    let status: Int32
    if let input {
      status = RouteMilesCLI.run(arguments, console: console, standardInput: MemoryByteSource(input))
    } else {
      status = RouteMilesCLI.run(arguments, console: console)
    }
    return (status, console.output, console.error)
  }

  /// A fresh temporary directory, removed by the caller with `cleanUp`.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("routemiles-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func write(_ text: String, to name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  static func jsonObject(_ line: Substring) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
  }

  static func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { try jsonObject($0) }
  }
}

/// A value written once by another thread.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private var done = false
  func set(_ value: Data) {
    lock.lock()
    data = value
    done = true
    lock.unlock()
  }
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return done
  }
  var value: Data {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}
