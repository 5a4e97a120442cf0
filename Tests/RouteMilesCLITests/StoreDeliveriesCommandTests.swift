import Foundation
import RouteStore
import Testing

/// `import` keeps a timeline's deliveries; `shifts` and `batch --store` report them with the
/// object `measure --json` gives the same files; `shifts --delete` leaves none behind.
@Suite("import, shifts and batch --store with deliveries")
struct StoreDeliveriesCommandTests {
  /// SampleRoutes' shift with stacked deliveries, its timeline changed to clamp a cancel and a
  /// park (each one minute earlier than the line before).
  static func withDrive(_ body: (_ feed: String, _ store: String) throws -> Void) throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let samples = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes")
    let feed = directory.appendingPathComponent("drive.csv").path
    try FileManager.default.copyItem(atPath: samples.appendingPathComponent("shift-deliveries.csv").path, toPath: feed)
    let timeline = try String(
      contentsOf: samples.appendingPathComponent("shift-deliveries.timeline.jsonl"), encoding: .utf8
    )
    .replacingOccurrences(
      of: #"{"at": "2025-11-10T17:50:00Z", "event": "cancel", "delivery": "d3"}"#,
      with: #"{"at": "2025-11-10T17:40:00Z", "event": "cancel", "delivery": "d3"}"#
    )
    .replacingOccurrences(
      of: #"{"at": "2025-11-10T18:10:00Z", "event": "park"}"#, with: #"{"at": "2025-11-10T17:59:00Z", "event": "park"}"#
    )
    #expect(timeline.contains("17:40:00Z") && timeline.contains("17:59:00Z"))
    _ = try CLITestSupport.write(timeline, to: "drive.timeline.jsonl", in: directory)
    try body(feed, directory.appendingPathComponent("shifts.sqlite").path)
  }

  static func deliveries(_ line: Substring) throws -> NSDictionary {
    try #require(try CLITestSupport.jsonObject(line)["deliveries"] as? NSDictionary)
  }

  @Test func aStoredShiftReportsTheDeliveriesMeasureGivesItsFiles() throws {
    try Self.withDrive { feed, store in
      let measured = CLITestSupport.run(["measure", "--json", feed])
      #expect(measured.status == 0)
      let expected = try Self.deliveries(Substring(measured.output))
      #expect(expected["activeSeconds"] as? Int == 6720)
      let items = try #require(expected["items"] as? [NSDictionary])
      #expect((items[2]["clamped"] as? [NSDictionary])?.count == 1, "the clamped cancel")

      let imported = CLITestSupport.run(["import", "--store", store, "--json", feed])
      #expect(imported.status == 0)
      #expect(try Self.deliveries(Substring(imported.output)) == expected)

      let listed = CLITestSupport.run(["shifts", "--store", store, "--json"])
      #expect(listed.status == 0)
      let shift = try CLITestSupport.jsonObject(Substring(listed.output))
      #expect(try Self.deliveries(Substring(listed.output)) == expected)
      let measuredShift = try #require(
        try CLITestSupport.jsonObject(Substring(measured.output))["shift"] as? NSDictionary)
      let storedTimeline = try #require(shift["timeline"] as? NSDictionary)
      #expect(storedTimeline["clamped"] as? NSArray == measuredShift["clamped"] as? NSArray, "the clamped park")
      #expect((storedTimeline["clamped"] as? NSArray)?.count == 1)

      let batch = CLITestSupport.run(["batch", "--store", store, "--format", "jsonl"])
      #expect(batch.status == 0)
      #expect(try Self.deliveries(Substring(batch.output)) == expected)
    }
  }

  @Test func theWordsOfShiftsAndBatchCountTheDeliveries() throws {
    try Self.withDrive { feed, store in
      #expect(CLITestSupport.run(["import", "--store", store, feed]).status == 0)
      let listed = CLITestSupport.run(["shifts", "--store", store]).output.split(separator: "\n")
      #expect(listed.count == 3)
      #expect(
        listed[2]
          == "         Deliveries: 3 delivered, 1 cancelled, 0 in progress, in 3 offers; delivery active time 1h 52m, non-delivery time 38m 00s."
      )
      let batch = CLITestSupport.run(["batch", "--store", store]).output.split(separator: "\n")
      #expect(
        batch[1].hasPrefix(
          "    41.1      39.8         2     1        583         0           0          3          1            0           1h 52m  partial"
        ))
    }
  }

  @Test func deletingTheShiftLeavesNoDeliveryOfferOrClamp() throws {
    try Self.withDrive { feed, store throws in
      #expect(CLITestSupport.run(["import", "--store", store, feed]).status == 0)
      func rows() throws -> [Int64] {
        let opened = try RouteStore(path: store, access: .readOnly)
        return try ["offers", "deliveries", "clamps"].map {
          try opened.database.integer("SELECT count(*) FROM \($0)") ?? -1
        }
      }
      #expect(try rows() == [3, 4, 2])
      let deleted = CLITestSupport.run(["shifts", "--store", store, "--delete", "1"])
      #expect(deleted.status == 0)
      #expect(deleted.output.hasSuffix("(no shifts)\n"))
      #expect(try rows() == [0, 0, 0])
      #expect(CLITestSupport.run(["export", "--store", store, "--format", "json"]).output == "")
    }
  }
}
