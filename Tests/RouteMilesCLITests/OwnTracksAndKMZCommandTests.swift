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

  @Test func detectedForcedAndWalked() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let rec = try CLITestSupport.write(Self.rec(), to: "2024-03.rec", in: directory)
    let kmz = directory.appendingPathComponent("walk.kmz")
    try Data(
      Zip.archive([
        .init("files/icon.png", [1, 2, 3], deflated: false), .init("doc.kml", Array(XMLFormatsCommandTests.kml.utf8)),
      ])
    ).write(to: kmz)

    for arguments in [[rec], ["--input-format", "owntracks", rec]] {
      try CLITestSupport.measuredJSON(
        arguments, format: "owntracks", meters: 300.2, ingest: ["ignored": ["otherRecorderColumn": 1]])
    }
    try CLITestSupport.measuredJSON([kmz.path], format: "kml", meters: 111.195)

    #expect(try CLITestSupport.batchFormats(in: directory).sorted() == ["kml", "owntracks"])
  }

  /// A KMZ with a second KML document reads the first and says the second was not read, in
  /// words and under `ingest.notes`; a KMZ with one document has no note.
  @Test func aSecondKMLDocumentIsNoted() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let kml = Array(XMLFormatsCommandTests.kml.utf8)
    let two = directory.appendingPathComponent("two.kmz")
    try Data(Zip.archive([.init("doc.kml", kml), .init("files/", []), .init("files/overlay.kml", kml)])).write(to: two)
    let one = directory.appendingPathComponent("one.kmz")
    try Data(Zip.archive([.init("doc.kml", kml), .init("files/icon.png", [1, 2, 3], deflated: false)])).write(to: one)

    try CLITestSupport.measuredJSON(
      [two.path], format: "kml", meters: 111.195, ingest: ["notes": ["otherKMLDocuments": 1]])
    try CLITestSupport.measuredJSON([one.path], format: "kml", meters: 111.195, ingest: ["notes": [:]])

    let sentence = "This KMZ holds 2 KML documents; only the first was read."
    let human = CLITestSupport.run(["measure", two.path])
    #expect(human.status == 0, "\(human.error)")
    #expect(human.output.contains(" 0 rejected. \(sentence)"), "\(human.output)")
    let single = CLITestSupport.run(["measure", one.path])
    #expect(single.status == 0)
    #expect(!single.output.contains("KML documents"), "\(single.output)")
  }
}
