import Foundation
import RouteMileage
import RouteStore
import Testing

/// `routemiles replay` at `--speed max`, checked through its JSON Lines stream.
@Suite("routemiles replay")
struct ReplayTests {
  static let samples = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes")

  static func replay(_ arguments: [String]) throws -> (lines: [[String: Any]], status: Int32, error: String) {
    let result = CLITestSupport.run(["replay", "--speed", "max", "--json"] + arguments)
    return (try CLITestSupport.jsonLines(result.output), result.status, result.error)
  }

  @Test(arguments: [
    "clean-2h-drive.gpx", "shift-12h-gaps.gpx", "shift-12h-gaps.nmea", "messy-feed.csv", "legacy-no-session.csv",
    "fix-loss-midnight.nmea", "shift-timeline.csv",
  ])
  func anInOrderFeedWithNoFaultsEndsWithIdenticalFigures(_ file: String) throws {
    let feed = Self.samples.appendingPathComponent(file).path
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("replay.sqlite").path
    let (lines, status, error) = try Self.replay(["--store", store, feed])
    #expect(status == 0, "\(error)")
    let updates = lines.filter { $0["type"] as? String == "update" }
    let end = try #require(lines.last)
    #expect(end["type"] as? String == "end")
    #expect(end["identical"] as? Bool == true, "\(file): \(end["reason"] ?? "")")
    // The replay ends on the one-pass floor.
    let finalFloor = try #require(end["finalFloorMeters"] as? Double)
    #expect(end["liveFloorMeters"] as? Double == finalFloor, "\(file)")
    #expect(finalFloor > 0.8 * (end["finalMeters"] as? Double ?? 0), "\(file)")

    // The live figure never goes down without a discard, and the card's figure changes at most
    // once per 30 s of shift time (the final update, when the shift ends, shows at once).
    var lastLive = 0.0
    var lastChange: (seconds: Double, meters: Double?, measured: Bool, partial: Bool)?
    for update in updates {
      let live = (update["liveMeters"] as? Double) ?? 0
      #expect(live >= lastLive, "\(file): the live figure went down at \(update["shiftSeconds"] ?? "")")
      lastLive = live
      let shown = update["meters"] as? Double
      let seconds = try #require(update["shiftSeconds"] as? Double)
      let measured = update["isMeasured"] as? Bool ?? false
      let partial = update["isPartial"] as? Bool ?? false
      if let last = lastChange, shown != last.meters {
        let stateChanged = measured != last.measured || partial != last.partial
        if !stateChanged && update["state"] as? String != "ended" {
          #expect(seconds - last.seconds >= 30, "\(file): the figure changed after \(seconds - last.seconds) s")
        }
      }
      if lastChange == nil || shown != lastChange?.meters { lastChange = (seconds, shown, measured, partial) }
    }

    // The final figure equals `measure` on the feed, and the calculator on the stored rows.
    let measured = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", feed]).output)[0]
    #expect(end["finalMeters"] as? Double == measured["meters"] as? Double)
    let batch = try CLITestSupport.jsonLines(
      CLITestSupport.run(["batch", "--store", store, "--format", "jsonl", "--no-filter"]).output)[0]
    #expect(end["finalMeters"] as? Double == batch["meters"] as? Double)
    #expect(end["finalLine"] as? String == measured["summary"] as? String)
  }

  @Test func discardedBatchesAreCaughtAndTheFigureEqualsWhatTheStoreStillHolds() throws {
    let feed = Self.samples.appendingPathComponent("shift-12h-gaps.gpx").path
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("replay.sqlite").path
    let (lines, status, _) = try Self.replay(["--store", store, "--discard-batches", "0.2", "--seed", "42", feed])
    #expect(status == 0)
    let discards = lines.filter { $0["type"] as? String == "discard" }
    #expect(discards.count > 100)
    let end = try #require(lines.last)
    #expect(end["discardedBatches"] as? Int == discards.count)
    #expect(end["identical"] as? Bool == true)
    let refreshes = try #require(end["refreshes"] as? [String: Int])
    #expect(refreshes["freshMeasurements"] == discards.count, "every discard forces one fresh measurement")

    // The one-pass measurement of what the store still holds.
    let stored = try RouteStore(path: store)
    let onePass = try stored.measure(shift: ShiftID(1))
    #expect(end["finalMeters"] as? Double == onePass.meters)
    #expect(end["liveMeters"] as? Double == onePass.meters)
    #expect(try stored.sampleCount(of: ShiftID(1)) == end["storedSamples"] as? Int)

    // Between discards the live figure never goes down.
    var lastLive = 0.0
    for line in lines {
      if line["type"] as? String == "discard" { lastLive = 0 }
      guard line["type"] as? String == "update", let live = line["liveMeters"] as? Double else { continue }
      #expect(live >= lastLive || lastLive == 0)
      lastLive = live
    }
  }

  @Test func anInterruptionStartsANewSessionAndLosesTheUnsavedBatch() throws {
    let feed = Self.samples.appendingPathComponent("clean-2h-drive.gpx").path
    let (lines, status, _) = try Self.replay(["--interrupt-at", "3600", "--relaunch-after", "45", feed])
    #expect(status == 0)
    let interrupt = try #require(lines.first { $0["type"] as? String == "interrupt" })
    #expect(interrupt["shiftSeconds"] as? Double == 3600)
    #expect(interrupt["captureResumesAt"] as? Double == 3645)
    let end = try #require(lines.last)
    #expect((end["notCaptured"] as? Int ?? 0) >= 40)
    let finalLine = try #require(end["finalLine"] as? String)
    #expect(finalLine.hasSuffix("· partial route"), "the relaunch is a capture gap")
    let after = lines.last { $0["type"] as? String == "update" }
    #expect(after?["gapCount"] as? Int == 1)
  }

  @Test func usageErrors() {
    #expect(CLITestSupport.run(["replay"]).status == 64)
    #expect(CLITestSupport.run(["replay", "--speed", "fast", "x.gpx"]).status == 64)
    #expect(CLITestSupport.run(["replay", "--discard-batches", "2", "x.gpx"]).status == 64)
    #expect(CLITestSupport.run(["replay", "--no-filter", "x.gpx"]).status == 64)
    let missing = CLITestSupport.run(["replay", "/nonexistent/feed.gpx"])
    #expect(missing.status == 1)
    #expect(missing.error.contains("/nonexistent/feed.gpx"))
  }
}
