import Foundation
import Testing

/// `replay` of SampleRoutes/shift-deliveries.csv: its delivery events applied at their instants,
/// and the card's counts, rows, status line, controls and reminder at chosen instants.
@Suite("routemiles replay with deliveries")
struct ReplayDeliveriesTests {
  @Test func theCardFollowsTheDeliveriesAtTheirInstants() throws {
    let feed = ReplayTests.samples.appendingPathComponent("shift-deliveries.csv").path
    let (lines, status, error) = try ReplayTests.replay([feed])
    #expect(status == 0, "\(error)")
    let updates = lines.filter { $0["type"] as? String == "update" }
    func at(_ minutes: Int) throws -> [String: Any] {
      try #require(updates.last { ($0["shiftSeconds"] as? Double ?? -1) <= Double(minutes * 60) })
    }
    // 17:22: d1 and d2 at their pickup, d3 heading to its own: no step, no status line.
    let three = try at(22)
    #expect(three["deliveryCountsLine"] as? String == "3 in progress · 0 delivered")
    #expect(
      three["deliveryLines"] as? [String] == [
        "Delivery 1 · At pickup · 17:00", "Delivery 2 · At pickup · 17:00", "Delivery 3 · To pickup · 2:00",
      ])
    #expect(three["deliveryStatusLine"] is NSNull)
    #expect(
      three["stepRefusalLine"] as? String
        == "Several deliveries are in progress. Record each step against its own delivery.")
    #expect(three["controls"] as? [String] == ["Start Delivery", "Park Vehicle"])
    // 18:05: one delivery open, so its next step and its status line.
    let one = try at(65)
    #expect(one["deliveryCountsLine"] as? String == "1 in progress · 2 delivered")
    #expect(one["deliveryStatusLine"] as? String == "Heading to the pickup")
    #expect(one["deliveryLines"] as? [String] == ["Delivery 4 · To pickup · 5:00"])
    #expect(one["controls"] as? [String] == ["Arrived at Pickup", "Start Delivery", "Park Vehicle"])
    // 18:15, parked: Resume Driving first, Park Vehicle replaced; never Pause or End.
    #expect(try at(75)["controls"] as? [String] == ["Resume Driving", "Arrived at Pickup", "Start Delivery"])
    // The stale acceptance: nothing at 29 min 58 s, a reminder at 30 min.
    #expect(try at(89)["reminderLines"] as? [String] == [])
    #expect(
      try at(90)["reminderLines"] as? [String] == [
        "Already at the pickup? Delivery 4 · accepted 30 min ago · no arrival recorded."
      ])
    // After the last delivery: no line, counts of the finished ones, every control back.
    let after = try at(130)
    #expect(after["deliveryLines"] as? [String] == [])
    #expect(after["deliveryCountsLine"] as? String == "0 in progress · 3 delivered")
    #expect(after["controls"] as? [String] == ["Start Delivery", "Park Vehicle", "Pause Shift", "End Shift"])
    for update in updates where !((update["deliveryLines"] as? [String]) ?? []).isEmpty {
      let controls = update["controls"] as? [String] ?? []
      #expect(!controls.contains("Pause Shift") && !controls.contains("End Shift"))
    }
    let end = try #require(lines.last)
    #expect(end["identical"] as? Bool == true)
  }
}
