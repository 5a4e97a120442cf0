import Foundation
import RouteMileage
import RouteStore
import Testing

/// `import`, `shifts` and `batch --store`, through the tool, against temporary stores.
@Suite("routemiles import, shifts and batch --store")
struct StoreCommandTests {
  /// A canonical CSV drive: `count` fixes at 1 Hz, 10 m apart, in one session, with a session
  /// change after `breakAfter` fixes when given.
  static func drive(count: Int, breakAfter: Int? = nil) -> String {
    var text = "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n"
    let start = 1_764_403_200
    for index in 0..<count {
      let session = breakAfter.map { index < $0 ? "a" : "b" } ?? "a"
      let time = start + index + (breakAfter.map { index >= $0 ? 30 : 0 } ?? 0)
      let latitude = 0.5 + Double(index) * 10 / 111_195.080_2
      text += "\(iso(time)),\(latitude),-160.0,8.0,\(session)\n"
    }
    return text
  }

  static func iso(_ seconds: Int) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  @Test func importThenListThenBatchGiveTheSameOnePassFigure() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(Self.drive(count: 600, breakAfter: 300), to: "drive.csv", in: directory)
    let store = directory.appendingPathComponent("shifts.sqlite").path

    let measured = CLITestSupport.run(["measure", "--json", feed])
    #expect(measured.status == 0)
    let expected = try CLITestSupport.jsonLines(measured.output)[0]

    let imported = CLITestSupport.run(["import", "--json", "--store", store, feed])
    #expect(imported.status == 0, "\(imported.error)")
    let importJSON = try CLITestSupport.jsonLines(imported.output)[0]
    #expect(importJSON["shift"] as? Int == 1)
    #expect(importJSON["meters"] as? Double == expected["meters"] as? Double)
    #expect(importJSON["gapCount"] as? Int == 1)

    let listed = CLITestSupport.run(["shifts", "--json", "--store", store])
    #expect(listed.status == 0)
    let shift = try CLITestSupport.jsonLines(listed.output)[0]
    // Issue #15: a finished import with neither a timeline nor a window is never "complete".
    #expect(shift["status"] as? String == "no window")
    #expect(shift["samples"] as? Int == expected["usablePositionCount"] as? Int)
    #expect(shift["meters"] as? Double == expected["meters"] as? Double)
    #expect(shift["summary"] as? String == expected["summary"] as? String)
    #expect(shift["end"] is NSNull, "no --shift-end: the shift has no window")

    let batch = CLITestSupport.run(["batch", "--store", store, "--format", "jsonl"])
    #expect(batch.status == 0)
    let row = try CLITestSupport.jsonLines(batch.output)[0]
    #expect(row["meters"] as? Double == expected["meters"] as? Double)
    #expect(row["format"] as? String == "store")

    let human = CLITestSupport.run(["shifts", "--store", store])
    #expect(human.output.contains("no window"))
    #expect(human.output.contains(expected["summary"] as! String))

    let deleted = CLITestSupport.run(["shifts", "--store", store, "--delete", "1", "--json"])
    #expect(deleted.status == 0)
    #expect(deleted.output.isEmpty)
    let gone = CLITestSupport.run(["batch", "--store", store, "1"])
    #expect(gone.status == 1)
    #expect(gone.error.contains("there is no shift 1"))
  }

  @Test func shiftsNeverSaysCompleteBesideAFigure() throws {
    // Seed 004: "Nothing says total, complete, tax or deductible mileage." Every status a
    // listed shift can have, each with a measured figure beside it.
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("shifts.sqlite").path
    let store = try RouteStore(path: path)
    let start = 1_764_403_200.0
    let samples = (0..<60).map { index in
      RouteSample(
        timestamp: start + Double(index), latitude: 0.5 + Double(index) * 10 / 111_195.080_2, longitude: -160,
        horizontalAccuracy: 8, captureSession: CaptureSessionID(rawValue: 1))
    }
    for (status, end) in [(ShiftStatus.complete, start + 60), (.complete, nil), (.importing, nil), (.running, nil)] {
      let shift = try store.createShift(start: start, end: end, source: "drive.csv", importedAt: start, status: status)
      try store.appendSamples(samples, to: shift)
    }
    let human = CLITestSupport.run(["shifts", "--store", path])
    #expect(human.status == 0)
    let rows = human.output.split(separator: "\n").dropFirst()
    #expect(rows.count == 4)
    for row in rows {
      #expect(row.contains("mi recorded"), "\(row)")
      #expect(!row.lowercased().contains("complete"), "\(row)")
      #expect(!row.lowercased().contains("total"), "\(row)")
    }
    let json = CLITestSupport.run(["shifts", "--store", path, "--json"])
    #expect(!json.output.lowercased().contains("complete"))
    let statuses = try CLITestSupport.jsonLines(json.output).map { $0["status"] as? String }
    #expect(statuses == ["ended", "no window", "interrupted", "running"])
  }

  @Test func aWindowGivenAtImportIsStoredAndMeasured() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(Self.drive(count: 100), to: "drive.csv", in: directory)
    let store = directory.appendingPathComponent("shifts.sqlite").path
    let imported = CLITestSupport.run([
      "import", "--json", "--store", store, "--shift-start", "2025-11-29T07:00:00Z", "--shift-end",
      "2025-11-29T09:00:00Z", feed,
    ])
    #expect(imported.status == 0, "\(imported.error)")
    let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)[0]
    #expect(listed["start"] as? String == "2025-11-29T07:00:00Z")
    #expect(listed["end"] as? String == "2025-11-29T09:00:00Z")
    #expect(listed["gapCount"] as? Int == 2, "the route starts an hour late and stops early")
    #expect(listed["isPartial"] as? Bool == true)
  }

  /// A feed that cannot be read past a point: every command gives the same partial figure and
  /// says where reading stopped; the import finishes as a truncated shift, not an interrupted one.
  @Test func aFeedThatStopsEarlyLeavesATruncatedShiftWithThePartialFigureOfItsRows() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let gpx = """
      <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      <trkpt lat="0.5" lon="-160"><time>2025-11-29T08:00:00Z</time></trkpt>
      <trkpt lat="0.5001" lon="-160"><time>2025-11-29T08:00:01Z</time></trkpt>
      <trkpt lat="0.5002" lon="-160"><time>2025-11-29T08:00:02Z</time></trkpt>
      </trkseg></trk><trk><trkseg><trkpt lat="0.5003" lon="-160"><time>2025-11-29T08:00:03Z</time></trkpt></wrong>
      """
    let feed = try CLITestSupport.write(gpx, to: "broken.gpx", in: directory)
    let store = directory.appendingPathComponent("shifts.sqlite").path
    let imported = CLITestSupport.run(["import", "--store", store, feed])
    #expect(imported.status == 1)
    #expect(imported.error.contains("broken.gpx:5:"), "the error names the file and line: \(imported.error)")
    #expect(imported.output.contains("(truncated: reading stopped before the end of the feed)"))
    let listed = try CLITestSupport.jsonLines(CLITestSupport.run(["shifts", "--json", "--store", store]).output)[0]
    #expect(listed["status"] as? String == "truncated")
    #expect(listed["samples"] as? Int == 4, "the valid points before the error are kept")
    let measured = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", feed]).output)[0]
    #expect(measured["summary"] as? String == "under 0.1 mi recorded · partial route")
    #expect(listed["summary"] as? String == measured["summary"] as? String)
    #expect(listed["isPartial"] as? Bool == true)
    #expect(listed["meters"] as? Double == measured["meters"] as? Double)
    #expect(listed["details"] as? [String] == measured["details"] as? [String])
    #expect((listed["details"] as? [String] ?? []).contains { $0.hasPrefix("Reading stopped at line 5: ") })
    #expect(imported.output.contains("under 0.1 mi recorded · partial route"))
    #expect(imported.output.contains("Reading stopped at line 5:"))
    let batch = CLITestSupport.run(["batch", "--store", store])
    #expect(batch.status == 1)
    #expect(batch.output.contains("truncated"))
    #expect(
      batch.output.contains(
        "1 shift: 0 measured (0 partial), 0 unmeasurable, 1 truncated, 0 failed · sum of recorded figures: under 0.1 mi"
      ))
  }

  @Test func storeErrorsAreClearAndExitOne() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let notADatabase = try CLITestSupport.write(
      String(repeating: "not sqlite\n", count: 200), to: "x.sqlite", in: directory)
    let result = CLITestSupport.run(["shifts", "--store", notADatabase])
    #expect(result.status == 1)
    #expect(result.error.contains("not"), "\(result.error)")
    let usage = CLITestSupport.run(["shifts"])
    #expect(usage.status == 64)
    #expect(usage.error.contains("--store"))
  }

  /// A real `routemiles import` process killed with SIGKILL at several points: the store stays
  /// consistent, and no shift looks complete unless it holds every retained sample.
  @Test func killNineDuringARealImportLeavesNoShiftThatLooksComplete() throws {
    try CLITestSupport.withFeed(Self.drive(count: 300_000), named: "long.csv") { directory, feed in
      // What a whole import retains, for comparison.
      let reference = CLITestSupport.importedStore(feed, named: "reference.sqlite", in: directory)
      let referenceStore = try RouteStore(path: reference)
      let complete = try referenceStore.shifts()[0].sampleCount
      let referencePositions = try referenceStore.positions(of: ShiftID(1))
      #expect(complete > 290_000)

      var interruptedSeen = 0
      for (run, delay) in [0.05, 0.3, 0.8, 1.5].enumerated() {
        let store = directory.appendingPathComponent("killed-\(run).sqlite").path
        let process = Process()
        process.executableURL = CLITestSupport.binary
        process.arguments = ["import", "--store", store, "--batch-size", "5000", feed]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        guard FileManager.default.fileExists(atPath: store) else { continue }
        let opened = try RouteStore(path: store)
        #expect(try opened.integrityCheck(), "run \(run): integrity_check")
        for shift in try opened.shifts() {
          if shift.status == .complete {
            #expect(shift.sampleCount == complete, "run \(run): a complete shift holds every sample")
          } else {
            #expect(shift.isInterrupted)
            // Whole batches: what is stored is exactly the start of what a whole import stores.
            let stored = try opened.positions(of: shift.id)
            #expect(stored.count <= complete)
            #expect(stored == Array(referencePositions.prefix(stored.count)), "run \(run): a prefix of whole batches")
            interruptedSeen += 1
          }
        }
      }
      #expect(interruptedSeen > 0, "at least one kill landed mid-import")
    }
  }
}
