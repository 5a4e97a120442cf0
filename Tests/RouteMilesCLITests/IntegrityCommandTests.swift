import Foundation
import RouteMilesCLI
import RouteStore
import RouteTestSupport
import Testing

/// Issue #14 (part B) through the tool: unreadable and cut-off feeds, files that are not feeds,
/// racing and read-only stores, and the smaller findings. Every feed is generated here.
@Suite("routemiles: unreadable, cut-off and non-feed files; racing and read-only stores")
struct IntegrityCommandTests {
  static let samples = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes")

  /// A drive north at 10 m/s, one row a second, as CSV.
  static func csv(rows: Int, startMinute: Int = 0) -> String {
    var text = "timestamp,latitude,longitude,capture_session_id\n"
    for row in 0..<rows {
      let latitude = 47.0 + Double(row) * 10 / 111_195.0
      let seconds = startMinute * 60 + row
      text +=
        "2025-11-29T\(String(format: "%02d:%02d:%02d", 8 + seconds / 3600, seconds / 60 % 60, seconds % 60))Z,"
        + fixed6(latitude) + ",8.5,s1\n"
    }
    return text
  }

  /// The same drive as GPX, one point per line.
  static func gpx(points: Int) -> String {
    var text =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
    for point in 0..<points {
      let latitude = 47.0 + Double(point) * 10 / 111_195.0
      text +=
        "<trkpt lat=\"\(fixed6(latitude))\" lon=\"8.5\"><time>2025-11-29T08:\(String(format: "%02d:%02d", point / 60, point % 60))Z</time></trkpt>\n"
    }
    return text + "</trkseg></trk></gpx>\n"
  }

  static func nmea(_ count: Int, checksums: Bool) -> String {
    (0..<count).map { index in
      let minutes = 22.0 + Double(index) * 10 / 1852.0
      let body =
        "GPRMC,1200\(String(format: "%02d", index)).00,A,47\(fixed6(minutes)),N,00833.0000,E,10.0,0.0,010524,,,A"
      guard checksums else { return "$" + body + "\r\n" }
      let sum = body.utf8.reduce(UInt8(0), ^)
      return "$" + body + "*" + String(format: "%02X", sum) + "\r\n"
    }.joined()
  }

  // MARK: 3. NMEA checksums and unreadable feeds

  @Test func anNMEALogWithoutChecksumsIsMeasuredLikeOneWithThem() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let with = try CLITestSupport.write(Self.nmea(50, checksums: true), to: "with.nmea", in: directory)
    let without = try CLITestSupport.write(Self.nmea(50, checksums: false), to: "without.nmea", in: directory)
    let checked = CLITestSupport.run(["measure", "--json", with])
    let unchecked = CLITestSupport.run(["measure", "--json", without])
    #expect(unchecked.status == 0, "\(unchecked.error)")
    let a = try CLITestSupport.jsonLines(checked.output)[0]
    let b = try CLITestSupport.jsonLines(unchecked.output)[0]
    #expect(b["meters"] as? Double == a["meters"] as? Double)
    #expect(b["summary"] as? String == "0.3 mi recorded")
    let ingest = try #require(b["ingest"] as? [String: Any])
    #expect(ingest["errors"] as? Int == 0)
    #expect((ingest["notes"] as? [String: Any])?["checksumMissing"] as? Int == 50)
    #expect(
      CLITestSupport.run(["measure", without]).output.contains("50 sentences without a checksum read unchecked."))
  }

  @Test func aFeedOfOnlyUnreadableRecordsNamesTheReasonExitsOneAndIsNotImported() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let damaged = Self.nmea(6, checksums: false).replacingOccurrences(of: "\r\n", with: "*ZZ\r\n")
    let feed = try CLITestSupport.write(damaged, to: "damaged.nmea", in: directory)
    let measured = CLITestSupport.run(["measure", feed])
    #expect(measured.status == 1)
    #expect(measured.output.contains("Not measured: none of its 6 records could be read (bad checksum 6)."))
    #expect(measured.error.contains("damaged.nmea: none of its 6 records could be read (bad checksum 6)"))
    let store = directory.appendingPathComponent("s.sqlite").path
    let imported = CLITestSupport.run(["import", "--store", store, feed])
    #expect(imported.status == 1)
    #expect(imported.output.contains("damaged.nmea: not imported; nothing was stored"))
    #expect(CLITestSupport.run(["shifts", "--store", store]).output.contains("(no shifts)"))
  }

  // MARK: 4. A feed cut off mid-record

  /// A GPX cut off inside an element, and a CSV whose last line is cut inside a cell.
  static func cutOffFeed(_ kind: String) throws -> String {
    if kind == "csv" { return String(Self.csv(rows: 200).dropLast(12)) }
    let whole = Self.gpx(points: 200)
    let cutAt = try #require(
      whole.range(of: "<trkpt lat=\"47.0", range: whole.index(whole.startIndex, offsetBy: 12_000)..<whole.endIndex))
    return String(whole[..<cutAt.upperBound])
  }

  /// `measure`, `batch` (row and sum), `import`, `shifts` and `batch --store` give a cut-off feed
  /// the same figure, the partial marker, the same "Reading stopped at line N" sentence, and the
  /// status `truncated`; all but `shifts` exit 1. The stored shift is finished, not interrupted,
  /// and importing the same file again is a duplicate of it.
  @Test(arguments: ["gpx", "csv"])
  func aCutOffFeedIsPartialExitsOneAndEveryCommandGivesTheSameFigureAndStatus(_ kind: String) throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(try Self.cutOffFeed(kind), to: "cut.\(kind)", in: directory)

    let measure = CLITestSupport.run(["measure", "--json", feed])
    #expect(measure.status == 1)
    let measured = try CLITestSupport.jsonLines(measure.output)[0]
    #expect(measured["isPartial"] as? Bool == true)
    let summary = try #require(measured["summary"] as? String)
    #expect(summary.hasSuffix(" mi recorded · partial route"))
    let details = measured["details"] as? [String] ?? []
    let sentence = try #require(details.first { $0.hasPrefix("Reading stopped at line ") })
    #expect(sentence.contains("anything recorded after it is not included"))
    let line = try #require(Int(sentence.dropFirst("Reading stopped at line ".count).prefix { $0 != ":" }))
    #expect(measure.error.contains("cut.\(kind):\(line): the feed ends early"))
    let meters = try #require(measured["meters"] as? Double)
    #expect(meters > 1_000)
    let miles = String(summary.prefix { $0 != " " })

    let batch = CLITestSupport.run(["batch", feed])
    #expect(batch.status == 1)
    let row = try #require(batch.output.split(separator: "\n").first { $0.contains("cut.\(kind)") })
    #expect(row.contains("truncated"))
    #expect(row.trimmingCharacters(in: .whitespaces).hasPrefix(miles + " "))
    #expect(batch.output.contains("1 truncated, 0 failed · sum of recorded figures: \(miles) mi"))

    let store = directory.appendingPathComponent("s.sqlite").path
    let imported = CLITestSupport.run(["import", "--json", "--store", store, feed])
    #expect(imported.status == 1)
    #expect(imported.error.contains("cut.\(kind):\(line): the feed ends early"))
    let importedJSON = try CLITestSupport.jsonLines(imported.output)[0]
    #expect(importedJSON["meters"] as? Double == meters)
    #expect(importedJSON["summary"] as? String == summary)
    #expect(importedJSON["isPartial"] as? Bool == true)
    #expect(importedJSON["details"] as? [String] == details)
    let record = try #require(try RouteStore(path: store, access: .readOnly).shift(ShiftID(1)))
    #expect(record.status == .complete, "the cut-off feed's import finished; it was not interrupted")
    #expect(record.stoppedReading?.hasPrefix("line \(line): the feed ends early: ") == true)

    let listing = CLITestSupport.run(["shifts", "--json", "--store", store])
    #expect(listing.status == 0)
    let listed = try CLITestSupport.jsonLines(listing.output)[0]
    #expect(listed["status"] as? String == "truncated")
    #expect(listed["meters"] as? Double == meters)
    #expect(listed["summary"] as? String == summary)
    #expect(listed["isPartial"] as? Bool == true)
    #expect(listed["details"] as? [String] == details)
    let humanRow = try #require(CLITestSupport.run(["shifts", "--store", store]).output.split(separator: "\n").last)
    #expect(humanRow.contains("  truncated  ") && humanRow.contains(summary), "\(humanRow)")

    let fromStore = CLITestSupport.run(["batch", "--store", store])
    #expect(fromStore.status == 1)
    let storeRow = try #require(fromStore.output.split(separator: "\n").first { $0.contains("(\(feed))") })
    #expect(storeRow.contains("truncated"))
    #expect(storeRow.trimmingCharacters(in: .whitespaces).hasPrefix(miles + " "))
    #expect(fromStore.output.contains("1 truncated, 0 failed · sum of recorded figures: \(miles) mi"))
    #expect(
      fromStore.error.contains("shift 1 is truncated: reading of its feed stopped at line \(line): the feed ends early")
    )

    // The same cut-off file again is a duplicate of the truncated shift, unless asked for.
    let again = CLITestSupport.run(["import", "--store", store, feed])
    #expect(again.status == 1)
    #expect(
      again.output
        == "\(feed): already stored as truncated shift 1 (same content, cut off where reading stopped); skipped. Use --allow-duplicate to import it again.\n"
    )
    let forced = CLITestSupport.run(["import", "--store", store, "--allow-duplicate", feed])
    #expect(forced.status == 1)
    #expect(
      forced.output.hasPrefix(
        "\(feed) → shift 2 (truncated: reading stopped before the end of the feed)\n  \(summary)\n  \(sentence)\n"))
    let statuses = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
    #expect(statuses.map { $0["status"] as? String } == ["truncated", "truncated"])
  }

  // MARK: 6. Detection

  @Test func compressedAndBinaryFilesAreNamedForWhatTheyAre() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = Array(Self.csv(rows: 5).utf8)
    var random = SystemRandomNumberGenerator()
    let files: [(String, [UInt8], String)] = [
      // gzip is read (#16); only a file gzipped twice is named.
      (
        "a.csv.gz.gz", Gzip.compress(Gzip.compress(text)),
        "is a gzip-compressed file, not a feed: it was compressed twice"
      ),
      // A zip is opened as KMZ (#16); one without a KML document is named for what it holds.
      ("a.zip", Zip.archive([.init("a.csv", text)]), "is a zip archive, not a feed: it holds no KML document"),
      ("a.bz2", Array("BZh91AY&SY".utf8) + text, "is a bzip2-compressed file"),
      ("a.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00] + text, "is an xz-compressed file"),
      ("a16.csv", [0xFF, 0xFE] + text.flatMap { [$0, 0] }, "is UTF-16 text, not a feed: routemiles reads UTF-8"),
      ("a.bin", (0..<3000).map { _ in UInt8.random(in: 0...255, using: &random) }, "is a binary file, not a feed"),
    ]
    for (name, bytes, words) in files {
      let url = directory.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      let result = CLITestSupport.run(["measure", url.path])
      #expect(result.status == 1, "\(name)")
      #expect(result.output.contains(words), "\(name): \(result.output)")
      #expect(!result.output.contains("carriage return"), "\(name)")
      #expect(result.error.contains("\(url.path): this \(words)"), "\(name): \(result.error)")
    }
  }

  // MARK: 5. The store

  @Test func racingImportsOnANewAndAnExistingStoreAllLand() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(Self.csv(rows: 300), to: "drive.csv", in: directory)
    let processes = 8
    for round in 0..<4 {
      // Rounds 0–2 start on a store that does not exist yet; round 3 on round 2's store.
      let store = directory.appendingPathComponent("race-\(min(round, 2)).sqlite").path
      // All started back to back, then collected (their output is small: no pipe fills).
      var running: [(Process, Pipe)] = []
      for _ in 0..<processes {
        let process = Process()
        process.executableURL = CLITestSupport.binary
        // The same file every time: --allow-duplicate keeps each (#14 5.3 skips a duplicate).
        process.arguments = ["import", "--store", store, "--allow-duplicate", feed]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        running.append((process, errors))
      }
      for (process, errors) in running {
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "round \(round): \(message)")
      }
      let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
      #expect(listed.count == (round == 3 ? 2 * processes : processes), "round \(round)")
      // A finished import with no window is listed as such, never "complete" (#15).
      #expect(listed.allSatisfy { $0["status"] as? String == "no window" && $0["samples"] as? Int == 300 })
    }
  }

  @Test func readingAStoreLeavesNoFileBehindAndWorksWhereTheReaderMayNotWrite() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer {
      chmod(directory.path, 0o755)
      try? FileManager.default.removeItem(at: directory)
    }
    let feed = try CLITestSupport.write(Self.csv(rows: 100), to: "drive.csv", in: directory)
    let folder = directory.appendingPathComponent("store")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = folder.appendingPathComponent("s.sqlite").path
    #expect(try CLITestSupport.runProcess(["import", "--store", store, feed]).status == 0)
    func sideFiles() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "s.sqlite" }.sorted()
    }
    #expect(sideFiles() == [])
    let listed = try CLITestSupport.runProcess(["shifts", "--store", store])
    #expect(listed.status == 0)
    #expect(listed.output.contains("0.6 mi recorded"))
    #expect(try CLITestSupport.runProcess(["batch", "--store", store]).status == 0)
    #expect(sideFiles() == [], "reading wrote -wal/-shm files beside the store")
    // The owner still imports afterwards (the same file again, so --allow-duplicate).
    #expect(try CLITestSupport.runProcess(["import", "--store", store, "--allow-duplicate", feed]).status == 0)

    // A store the reader may only read, in a folder it cannot write: as another user where the
    // machine has setpriv (tests run as root, who may write anywhere).
    chmod(store, 0o444)
    chmod(folder.path, 0o555)
    chmod(directory.path, 0o755)
    let setpriv = "/usr/bin/setpriv"
    guard FileManager.default.isExecutableFile(atPath: setpriv) else { return }
    let binary = directory.appendingPathComponent("routemiles")
    try FileManager.default.copyItem(at: CLITestSupport.binary, to: binary)
    let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: setpriv)
    process.arguments = asNobody + ["shifts", "--json", "--store", store]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = Pipe()
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let shifts = try CLITestSupport.jsonLines(String(decoding: data, as: UTF8.self))
    #expect(shifts.count == 2)
    #expect(shifts.first?["summary"] as? String == "0.6 mi recorded")
    #expect(sideFiles() == [])
  }

  @Test func ctrlCDuringImportSaysWhichShiftWasLeftInterrupted() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("s.sqlite").path
    let process = Process()
    process.executableURL = CLITestSupport.binary
    process.arguments = ["import", "--store", store, "-"]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = Pipe()
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(Self.csv(rows: 400).utf8))
    // The shift exists (importing) as soon as the import began; the feed is still open.
    var started = false
    for _ in 0..<200 where !started {
      usleep(50_000)
      started = ((try? RouteStore(path: store, access: .readOnly).shifts().count) ?? 0) == 1
    }
    #expect(started)
    kill(process.processIdentifier, SIGINT)
    // Closing standard input ends the import anyway: should Ctrl-C not work, this fails, not hangs.
    usleep(300_000)
    try? input.fileHandleForWriting.close()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(message.contains("routemiles: interrupted: shift 1 (-) was left as an interrupted import"))
    #expect(message.contains("routemiles shifts --store \(store) --delete 1"))
    let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)
    #expect(listed.first?["status"] as? String == "interrupted")
  }

  // MARK: 7. Smaller findings

  @Test func anUnknownLocaleIsRefusedAndGermanGroupsEveryNumber() throws {
    try CLITestSupport.withFeed(Self.csv(rows: 1_200), named: "long.csv") { directory, feed in
      let unknown = CLITestSupport.run(["measure", "--locale", "xx_YY", feed])
      #expect(unknown.status == 64)
      #expect(unknown.error.contains("unknown locale 'xx_YY'"))
      #expect(
        CLITestSupport.run([
          "shifts", "--store", directory.appendingPathComponent("s.sqlite").path, "--locale", "english",
        ]).status == 64)
      let german = CLITestSupport.run(["measure", "--explain", "--locale", "de_DE", feed])
      #expect(german.status == 0)
      #expect(german.output.contains("7,5 mi recorded"))
      #expect(german.output.contains("Read 1.200 records (CSV): 1.200 retained, 0 rejected."))
      #expect(german.output.contains("1.200 positions, 11.990,1 m"))
      #expect(CLITestSupport.run(["batch", "--locale", "de_DE", feed]).output.contains("      1.200  "))
      #expect(CLITestSupport.run(["measure", "--locale", "en_US", feed]).output.contains("Read 1,200 records"))
    }
  }

  @Test func geojsonDashWritesTheDocumentAloneToStandardOutput() throws {
    try CLITestSupport.withFeed(Self.csv(rows: 60), named: "d.csv") { directory, feed in
      let result = CLITestSupport.run(["measure", "--geojson", "-", feed])
      #expect(result.status == 0)
      let document = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
      #expect(document?["type"] as? String == "FeatureCollection")
      #expect(result.error.contains("0.4 mi recorded"), "the report moves to standard error")
      #expect(!FileManager.default.fileExists(atPath: "-"))
      let svg = CLITestSupport.run(["measure", "--svg", "-", feed])
      #expect(svg.status == 0)
      #expect(svg.output.hasPrefix("<svg") || svg.output.hasPrefix("<?xml"))
      #expect(CLITestSupport.run(["measure", "--geojson", "-", "--svg", "-", feed]).status == 64)
    }
  }

  @Test func batchSkipsFilesThatAreNotFeedsAndTreatsEmptyFoldersLikeEmptyGlobs() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLITestSupport.write(Self.csv(rows: 60), to: "drive.csv", in: directory)
    _ = try CLITestSupport.write(
      "path\tsource repository\tcommit\tlicence\tsha256\nx.csv\tr\tc\tMIT\tab12\n", to: "MANIFEST.tsv", in: directory)
    _ = try CLITestSupport.write("Drives recorded in November.\n", to: "README.txt", in: directory)
    let result = CLITestSupport.run(["batch", directory.path])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("1 shift: 1 measured (0 partial), 0 unmeasurable, 0 failed"))
    #expect(!result.output.contains("MANIFEST"))
    #expect(result.error.contains("skipped \(directory.path)/MANIFEST.tsv"))
    #expect(result.error.contains("(not a feed)"))
    // A .csv whose header cannot be mapped may be a drive needing --columns: a failure, not skipped.
    _ = try CLITestSupport.write("Zeit;Breite;Laenge\n1;2;3\n", to: "odd.csv", in: directory)
    let odd = CLITestSupport.run(["batch", directory.path])
    #expect(odd.status == 1)
    #expect(odd.output.contains("odd.csv"))
    try FileManager.default.removeItem(atPath: directory.appendingPathComponent("odd.csv").path)
    // Named on the command line, the same file is measured and fails.
    #expect(CLITestSupport.run(["batch", directory.appendingPathComponent("MANIFEST.tsv").path]).status == 1)

    let empty = directory.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let emptyFolder = CLITestSupport.run(["batch", empty.path])
    let emptyGlob = CLITestSupport.run(["batch", directory.path + "/*.gpx"])
    #expect(emptyFolder.status == 1)
    #expect(emptyGlob.status == 1)
    #expect(emptyFolder.error.contains("no feed file here"))
    #expect(emptyGlob.error.contains("no feed file here"))
    #expect(emptyFolder.output == emptyGlob.output)
  }

  @Test func batchStoreCarriesOnPastAMissingShiftAndAFailedRowNamesItsPathOnce() throws {
    try CLITestSupport.withFeed(Self.csv(rows: 60), named: "d.csv") { directory, feed in
      let store = CLITestSupport.importedStore(feed, named: "s.sqlite", in: directory)
      let result = CLITestSupport.run(["batch", "--store", store, "7", "1"])
      #expect(result.status == 1)
      #expect(result.output.contains("there is no shift 7"))
      #expect(result.output.contains("0.4"), "shift 1 is still measured")
      #expect(result.output.contains("2 shifts: 1 measured (0 partial), 0 unmeasurable, 1 failed"))

      let bad = try CLITestSupport.write("<gpx><trk><trkseg></wrong>", to: "bad.gpx", in: directory)
      let missing = directory.appendingPathComponent("missing.csv").path
      let rows = CLITestSupport.run(["batch", bad, missing]).output.split(separator: "\n")
      for (path, row) in [(bad, rows[1]), (missing, rows[2])] {
        #expect(row.components(separatedBy: path).count == 2, "the path once: \(row)")
      }
    }
  }

  @Test func replayValidatesItsOptionsAndItsCardNamesAnInterruption() throws {
    let feed = Self.samples.appendingPathComponent("clean-2h-drive.gpx").path
    #expect(CLITestSupport.run(["replay", "--speed", "0.00001", feed]).status == 64)
    #expect(CLITestSupport.run(["replay", "--speed", "fast", feed]).status == 64)
    #expect(CLITestSupport.run(["replay", "--speed", "max", "--relaunch-after", "5", feed]).status == 64)
    let late = CLITestSupport.run(["replay", "--speed", "max", "--json", "--interrupt-at", "999999", feed])
    #expect(late.status == 64)
    #expect(late.error.contains("--interrupt-at 999999.0 is after the feed's last position"))
    let replay = CLITestSupport.run(["replay", "--speed", "max", "--json", "--interrupt-at", "600", feed])
    #expect(replay.status == 0)
    let lines = try CLITestSupport.jsonLines(replay.output)
    let updates = lines.filter { $0["type"] as? String == "update" }
    #expect(updates.first?["captureInterrupted"] as? Bool == false)
    #expect(updates.last?["captureInterrupted"] as? Bool == true)
    #expect(lines.last?["captureInterrupted"] as? Bool == true)
    // On a terminal, the card and the closing summary say so in words.
    let console = CapturingConsole()
    console.outputIsTerminal = true
    #expect(RouteMilesCLI.run(["replay", "--speed", "max", "--interrupt-at", "600", feed], console: console) == 0)
    #expect(console.output.contains("Capture interrupted at 0:10:00 · "))
    #expect(console.output.contains("resumed at 0:10:30 as a new capture session"))
  }
}

/// A number with six decimals, whatever the process's C locale (String(format:) follows it).
func fixed6(_ value: Double) -> String {
  let micro = Int64((value * 1_000_000).rounded())
  let whole = micro / 1_000_000
  let fraction = String(micro % 1_000_000)
  return "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}
