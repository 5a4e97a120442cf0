import RouteMileage
import Testing

@testable import ShiftWork

/// Seed 000's corrections: each judged whole, each refused with its rule and nothing changed.
@Suite("Ledger corrections")
struct ShiftLedgerCorrectionsTests {
  typealias T = ShiftLedgerTests
  static func at(_ minutes: Double) -> Double { T.at(minutes) }

  /// A shift 0–120 min, paused 60–70, with d1 delivered (10, 15, 20, 40), d2 cancelled after an
  /// arrival (25, 30, —, 50) and d3 delivered (45, 46, 48, 55), d1 and d2 in offer "o1".
  static func endedShift(end: Bool = true) throws -> ShiftLedger {
    var events: [ShiftWorkEvent] = [
      T.shift(.start, 0),
      T.delivery(.accept, 10, "d1", offer: "o1"), T.delivery(.arrive, 15, "d1"), T.delivery(.pickup, 20, "d1"),
      T.delivery(.deliver, 40, "d1"),
      T.delivery(.accept, 25, "d2", offer: "o1"), T.delivery(.arrive, 30, "d2"), T.delivery(.cancel, 50, "d2"),
      T.delivery(.accept, 45, "d3"), T.delivery(.arrive, 46, "d3"), T.delivery(.pickup, 48, "d3"),
      T.delivery(.deliver, 55, "d3"),
      T.shift(.pause, 60), T.shift(.resume, 70),
    ]
    if end { events.append(T.shift(.end, 120)) }
    return try T.ledger(events)
  }

  /// Runs `correction` on a copy of `ledger` expecting `rule`; checks nothing changed.
  static func expectRefusal(
    _ ledger: ShiftLedger, _ rule: CorrectionRefusal.Rule, collidesAt: Double? = nil,
    _ correction: (inout ShiftLedger) throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> CorrectionRefusal? {
    var copy = ledger
    do {
      try correction(&copy)
      Issue.record("expected \(rule)", sourceLocation: sourceLocation)
      return nil
    } catch {
      guard let error = error as? CorrectionRefusal else {
        Issue.record("not a CorrectionRefusal: \(error)", sourceLocation: sourceLocation)
        return nil
      }
      #expect(error.rule == rule, sourceLocation: sourceLocation)
      if let collidesAt { #expect(error.collidesAt == collidesAt, sourceLocation: sourceLocation) }
      #expect(copy == ledger, "a refused correction changed the ledger", sourceLocation: sourceLocation)
      return error
    }
  }

  // MARK: Reopen

  @Test func reopenRemovesDeliveredAtAndNothingElseOnARunningShift() throws {
    var ledger = try Self.endedShift(end: false)
    let before = ledger.deliveries[0]
    #expect(try ledger.reopen(1) == .pickedUp)
    var expected = before
    let after = ledger.deliveries[0]
    #expect(after.deliveredAt == nil)
    #expect(
      after.acceptedAt == expected.acceptedAt && after.arrivedAtPickupAt == expected.arrivedAtPickupAt
        && after.pickedUpAt == expected.pickedUpAt)
    expected = after
    #expect(ledger.counts == DeliveryCounts(delivered: 1, cancelled: 1, inProgress: 1))
    #expect(ledger.offers[0].status == .inProgress)
    // A second press meets "not delivered"; nothing is written.
    let second = Self.expectRefusal(ledger, .notDelivered) { try $0.reopen(1) }
    #expect(second?.description == "Delivery 1 \"d1\" is not recorded as delivered")
  }

  @Test func reopenIsRefusedOnAPausedOrEndedShiftForACancelledDeliveryAndForContradictoryTimes() throws {
    let ended = try Self.endedShift()
    let refusal = Self.expectRefusal(ended, .shiftEnded, collidesAt: Self.at(120)) { try $0.reopen(1) }
    #expect(
      refusal?.description
        == "Delivery 1 \"d1\" is not reopened on a shift that has ended: correct it to cancelled, or correct its times")
    var paused = try Self.endedShift(end: false)
    try paused.apply(.shift(ShiftTimeline.Event(.pause, at: Self.at(80))))
    _ = Self.expectRefusal(paused, .shiftPaused, collidesAt: Self.at(80)) { try $0.reopen(1) }
    let running = try Self.endedShift(end: false)
    _ = Self.expectRefusal(running, .cancelled) { try $0.reopen(2) }
    _ = Self.expectRefusal(running, .unknownDelivery) { try $0.reopen(9) }
    // A stored row that says two contradictory things: delivered before it was picked up.
    var contradictory = try Self.endedShift(end: false)
    contradictory.deliveries[0].deliveredAt = Self.at(18)
    _ = Self.expectRefusal(contradictory, .contradictoryTimes) { try $0.reopen(1) }
  }

  // MARK: Correct to cancelled

  @Test func correctToCancelledMovesTheInstantAndKeepsEveryFigureToTheSecond() throws {
    var ledger = try Self.endedShift()
    let end = Self.at(120)
    let active = ledger.activeDuration(asOf: end)
    let working = ledger.timeline.workingDuration(asOf: end)
    let nonDelivery = ledger.nonDeliveryDuration(asOf: end)
    let place = try PickupPlaceName("Nowhere Noodles")
    try ledger.setPlace(1, to: place)
    try ledger.setAmount(1, to: Money(minorUnits: 850))
    try ledger.correctToCancelled(1)
    #expect(ledger.deliveries[0].deliveredAt == nil)
    #expect(ledger.deliveries[0].cancelledAt == Self.at(40))
    #expect(ledger.deliveries[0].amount == Money(minorUnits: 850))  // money is not deleted
    #expect(ledger.deliveries[0].place == place)
    #expect(ledger.activeDuration(asOf: end) == active)
    #expect(ledger.timeline.workingDuration(asOf: end) == working)
    #expect(ledger.nonDeliveryDuration(asOf: end) == nonDelivery)
    #expect(ledger.counts == DeliveryCounts(delivered: 1, cancelled: 2, inProgress: 0))
    #expect(ledger.offers[0].status == .cancelled)
    #expect(ledger.deliveries[0].acceptedToDeliveredSeconds == nil)
    _ = Self.expectRefusal(ledger, .notDelivered) { try $0.correctToCancelled(1) }
  }

  @Test func correctToCancelledIsRefusedBeforeTheShiftEnds() throws {
    let running = try Self.endedShift(end: false)
    _ = Self.expectRefusal(running, .shiftNotEnded) { try $0.correctToCancelled(1) }
    let ended = try Self.endedShift()
    _ = Self.expectRefusal(ended, .notDelivered) { try $0.correctToCancelled(2) }
  }

  // MARK: Correct times

  @Test func correctTimesMovesOnlyRecordedInstantsJudgingTheWholeProposal() throws {
    var ledger = try Self.endedShift()
    // Completion moved back to 25 with the pickup moved to 22 in the same proposal: accepted.
    try ledger.correctTimes(1, to: [.pickup: Self.at(22), .deliver: Self.at(25)])
    #expect(ledger.deliveries[0].pickedUpAt == Self.at(22))
    #expect(ledger.deliveries[0].deliveredAt == Self.at(25))
    #expect(ledger.deliveries[0].acceptedToDeliveredSeconds == 900.0)
    // Touching instants are in order.
    try ledger.correctTimes(1, to: [.arrive: Self.at(22)])
    #expect(ledger.deliveries[0].waitedAtPickupSeconds == 0)
  }

  @Test func correctTimesRefusalsNameTheOtherInstant() throws {
    let ledger = try Self.endedShift()
    // A completion dragged behind its own pickup: refused, naming the pickup; nothing cascades.
    let behind = Self.expectRefusal(ledger, .outOfOrder(.deliver, before: .pickup), collidesAt: Self.at(20)) {
      try $0.correctTimes(1, to: [.deliver: Self.at(19)])
    }
    #expect(behind?.description == "Delivery 1 \"d1\": the proposed delivery time is before its pickup")
    let after = Self.expectRefusal(ledger, .outOfOrder(.arrive, before: .pickup), collidesAt: Self.at(20)) {
      try $0.correctTimes(1, to: [.arrive: Self.at(21)])
    }
    #expect(after?.description == "Delivery 1 \"d1\": the proposed arrival at the pickup time is after its pickup")
    // A stage it never recorded has no time: d2 was cancelled before a pickup.
    let invented = Self.expectRefusal(ledger, .notRecorded(.pickup)) {
      try $0.correctTimes(2, to: [.pickup: Self.at(35)])
    }
    #expect(invented?.description == "Delivery 2 \"d2\" never recorded pickup; no time is invented for it")
    _ = Self.expectRefusal(ledger, .notRecorded(.deliver)) { try $0.correctTimes(2, to: [.deliver: Self.at(35)]) }
    // Inside the shift.
    _ = Self.expectRefusal(ledger, .outsideShift(.deliver), collidesAt: Self.at(120)) {
      try $0.correctTimes(3, to: [.deliver: Self.at(121)])
    }
    _ = Self.expectRefusal(ledger, .outsideShift(.accept), collidesAt: Self.at(0)) {
      try $0.correctTimes(1, to: [.accept: Self.at(-1)])
    }
    // In progress across the pause at 60, or accepted inside it.
    _ = Self.expectRefusal(ledger, .acrossPause(.deliver), collidesAt: Self.at(60)) {
      try $0.correctTimes(3, to: [.deliver: Self.at(61)])
    }
    _ = Self.expectRefusal(ledger, .badInstant(.deliver)) { try $0.correctTimes(3, to: [.deliver: .nan]) }
    // Only an ended shift, only a finished delivery.
    let running = try Self.endedShift(end: false)
    _ = Self.expectRefusal(running, .shiftNotEnded) { try $0.correctTimes(1, to: [.deliver: Self.at(41)]) }
  }

  @Test func movingAnAcceptanceRenumbersByAcceptanceOrder() throws {
    var ledger = try Self.endedShift()
    try ledger.correctTimes(3, to: [.accept: Self.at(5)])
    #expect(ledger.deliveries.map(\.label) == ["d3", "d1", "d2"])
    #expect(ledger.delivery(labelled: "d3")?.number == 1)
  }

  // MARK: The shift's end

  @Test func correctingTheEndRefusesToMoveItBeforeADeliveryNamingIt() throws {
    var ledger = try Self.endedShift()
    let refusal = Self.expectRefusal(ledger, .endBeforeDelivery(.deliver), collidesAt: Self.at(55)) {
      try $0.correctEnd(to: Self.at(50))
    }
    #expect(
      refusal?.description
        == "Delivery 3 \"d3\" has Delivered recorded after the proposed shift end; correct its times first")
    _ = Self.expectRefusal(
      ledger,
      .timeline(
        ShiftTimeline.Refusal(
          .outOfOrder, event: .init(.end, at: Self.at(65)), collidesWith: .init(.resume, at: Self.at(70))))
    ) { try $0.correctEnd(to: Self.at(65)) }
    try ledger.correctEnd(to: Self.at(90))
    #expect(ledger.timeline.end == Self.at(90))
    // Touching the last delivery event and the resume is allowed.
    try ledger.correctEnd(to: Self.at(70))
    #expect(ledger.timeline.end == Self.at(70))
  }

  // MARK: Grouping

  @Test func groupingMovesMembershipAndNothingElse() throws {
    var ledger = try Self.endedShift()
    try ledger.setPlace(2, to: PickupPlaceName("Example Diner"))
    let lifecycles = ledger.deliveries.map {
      [$0.acceptedAt, $0.arrivedAtPickupAt, $0.pickedUpAt, $0.deliveredAt, $0.cancelledAt]
    }
    let active = ledger.activeDuration(asOf: Self.at(120))
    #expect(ledger.offers.map(\.deliveries) == [[1, 2], [3]])
    // Put d2 in a new offer: it takes d2's own acceptance.
    try ledger.newOffer(2)
    #expect(ledger.offers.map(\.deliveries) == [[1], [2], [3]])
    #expect(ledger.offers[1].acceptedAt == Self.at(25))
    _ = Self.expectRefusal(ledger, .alreadyAlone) { try $0.newOffer(2) }
    // Move d3 into offer 2 (accepted 25 ≤ 45).
    try ledger.move(3, toOffer: 2)
    #expect(ledger.offers.map(\.deliveries) == [[1], [2, 3]])
    _ = Self.expectRefusal(ledger, .sameOffer) { try $0.move(3, toOffer: 2) }
    // d1 was accepted (10) before offer 2 (25): refused, naming the offer's acceptance.
    let early = Self.expectRefusal(ledger, .acceptedBeforeOffer(offer: 2), collidesAt: Self.at(25)) {
      try $0.move(1, toOffer: 2)
    }
    #expect(
      early?.description
        == "Delivery 1 \"d1\" was accepted before offer 2 was; an offer cannot hold work that arrived before it")
    _ = Self.expectRefusal(ledger, .acceptedBeforeOffer(offer: 2)) { try $0.combine(offer: 1, into: 2) }
    _ = Self.expectRefusal(ledger, .unknownOffer(3)) { try $0.move(1, toOffer: 3) }
    // Combine offer 2 into offer 1: the emptied offer is gone.
    try ledger.combine(offer: 2, into: 1)
    #expect(ledger.offers.map(\.deliveries) == [[1, 2, 3]])
    _ = Self.expectRefusal(ledger, .sameOffer) { try $0.combine(offer: 1, into: 1) }
    // Separate: the first stays, the others are offers of their own.
    try ledger.separate(offer: 1)
    #expect(ledger.offers.map(\.deliveries) == [[1], [2], [3]])
    _ = Self.expectRefusal(ledger, .alreadyAlone) { try $0.separate(offer: 2) }
    // Lifecycles, place and figures never moved.
    #expect(
      ledger.deliveries.map { [$0.acceptedAt, $0.arrivedAtPickupAt, $0.pickedUpAt, $0.deliveredAt, $0.cancelledAt] }
        == lifecycles)
    #expect(ledger.deliveries[1].place?.display == "Example Diner")
    #expect(ledger.activeDuration(asOf: Self.at(120)) == active)
  }

  // MARK: Money

  @Test func amountsOnlyOnceFinishedExpectedOnlyWhileInProgress() throws {
    var ledger = try T.ledger([
      T.shift(.start, 0), T.delivery(.accept, 1, "a"), T.delivery(.accept, 2, "b"), T.delivery(.cancel, 3, "b"),
    ])
    _ = Self.expectRefusal(ledger, .amountWhileInProgress) { try $0.setAmount(1, to: Money(minorUnits: 100)) }
    _ = Self.expectRefusal(ledger, .amountWhileInProgress) { try $0.setTips(1, to: Money(minorUnits: 100)) }
    _ = Self.expectRefusal(ledger, .expectedWhenFinished) { try $0.setExpectedAmount(2, to: Money(minorUnits: 100)) }
    try ledger.setExpectedAmount(1, to: Money(parsing: "7.25"))
    try ledger.setAmount(2, to: Money(parsing: "3.10"))
    #expect(ledger.deliveries[0].expectedAmount?.minorUnits == 725)
    #expect(ledger.deliveries[0].amount == nil)  // never converted
    #expect(ledger.deliveries[1].amount?.minorUnits == 310)
    #expect(ledger.deliveries[1].expectedAmount == nil)
  }
}
