import Foundation
import RouteTestSupport
import Testing

/// gzip and FIT through the tool: `measure`, `batch`, `import` and `replay` read a `.gpx.gz`
/// exactly as the `.gpx`, FIT is detected or chosen with `--input-format fit`, and damaged input
/// names the file and the byte.
@Suite("routemiles on gzip and FIT")
struct CompressedAndFITCommandTests {
  /// Writes the fixture and its gzipped copy into `directory`; returns both paths.
  static func pair(_ fixture: String, in directory: URL) throws -> (plain: String, gzipped: String) {
    let bytes = try Fixtures.bytes(fixture)
    let name = URL(fileURLWithPath: fixture).lastPathComponent
    let plain = directory.appendingPathComponent(name)
    let gzipped = directory.appendingPathComponent(name + ".gz")
    try Data(bytes).write(to: plain)
    try Data(Gzip.compress(bytes)).write(to: gzipped)
    return (plain.path, gzipped.path)
  }

  /// The JSON line without its `source`, which names the file.
  static func withoutSource(_ json: [String: Any]) -> NSDictionary {
    var json = json
    json["source"] = nil
    return json as NSDictionary
  }

  @Test(arguments: ["realdata/gpx/gpsbabel_garmin-edge-800.gpx", "realdata/fit/gpsbabel_wahoo-element-bolt.fit"])
  func measureAndBatchReadTheGzippedFileExactlyAsThePlainOne(_ fixture: String) throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (plain, gzipped) = try Self.pair(fixture, in: directory)
    for extra in [[], ["--no-filter"]] {
      let a = CLITestSupport.run(["measure", "--json"] + extra + [plain])
      let b = CLITestSupport.run(["measure", "--json"] + extra + [gzipped])
      #expect(a.status == 0 && b.status == 0, "\(a.error)\(b.error)")
      let x = try CLITestSupport.jsonLines(a.output)[0]
      let y = try CLITestSupport.jsonLines(b.output)[0]
      #expect(Self.withoutSource(x) == Self.withoutSource(y))
      #expect(y["meters"] as? Double != nil)
    }
    // A directory walk picks up both (.gz and .fit are feed extensions); both rows agree.
    let batch = CLITestSupport.run(["batch", "--format", "jsonl", directory.path])
    #expect(batch.status == 0, "\(batch.error)")
    let rows = try CLITestSupport.jsonLines(batch.output)
    #expect(rows.count == 2)
    #expect(Set(rows.map { $0["source"] as? String ?? "" }) == [plain, gzipped])
    #expect(Self.withoutSource(rows[0]) == Self.withoutSource(rows[1]))
  }

  @Test func importStoresTheSameShiftFromTheGzippedFile() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (plain, gzipped) = try Self.pair("realdata/gpx/gpxpy_cerknicko-jezero.gpx", in: directory)
    let store = directory.appendingPathComponent("shifts.sqlite").path
    let a = CLITestSupport.run(["import", "--json", "--store", store, plain])
    let b = CLITestSupport.run(["import", "--json", "--store", store, gzipped])
    #expect(a.status == 0 && b.status == 0, "\(a.error)\(b.error)")
    let x = try CLITestSupport.jsonLines(a.output)[0]
    let y = try CLITestSupport.jsonLines(b.output)[0]
    #expect(x["shift"] as? Int == 1 && y["shift"] as? Int == 2)
    #expect(x["meters"] as? Double == y["meters"] as? Double)
    #expect(x["usablePositionCount"] as? Int == y["usablePositionCount"] as? Int)
    let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
    #expect(listed.count == 2)
    #expect(listed[0]["meters"] as? Double == listed[1]["meters"] as? Double)
  }

  @Test func replayPlaysTheGzippedFITAsThePlainOne() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (plain, gzipped) = try Self.pair("realdata/fit/gpsbabel_garmin-edge-800.fit", in: directory)
    let a = CLITestSupport.run(["replay", "--speed", "max", "--json", plain])
    let b = CLITestSupport.run(["replay", "--speed", "max", "--json", gzipped])
    #expect(a.status == 0 && b.status == 0, "\(a.error)\(b.error)")
    let x = try CLITestSupport.jsonLines(a.output).last ?? [:]
    let y = try CLITestSupport.jsonLines(b.output).last ?? [:]
    #expect(x["type"] as? String == "end")
    #expect((x["finalMeters"] as? Double).map { Int($0.rounded()) } == 25_089)
    #expect(x["finalMeters"] as? Double == y["finalMeters"] as? Double)
    #expect(x["liveMeters"] as? Double == y["liveMeters"] as? Double)
    #expect(x["storedSamples"] as? Int == y["storedSamples"] as? Int)
  }

  @Test func aCutOffGzipNamesTheFileAndTheCompressedByte() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes = Gzip.compress(try Fixtures.bytes("realdata/gpx/gpsbabel_garmin-edge-800.gpx"))
    let path = directory.appendingPathComponent("cut.gpx.gz")
    try Data(bytes[0..<5000]).write(to: path)
    let result = CLITestSupport.run(["measure", path.path])
    #expect(result.status == 1)
    #expect(
      result.error.contains(
        "\(path.path): damaged gzip data at compressed byte 5000: the file ends inside the compressed data (it was cut off)"
      ),
      "\(result.error)")
    #expect(result.output.contains("Reading stopped at byte 5000: the recording ends there"), "\(result.output)")
    #expect(
      result.output.contains("Why reading stopped: damaged gzip data at compressed byte 5000"), "\(result.output)")
  }

  @Test func fitIsDetectedOrChosenAndNamesTheByteOfDamage() throws {
    let fit = try Fixtures.path("realdata/fit/gpsbabel_garmin-edge-800.fit")
    let detected = CLITestSupport.run(["measure", "--json", fit])
    let chosen = CLITestSupport.run(["measure", "--json", "--input-format", "fit", fit])
    #expect(detected.status == 0 && chosen.status == 0)
    #expect(detected.output == chosen.output)
    let json = try CLITestSupport.jsonLines(detected.output)[0]
    #expect(json["format"] as? String == "fit")
    #expect((json["meters"] as? Double).map { Int($0.rounded()) } == 25_089)
    let human = CLITestSupport.run(["measure", fit])
    #expect(
      human.output.contains(
        "Read 1,286 records (FIT): 1,230 retained, 56 rejected (negligible movement 56). 46 other messages ignored. 8 capture sessions."
      ), "\(human.output)")

    let damaged = try Fixtures.path("realdata/fit/gpsbabel_lezyne-super-gps-bad-endian.fit")
    let result = CLITestSupport.run(["measure", damaged])
    #expect(result.status == 1)
    #expect(
      result.error.contains("\(damaged): malformed data at byte 22227: a definition message declares architecture 229"),
      "\(result.error)")

    let gpx = try Fixtures.path("realdata/gpx/gpsbabel_garmin-edge-800.gpx")
    let forced = CLITestSupport.run(["measure", "--input-format", "fit", gpx])
    #expect(forced.status == 1)
    #expect(forced.error.contains("\(gpx): malformed data at byte 0: not a FIT file"), "\(forced.error)")
    let unknown = CLITestSupport.run(["measure", "--input-format", "rtf", gpx])
    #expect(unknown.error.contains("use gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks"))
  }
}
