import Foundation
import RouteTestSupport
import Testing

/// Google location history through the tool: detected by its first member, forced with
/// `--input-format takeout`, and found by `batch` in a directory (`.json`).
@Suite struct TakeoutCommandTests {
  static let records = """
    {
      "locations": [{
        "latitudeE7": 455000000,
        "longitudeE7": 132500000,
        "accuracy": 5,
        "deviceTag": 1,
        "timestamp": "2025-01-01T07:00:00Z"
      }, {
        "timestampMs": "1735714810000",
        "latitudeE7": 455010000,
        "longitudeE7": 132500000,
        "accuracy": 5,
        "deviceTag": 1
      }, {
        "latitudeE7": 455020000,
        "longitudeE7": 132500000,
        "deviceTag": 1
      }]
    }

    """

  @Test func detectedForcedAndWalked() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = try CLITestSupport.write(Self.records, to: "Records.json", in: directory)

    let measured = try CLITestSupport.measuredJSON(
      [records], format: "takeout", meters: 111.195, ingest: ["rejected": ["missingTime": 1]])

    let forced = CLITestSupport.run(["measure", "--json", "--input-format", "takeout", records])
    #expect(forced.status == 0)
    #expect(forced.output == measured.output)

    // A directory walk picks up `.json` files.
    #expect(try CLITestSupport.batchFormats(in: directory) == ["takeout"])

    let kml = try CLITestSupport.write("<kml></kml>\n", to: "empty.kml", in: directory)
    let wrong = CLITestSupport.run(["measure", "--input-format", "takeout", kml])
    #expect(wrong.status == 1)
    #expect(!wrong.error.isEmpty)
  }
}
