import Foundation
import RouteTestSupport
import Testing

/// The repository's real recordings each carry their provenance: a manifest row with source,
/// licence and sha256, and bytes that match it.
@Suite struct FixtureManifestTests {
  struct Row {
    var file: String
    var license: String
    var sha256: String
  }

  static func rows() throws -> [Row] {
    let text = String(decoding: try Fixtures.bytes("realdata/MANIFEST.tsv"), as: UTF8.self)
    return text.split(separator: "\n").dropFirst().map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Row(file: cells[0], license: cells.count > 4 ? cells[4] : "", sha256: cells.count > 6 ? cells[6] : "")
    }
  }

  /// Every recording under `realdata/` has exactly one manifest row naming a licence, and every
  /// row names a file that is there.
  @Test func everyRealFileHasOneManifestRow() throws {
    let rows = try Self.rows()
    var onDisk: [String] = []
    for kind in try FileManager.default.contentsOfDirectory(atPath: Fixtures.path("realdata")).sorted() {
      var isFolder: ObjCBool = false
      let folder = try Fixtures.path("realdata/\(kind)")
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
      onDisk += try FileManager.default.contentsOfDirectory(atPath: folder).map { "\(kind)/\($0)" }
    }
    #expect(onDisk.sorted() == rows.map(\.file).sorted())
    #expect(Set(rows.map(\.file)).count == rows.count, "one row per file")
    for row in rows {
      #expect(!row.license.isEmpty, "\(row.file) names its licence")
      #expect(row.sha256.count == 64, "\(row.file) carries a sha256")
    }
  }

  /// The bytes are the ones the manifest describes (checked with the system's `sha256sum`).
  @Test func everyRealFileMatchesItsSHA256() throws {
    let rows = try Self.rows()
    let sums = try systemSHA256(of: rows.map { try Fixtures.path("realdata/\($0.file)") })
    #expect(sums.count == rows.count)
    for (row, sum) in zip(rows, sums) {
      #expect(sum == row.sha256, "\(row.file): sha256 \(sum), manifest says \(row.sha256)")
    }
  }
}
