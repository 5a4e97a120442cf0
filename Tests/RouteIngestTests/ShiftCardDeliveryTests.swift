import RouteIngest
import RouteMileage
import ShiftWork
import Testing

/// The live card with deliveries (seed 001): every row of the controls table from a real
/// ledger, the counts, the status line, one line per open delivery, reminders, and the cadence.
@Suite("ShiftCard with deliveries")
struct ShiftCardDeliveryTests {
  typealias S = ShiftTimeline.Event
  typealias D = DeliveryEvent
  typealias C = ShiftCard.Control

  static let route = RouteDistance(
    meters: 7242, segments: [RouteSegment(start: 0, end: 1, positionCount: 2, meters: 7242)], gaps: [],
    usablePositionCount: 2)

  static func ledger(_ events: [ShiftWorkEvent]) -> ShiftLedger {
    var ledger = ShiftLedger()
    for event in events { try! ledger.apply(event) }
    return ledger
  }
  static func s(_ kind: S.Kind, _ at: Double) -> ShiftWorkEvent { .shift(S(kind, at: at)) }
  static func d(_ kind: D.Kind, _ at: Double, _ label: String) -> ShiftWorkEvent {
    .delivery(D(kind, at: at, delivery: label))
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var events: [ShiftWorkEvent]
    var controls: [C]
    var stepRefusal: Bool
    var testDescription: String { name }
  }

  /// Seed 001, "What it offers", each row with the deliveries that make it (read at 1000 s).
  static let rows: [Row] = [
    Row(
      name: "running, no delivery open", events: [s(.start, 0)],
      controls: [.startDelivery, .parkVehicle, .pauseShift, .endShift], stepRefusal: false),
    Row(
      name: "running, one finished and none open", events: [s(.start, 0), d(.accept, 10, "a"), d(.cancel, 20, "a")],
      controls: [.startDelivery, .parkVehicle, .pauseShift, .endShift], stepRefusal: false),
    Row(
      name: "running, one open heading to the pickup", events: [s(.start, 0), d(.accept, 10, "a")],
      controls: [.arrivedAtPickup, .startDelivery, .parkVehicle], stepRefusal: false),
    Row(
      name: "running, one open at the pickup", events: [s(.start, 0), d(.accept, 10, "a"), d(.arrive, 20, "a")],
      controls: [.pickedUp, .startDelivery, .parkVehicle], stepRefusal: false),
    Row(
      name: "running, one open heading to the customer",
      events: [s(.start, 0), d(.accept, 10, "a"), d(.arrive, 20, "a"), d(.pickup, 30, "a")],
      controls: [.delivered, .startDelivery, .parkVehicle], stepRefusal: false),
    Row(
      name: "running, two open", events: [s(.start, 0), d(.accept, 10, "a"), d(.accept, 12, "b")],
      controls: [.startDelivery, .parkVehicle], stepRefusal: true),
    Row(
      name: "parked, no delivery open", events: [s(.start, 0), s(.park, 100)],
      controls: [.resumeDriving, .startDelivery, .pauseShift, .endShift], stepRefusal: false),
    Row(
      name: "parked, one open", events: [s(.start, 0), d(.accept, 10, "a"), s(.park, 100), d(.arrive, 120, "a")],
      controls: [.resumeDriving, .pickedUp, .startDelivery], stepRefusal: false),
    Row(
      name: "parked, two open", events: [s(.start, 0), d(.accept, 10, "a"), s(.park, 100), d(.accept, 120, "b")],
      controls: [.resumeDriving, .startDelivery], stepRefusal: true),
    Row(
      name: "paused", events: [s(.start, 0), d(.accept, 10, "a"), d(.cancel, 20, "a"), s(.pause, 100)],
      controls: [.resumeShift, .endShift], stepRefusal: false),
  ]

  @Test(arguments: rows)
  func everyRowOfTheControlsTable(_ row: Row) {
    let card = ShiftCard(ledger: Self.ledger(row.events), route: Self.route, at: 1000)
    #expect(card.controls == row.controls)
    #expect((card.stepRefusalLine != nil) == row.stepRefusal)
    // Pause and End are never offered while a delivery is open.
    if !card.deliveryLines.isEmpty {
      #expect(!card.controls.contains(.pauseShift) && !card.controls.contains(.endShift))
    }
  }

  @Test func theCountsTheStatusLineOnlyForOneAndALinePerOpenDelivery() {
    // Delivery 1 accepted at 0:00 and waiting at the pickup; read 18 min 04 s later.
    let one = ShiftCard(
      ledger: Self.ledger([Self.s(.start, 0), Self.d(.accept, 0, "a"), Self.d(.arrive, 300, "a")]), route: Self.route,
      at: 1084)
    #expect(one.deliveryCountsLine == "1 in progress · 0 delivered")
    #expect(one.deliveryStatusLine == "Waiting at the pickup")
    #expect(one.deliveryLines.map(\.text) == ["Delivery 1 · At pickup · 18:04"])
    #expect(one.deliveryLines.map(\.acceptedAt) == [0])

    var events = [Self.s(.start, 0)]
    for (index, label) in ["a", "b", "c", "d", "e", "f", "g"].enumerated() {
      events.append(Self.d(.accept, Double(index * 60), label))
    }
    events += [Self.d(.arrive, 400, "a"), Self.d(.pickup, 500, "a"), Self.d(.deliver, 600, "a")]
    events += [Self.d(.arrive, 400, "b"), Self.d(.pickup, 500, "b"), Self.d(.deliver, 700, "b")]
    events += [
      Self.d(.cancel, 800, "c"), Self.d(.arrive, 900, "d"), Self.d(.arrive, 940, "e"), Self.d(.pickup, 950, "e"),
    ]
    let stacked = ShiftCard(ledger: Self.ledger(events), route: Self.route, at: 3_900)
    #expect(stacked.deliveryCountsLine == "4 in progress · 2 delivered")
    #expect(stacked.deliveryStatusLine == nil, "with two open there is no \"the delivery\"")
    #expect(
      stacked.deliveryLines.map(\.text) == [
        "Delivery 4 · At pickup · 1:02:00", "Delivery 5 · To customer · 1:01:00", "Delivery 6 · To pickup · 1:00:00",
      ])
    #expect(stacked.moreDeliveriesLine == "1 more also active")
    #expect(stacked.stepRefusalLine == "Several deliveries are in progress. Record each step against its own delivery.")
  }

  @Test func remindersComeFromTheRecordOneDeliveryAtATime() {
    let ledger = Self.ledger([
      Self.s(.start, 0), Self.d(.accept, 0, "a"), Self.d(.accept, 60, "b"), Self.d(.arrive, 120, "b"),
      Self.d(.pickup, 130, "b"),
    ])
    #expect(ShiftCard(ledger: ledger, route: Self.route, at: 1799).reminderLines.isEmpty)
    let card = ShiftCard(ledger: ledger, route: Self.route, at: 2_460)
    #expect(card.reminderLines == ["Already at the pickup? Delivery 1 · accepted 41 min ago · no arrival recorded."])
    #expect(ShiftCardWords.reminderNote.hasPrefix("routemiles cannot tell where you are."))
  }

  @Test func theCardNamesNoOtherProductPlaceOrAmount() {
    let ledger = Self.ledger([Self.s(.start, 0), Self.d(.accept, 0, "a"), Self.d(.accept, 60, "b")])
    let card = ShiftCard(ledger: ledger, route: Self.route, at: 4_000)
    let words =
      [
        card.stateLine, card.routeLine, card.stepRefusalLine ?? "", card.deliveryCountsLine ?? "",
        ShiftCardWords.reminderNote,
      ]
      + card.deliveryLines.map(\.text) + card.reminderLines + card.controls.map(\.rawValue)
    for text in words {
      #expect(!text.contains("DashPilot") && !text.contains("$") && !text.contains("°"), "\(text)")
    }
  }

  @Test func aDeliveryStartingAdvancingOrFinishingGoesOutAtOnceAndItsClockDoesNot() {
    var cadence = ShiftCardCadence()
    var events = [Self.s(.start, 0)]
    #expect(cadence.update(ledger: Self.ledger(events), route: Self.route, at: 10) != nil)
    events.append(Self.d(.accept, 11, "a"))
    #expect(cadence.update(ledger: Self.ledger(events), route: Self.route, at: 11)?.deliveryLines.count == 1)
    // The delivery's clock counts itself: nothing goes out while only time passes.
    #expect(cadence.update(ledger: Self.ledger(events), route: Self.route, at: 40) == nil)
    events.append(Self.d(.arrive, 41, "a"))
    #expect(cadence.update(ledger: Self.ledger(events), route: Self.route, at: 41)?.controls.first == .pickedUp)
    events.append(Self.d(.cancel, 42, "a"))
    let finished = cadence.update(ledger: Self.ledger(events), route: Self.route, at: 42)
    #expect(finished?.deliveryLines.isEmpty == true, "a finished delivery leaves the card")
    #expect(finished?.deliveryCountsLine == "0 in progress · 0 delivered")
  }
}
