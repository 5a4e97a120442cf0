import Foundation

/// The repository's own copies of the files its tests read: `Tests/Fixtures/`.
///
/// Every test reaches a fixture through here, never through a path of its own, so a fixture
/// that is missing fails the test that needs it with `FixtureMissing`, which names the file,
/// instead of crashing later on an empty read or being skipped. Nothing here looks outside the
/// repository: bringing a new file in is a deliberate step (`Tests/Fixtures/bring-in.sh`).
public enum Fixtures {
  /// `Tests/Fixtures` (this file is `Tests/RouteTestSupport/Fixtures.swift`).
  public static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// The file or folder at `relative` below `Tests/Fixtures`, checked to exist.
  public static func url(_ relative: String) throws(FixtureMissing) -> URL {
    let url = root.appendingPathComponent(relative)
    guard FileManager.default.fileExists(atPath: url.path) else { throw FixtureMissing(relative: relative) }
    return url
  }

  /// `url(relative).path`, for handing to the tool as an argument.
  public static func path(_ relative: String) throws(FixtureMissing) -> String { try url(relative).path }

  /// The bytes of the fixture at `relative`.
  public static func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(relative))) }

  /// The acceptance folder, checked to hold every input that `acceptance/expected.json` names
  /// (the words of each case's command that name a file), so a test that hands the whole folder to the tool
  /// fails naming a missing case instead of quietly measuring one shift fewer.
  public static func acceptanceFolder() throws -> URL {
    let expected = try JSONSerialization.jsonObject(with: Data(bytes("acceptance/expected.json")))
    for case let entry as [String: Any] in (expected as? [String: Any] ?? [:]).values {
      let words = (entry["command"] as? String ?? "").split(separator: " ").dropFirst(2)
      for input in words where !input.hasPrefix("-") && input.contains(".") { _ = try url("acceptance/\(input)") }
    }
    return try url("acceptance")
  }

  /// The names in the fixture folder at `relative` that end with `suffix`, sorted.
  public static func names(in relative: String, suffix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path(relative)).filter { $0.hasSuffix(suffix) }.sorted()
  }
}

/// A fixture a test needs is not in `Tests/Fixtures/`.
public struct FixtureMissing: Error, CustomStringConvertible {
  public let relative: String

  public var description: String {
    "test fixture Tests/Fixtures/\(relative) is missing; the repository keeps every file its tests read "
      + "under Tests/Fixtures (see Tests/Fixtures/README.md for where each comes from)"
  }
}
