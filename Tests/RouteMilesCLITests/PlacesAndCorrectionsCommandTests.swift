import Foundation
import RouteMileage
import Testing

/// `routemiles places` and `routemiles delivery`: the catalogue, wait history, rename, merge, and
/// each correction's sentence, refusal and exit code; the route figure unchanged by every one.
@Suite("places and delivery", .serialized)
struct PlacesAndCorrectionsCommandTests {
  /// DeliveryReportTests' shift (d1 delivered at Nowhere Noodles, d2 and d3 cancelled, offer o1
  /// of d1 and d2), imported into a new store. Returns the store's path.
  static func store() throws -> String {
    let files = try DeliveryReportTests.files()
    let store = (files.feed as NSString).deletingLastPathComponent + "/work.sqlite"
    let imported = CLITestSupport.run(["import", "--store", store, "--timeline", files.withDeliveries, files.feed])
    #expect(imported.status == 0, "\(imported.error)")
    return store
  }

  /// The shift's route figure as `shifts --json` prints it (the whole object but the ledger).
  static func figure(_ store: String) throws -> String {
    let listed = CLITestSupport.run(["shifts", "--json", "--store", store])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
    return
      "\(object["meters"] ?? "none") \(object["segments"] ?? "") \(object["gaps"] ?? "") \(object["floorMeters"] ?? "")"
  }

  static func run(_ store: String, _ arguments: [String]) -> (status: Int32, output: String, error: String) {
    CLITestSupport.run(["delivery", "--store", store, "--shift", "1"] + arguments)
  }

  @Test func correctionsSayWhatTheyDidRefuseWithTheRuleAndNeverMoveTheRoute() throws {
    let store = try Self.store()
    let before = try Self.figure(store)
    #expect(before.contains("."), "the figure is read: \(before)")
    var result = Self.run(store, ["--delivery", "1", "--dry-run", "cancel-correct"])
    #expect(result.status == 0)
    #expect(
      result.output
        == "Would correct Delivery 1 \"d1\" to cancelled at 2025-11-04T08:43:00Z, the instant recorded as its delivery.\n"
    )
    // Reopen is refused on an ended shift: exit 1 with the rule.
    result = Self.run(store, ["--delivery", "1", "reopen"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "shift 1: reopen refused: Delivery 1 \"d1\" is not reopened on a shift that has ended: correct it to cancelled, or correct its times (2025-11-04T10:00:00Z)\n"
      ))
    // Correct times: a completion dragged behind its pickup names the pickup.
    result = Self.run(store, ["--delivery", "1", "correct-times", "--delivered", "2025-11-04T08:28:00Z"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "correct-times refused: Delivery 1 \"d1\": the proposed delivery time is before its pickup (2025-11-04T08:29:00Z)\n"
      ))
    result = Self.run(
      store,
      [
        "--delivery", "1", "correct-times", "--picked-up", "2025-11-04T08:27:00Z", "--delivered",
        "2025-11-04T08:40:00Z",
      ])
    #expect(result.status == 0)
    #expect(
      result.output
        == "Corrected the times of Delivery 1 \"d1\": pickup 2025-11-04T08:27:00Z (was 2025-11-04T08:29:00Z), delivery 2025-11-04T08:40:00Z (was 2025-11-04T08:43:00Z).\n"
    )
    #expect(try Self.figure(store) == before)
    result = Self.run(store, ["--delivery", "1", "amount", "12.34"])
    #expect(result.output == "Recorded 12.34 as what Delivery 1 \"d1\" paid.\n")
    result = Self.run(store, ["--delivery", "1", "tip", "1.5"])
    #expect(result.output == "Recorded 1.50 in tips on Delivery 1 \"d1\".\n")
    result = Self.run(store, ["--delivery", "1", "expect", "9"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "expect refused: Delivery 1 \"d1\" has finished; record what it paid rather than what it was expected to pay\n")
    )
    result = Self.run(store, ["--delivery", "1", "cancel-correct"])
    #expect(
      result.output
        == "Corrected Delivery 1 \"d1\" to cancelled at 2025-11-04T08:40:00Z, the instant recorded as its delivery.\n")
    result = Self.run(store, ["--delivery", "1", "cancel-correct"])
    #expect(result.status == 1)
    #expect(result.error.hasSuffix("cancel-correct refused: Delivery 1 \"d1\" is not recorded as delivered\n"))
    // Grouping.
    result = Self.run(store, ["--delivery", "2", "new-offer"])
    #expect(result.output == "Put Delivery 2 \"d2\" in an offer of its own.\n")
    result = Self.run(store, ["--delivery", "1", "move", "--offer", "3"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "move refused: Delivery 1 \"d1\" was accepted before offer 3 was; an offer cannot hold work that arrived before it (2025-11-04T08:35:00Z)\n"
      ))
    result = Self.run(store, ["--delivery", "3", "combine", "--into", "2"])
    #expect(result.output == "Combined offer 3 into offer 2; offer 3 is removed.\n")
    result = Self.run(store, ["--delivery", "2", "separate"])
    #expect(result.output == "Separated offer 2: Delivery 3 has an offer of its own.\n")
    result = Self.run(store, ["--delivery", "2", "place", "nowhere noodles"])
    #expect(result.output == "Delivery 2 \"d2\" now names the pickup place Nowhere Noodles.\n")
    #expect(try Self.figure(store) == before)
    // Amounts are exact and the money survived the corrections.
    let exported = CLITestSupport.run(["export", "--store", store, "--format", "json"])
    #expect(exported.output.contains("\"amount\":\"12.34\",\"tips\":\"1.50\""))
    // Usage errors exit 64.
    #expect(Self.run(store, ["--delivery", "1", "amount", "12.345"]).status == 64)
    #expect(Self.run(store, ["--delivery", "1", "teleport"]).status == 64)
    #expect(Self.run(store, ["--delivery", "1", "correct-times"]).status == 64)
    #expect(Self.run(store, ["--delivery", "1", "place", "  "]).status == 64)
  }

  @Test func expectedPayIsInTheJSONExportAndNeverInTheCSV() throws {
    let store = try Self.store()
    // Reopen needs a running shift, so stage an in-progress delivery on a shift that runs.
    let running = try DeliveryReportTests.files()
    let timeline = """
      {"at": "2025-11-04T08:00:00Z", "event": "start"}
      {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1"}
      {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d1"}
      {"at": "2025-11-04T08:29:00Z", "event": "pickup", "delivery": "d1"}
      {"at": "2025-11-04T08:43:00Z", "event": "deliver", "delivery": "d1"}
      {"at": "2025-11-04T08:44:00Z", "event": "accept", "delivery": "d2"}

      """
    let directory = URL(fileURLWithPath: (running.feed as NSString).deletingLastPathComponent)
    let path = try CLITestSupport.write(timeline, to: "running.jsonl", in: directory)
    // Another feed (an import of the same content is skipped): the first hour only.
    let lines = DeliveryReportTests.feed().split(separator: "\n")
    let feed = try CLITestSupport.write(lines.prefix(721).joined(separator: "\n") + "\n", to: "hour.csv", in: directory)
    let imported = CLITestSupport.run(["import", "--store", store, "--timeline", path, feed])
    #expect(imported.status == 0, "\(imported.error)")
    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
      CLITestSupport.run(["delivery", "--store", store, "--shift", "2"] + arguments)
    }
    var result = run(["--delivery", "2", "expect", "7.25"])
    #expect(
      result.output == "Recorded 7.25 as the expected pay of Delivery 2 \"d2\" (expected pay, not what it paid).\n")
    result = run(["--delivery", "2", "amount", "7.25"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "amount refused: Delivery 2 \"d2\" is still in progress; what it paid is recorded once it is delivered or cancelled\n"
      ))
    result = run(["--delivery", "1", "reopen"])
    #expect(
      result.output
        == "Reopened Delivery 1 \"d1\": its delivered time is removed; it is heading to the customer again.\n")
    let json = CLITestSupport.run(["export", "--store", store, "--format", "json", "--shift", "2"]).output
    #expect(json.contains("\"expectedAmount\":\"7.25\""))
    let csv = CLITestSupport.run(["export", "--store", store, "--format", "csv", "--shift", "2"]).output
    #expect(!csv.contains("7.25") && !csv.contains("expected"))
  }

  @Test func aStoreWithoutPlacesSaysSoOnStandardError() throws {
    let files = try DeliveryReportTests.files()
    let store = (files.feed as NSString).deletingLastPathComponent + "/no-places.sqlite"
    #expect(CLITestSupport.run(["import", "--store", store, "--no-timeline", files.feed]).status == 0)
    let listed = CLITestSupport.run(["places", "--store", store])
    #expect(listed.status == 0)
    #expect(listed.output == "")
    #expect(listed.error == "\(store): no pickup place is recorded in this store.\n")
  }

  @Test func placesListHistoryRenameAndMerge() throws {
    let store = try Self.store()
    #expect(Self.run(store, ["--delivery", "3", "place", "Example Diner"]).status == 0)
    #expect(Self.run(store, ["--delivery", "2", "place", "NOWHERE NOODLES"]).status == 0)
    var result = CLITestSupport.run(["places", "--store", store])
    #expect(result.output == "Example Diner\nNowhere Noodles\n")
    result = CLITestSupport.run(["places", "--store", store, "--json", "--alphabetical"])
    #expect(
      result.output == "{\"name\":\"Example Diner\",\"recent\":true}\n{\"name\":\"Nowhere Noodles\",\"recent\":true}\n")
    // d1 waited 9 min and d2 never picked up: one wait. Add d3's arrival? It has no pickup.
    result = CLITestSupport.run(["places", "--store", store, "--history", "nowhere  noodles", "--json"])
    #expect(
      result.output
        == "{\"name\":\"Nowhere Noodles\",\"waits\":{\"count\":1,\"medianSeconds\":540,\"shortestSeconds\":540,\"longestSeconds\":540}}\n"
    )
    result = CLITestSupport.run(["places", "--store", store, "--history", "Example Diner"])
    #expect(result.output == "Example Diner: no wait recorded (a wait needs both an arrival and a pickup).\n")
    result = CLITestSupport.run(["places", "--store", store, "--rename", "Example Diner", "--to", "Nowhere Noodles"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "rename refused: that name belongs to another place, \"Nowhere Noodles\"; merge the two to put their deliveries together\n"
      ))
    result = CLITestSupport.run([
      "places", "--store", store, "--rename", "example diner", "--to", "Example Diner & Grill",
    ])
    #expect(result.output == "Renamed \"Example Diner\" to \"Example Diner & Grill\".\n")
    result = CLITestSupport.run(["places", "--store", store, "--merge", "Nowhere Noodles", "--into", "nowhere noodles"])
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "merge refused: \"Nowhere Noodles\" and the destination are the same place; nothing to merge\n"))
    result = CLITestSupport.run([
      "places", "--store", store, "--merge", "Example Diner & Grill", "--into", "Nowhere Noodles",
    ])
    #expect(
      result.output
        == "Merged \"Example Diner & Grill\" into \"Nowhere Noodles\": its deliveries now name Nowhere Noodles, keeping their recorded times, and Example Diner & Grill is removed.\n"
    )
    #expect(CLITestSupport.run(["places", "--store", store]).output == "Nowhere Noodles\n")
    result = CLITestSupport.run(["places", "--store", store, "--history", "Pretend Pho"])
    #expect(result.status == 1)
    #expect(result.error.hasSuffix("the store holds no pickup place named \"Pretend Pho\"\n"))
    #expect(CLITestSupport.run(["places", "--store", store, "--rename", "Nowhere Noodles"]).status == 64)
  }
}
