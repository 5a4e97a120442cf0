import RouteMileage

/// One thing a driver recorded about one delivery, at an instant (seconds since 1970, UTC).
///
/// Every event names its delivery by the record's own label: nothing here picks "the active
/// delivery" (seed 000). `offer` is read on `accept` only: deliveries accepted naming one offer
/// label arrived in one acceptance; an acceptance naming none is an offer of one.
public struct DeliveryEvent: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Creates the delivery (Start Delivery).
    case accept
    /// Arrived at Pickup.
    case arrive
    /// Picked Up.
    case pickup
    /// Delivered (terminal).
    case deliver
    /// Cancel Delivery (terminal, from any active state).
    case cancel
  }

  public var kind: Kind
  public var at: Double
  /// The delivery's label, the file's own identity for it (any string).
  public var delivery: String
  /// The offer's label, on `accept` only; nil is an offer of one.
  public var offer: String?
  /// The pickup place the event names (usually on `accept`), recorded on the delivery; nil
  /// leaves the delivery's place as it was.
  public var place: PickupPlaceName?

  public init(_ kind: Kind, at: Double, delivery: String, offer: String? = nil, place: PickupPlaceName? = nil) {
    self.kind = kind
    self.at = at
    self.delivery = delivery
    self.offer = offer
    self.place = place
  }
}

/// Anything a shift's record holds: a shift event (start, pause, …) or a delivery event.
public enum ShiftWorkEvent: Sendable, Hashable {
  case shift(ShiftTimeline.Event)
  case delivery(DeliveryEvent)

  /// The event's instant.
  public var at: Double {
    switch self {
    case .shift(let event): event.at
    case .delivery(let event): event.at
    }
  }

  /// The event's name as the timeline file spells it (`start`, `accept`, …).
  public var name: String {
    switch self {
    case .shift(let event): event.kind.rawValue
    case .delivery(let event): event.kind.rawValue
    }
  }

  /// The same event at another instant (what a clamp applies).
  public func moved(to instant: Double) -> ShiftWorkEvent {
    switch self {
    case .shift(var event):
      event.at = instant
      return .shift(event)
    case .delivery(var event):
      event.at = instant
      return .delivery(event)
    }
  }
}

/// A recorded instant moved forward rather than refused: an event earlier than its delivery's
/// last event, or (in recorded order) earlier than the record before it, is applied at that
/// later instant, so an interval is zero-length and never negative (seed 000: a device clock
/// that moved backwards). The clamp is kept and reported, never hidden.
public struct Clamp: Sendable, Hashable {
  public enum Reason: String, Sendable, Hashable {
    /// Earlier than the delivery's own last event.
    case deliveryLastEvent
    /// Earlier than the record before it (the timeline file's line before).
    case previousRecord
  }

  /// The event as recorded, at its recorded instant.
  public var recorded: ShiftWorkEvent
  /// The instant it was applied at (later than the recorded one).
  public var appliedAt: Double
  public var reason: Reason
  /// The event whose instant it was clamped to.
  public var clampedTo: ShiftWorkEvent

  public init(recorded: ShiftWorkEvent, appliedAt: Double, reason: Reason, clampedTo: ShiftWorkEvent) {
    self.recorded = recorded
    self.appliedAt = appliedAt
    self.reason = reason
    self.clampedTo = clampedTo
  }

  /// Seconds the event was moved forward.
  public var seconds: Double { appliedAt - recorded.at }
}
