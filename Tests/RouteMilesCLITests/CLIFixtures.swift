import Foundation
import Testing

/// The set-ups and checks the command tests repeat: a feed in a temporary folder, imported into a
/// store there, `measure --json` on one file and `batch` over a folder.
extension CLITestSupport {
  /// Writes `text` as `name` into a fresh temporary directory (removed when `body` returns) and
  /// hands `body` the directory and the feed's path.
  static func withFeed<T>(_ text: String, named name: String, _ body: (URL, String) throws -> T) throws -> T {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory, try write(text, to: name, in: directory))
  }

  /// `import --store <directory>/<name> <feed>` in process, expected to succeed; the store's path.
  static func importedStore(
    _ feed: String, named name: String, in directory: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let store = directory.appendingPathComponent(name).path
    let imported = run(["import", "--store", store, feed])
    #expect(imported.status == 0, "\(imported.error)", sourceLocation: sourceLocation)
    return store
  }

  /// `measure --json <arguments>` in process, expected to exit 0 with the `format` named, `meters`
  /// to within half a metre, and, for each key of `ingest` (`rejected`, `ignored`, …), exactly
  /// those counts in the document's `ingest` object. The output and its JSON, for more checks.
  @discardableResult
  static func measuredJSON(
    _ arguments: [String], format: String, meters: Double, ingest: [String: [String: Int]] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (output: String, json: [String: Any]) {
    let measured = run(["measure", "--json"] + arguments)
    #expect(measured.status == 0, "\(measured.error)", sourceLocation: sourceLocation)
    let json = try jsonObject(Substring(measured.output))
    #expect(json["format"] as? String == format, sourceLocation: sourceLocation)
    #expect(
      abs((json["meters"] as? Double ?? 0) - meters) < 0.5, "\(String(describing: json["meters"]))",
      sourceLocation: sourceLocation)
    for (key, counts) in ingest {
      #expect(
        json["ingest"].flatMap { ($0 as? [String: Any])?[key] as? [String: Int] } == counts,
        sourceLocation: sourceLocation)
    }
    return (measured.output, json)
  }

  /// `batch --format jsonl <directory>` in process, expected to exit 0; each row's format, in the
  /// order the rows came.
  static func batchFormats(in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    let batch = run(["batch", "--format", "jsonl", directory.path])
    #expect(batch.status == 0, "\(batch.error)", sourceLocation: sourceLocation)
    return try jsonLines(batch.output).compactMap { $0["format"] as? String }
  }
}
