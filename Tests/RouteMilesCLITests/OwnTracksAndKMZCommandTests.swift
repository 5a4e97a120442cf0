import Foundation
import RouteTestSupport
import Testing

/// OwnTracks `.rec` and KMZ through the tool: detected by content, forced with `--input-format`,
/// and found by `batch` in a directory.
@Suite struct OwnTracksAndKMZCommandTests {
  static func rec(tid: String = "RO") -> String {
    (0..<10).map { step in
      "2024-03-01T18:00:00Z\t*                 \t{\"_type\":\"location\",\"tid\":\"\(tid)\",\"acc\":5,\"tst\":\(1_709_316_000 + step * 5),\"lat\":\(52.5 + Double(step) * 0.0003),\"lon\":13.4}\n"
    }.joined() + "2024-03-01T18:01:00Z\t-                 \t{\"_type\":\"lwt\",\"tst\":\"1709316000\"}\n"
  }

  static let kml = """
    <kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
    <when>2025-01-01T07:00:00Z</when><when>2025-01-01T07:00:10Z</when>
    <gx:coord>13.25 45.5 0</gx:coord><gx:coord>13.25 45.501 0</gx:coord>
    </gx:Track></Placemark></kml>

    """

  @Test func detectedForcedAndWalked() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rec = try CLITestSupport.write(Self.rec(), to: "2024-03.rec", in: directory)
    let kmz = directory.appendingPathComponent("walk.kmz")
    try Data(Zip.archive([.init("files/icon.png", [1, 2, 3], deflated: false), .init("doc.kml", Array(Self.kml.utf8))])).write(to: kmz)

    for arguments in [["measure", "--json", rec], ["measure", "--json", "--input-format", "owntracks", rec]] {
      let measured = CLITestSupport.run(arguments)
      #expect(measured.status == 0, "\(measured.error)")
      let json = try CLITestSupport.jsonObject(Substring(measured.output))
      #expect(json["format"] as? String == "owntracks")
      #expect(abs((json["meters"] as? Double ?? 0) - 300.2) < 0.5, "\(String(describing: json["meters"]))")
      #expect(json["ingest"].flatMap { ($0 as? [String: Any])?["ignored"] as? [String: Int] } == ["otherRecorderColumn": 1])
    }
    let zipped = CLITestSupport.run(["measure", "--json", kmz.path])
    #expect(zipped.status == 0, "\(zipped.error)")
    let json = try CLITestSupport.jsonObject(Substring(zipped.output))
    #expect(json["format"] as? String == "kml")
    #expect(abs((json["meters"] as? Double ?? 0) - 111.195) < 0.5)

    let batch = CLITestSupport.run(["batch", "--format", "jsonl", directory.path])
    #expect(batch.status == 0)
    let rows = try CLITestSupport.jsonLines(batch.output)
    #expect(rows.compactMap { $0["format"] as? String }.sorted() == ["kml", "owntracks"])
  }
}
