import RouteMileage

/// A shift's record beside its route: its timeline and the deliveries worked inside it, with
/// every rule of seed 000 applied as events arrive.
///
/// - A delivery begins only while its shift is running: started, not paused, not ended. A
///   parked shift is running (seed 001: "a parked shift keeps running … its deliveries stay
///   open"), so deliveries begin and advance while parked.
/// - Any number may be in progress at once; every event names its delivery.
/// - Steps happen in lifecycle order (arrive, pickup, deliver), once each, never after the
///   delivery finished; cancel ends any delivery in progress.
/// - An instant earlier than the delivery's last event is applied at that event's instant (a
///   zero-length interval, never a negative one) and the `Clamp` is kept on the delivery.
/// - The shift is not paused or ended while a delivery is in progress at that instant.
/// - Two deliveries never share a label.
/// - An event naming a pickup place records it on its delivery (a later one replaces it).
///
/// Rules about the shift are judged at the event's own instant against the events known, so
/// deliveries' events commute with each other and with the shift's events of the running
/// stretch they fall in: any order of applying a set of events that the rules accept gives the
/// same ledger (tested). `applyRecorded(_:)` adds the timeline file's rule for events in the
/// order they were recorded: an event earlier than the one recorded before it is clamped
/// forward to it, for shift and delivery events alike.
///
/// Deliveries are kept in numbering order, by acceptance time with the label breaking a tie
/// (the record's identity), so Delivery *n* is `deliveries[n - 1]` and finishing one never
/// renumbers another.
///
/// - Complexity: a delivery event is O(1) amortized for an acceptance later than every other
///   (O(*n*) when it lands before others), O(1) otherwise; pause and end are O(*n*) in the
///   deliveries; the shift's other events are O(1). The figures are O(*n*)
///   (`ShiftLedger+Figures.swift`).
public struct ShiftLedger: Sendable, Hashable {
  public internal(set) var timeline: ShiftTimeline
  /// Every delivery, in numbering order: Delivery *n* is `deliveries[n - 1]`.
  public internal(set) var deliveries: [Delivery] = []
  /// Shift events applied later than recorded (delivery events keep theirs on the delivery).
  public private(set) var shiftClamps: [Clamp] = []
  var indexByLabel: [String: Int] = [:]
  /// The last event applied by `applyRecorded(_:)`, as applied.
  private var lastRecorded: ShiftWorkEvent?

  /// A ledger over `timeline`, with no delivery yet.
  public init(timeline: ShiftTimeline = ShiftTimeline()) {
    self.timeline = timeline
  }

  /// The delivery labelled `label` and its number.
  ///
  /// - Complexity: O(1).
  public func delivery(labelled label: String) -> (number: Int, delivery: Delivery)? {
    indexByLabel[label].map { ($0 + 1, deliveries[$0]) }
  }

  /// `Delivery n "label"` for the delivery at `index`.
  func reference(_ index: Int) -> DeliveryReference {
    DeliveryReference(number: index + 1, label: deliveries[index].label)
  }

  // MARK: Applying events

  /// Applies a shift or delivery event; returns the clamp applied, if any.
  @discardableResult
  public mutating func apply(_ event: ShiftWorkEvent) throws(LedgerRefusal) -> Clamp? {
    switch event {
    case .shift(let shiftEvent):
      try apply(shiftEvent)
      return nil
    case .delivery(let deliveryEvent):
      return try apply(deliveryEvent)
    }
  }

  /// Applies a shift event: the timeline's rules, and no pause or end while a delivery is in
  /// progress at its instant.
  public mutating func apply(_ event: ShiftTimeline.Event) throws(LedgerRefusal) {
    if event.kind == .pause || event.kind == .end {
      let open = deliveries.indices.filter { deliveries[$0].isInProgress(at: event.at) }
      if let first = open.first {
        throw LedgerRefusal(
          .deliveriesInProgress, event: .shift(event), collidesWith: .delivery(deliveries[first].lastEvent),
          openDeliveries: open.map(reference))
      }
    }
    do {
      try timeline.apply(event)
    } catch {
      throw LedgerRefusal(.timeline(error), event: .shift(event), collidesWith: error.collidesWith.map { .shift($0) })
    }
  }

  /// Applies a delivery event; returns the clamp applied when the instant was earlier than the
  /// delivery's last event.
  @discardableResult
  public mutating func apply(_ event: DeliveryEvent) throws(LedgerRefusal) -> Clamp? {
    let recorded = ShiftWorkEvent.delivery(event)
    guard event.at.isFinite else {
      throw LedgerRefusal(.badInstant, event: recorded, delivery: indexByLabel[event.delivery].map(reference))
    }
    if event.kind == .accept {
      if let index = indexByLabel[event.delivery] {
        throw LedgerRefusal(
          .labelInUse, event: recorded, delivery: reference(index),
          collidesWith: deliveries[index].event(.accept).map { .delivery($0) })
      }
      if let refusal = shiftRefusal(of: recorded, at: event.at, delivery: nil, accepting: true) { throw refusal }
      insert(Delivery(label: event.delivery, offer: event.offer, acceptedAt: event.at, place: event.place))
      return nil
    }
    guard let index = indexByLabel[event.delivery] else { throw LedgerRefusal(.unknownDelivery, event: recorded) }
    var delivery = deliveries[index]
    let last = delivery.lastEvent
    if delivery.isFinished {
      throw LedgerRefusal(.deliveryFinished, event: recorded, delivery: reference(index), collidesWith: .delivery(last))
    }
    if event.kind != .cancel, event.kind != delivery.state.nextStep {
      // A second step collides with its first; a skipped one with the last step recorded.
      let collided = delivery.event(event.kind) ?? last
      throw LedgerRefusal(.notNextStep, event: recorded, delivery: reference(index), collidesWith: .delivery(collided))
    }
    var clamp: Clamp?
    var instant = event.at
    if instant < last.at {
      instant = last.at
      clamp = Clamp(recorded: recorded, appliedAt: instant, reason: .deliveryLastEvent, clampedTo: .delivery(last))
    }
    if let refusal = shiftRefusal(of: recorded, at: instant, delivery: reference(index), accepting: false) {
      throw refusal
    }
    switch event.kind {
    case .accept: break
    case .arrive: delivery.arrivedAtPickupAt = instant
    case .pickup: delivery.pickedUpAt = instant
    case .deliver: delivery.deliveredAt = instant
    case .cancel: delivery.cancelledAt = instant
    }
    if let clamp { delivery.clamps.append(clamp) }
    if let place = event.place { delivery.place = place }
    deliveries[index] = delivery
    return clamp
  }

  /// Applies `event` as the next one recorded: an instant earlier than the event recorded
  /// before it is clamped forward to that one's instant first (for shift and delivery events
  /// alike), then the event is applied. Returns every clamp applied, recorded order's first.
  ///
  /// - Complexity: as `apply(_:)`.
  @discardableResult
  public mutating func applyRecorded(_ event: ShiftWorkEvent) throws(LedgerRefusal) -> [Clamp] {
    var applied = event
    var clamps: [Clamp] = []
    if let previous = lastRecorded, event.at < previous.at {
      applied = event.moved(to: previous.at)
      clamps.append(Clamp(recorded: event, appliedAt: previous.at, reason: .previousRecord, clampedTo: previous))
    }
    do {
      if let deliveryClamp = try apply(applied) {
        // Cannot happen after the recorded-order clamp, which is never earlier than any event
        // applied before; kept so the report stays complete if it ever does.
        clamps.append(deliveryClamp)
      }
    } catch {
      // The refusal names the event as it was recorded.
      var refusal = error
      refusal.event = event
      throw refusal
    }
    if let first = clamps.first, first.reason == .previousRecord {
      switch event {
      case .shift: shiftClamps.append(first)
      case .delivery(let deliveryEvent):
        if let index = indexByLabel[deliveryEvent.delivery] {
          // Before the delivery's own clamp, if `apply` added one.
          deliveries[index].clamps.insert(first, at: deliveries[index].clamps.count - (clamps.count - 1))
        }
      }
    }
    lastRecorded = applied
    return clamps
  }

  /// Why a delivery event at `instant` is refused by the shift's state then, or nil.
  private func shiftRefusal(of event: ShiftWorkEvent, at instant: Double, delivery: DeliveryReference?, accepting: Bool)
    -> LedgerRefusal?
  {
    guard let start = timeline.events.first, instant >= start.at else {
      return LedgerRefusal(
        .shiftNotStarted, event: event, delivery: delivery, collidesWith: timeline.events.first.map { .shift($0) })
    }
    // A finished shift takes no new delivery, whatever the instant named.
    if accepting, timeline.state == .ended, let end = timeline.events.last {
      return LedgerRefusal(.shiftEnded, event: event, delivery: delivery, collidesWith: .shift(end))
    }
    switch timeline.state(at: instant) {
    case .ended:
      return LedgerRefusal(
        .shiftEnded, event: event, delivery: delivery, collidesWith: timeline.events.last.map { .shift($0) })
    case .paused:
      let pause = timeline.interruptions.last { $0.kind == .pause && $0.start <= instant }
      return LedgerRefusal(
        .shiftPaused, event: event, delivery: delivery,
        collidesWith: pause.map { .shift(ShiftTimeline.Event(.pause, at: $0.start)) })
    case .notStarted:
      return LedgerRefusal(.shiftNotStarted, event: event, delivery: delivery, collidesWith: .shift(start))
    case .running, .parked:
      return nil
    }
  }

  /// Inserts a new delivery at its place in numbering order.
  private mutating func insert(_ delivery: Delivery) {
    var position = deliveries.count
    if let last = deliveries.last, Self.precedes(delivery, last) {
      var low = 0
      var high = deliveries.count
      while low < high {
        let middle = (low + high) / 2
        if Self.precedes(deliveries[middle], delivery) { low = middle + 1 } else { high = middle }
      }
      position = low
    }
    deliveries.insert(delivery, at: position)
    for index in position..<deliveries.count { indexByLabel[deliveries[index].label] = index }
  }

  /// Numbering order: acceptance time, then the label (the record's identity) for a tie.
  static func precedes(_ a: Delivery, _ b: Delivery) -> Bool {
    a.acceptedAt != b.acceptedAt ? a.acceptedAt < b.acceptedAt : a.label < b.label
  }
}

// MARK: Restoring a stored ledger

extension ShiftLedger {
  /// A ledger rebuilt from what a store holds: the timeline, each delivery at the instants it
  /// was applied at (with the clamps that moved them there, its place and its amounts) and the
  /// shift events' clamps.
  ///
  /// Every instant is applied again through the rules, in time order (at one instant: the
  /// shift's start, resume, park and drive first, then delivery events in lifecycle order, then
  /// pause and end), so a stored row the rules refuse is refused here rather than shown. The
  /// clamps are kept as stored: applied instants never need clamping again.
  ///
  /// - Throws: the `LedgerRefusal` of the first event the rules refuse.
  /// - Complexity: O((*k* + *n*) log (*k* + *n*)) for *k* shift events and *n* deliveries.
  public init(timeline: ShiftTimeline, deliveries stored: [Delivery], shiftClamps: [Clamp]) throws(LedgerRefusal) {
    self.init()
    var events: [(rank: Int, order: Int, event: ShiftWorkEvent)] = []
    for event in timeline.events {
      let rank = event.kind == .pause || event.kind == .end ? 7 : 0
      events.append((rank, events.count, .shift(event)))
    }
    for delivery in stored {
      for (rank, kind) in DeliveryEvent.Kind.allCases.enumerated() {
        guard let event = delivery.event(kind) else { continue }
        events.append((rank + 1, events.count, .delivery(event)))
      }
    }
    events.sort { ($0.event.at, $0.rank, $0.order) < ($1.event.at, $1.rank, $1.order) }
    for entry in events { try apply(entry.event) }
    for delivery in stored {
      guard let index = indexByLabel[delivery.label] else { continue }
      deliveries[index].clamps = delivery.clamps
      deliveries[index].place = delivery.place
      deliveries[index].amount = delivery.amount
      deliveries[index].tips = delivery.tips
      deliveries[index].expectedAmount = delivery.expectedAmount
    }
    self.shiftClamps = shiftClamps
    lastRecorded = events.last?.event
  }
}
