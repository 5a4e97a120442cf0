import RouteMileage
import ShiftWork
import Testing

/// The delivery lifecycle's rules and derived figures (seed 000), on hand-built shifts.
@Suite("ShiftLedger")
struct ShiftLedgerTests {
  typealias S = ShiftTimeline.Event
  typealias D = DeliveryEvent
  /// 2025-11-04T08:00:00Z.
  static let t0 = 1_762_243_200.0
  static let m = 60.0

  static func at(_ minutes: Double) -> Double { t0 + minutes * m }

  /// A ledger from events applied in the order given.
  static func ledger(_ events: [ShiftWorkEvent]) throws(LedgerRefusal) -> ShiftLedger {
    var ledger = ShiftLedger()
    for event in events { try ledger.apply(event) }
    return ledger
  }

  static func shift(_ kind: S.Kind, _ minutes: Double) -> ShiftWorkEvent { .shift(S(kind, at: at(minutes))) }
  static func delivery(_ kind: D.Kind, _ minutes: Double, _ label: String, offer: String? = nil) -> ShiftWorkEvent {
    .delivery(D(kind, at: at(minutes), delivery: label, offer: offer))
  }

  /// The refusal applying `event` to a ledger built from `events` meets.
  static func refusal(of event: ShiftWorkEvent, after events: [ShiftWorkEvent]) throws -> LedgerRefusal? {
    var ledger = try ledger(events)
    let before = ledger
    do {
      try ledger.apply(event)
      return nil
    } catch {
      #expect(ledger == before, "a refused event changed the ledger")
      return error
    }
  }

  @Test func seedExampleOverlappingDeliveriesCountTheirSharedMinutesOnce() throws {
    // 30 min and 25 min overlapping by 20: 35 min of delivery active time, never 55.
    let ledger = try Self.ledger([
      Self.shift(.start, 0),
      Self.delivery(.accept, 10, "a"), Self.delivery(.accept, 20, "b"),
      Self.delivery(.arrive, 15, "a"), Self.delivery(.pickup, 25, "a"), Self.delivery(.deliver, 40, "a"),
      Self.delivery(.cancel, 45, "b"),
      Self.shift(.end, 60),
    ])
    #expect(ledger.activeDuration(asOf: Self.at(60)) == 35 * Self.m)
    #expect(ledger.nonDeliveryDuration(asOf: Self.at(60)) == 25 * Self.m)
    #expect(ledger.counts == DeliveryCounts(delivered: 1, cancelled: 1, inProgress: 0))
  }

  @Test func stateIsDerivedFromTimestampsAndIntervalsNeedBothEnds() throws {
    var ledger = try Self.ledger([Self.shift(.start, 0), Self.delivery(.accept, 1, "d1")])
    let stages: [(D.Kind, Double, DeliveryState)] = [
      (.arrive, 5, .arrivedAtPickup), (.pickup, 14, .pickedUp), (.deliver, 34, .delivered),
    ]
    #expect(ledger.deliveries[0].state == .accepted)
    for (kind, minute, state) in stages {
      #expect(ledger.deliveries[0].waitedAtPickupSeconds == (kind == .deliver ? 540 : nil))
      try ledger.apply(D(kind, at: Self.at(minute), delivery: "d1"))
      #expect(ledger.deliveries[0].state == state)
    }
    let delivered = ledger.deliveries[0]
    #expect(delivered.waitedAtPickupSeconds == 540)
    #expect(delivered.acceptedToDeliveredSeconds == 1980)
    // Cancelled after arriving: the arrival stays, no wait, no accepted-to-delivered.
    try ledger.apply(D(.accept, at: Self.at(40), delivery: "d2"))
    try ledger.apply(D(.arrive, at: Self.at(50), delivery: "d2"))
    try ledger.apply(D(.cancel, at: Self.at(70), delivery: "d2"))
    let cancelled = ledger.deliveries[1]
    #expect(cancelled.state == .cancelled)
    #expect(cancelled.arrivedAtPickupAt == Self.at(50))
    #expect(cancelled.waitedAtPickupSeconds == nil)
    #expect(cancelled.acceptedToDeliveredSeconds == nil)
  }

  static let running: [ShiftWorkEvent] = [
    shift(.start, 0), delivery(.accept, 10, "d1", offer: "o1"), delivery(.accept, 10, "d2", offer: "o1"),
    delivery(.arrive, 20, "d1"),
  ]

  @Test(
    arguments: [
      (delivery(.arrive, 30, "d9"), #"delivery "d9": arrive for a delivery no accept created on this shift"#),
      (delivery(.deliver, 30, "d1"), #"Delivery 1 "d1": deliver before its pickup (it collides with its arrive)"#),
      (delivery(.arrive, 30, "d1"), #"Delivery 1 "d1": a second arrive (it collides with its arrive)"#),
      (delivery(.pickup, 30, "d2"), #"Delivery 2 "d2": pickup before its arrive (it collides with its accept)"#),
      (
        delivery(.accept, 30, "d2"),
        #"Delivery 2 "d2" is accepted a second time: two deliveries cannot share a label (it collides with its accept)"#
      ),
      (
        shift(.pause, 30),
        #"pause refused: 2 deliveries are still in progress (Delivery 1 "d1", Delivery 2 "d2"); mark each one delivered or cancel it first (it collides with the arrive of Delivery 1 "d1")"#
      ),
      (
        shift(.end, 30),
        #"end refused: 2 deliveries are still in progress (Delivery 1 "d1", Delivery 2 "d2"); mark each one delivered or cancel it first (it collides with the arrive of Delivery 1 "d1")"#
      ),
      (delivery(.accept, -5, "d3"), #"delivery "d3": accept before the shift started (it collides with the start)"#),
    ] as [(ShiftWorkEvent, String)])
  func refusalsNameTheDeliveryAndTheEventTheyCollideWith(event: ShiftWorkEvent, words: String) throws {
    let refusal = try #require(try Self.refusal(of: event, after: Self.running))
    #expect(refusal.description == words)
  }

  @Test func theRefusalCountsOneDeliveryInProgressInTheSingular() throws {
    let events = Self.running + [Self.delivery(.cancel, 25, "d2")]
    let refusal = try #require(try Self.refusal(of: Self.shift(.end, 30), after: events))
    #expect(refusal.rule == .deliveriesInProgress)
    #expect(refusal.description.hasPrefix(#"end refused: 1 delivery is still in progress (Delivery 1 "d1");"#))
    // Finishing every delivery unblocks the shift; ending at the very instant the last finished is fine.
    var ledger = try Self.ledger(events + [Self.delivery(.cancel, 30, "d1")])
    try ledger.apply(S(.end, at: Self.at(30)))
    #expect(ledger.timeline.state == .ended)
  }

  @Test func aDeliveryBeginsOnlyWhileTheShiftIsRunningAndParkedIsRunning() throws {
    let paused = [Self.shift(.start, 0), Self.shift(.pause, 10)]
    let whilePaused = try #require(try Self.refusal(of: Self.delivery(.accept, 15, "d1"), after: paused))
    #expect(
      whilePaused.description == #"delivery "d1" cannot begin while the shift is paused (it collides with the pause)"#)
    let ended = [Self.shift(.start, 0), Self.shift(.end, 10)]
    let afterEnd = try #require(try Self.refusal(of: Self.delivery(.accept, 15, "d1"), after: ended))
    #expect(afterEnd.description == #"delivery "d1" cannot begin after the shift ended (it collides with the end)"#)
    // A finished shift takes no new delivery even at an instant inside it.
    #expect(try Self.refusal(of: Self.delivery(.accept, 5, "d1"), after: ended)?.rule == .shiftEnded)
    let notStarted = try #require(try Self.refusal(of: Self.delivery(.accept, 5, "d1"), after: []))
    #expect(notStarted.rule == .shiftNotStarted)
    // Parked: the shift keeps running and its deliveries begin, advance and stay open.
    var parked = try Self.ledger([Self.shift(.start, 0), Self.shift(.park, 10), Self.delivery(.accept, 12, "d1")])
    try parked.apply(D(.arrive, at: Self.at(14), delivery: "d1"))
    try parked.apply(S(.drive, at: Self.at(20)))
    #expect(parked.counts.inProgress == 1)
    // And pausing a parked shift with a delivery open is refused like any pause.
    #expect(
      try Self.refusal(
        of: Self.shift(.pause, 15),
        after: [Self.shift(.start, 0), Self.shift(.park, 10), Self.delivery(.accept, 12, "d1")])?.rule
        == .deliveriesInProgress)
  }

  @Test func nothingHappensAfterADeliveryFinished() throws {
    let events = Self.running + [Self.delivery(.cancel, 25, "d2")]
    for kind in D.Kind.allCases where kind != .accept {
      let refusal = try #require(try Self.refusal(of: Self.delivery(kind, 30, "d2"), after: events))
      #expect(
        refusal.description
          == #"Delivery 2 "d2": \#(kind.rawValue) after it was cancelled (it collides with its cancel)"#)
    }
  }

  @Test func aBackwardsInstantIsClampedToTheDeliverysLastEventAndReported() throws {
    var ledger = try Self.ledger(Self.running)
    let clamp = try #require(try ledger.apply(D(.pickup, at: Self.at(18), delivery: "d1")))
    #expect(clamp.appliedAt == Self.at(20))
    #expect(clamp.seconds == 120)
    #expect(clamp.reason == .deliveryLastEvent)
    #expect(clamp.clampedTo == .delivery(D(.arrive, at: Self.at(20), delivery: "d1")))
    #expect(ledger.deliveries[0].pickedUpAt == Self.at(20))
    #expect(ledger.deliveries[0].waitedAtPickupSeconds == 0)
    #expect(ledger.deliveries[0].clamps == [clamp])
    #expect(ledger.deliveries[1].clamps.isEmpty)
  }

  @Test func recordedOrderClampsEveryEventToTheOneBeforeIt() throws {
    var ledger = ShiftLedger()
    try ledger.applyRecorded(Self.shift(.start, 0))
    try ledger.applyRecorded(Self.delivery(.accept, 10, "d1"))
    // The device clock moved back: the acceptance and the park land at the line before.
    let accept = try ledger.applyRecorded(Self.delivery(.accept, 8, "d2"))
    #expect(accept.map(\.reason) == [.previousRecord])
    let park = try ledger.applyRecorded(Self.shift(.park, 9))
    #expect(park.map(\.appliedAt) == [Self.at(10)])
    #expect(ledger.shiftClamps == park)
    #expect(ledger.timeline.interruptions.first?.start == Self.at(10))
    #expect(ledger.deliveries.map(\.acceptedAt) == [Self.at(10), Self.at(10)])
    #expect(ledger.deliveries[1].clamps == accept)
    // A refusal names the event as recorded.
    do {
      try ledger.applyRecorded(Self.delivery(.deliver, 5, "d1"))
      Issue.record("accepted deliver before pickup")
    } catch {
      #expect(error.event == Self.delivery(.deliver, 5, "d1"))
    }
  }

  @Test func numberingIsByAcceptanceWithTheLabelBreakingATieAndNeverShifts() throws {
    var ledger = try Self.ledger([
      Self.shift(.start, 0), Self.delivery(.accept, 20, "late"), Self.delivery(.accept, 10, "b"),
      Self.delivery(.accept, 10, "a"),
    ])
    #expect(ledger.deliveries.map(\.label) == ["a", "b", "late"])
    #expect(ledger.delivery(labelled: "late")?.number == 3)
    try ledger.apply(D(.cancel, at: Self.at(25), delivery: "a"))
    #expect(ledger.deliveries.map(\.label) == ["a", "b", "late"])
  }

  @Test func offerStatusIsDerivedAndNeverReportsAMixAsCompletedOrCancelled() throws {
    var ledger = try Self.ledger([
      Self.shift(.start, 0),
      Self.delivery(.accept, 1, "d1", offer: "pair"), Self.delivery(.accept, 1, "d2", offer: "pair"),
      Self.delivery(.accept, 2, "d3"), Self.delivery(.accept, 3, "d4", offer: "both-gone"),
      Self.delivery(.accept, 3, "d5", offer: "both-gone"), Self.delivery(.accept, 4, "d6", offer: "mixed"),
      Self.delivery(.accept, 5, "d7", offer: "mixed"),
    ])
    for label in ["d1", "d2", "d6"] {
      for kind in [D.Kind.arrive, .pickup, .deliver] { try ledger.apply(D(kind, at: Self.at(30), delivery: label)) }
    }
    for label in ["d4", "d5", "d7"] { try ledger.apply(D(.cancel, at: Self.at(31), delivery: label)) }
    let offers = ledger.offers
    #expect(offers.map(\.label) == ["pair", nil, "both-gone", "mixed"])
    #expect(offers.map(\.status) == [.completed, .inProgress, .cancelled, .partlyCompleted])
    #expect(offers.map(\.deliveries) == [[1, 2], [3], [4, 5], [6, 7]])
    #expect(offers.map(\.number) == [1, 2, 3, 4])
    #expect(ledger.offerNumbers == [1, 1, 2, 3, 3, 4, 4])
    #expect(offers[3].status.words == "partly completed, partly cancelled")
  }

  @Test func remindersFollowTheRecordOneDeliveryAtATime() throws {
    var ledger = try Self.ledger([
      Self.shift(.start, 0),
      Self.delivery(.accept, 0, "stale"), Self.delivery(.accept, 5, "waiting"), Self.delivery(.accept, 6, "carried"),
      Self.delivery(.arrive, 10, "waiting"), Self.delivery(.arrive, 7, "carried"), Self.delivery(.pickup, 8, "carried"),
    ])
    // 29 min 59 s: nothing yet; 30 min exactly: the acceptance is stale.
    #expect(ledger.reminders(at: Self.at(30) - 1).isEmpty)
    #expect(ledger.reminders(at: Self.at(30)).map(\.delivery.label) == ["stale"])
    #expect(ledger.reminders(at: Self.at(30)).map(\.step) == [.arrive])
    // The carried (picked-up) one never is, however long.
    let later = ledger.reminders(at: Self.at(300))
    #expect(later.map(\.delivery.label) == ["stale", "waiting"])
    #expect(later.map(\.step) == [.arrive, .pickup])
    #expect(later.map(\.seconds) == [300 * Self.m, 290 * Self.m])
    // A finished one is never reminded; a finished shift reminds nothing.
    for label in ["stale", "waiting"] { try ledger.apply(D(.cancel, at: Self.at(301), delivery: label)) }
    try ledger.apply(D(.deliver, at: Self.at(301), delivery: "carried"))
    #expect(ledger.reminders(at: Self.at(400)).isEmpty)
    // A row whose times contradict each other is never the subject of one.
    let contradictory = Delivery(label: "x", acceptedAt: Self.at(10), arrivedAtPickupAt: Self.at(5))
    #expect(!contradictory.timesAreConsistent)
    #expect(Delivery(label: "y", acceptedAt: Self.at(10), pickedUpAt: Self.at(12)).timesAreConsistent == false)
    #expect(Delivery(label: "z", acceptedAt: Self.at(10), arrivedAtPickupAt: Self.at(10)).timesAreConsistent)
  }

  @Test func anOpenDeliveryCountsUpToTheInstantRead() throws {
    let ledger = try Self.ledger([
      Self.shift(.start, 0), Self.delivery(.accept, 10, "d1"), Self.delivery(.accept, 50, "d2"),
    ])
    #expect(ledger.activeDuration(asOf: Self.at(40)) == 30 * Self.m)
    #expect(ledger.activeDuration(asOf: Self.at(60)) == 50 * Self.m)
    #expect(ledger.nonDeliveryDuration(asOf: Self.at(60)) == 10 * Self.m)
    #expect(ledger.readingInstant == Self.at(50))
    #expect(ledger.activeDuration(asOf: Self.at(5)) == 0)
  }
}

extension ShiftLedgerTests {
  @Test func theUnionIsReportedAsItsStretches() throws {
    let ledger = try Self.ledger([
      Self.shift(.start, 0),
      Self.delivery(.accept, 10, "a"), Self.delivery(.accept, 20, "b"), Self.delivery(.cancel, 40, "a"),
      Self.delivery(.cancel, 45, "b"), Self.delivery(.accept, 50, "c"), Self.delivery(.cancel, 50, "c"),
      Self.delivery(.accept, 55, "d"), Self.delivery(.cancel, 58, "d"), Self.shift(.end, 60),
    ])
    let stretches = ledger.activeStretches(asOf: Self.at(60))
    #expect(stretches.map(\.start) == [Self.at(10), Self.at(55)])
    #expect(stretches.map(\.end) == [Self.at(45), Self.at(58)])
    #expect(ledger.activeDuration(asOf: Self.at(60)) == 38 * Self.m)
  }
}
