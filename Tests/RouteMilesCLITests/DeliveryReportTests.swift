import Foundation
import RouteMileage
import Testing

/// Deliveries in `measure` (words, `--explain`, JSON) and `batch` (table, CSV, JSON Lines); the
/// route figure is the same with and without them.
@Suite("Deliveries in the reports", .serialized)
struct DeliveryReportTests {
  /// 2025-11-04T08:00:00Z.
  static let start = 1_762_243_200.0

  /// 08:00–10:00, a fix every 5 s along a wavy road, one session.
  static func feed() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var text = "timestamp,latitude,longitude,session\n"
    for second in stride(from: 0, through: 7200, by: 5) {
      let t = Double(second)
      let north = t * 9 + 300 * sin(t / 240)
      let east = 250 * cos(t / 150)
      text +=
        "\(formatter.string(from: Date(timeIntervalSince1970: start + t))),\(51.2 + north / 111_195),\(-0.4 + east / 69_600),s\n"
    }
    return text
  }

  static let timeline = """
    {"at": "2025-11-04T08:00:00Z", "event": "start"}
    {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1", "offer": "o1", "place": "Nowhere\\tNoodles "}
    {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d2", "offer": "o1"}
    {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d1"}
    {"at": "2025-11-04T08:29:00Z", "event": "pickup", "delivery": "d1"}
    {"at": "2025-11-04T08:30:00Z", "event": "park"}
    {"at": "2025-11-04T08:35:00Z", "event": "accept", "delivery": "d3"}
    {"at": "2025-11-04T08:40:00Z", "event": "drive"}
    {"at": "2025-11-04T08:43:00Z", "event": "deliver", "delivery": "d1"}
    {"at": "2025-11-04T08:44:00Z", "event": "arrive", "delivery": "d2"}
    {"at": "2025-11-04T08:50:00Z", "event": "cancel", "delivery": "d2"}
    {"at": "2025-11-04T09:19:00Z", "event": "arrive", "delivery": "d3"}
    {"at": "2025-11-04T09:18:00Z", "event": "cancel", "delivery": "d3"}
    {"at": "2025-11-04T10:00:00Z", "event": "end"}

    """

  static var shiftOnly: String {
    timeline.split(separator: "\n").filter { !$0.contains("delivery") }.joined(separator: "\n") + "\n"
  }

  struct Files {
    let feed: String
    let withDeliveries: String
    let shiftOnly: String
  }

  static func files() throws -> Files {
    let directory = try CLITestSupport.temporaryDirectory()
    return Files(
      feed: try CLITestSupport.write(feed(), to: "drive.csv", in: directory),
      withDeliveries: try CLITestSupport.write(timeline, to: "day.jsonl", in: directory),
      shiftOnly: try CLITestSupport.write(shiftOnly, to: "shift.jsonl", in: directory))
  }

  @Test func theJSONCarriesTheDeliveriesObjectAndTheRouteFigureIsUnchanged() throws {
    let files = try Self.files()
    let with = CLITestSupport.run(["measure", "--json", "--timeline", files.withDeliveries, files.feed])
    let without = CLITestSupport.run(["measure", "--json", "--timeline", files.shiftOnly, files.feed])
    #expect(with.status == 0)
    #expect(without.status == 0)
    let withObject = try CLITestSupport.jsonObject(Substring(with.output))
    let withoutObject = try CLITestSupport.jsonObject(Substring(without.output))
    // The route, to the bit: every member but `deliveries` is the same text.
    let deliveriesStart = try #require(with.output.range(of: #","deliveries":"#))
    let segmentsStart = try #require(with.output.range(of: #","segments":"#))
    #expect(deliveriesStart.lowerBound < segmentsStart.lowerBound)
    let withText = String(with.output[..<deliveriesStart.lowerBound] + with.output[segmentsStart.lowerBound...])
    #expect(withText == without.output)
    #expect((withObject["meters"] as? Double) == (withoutObject["meters"] as? Double))
    #expect(withoutObject["deliveries"] == nil)

    let deliveries = try #require(withObject["deliveries"] as? [String: Any])
    #expect(deliveries["delivered"] as? Int == 1)
    #expect(deliveries["cancelled"] as? Int == 2)
    #expect(deliveries["inProgress"] as? Int == 0)
    // 08:10–09:19 (d3's cancel is clamped forward to its 09:19 arrival): 69 min of 120.
    #expect(deliveries["activeSeconds"] as? Int == 4140)
    #expect(deliveries["nonDeliverySeconds"] as? Int == 3060)
    let offers = try #require(deliveries["offers"] as? [[String: Any]])
    #expect(offers.map { $0["status"] as? String } == ["partlyCompleted", "cancelled"])
    #expect(offers.map { $0["deliveries"] as? [Int] } == [[1, 2], [3]])
    #expect(offers[1]["label"] is NSNull)
    let items = try #require(deliveries["items"] as? [[String: Any]])
    #expect(items.map { $0["label"] as? String } == ["d1", "d2", "d3"])
    #expect(items.map { $0["offer"] as? Int } == [1, 1, 2])
    #expect(items.map { $0["state"] as? String } == ["delivered", "cancelled", "cancelled"])
    // The place's display form; a delivery naming none has null.
    #expect(items[0]["place"] as? String == "Nowhere Noodles")
    #expect(items[1]["place"] is NSNull)
    #expect(items[0]["waitedAtPickupSeconds"] as? Int == 540)
    #expect(items[0]["acceptedToDeliveredSeconds"] as? Int == 1980)
    #expect(items[1]["waitedAtPickupSeconds"] is NSNull)
    #expect(items[1]["acceptedToDeliveredSeconds"] is NSNull)
    #expect(items[1]["arrivedAtPickupAt"] as? String == "2025-11-04T08:44:00Z")
    #expect(items[1]["pickedUpAt"] is NSNull)
    #expect(items[2]["cancelledAt"] as? String == "2025-11-04T09:19:00Z")
    let clamped = try #require(items[2]["clamped"] as? [[String: Any]])
    #expect(clamped.count == 1)
    #expect(clamped[0]["event"] as? String == "cancel")
    #expect(clamped[0]["recordedAt"] as? String == "2025-11-04T09:18:00Z")
    #expect(clamped[0]["appliedAt"] as? String == "2025-11-04T09:19:00Z")
    #expect(clamped[0]["reason"] as? String == "previousLine")
    #expect((items[0]["clamped"] as? [Any])?.isEmpty == true)
    #expect(
      Set(items[0].keys) == [
        "number", "label", "offer", "place", "state", "acceptedAt", "arrivedAtPickupAt", "pickedUpAt", "deliveredAt",
        "cancelledAt",
        "waitedAtPickupSeconds", "acceptedToDeliveredSeconds", "clamped",
      ])
  }

  /// Every key of every per-delivery and per-offer object, nested ones included.
  static func keys(_ value: Any) -> [String] {
    if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
    if let array = value as? [Any] { return array.flatMap(keys) }
    return []
  }

  @Test func noPerDeliveryOrPerOfferObjectCarriesADistance() throws {
    let files = try Self.files()
    let measured = CLITestSupport.run(["measure", "--json", "--timeline", files.withDeliveries, files.feed])
    let batch = CLITestSupport.run(["batch", "--format", "jsonl", "--timeline", files.withDeliveries, files.feed])
    for output in [measured.output, batch.output] {
      let object = try CLITestSupport.jsonObject(Substring(output.split(separator: "\n")[0]))
      let deliveries = try #require(object["deliveries"] as? [String: Any])
      let keys = Self.keys(deliveries["items"] as Any) + Self.keys(deliveries["offers"] as Any)
      #expect(!keys.isEmpty)
      for key in keys {
        let lower = key.lowercased()
        for word in ["meter", "metre", "mile", "distance", "km", "cost", "permile"] {
          #expect(!lower.contains(word), "\(key)")
        }
      }
    }
  }

  @Test func theWordsListEachDeliveryUnderItsNumberInAcceptanceOrder() throws {
    let files = try Self.files()
    let result = CLITestSupport.run(["measure", "--explain", "--timeline", files.withDeliveries, files.feed])
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    let first = try #require(lines.firstIndex { $0.hasPrefix("  Deliveries:") })
    #expect(
      Array(lines[first...].prefix(9)) == [
        "  Deliveries: 1 delivered, 2 cancelled, 0 in progress, in 2 offers; delivery active time 1h 09m, non-delivery time 51m 00s.",
        "    Delivery 1 (d1): Delivered; pickup place Nowhere Noodles; offer 1, accepted together with Delivery 2. Accepted 2025-11-04T08:10:00Z, arrived at pickup 2025-11-04T08:20:00Z, picked up 2025-11-04T08:29:00Z, delivered 2025-11-04T08:43:00Z. Waited at pickup 9m 00s, accepted to delivered 33m 00s.",
        "    Delivery 2 (d2): Cancelled; offer 1, accepted together with Delivery 1. Accepted 2025-11-04T08:10:00Z, arrived at pickup 2025-11-04T08:44:00Z, cancelled 2025-11-04T08:50:00Z.",
        "    Delivery 3 (d3): Cancelled. Accepted 2025-11-04T08:35:00Z, arrived at pickup 2025-11-04T09:19:00Z, cancelled 2025-11-04T09:19:00Z.",
        "  Offers of several deliveries: offer 1 (o1) partly completed, partly cancelled.",
        "  Clamped: \(files.withDeliveries):13: the cancel at 2025-11-04T09:18:00Z is earlier than line 12 (arrive at 2025-11-04T09:19:00Z): applied at 2025-11-04T09:19:00Z, 1m 00s later than recorded.",
        "  No distance, cost or per-mile figure is given per delivery or per offer: route distance is measured for the shift.",
        "  Delivery active time is the union of each delivery's accepted-to-finished interval, overlaps counted once:",
        "    1. 2025-11-04T08:10:00Z → 2025-11-04T09:19:00Z (1h 09m)",
      ])
    // Without deliveries the report has no delivery line at all.
    let plain = CLITestSupport.run(["measure", "--timeline", files.shiftOnly, files.feed])
    #expect(!plain.output.contains("Deliver"))
  }

  @Test func aRefusedLineNamesFileLineAndRuleAndNothingIsMeasured() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    let feed = try CLITestSupport.write(Self.feed(), to: "drive.csv", in: directory)
    let lines = Self.timeline.split(separator: "\n").map(String.init)
    // The end moved before d3 finished: refused, counting the delivery still open.
    let refused = (lines.prefix(8) + [lines[13]]).joined(separator: "\n") + "\n"
    let path = try CLITestSupport.write(refused, to: "day.jsonl", in: directory)
    let result = CLITestSupport.run(["measure", "--json", "--timeline", path, feed])
    #expect(result.status == 1)
    #expect(
      result.error
        == "routemiles: \(path):9: the event on line 9 is refused: end refused: 3 deliveries are still in progress (Delivery 1 \"d1\", Delivery 2 \"d2\", Delivery 3 \"d3\"); mark each one delivered or cancel it first (it collides with the pickup of Delivery 1 \"d1\") at 2025-11-04T08:29:00Z on line 5\n"
    )
    let object = try CLITestSupport.jsonObject(Substring(result.output))
    #expect(object["meters"] == nil)
  }

  @Test func batchRowsCarryTheDeliveryColumns() throws {
    let files = try Self.files()
    let csv = CLITestSupport.run(["batch", "--format", "csv", "--timeline", files.withDeliveries, files.feed]).output
      .split(separator: "\n")
    #expect(csv[0].hasSuffix(",summary,error,delivered,cancelled,in_progress,delivery_active_seconds,status"))
    #expect(csv[1].hasSuffix(",,1,2,0,4140,partial"))
    let plainCSV = CLITestSupport.run(["batch", "--format", "csv", "--timeline", files.shiftOnly, files.feed]).output
      .split(separator: "\n")
    #expect(plainCSV[1].hasSuffix(",,,,,,partial"))
    let table = CLITestSupport.run(["batch", "--timeline", files.withDeliveries, files.feed]).output.split(
      separator: "\n")
    #expect(table[0].contains("unreadable  delivered  cancelled  in progress  delivery active  status"))
    #expect(table[1].contains("          1          2            0           1h 09m  "))
    let jsonl = CLITestSupport.run(["batch", "--format", "jsonl", "--timeline", files.withDeliveries, files.feed])
      .output
    let row = try CLITestSupport.jsonObject(Substring(jsonl.split(separator: "\n")[0]))
    #expect((row["deliveries"] as? [String: Any])?["activeSeconds"] as? Int == 4140)
  }
}
