import Foundation
import RouteTestSupport
import Testing

/// The gate through the real `RouteBenchmarks` binary, on its quickest scenario
/// (`store-extend --quick`, one scale-free metric): `--json` puts one JSON document alone on
/// standard output, and `--baseline` exits 0, 1 or 2 whatever the baseline's formatting.
@Suite(.serialized) struct RouteBenchmarksGateProcessTests {
  static var binary: URL { BuiltProduct.url(named: "RouteBenchmarks") }

  /// Runs the benchmark, its two streams captured in files (no pipe can fill up).
  static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String, error: String) {
    let outURL = directory.appendingPathComponent("out-\(UUID().uuidString)")
    let errURL = directory.appendingPathComponent("err-\(UUID().uuidString)")
    #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8),
      try String(contentsOf: errURL, encoding: .utf8)
    )
  }

  static func baseline(liveRefreshFlatness value: Double, pretty: Bool, name: String = "live refresh p50 24h/1h") throws
    -> String
  {
    let document: [String: Any] = [
      "mode": "quick",
      "metrics": [
        ["scenario": "store-extend", "name": name, "value": value, "higherIsBetter": false, "scaleFree": true]
      ],
      "targets": [],
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: pretty ? [.prettyPrinted] : [])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func jsonAloneOnStandardOutputAndTheGateDecides() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func write(_ text: String, _ name: String) throws -> String {
      let url = directory.appendingPathComponent(name)
      try text.write(to: url, atomically: true, encoding: .utf8)
      return url.path
    }

    // A generous baseline (the run's flatness is far below 1000): passes, on one line.
    let oneLine = try write(try Self.baseline(liveRefreshFlatness: 1000, pretty: false), "one-line.json")
    let passed = try Self.run(["--quick", "--json", "--baseline", oneLine, "store-extend"], in: directory)
    #expect(passed.status == 0, "\(passed.error)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(passed.output.utf8)) as? [String: Any])
    #expect(document["mode"] as? String == "quick")
    let metrics = try #require(document["metrics"] as? [[String: Any]])
    #expect(metrics.contains { $0["name"] as? String == "live refresh p50 24h/1h" })
    #expect(passed.error.contains("RouteBenchmarks --quick"), "the human table goes to standard error")
    // The table ends with the targets missed, or says every one was met.
    let targets = passed.error.components(separatedBy: "\n").filter { $0.hasPrefix("  target: ") }
    let missed = targets.filter { $0.hasSuffix(" — NOT met") }
    #expect(!targets.isEmpty)
    if missed.isEmpty {
      #expect(passed.error.contains("\ntargets: all \(targets.count) met\n"))
    } else {
      #expect(passed.error.contains("\ntargets NOT met: \(missed.count) of \(targets.count)\n"))
    }
    #expect(passed.error.contains("1 scale-free metric compared, none regressed beyond 10.0%"))

    // A planted regression (the baseline says 0.001, the run is hundreds of times that),
    // pretty-printed: fails with status 1.
    let planted = try write(try Self.baseline(liveRefreshFlatness: 0.001, pretty: true), "planted.json")
    let regressed = try Self.run(["--quick", "--baseline", planted, "store-extend"], in: directory)
    #expect(regressed.status == 1, "\(regressed.output)")
    #expect(regressed.output.contains("regressed beyond 10.0%: store-extend (live refresh p50 24h/1h)"))

    // No metric in common: never a pass.
    let other = try write(try Self.baseline(liveRefreshFlatness: 1, pretty: true, name: "something else"), "other.json")
    let nothing = try Self.run(["--quick", "--baseline", other, "store-extend"], in: directory)
    #expect(nothing.status == 2)
    #expect(nothing.output.contains("has no scale-free metric in common with this run"))
  }
}
