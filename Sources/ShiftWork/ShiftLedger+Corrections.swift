import RouteMileage

/// The corrections seed 000 allows, each its own bounded decision and each one write: every rule
/// is judged before anything changes, so a refused correction leaves the ledger exactly as it was.
/// None creates, removes or moves a route sample: the route belongs to the shift, and its figure
/// is the same to the bit after any of them.
///
/// Deliveries are named by their number on the shift (Delivery *n*), offers by theirs (Offer
/// *n*, `offers`). A correction that moves an acceptance renumbers by acceptance order, as always.
extension ShiftLedger {
  // MARK: Taking back a completion

  /// Reopens Delivery `number`, recorded as delivered by mistake: removes `deliveredAt` (and the
  /// clamp that moved it, which describes an event no longer held) and nothing else; the state
  /// it returns to is derived from what remains. Only on a running shift (parked counts as
  /// running); refused for a cancelled delivery, one not delivered, or a row whose times
  /// contradict each other.
  ///
  /// - Returns: the state it returns to.
  /// - Complexity: O(1) plus the clamps of that delivery.
  @discardableResult
  public mutating func reopen(_ number: Int) throws(CorrectionRefusal) -> DeliveryState {
    let index = try deliveryIndex(number)
    let delivery = deliveries[index]
    switch timeline.state {
    case .ended: throw CorrectionRefusal(.shiftEnded, delivery: reference(index), collidesAt: timeline.end)
    case .paused:
      throw CorrectionRefusal(.shiftPaused, delivery: reference(index), collidesAt: timeline.interruptions.last?.start)
    case .notStarted, .running, .parked: break
    }
    if delivery.cancelledAt != nil {
      throw CorrectionRefusal(.cancelled, delivery: reference(index), collidesAt: delivery.cancelledAt)
    }
    guard delivery.deliveredAt != nil else { throw CorrectionRefusal(.notDelivered, delivery: reference(index)) }
    guard delivery.timesAreConsistent else { throw CorrectionRefusal(.contradictoryTimes, delivery: reference(index)) }
    deliveries[index].deliveredAt = nil
    deliveries[index].clamps.removeAll { clamp in
      if case .delivery(let event) = clamp.recorded { return event.kind == .deliver }
      return false
    }
    return deliveries[index].state
  }

  /// Corrects Delivery `number`, recorded as delivered on a shift that has ended, to cancelled:
  /// `cancelledAt` takes the recorded `deliveredAt`, which is removed. The delivery stays
  /// terminal at the same instant, so delivery active time, working time and the route are
  /// unchanged to the second. Refused on a shift that has not ended (paused included), for a
  /// delivery not recorded as delivered, and for contradictory times.
  ///
  /// - Complexity: O(1).
  public mutating func correctToCancelled(_ number: Int) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    let delivery = deliveries[index]
    guard timeline.state == .ended else { throw CorrectionRefusal(.shiftNotEnded, delivery: reference(index)) }
    guard let delivered = delivery.deliveredAt else {
      throw CorrectionRefusal(.notDelivered, delivery: reference(index))
    }
    guard delivery.timesAreConsistent else { throw CorrectionRefusal(.contradictoryTimes, delivery: reference(index)) }
    deliveries[index].deliveredAt = nil
    deliveries[index].cancelledAt = delivered
  }

  // MARK: Correcting the times a delivery recorded

  /// Moves instants Delivery `number` already records, on a finished delivery of a shift that
  /// has ended. The whole proposal is judged before anything is written: accepted ≤ arrived ≤
  /// picked up ≤ terminal over the stages it records (touching instants allowed), every instant
  /// inside [start, end], no acceptance inside a pause and no pause begun while it was in
  /// progress. A collision is refused naming the other instant; nothing cascades, and no stage
  /// is added, removed or swapped.
  ///
  /// - Parameter proposal: the new instant of each stage to move (the terminal one as `deliver`
  ///   or `cancel`, whichever it recorded).
  /// - Complexity: O(*n* + *k*) for *n* deliveries (renumbering) and *k* pauses.
  public mutating func correctTimes(_ number: Int, to proposal: [DeliveryEvent.Kind: Double]) throws(CorrectionRefusal)
  {
    let index = try deliveryIndex(number)
    let reference = reference(index)
    var candidate = deliveries[index]
    guard timeline.state == .ended, let start = timeline.start, let end = timeline.end else {
      throw CorrectionRefusal(.shiftNotEnded, delivery: reference)
    }
    guard candidate.isFinished else { throw CorrectionRefusal(.notFinished, delivery: reference) }
    for kind in DeliveryEvent.Kind.allCases {
      guard let instant = proposal[kind] else { continue }
      guard candidate.event(kind) != nil else { throw CorrectionRefusal(.notRecorded(kind), delivery: reference) }
      guard instant.isFinite else { throw CorrectionRefusal(.badInstant(kind), delivery: reference) }
      switch kind {
      case .accept: candidate.acceptedAt = instant
      case .arrive: candidate.arrivedAtPickupAt = instant
      case .pickup: candidate.pickedUpAt = instant
      case .deliver: candidate.deliveredAt = instant
      case .cancel: candidate.cancelledAt = instant
      }
    }
    let stages = DeliveryEvent.Kind.allCases.compactMap { kind in candidate.event(kind).map { (kind, $0.at) } }
    for (earlier, later) in zip(stages, stages.dropFirst()) where later.1 < earlier.1 {
      // Name the proposed instant, and the other one it collides with.
      let (moved, other) = proposal[later.0] != nil ? (later, earlier) : (earlier, later)
      throw CorrectionRefusal(.outOfOrder(moved.0, before: other.0), delivery: reference, collidesAt: other.1)
    }
    for (kind, instant) in stages {
      if instant < start { throw CorrectionRefusal(.outsideShift(kind), delivery: reference, collidesAt: start) }
      if instant > end { throw CorrectionRefusal(.outsideShift(kind), delivery: reference, collidesAt: end) }
    }
    let accepted = candidate.acceptedAt
    let terminal = stages[stages.count - 1]
    for pause in timeline.interruptions where pause.kind == .pause {
      let resumed = pause.end ?? end
      if accepted > pause.start && accepted < resumed {
        throw CorrectionRefusal(.acrossPause(.accept), delivery: reference, collidesAt: pause.start)
      }
      if accepted <= pause.start && pause.start < terminal.1 {
        let named = proposal[terminal.0] != nil || proposal[.accept] == nil ? terminal.0 : .accept
        throw CorrectionRefusal(.acrossPause(named), delivery: reference, collidesAt: pause.start)
      }
    }
    deliveries[index] = candidate
    renumber()
  }

  // MARK: Correcting the shift's end

  /// Moves the recorded end of a shift that has ended to `instant`. Refused when a delivery
  /// recorded anything after it, naming the first such delivery (in number order) and its
  /// latest event after the proposed end; and by the timeline's own rules (an end before the
  /// shift's last other event).
  ///
  /// - Complexity: O(*n* + *k*).
  public mutating func correctEnd(to instant: Double) throws(CorrectionRefusal) {
    guard timeline.state == .ended, let end = timeline.events.last else { throw CorrectionRefusal(.shiftNotEnded) }
    for index in deliveries.indices {
      let last = deliveries[index].lastEvent
      if last.at > instant {
        throw CorrectionRefusal(.endBeforeDelivery(last.kind), delivery: reference(index), collidesAt: last.at)
      }
    }
    var events = timeline.events
    events[events.count - 1] = ShiftTimeline.Event(.end, at: instant)
    do {
      timeline = try ShiftTimeline(events)
    } catch {
      throw CorrectionRefusal(.timeline(error), collidesAt: error.collidesWith?.at ?? end.at)
    }
  }

  // MARK: Correcting the grouping

  /// Records Delivery `number` under Offer `offer` of the same shift. Refused when it is already
  /// there, or when it was accepted before that offer was. Lifecycle, place and amounts stay;
  /// the offer it leaves, if now empty, is gone in the same write (offers are derived).
  ///
  /// - Complexity: O(*n*).
  public mutating func move(_ number: Int, toOffer offer: Int) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    let offers = offers
    guard offers.indices.contains(offer - 1) else {
      throw CorrectionRefusal(.unknownOffer(offer), delivery: reference(index))
    }
    let target = offers[offer - 1]
    if target.deliveries.contains(number) { throw CorrectionRefusal(.sameOffer, delivery: reference(index)) }
    if deliveries[index].acceptedAt < target.acceptedAt {
      throw CorrectionRefusal(
        .acceptedBeforeOffer(offer: offer), delivery: reference(index), collidesAt: target.acceptedAt)
    }
    let label = labelling(target)
    deliveries[index].offer = label
  }

  /// Takes Delivery `number` out of the offer it shares and records it as an offer of its own,
  /// which takes its acceptance. Refused when it is already alone.
  ///
  /// - Complexity: O(*n*).
  public mutating func newOffer(_ number: Int) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    let offer = offers[offerNumbers[index] - 1]
    guard offer.deliveries.count > 1 else { throw CorrectionRefusal(.alreadyAlone, delivery: reference(index)) }
    deliveries[index].offer = nil
  }

  /// Moves every delivery of Offer `source` into Offer `destination`; `source`, left empty, is
  /// gone. Refused for the same offer, or when a delivery of `source` was accepted before
  /// `destination` was (naming the first such delivery).
  ///
  /// - Complexity: O(*n*).
  public mutating func combine(offer source: Int, into destination: Int) throws(CorrectionRefusal) {
    let offers = offers
    guard offers.indices.contains(source - 1) else { throw CorrectionRefusal(.unknownOffer(source)) }
    guard offers.indices.contains(destination - 1) else { throw CorrectionRefusal(.unknownOffer(destination)) }
    guard source != destination else {
      throw CorrectionRefusal(.sameOffer, delivery: reference(offers[source - 1].deliveries[0] - 1))
    }
    let target = offers[destination - 1]
    for number in offers[source - 1].deliveries where deliveries[number - 1].acceptedAt < target.acceptedAt {
      throw CorrectionRefusal(
        .acceptedBeforeOffer(offer: destination), delivery: reference(number - 1), collidesAt: target.acceptedAt)
    }
    let label = labelling(target)
    for number in offers[source - 1].deliveries { deliveries[number - 1].offer = label }
  }

  /// Separates Offer `offer`: its first delivery stays, each of the others becomes an offer of
  /// its own. Refused for an offer of one.
  ///
  /// - Complexity: O(*n*).
  public mutating func separate(offer: Int) throws(CorrectionRefusal) {
    let offers = offers
    guard offers.indices.contains(offer - 1) else { throw CorrectionRefusal(.unknownOffer(offer)) }
    let members = offers[offer - 1].deliveries
    guard members.count > 1 else { throw CorrectionRefusal(.alreadyAlone, delivery: reference(members[0] - 1)) }
    for number in members.dropFirst() { deliveries[number - 1].offer = nil }
  }

  // MARK: Place and money

  /// Names (or, with nil, removes) the pickup place of Delivery `number`: allowed in every state
  /// and on an ended shift, because a place orders against no timestamp and changes no figure.
  public mutating func setPlace(_ number: Int, to place: PickupPlaceName?) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    deliveries[index].place = place
  }

  /// Records (or, with nil, removes) what Delivery `number` paid: only once it has finished.
  public mutating func setAmount(_ number: Int, to amount: Money?) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    guard deliveries[index].isFinished else {
      throw CorrectionRefusal(.amountWhileInProgress, delivery: reference(index))
    }
    deliveries[index].amount = amount
  }

  /// Records (or, with nil, removes) Delivery `number`'s tips: only once it has finished.
  public mutating func setTips(_ number: Int, to tips: Money?) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    guard deliveries[index].isFinished else {
      throw CorrectionRefusal(.amountWhileInProgress, delivery: reference(index))
    }
    deliveries[index].tips = tips
  }

  /// Records (or, with nil, removes) what Delivery `number` is expected to pay: only while it
  /// is in progress. It is never turned into an amount.
  public mutating func setExpectedAmount(_ number: Int, to expected: Money?) throws(CorrectionRefusal) {
    let index = try deliveryIndex(number)
    guard !deliveries[index].isFinished else {
      throw CorrectionRefusal(.expectedWhenFinished, delivery: reference(index))
    }
    deliveries[index].expectedAmount = expected
  }

  // MARK: Helpers

  func deliveryIndex(_ number: Int) throws(CorrectionRefusal) -> Int {
    guard deliveries.indices.contains(number - 1) else { throw CorrectionRefusal(.unknownDelivery) }
    return number - 1
  }

  /// The label deliveries joining `offer` take: its own, or for an unlabelled offer of one a new
  /// label (`offer 1`, `offer 2`, … the first not in use), given to its delivery too.
  private mutating func labelling(_ offer: Offer) -> String {
    if let label = offer.label { return label }
    let used = Set(deliveries.compactMap(\.offer))
    var counter = 1
    while used.contains("offer \(counter)") { counter += 1 }
    let label = "offer \(counter)"
    deliveries[offer.deliveries[0] - 1].offer = label
    return label
  }

  /// Restores numbering order after an acceptance moved.
  private mutating func renumber() {
    deliveries.sort(by: Self.precedes)
    indexByLabel.removeAll(keepingCapacity: true)
    for (index, delivery) in deliveries.enumerated() { indexByLabel[delivery.label] = index }
  }
}
