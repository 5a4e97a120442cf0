/// What a delivery is doing, derived from which of its timestamps exist (seed 000): never
/// stored, so it cannot drift from the record.
public enum DeliveryState: String, Sendable, Hashable, CaseIterable {
  /// Heading to the pickup (the delivery's creation).
  case accepted
  /// Waiting at the pickup.
  case arrivedAtPickup
  /// The order is in the car, heading to the customer.
  case pickedUp
  /// Completed. Terminal.
  case delivered
  /// Ended without being completed, keeping what happened first. Terminal.
  case cancelled

  public var isTerminal: Bool { self == .delivered || self == .cancelled }

  /// The lifecycle step that comes next, or nil once terminal (cancel is possible from every
  /// active state and is never "the" next step).
  public var nextStep: DeliveryEvent.Kind? {
    switch self {
    case .accepted: .arrive
    case .arrivedAtPickup: .pickup
    case .pickedUp: .deliver
    case .delivered, .cancelled: nil
    }
  }

  /// The state as a person reads it on a report (`Heading to the pickup`, …).
  public var words: String {
    switch self {
    case .accepted: "Heading to the pickup"
    case .arrivedAtPickup: "Waiting at the pickup"
    case .pickedUp: "Heading to the customer"
    case .delivered: "Delivered"
    case .cancelled: "Cancelled"
    }
  }

  /// The shortened form a card row carries beside a delivery's name and clock (seed 001):
  /// To pickup, At pickup, To customer.
  public var shortWords: String {
    switch self {
    case .accepted: "To pickup"
    case .arrivedAtPickup: "At pickup"
    case .pickedUp: "To customer"
    case .delivered: "Delivered"
    case .cancelled: "Cancelled"
    }
  }
}

extension DeliveryEvent.Kind {
  /// The control that records this step, as seed 000 names it.
  public var controlTitle: String {
    switch self {
    case .accept: "Start Delivery"
    case .arrive: "Arrived at Pickup"
    case .pickup: "Picked Up"
    case .deliver: "Delivered"
    case .cancel: "Cancel Delivery"
    }
  }
}
