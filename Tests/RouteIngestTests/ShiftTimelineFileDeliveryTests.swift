import RouteFeeds
import RouteIngest
import RouteMileage
import ShiftWork
import Testing

/// Deliveries in the timeline file: the events, recorded order and its clamps, refusals by line.
@Suite("Timeline files with deliveries")
struct ShiftTimelineFileDeliveryTests {
  static func parse(_ text: String) throws(ShiftTimelineFile.Failure) -> ShiftTimelineFile.Record {
    try ShiftTimelineFile.parseRecord(Array(text.utf8), path: "day.jsonl")
  }

  static let day = """
    {"at": "2025-11-04T08:00:00Z", "event": "start"}
    {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1", "offer": "o1"}
    {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d2", "offer": "o1"}
    {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d1"}
    {"at": "2025-11-04T08:29:00Z", "event": "pickup", "delivery": "d1"}
    {"at": "2025-11-04T08:30:00Z", "event": "park"}
    {"at": "2025-11-04T08:35:00Z", "event": "accept", "delivery": "d3"}
    {"at": "2025-11-04T08:40:00Z", "event": "drive"}
    {"at": "2025-11-04T08:43:00Z", "event": "deliver", "delivery": "d1"}
    {"at": "2025-11-04T08:44:00Z", "event": "arrive", "delivery": "d2"}
    {"at": "2025-11-04T08:50:00Z", "event": "cancel", "delivery": "d2"}
    {"at": "2025-11-04T09:20:00Z", "event": "cancel", "delivery": "d3"}
    {"at": "2025-11-04T10:00:00Z", "event": "end"}

    """

  @Test func readsShiftAndDeliveryEventsInOneFile() throws {
    let record = try Self.parse(Self.day)
    let ledger = record.ledger
    #expect(record.clamps.isEmpty)
    #expect(ledger.timeline.events.map(\.kind) == [.start, .park, .drive, .end])
    #expect(ledger.deliveries.map(\.label) == ["d1", "d2", "d3"])
    #expect(ledger.deliveries.map(\.state) == [.delivered, .cancelled, .cancelled])
    #expect(ledger.offers.map(\.status) == [.partlyCompleted, .cancelled])
    #expect(ledger.deliveries[0].waitedAtPickupSeconds == 540)
    #expect(ledger.deliveries[0].acceptedToDeliveredSeconds == 1980)
    // 08:10–09:20 is covered by one delivery or another: 70 min of the 2 h.
    let end = try #require(ledger.timeline.end)
    #expect(ledger.activeDuration(asOf: end) == 4200)
    #expect(ledger.nonDeliveryDuration(asOf: end) == 3000)
    // The timeline read without its deliveries is the same timeline.
    let shiftOnly = Self.day.split(separator: "\n").filter { !$0.contains("delivery") }.joined(separator: "\n")
    #expect(try ShiftTimelineFile.parse(Array(shiftOnly.utf8), path: "x") == ledger.timeline)
    #expect(try ShiftTimelineFile.parse(Array(Self.day.utf8), path: "x") == ledger.timeline)
  }

  @Test func aLineEarlierThanTheLineBeforeIsClampedAndReportedForShiftAndDeliveryEvents() throws {
    let record = try Self.parse(
      """
      {"at": "2025-11-04T08:00:00Z", "event": "start"}
      {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1"}
      {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d1"}
      {"at": "2025-11-04T08:18:00Z", "event": "pickup", "delivery": "d1"}
      {"at": "2025-11-04T08:30:00Z", "event": "deliver", "delivery": "d1"}
      {"at": "2025-11-04T08:29:00Z", "event": "pause"}
      {"at": "2025-11-04T09:00:00Z", "event": "end"}
      """)
    #expect(record.clamps.map(\.line) == [4, 6])
    #expect(
      record.clamps.map(\.description) == [
        "day.jsonl:4: the pickup at 2025-11-04T08:18:00Z is earlier than line 3 (arrive at 2025-11-04T08:20:00Z): applied at 2025-11-04T08:20:00Z, 2m 00s later than recorded",
        "day.jsonl:6: the pause at 2025-11-04T08:29:00Z is earlier than line 5 (deliver at 2025-11-04T08:30:00Z): applied at 2025-11-04T08:30:00Z, 1m 00s later than recorded",
      ])
    let delivery = record.ledger.deliveries[0]
    #expect(delivery.waitedAtPickupSeconds == 0)
    #expect(delivery.clamps.count == 1)
    #expect(record.ledger.shiftClamps.count == 1)
    #expect(record.ledger.timeline.interruptions.first?.start == delivery.deliveredAt)
  }

  @Test func aShiftEventOnlyTimelineWithABackwardsLineIsClampedNotRefused() throws {
    let timeline = try ShiftTimelineFile.parse(
      Array(
        """
        {"at": "2025-11-04T08:00:00Z", "event": "start"}
        {"at": "2025-11-04T10:00:00Z", "event": "pause"}
        {"at": "2025-11-04T09:50:00Z", "event": "resume"}
        {"at": "2025-11-04T12:00:00Z", "event": "end"}
        """.utf8), path: "day.jsonl")
    let ten: Double = 1_762_243_200 + 2 * 3600
    #expect(timeline.pausedDuration(asOf: ten + 7200) == 0)
    #expect(timeline.interruptions.map(\.start) == [ten])
    #expect(timeline.interruptions.map(\.end) == [ten])
  }

  static let opening = """
    {"at": "2025-11-04T08:00:00Z", "event": "start"}
    {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1"}
    {"at": "2025-11-04T08:12:00Z", "event": "accept", "delivery": "d2"}
    {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d1"}

    """

  @Test(arguments: [
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "arrive", "delivery": "d7"}"#,
      #"the event on line 6 is refused: delivery "d7": arrive for a delivery no accept created on this shift"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "deliver", "delivery": "d1"}"#,
      #"the event on line 6 is refused: Delivery 1 "d1": deliver before its pickup (it collides with its arrive) at 2025-11-04T08:20:00Z on line 4"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "accept", "delivery": "d2"}"#,
      #"the event on line 6 is refused: Delivery 2 "d2" is accepted a second time: two deliveries cannot share a label (it collides with its accept) at 2025-11-04T08:12:00Z on line 3"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "pause"}"#,
      #"the event on line 6 is refused: pause refused: 2 deliveries are still in progress (Delivery 1 "d1", Delivery 2 "d2"); mark each one delivered or cancel it first (it collides with the arrive of Delivery 1 "d1") at 2025-11-04T08:20:00Z on line 4"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "end"}"#,
      #"the event on line 6 is refused: end refused: 2 deliveries are still in progress (Delivery 1 "d1", Delivery 2 "d2"); mark each one delivered or cancel it first (it collides with the arrive of Delivery 1 "d1") at 2025-11-04T08:20:00Z on line 4"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "arrive"}"#,
      #"line 6: arrive has no "delivery" naming its delivery (a string such as "d1"): every delivery event names one"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "dropoff", "delivery": "d1"}"#,
      "line 6: unknown event 'dropoff': use start, pause, resume, park, drive, end, accept, arrive, pickup, deliver or cancel"
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "accept", "delivery": "d3", "offer": 4}"#,
      #"line 6: "offer" must be a string naming the offer"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "accept", "delivery": "d3", "place": 4}"#,
      #"line 6: "place" must be a string naming the pickup place"#
    ),
    (
      #"{"at": "2025-11-04T08:30:00Z", "event": "accept", "delivery": "d3", "place": " \t "}"#,
      #"line 6: "place" must be a string naming the pickup place: a pickup place name cannot be empty"#
    ),
    (
      "{\"at\": \"2025-11-04T08:30:00Z\", \"event\": \"accept\", \"delivery\": \"d3\", \"place\": \"\(String(repeating: "Example Diner ", count: 8))\"}",
      #"line 6: "place" must be a string naming the pickup place: a pickup place name is at most 100 characters; this one has 111"#
    ),
  ])
  func badLinesAreRefusedNamingFileLineAndRule(line: String, words: String) {
    do {
      _ = try Self.parse(Self.opening + "\n" + line + "\n")
      Issue.record("accepted \(line)")
    } catch {
      #expect(error.line == 6)
      #expect(error.description == "day.jsonl:6: " + words)
    }
  }

  @Test func aDeliveryEventNamesItsPickupPlaceAndALaterOneReplacesIt() throws {
    let record = try Self.parse(
      #"""
      {"at": "2025-11-04T08:00:00Z", "event": "start"}
      {"at": "2025-11-04T08:10:00Z", "event": "accept", "delivery": "d1", "place": "Example\u0020\u0020Diner"}
      {"at": "2025-11-04T08:11:00Z", "event": "accept", "delivery": "d2", "place": null}
      {"at": "2025-11-04T08:12:00Z", "event": "accept", "delivery": "d3", "place": "Caf\u00e9 Rio"}
      {"at": "2025-11-04T08:20:00Z", "event": "arrive", "delivery": "d3", "place": "Cafe\u0301 Rio Annex"}

      """#)
    #expect(record.ledger.deliveries.map { $0.place?.display } == ["Example Diner", nil, "Caf\u{E9} Rio Annex"])
  }

  @Test func aDeliveryCannotBeginWhilePausedOrAfterTheEnd() {
    for (shiftLines, words) in [
      (
        #"{"at": "2025-11-04T08:30:00Z", "event": "pause"}"#,
        #"delivery "d9" cannot begin while the shift is paused (it collides with the pause) at 2025-11-04T08:30:00Z on line 2"#
      ),
      (
        #"{"at": "2025-11-04T08:30:00Z", "event": "end"}"#,
        #"delivery "d9" cannot begin after the shift ended (it collides with the end) at 2025-11-04T08:30:00Z on line 2"#
      ),
    ] {
      let text =
        #"{"at": "2025-11-04T08:00:00Z", "event": "start"}"# + "\n" + shiftLines + "\n"
        + #"{"at": "2025-11-04T08:40:00Z", "event": "accept", "delivery": "d9"}"# + "\n"
      #expect(throws: (any Error).self) { _ = try Self.parse(text) }
      do {
        _ = try Self.parse(text)
      } catch {
        #expect(error.description == "day.jsonl:3: the event on line 3 is refused: " + words)
      }
    }
  }
}
