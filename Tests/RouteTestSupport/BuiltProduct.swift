import Foundation

/// The executables this package builds, found beside the running test bundle, for the tests that
/// run the real binary as a process (`routemiles`, `RouteBenchmarks`).
public enum BuiltProduct {
  /// The package root (this file is `Tests/RouteTestSupport/BuiltProduct.swift`).
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The executable `name` from the build folder that holds the test bundle: it is looked for up
  /// to four folders above the bundle (the layout differs between toolchains and platforms), and
  /// `.build/debug/<name>` is the answer of last resort, so a missing binary fails the test that
  /// runs it with the path it tried.
  public static func url(named name: String) -> URL {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0])
    var directory = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/\(name)")
  }
}
