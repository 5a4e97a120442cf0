import RouteMileage

/// A delivery as a person is told about it: its number on the shift and its label.
public struct DeliveryReference: Sendable, Hashable, CustomStringConvertible {
  public var number: Int
  public var label: String

  public init(number: Int, label: String) {
    self.number = number
    self.label = label
  }

  /// `Delivery 2 "d2"` (a long label is cut at 40 characters).
  public var description: String { "Delivery \(number) \(DeliveryReference.quoted(label))" }

  static func quoted(_ label: String) -> String {
    let shown = label.count > 40 ? String(label.prefix(40)) + "…" : label
    return "\"\(shown)\""
  }
}

/// An event the shift's rules refuse, naming the delivery and the event it collides with.
/// Applying a refused event changes nothing.
public struct LedgerRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Rule: Sendable, Hashable {
    /// The shift's own lifecycle rules (`ShiftTimeline`).
    case timeline(ShiftTimeline.Refusal)
    /// Pause or end while deliveries are in progress (`openDeliveries` lists them).
    case deliveriesInProgress
    /// A delivery event before the shift started (or with no start at all).
    case shiftNotStarted
    /// A delivery cannot begin or advance while the shift is paused.
    case shiftPaused
    /// A delivery cannot begin or advance on a shift that has ended.
    case shiftEnded
    /// An event for a label no acceptance created.
    case unknownDelivery
    /// A second acceptance with a label already in use.
    case labelInUse
    /// A step out of lifecycle order, or a second one (deliver before pickup, arrive twice).
    case notNextStep
    /// Any event after the delivery was delivered or cancelled.
    case deliveryFinished
    /// An instant that is not a number.
    case badInstant
  }

  public var rule: Rule
  /// The refused event, as recorded.
  public var event: ShiftWorkEvent
  /// The delivery it concerns, when that delivery exists.
  public var delivery: DeliveryReference?
  /// The event that made it impossible.
  public var collidesWith: ShiftWorkEvent?
  /// For `deliveriesInProgress`: the deliveries still open, in number order.
  public var openDeliveries: [DeliveryReference]

  public init(
    _ rule: Rule, event: ShiftWorkEvent, delivery: DeliveryReference? = nil, collidesWith: ShiftWorkEvent? = nil,
    openDeliveries: [DeliveryReference] = []
  ) {
    self.rule = rule
    self.event = event
    self.delivery = delivery
    self.collidesWith = collidesWith
    self.openDeliveries = openDeliveries
  }

  /// The rule in words, naming the delivery and the event it collides with by kind (callers
  /// add times and lines).
  public var description: String {
    if case .timeline(let refusal) = rule { return refusal.description }
    let name = event.name
    let subject: String =
      if let delivery { "\(delivery)" } else if case .delivery(let recorded) = event {
        "delivery \(DeliveryReference.quoted(recorded.delivery))"
      } else { "the shift" }
    let other = collidesWith.map(otherWords) ?? "no start"
    switch rule {
    case .timeline: return ""
    case .deliveriesInProgress:
      let count = openDeliveries.count
      let list = openDeliveries.map(\.description).joined(separator: ", ")
      return "\(name) refused: \(count) \(count == 1 ? "delivery is" : "deliveries are") still in progress (\(list)); "
        + "mark each one delivered or cancel it first (it collides with \(other))"
    case .shiftNotStarted: return "\(subject): \(name) before the shift started (it collides with \(other))"
    case .shiftPaused:
      return name == "accept"
        ? "\(subject) cannot begin while the shift is paused (it collides with \(other))"
        : "\(subject): \(name) while the shift is paused (it collides with \(other))"
    case .shiftEnded:
      return name == "accept"
        ? "\(subject) cannot begin after the shift ended (it collides with \(other))"
        : "\(subject): \(name) after the shift ended (it collides with \(other))"
    case .unknownDelivery: return "\(subject): \(name) for a delivery no accept created on this shift"
    case .labelInUse:
      return "\(subject) is accepted a second time: two deliveries cannot share a label (it collides with \(other))"
    case .notNextStep:
      if case .delivery(let refused) = event, let last = collidesWith, case .delivery(let previous) = last {
        if refused.kind == previous.kind { return "\(subject): a second \(name) (it collides with \(other))" }
        return "\(subject): \(name) before its \(Self.missingStep(before: refused.kind)) (it collides with \(other))"
      }
      return "\(subject): \(name) out of lifecycle order (it collides with \(other))"
    case .deliveryFinished:
      return "\(subject): \(name) after it was \(Self.finishedWord(collidesWith)) (it collides with \(other))"
    case .badInstant: return "\(subject): \(name) has no usable instant"
    }
  }

  private func otherWords(_ other: ShiftWorkEvent) -> String {
    switch other {
    case .shift(let shiftEvent): return "the \(shiftEvent.kind.rawValue)"
    case .delivery(let deliveryEvent):
      let sameDelivery = delivery?.label == deliveryEvent.delivery
      if sameDelivery { return "its \(deliveryEvent.kind.rawValue)" }
      if let open = openDeliveries.first(where: { $0.label == deliveryEvent.delivery }) {
        return "the \(deliveryEvent.kind.rawValue) of \(open)"
      }
      return "the \(deliveryEvent.kind.rawValue) of delivery \(DeliveryReference.quoted(deliveryEvent.delivery))"
    }
  }

  private static func missingStep(before kind: DeliveryEvent.Kind) -> String {
    switch kind {
    case .pickup: "arrive"
    case .deliver: "pickup"
    default: "previous step"
    }
  }

  private static func finishedWord(_ event: ShiftWorkEvent?) -> String {
    if case .delivery(let terminal)? = event, terminal.kind == .cancel { return "cancelled" }
    return "delivered"
  }
}
