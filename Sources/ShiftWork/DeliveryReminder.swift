/// A suggestion, drawn from the record alone, that a step may have gone unrecorded (seed 000).
/// It is never a detection: nothing about the world is observed, and dismissing one records
/// nothing.
public struct DeliveryReminder: Sendable, Hashable {
  /// The delivery it is about; a reminder never names another.
  public var delivery: DeliveryReference
  /// The step offered: `arrive` (only its acceptance recorded) or `pickup` (an arrival and
  /// nothing since).
  public var step: DeliveryEvent.Kind
  /// The instant of the last event it recorded.
  public var since: Double
  /// Seconds from `since` to the instant judged.
  public var seconds: Double

  public init(delivery: DeliveryReference, step: DeliveryEvent.Kind, since: Double, seconds: Double) {
    self.delivery = delivery
    self.step = step
    self.since = since
    self.seconds = seconds
  }
}

extension ShiftLedger {
  /// How long a delivery records nothing new before a reminder is offered: 30 minutes, a
  /// defensible engineering choice rather than a calibrated figure (seed 000).
  public static let reminderThreshold: Double = 1800

  /// The reminders at `instant`, in number order. Judged one delivery at a time on its own
  /// record: a delivery that recorded only its acceptance `reminderThreshold` seconds ago or
  /// more is offered Arrived at Pickup; one whose arrival is its last event that long ago is
  /// offered Picked Up. Never for a picked-up delivery, a finished one, one on a shift that has
  /// ended (or is not running at `instant`), one whose last event is after `instant`, or a row
  /// whose times contradict each other.
  ///
  /// - Complexity: O(*n*).
  public func reminders(at instant: Double) -> [DeliveryReminder] {
    guard timeline.state != .ended else { return [] }
    switch timeline.state(at: instant) {
    case .running, .parked: break
    case .notStarted, .paused, .ended: return []
    }
    var reminders: [DeliveryReminder] = []
    for (index, delivery) in deliveries.enumerated() where delivery.timesAreConsistent {
      let since: Double
      let step: DeliveryEvent.Kind
      switch delivery.state {
      case .accepted:
        since = delivery.acceptedAt
        step = .arrive
      case .arrivedAtPickup:
        guard let arrived = delivery.arrivedAtPickupAt else { continue }
        since = arrived
        step = .pickup
      case .pickedUp, .delivered, .cancelled:
        continue
      }
      let seconds = instant - since
      guard seconds >= Self.reminderThreshold else { continue }
      reminders.append(DeliveryReminder(delivery: reference(index), step: step, since: since, seconds: seconds))
    }
    return reminders
  }
}
