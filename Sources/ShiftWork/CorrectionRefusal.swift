import RouteMileage

/// A correction the rules refuse (seed 000), naming the delivery and, where one exists, the
/// instant it collides with. A refused correction changes nothing: every correction is judged
/// whole before anything is written.
public struct CorrectionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Rule: Sendable, Hashable {
    /// No delivery has that label (or number) on this shift.
    case unknownDelivery
    /// Reopening needs a running shift; the shift is paused, parked counts as running.
    case shiftPaused
    /// Reopening needs a running shift; this one has ended.
    case shiftEnded
    /// The correction needs an ended shift (correct to cancelled, correct times, correct end).
    case shiftNotEnded
    /// Reopen and correct to cancelled act on a delivery recorded as delivered only.
    case notDelivered
    /// A cancelled delivery is not reopened: taking back a cancellation is a different statement.
    case cancelled
    /// The row's times contradict each other; nothing is repaired.
    case contradictoryTimes
    /// Correct times acts on a finished delivery only.
    case notFinished
    /// A proposed instant for a stage the delivery never recorded (nothing is invented).
    case notRecorded(DeliveryEvent.Kind)
    /// A proposed instant that is not a number.
    case badInstant(DeliveryEvent.Kind)
    /// Two instants out of lifecycle order: `event` after `other` (`collidesWith`).
    case outOfOrder(DeliveryEvent.Kind, before: DeliveryEvent.Kind)
    /// An instant before the shift's start or after its end.
    case outsideShift(DeliveryEvent.Kind)
    /// An acceptance inside a pause, or a delivery in progress across a pause's start.
    case acrossPause(DeliveryEvent.Kind)
    /// Grouping: the delivery is already in that offer, or an offer is combined with itself.
    case sameOffer
    /// Grouping: no offer with that number on this shift.
    case unknownOffer(Int)
    /// Grouping: an offer may not hold a delivery accepted before the offer was.
    case acceptedBeforeOffer(offer: Int)
    /// Grouping: the delivery is already an offer of one (new offer), or the offer holds one
    /// delivery (separate).
    case alreadyAlone
    /// Correcting the shift's end: a delivery recorded `event` after the proposed end.
    case endBeforeDelivery(DeliveryEvent.Kind)
    /// Correcting the shift's end: the shift's own events (`ShiftTimeline`'s refusal).
    case timeline(ShiftTimeline.Refusal)
    /// An amount or tips on a delivery still in progress.
    case amountWhileInProgress
    /// An expected amount on a delivery that has finished.
    case expectedWhenFinished
  }

  public var rule: Rule
  /// The delivery it concerns, when there is one.
  public var delivery: DeliveryReference?
  /// The instant it collides with (the other instant, the shift's start, end or pause).
  public var collidesAt: Double?

  public init(_ rule: Rule, delivery: DeliveryReference? = nil, collidesAt: Double? = nil) {
    self.rule = rule
    self.delivery = delivery
    self.collidesAt = collidesAt
  }

  /// The rule in words, naming the delivery and the other instant by its stage (callers add
  /// times). Never a place name or an amount.
  public var description: String {
    let subject = delivery.map(\.description) ?? "the delivery"
    switch rule {
    case .unknownDelivery: return "no such delivery on this shift"
    case .shiftPaused: return "\(subject) is not reopened while the shift is paused: resume the shift first"
    case .shiftEnded:
      return "\(subject) is not reopened on a shift that has ended: correct it to cancelled, or correct its times"
    case .shiftNotEnded: return "\(subject) is corrected this way only once the shift has ended"
    case .notDelivered: return "\(subject) is not recorded as delivered"
    case .cancelled: return "\(subject) is recorded as cancelled; a cancellation is not taken back"
    case .contradictoryTimes:
      return "\(subject) records times that contradict each other; nothing is changed"
    case .notFinished:
      return "\(subject) has not finished; its times are corrected only once it is delivered or cancelled"
    case .notRecorded(let kind): return "\(subject) never recorded \(kind.stageWords); no time is invented for it"
    case .badInstant(let kind): return "\(subject): the proposed \(kind.stageWords) time is not a time"
    case .outOfOrder(let kind, let other):
      let relation = Self.order(kind) < Self.order(other) ? "after" : "before"
      return "\(subject): the proposed \(kind.stageWords) time is \(relation) its \(other.stageWords)"
    case .outsideShift(let kind): return "\(subject): the proposed \(kind.stageWords) time is outside the shift"
    case .acrossPause(let kind):
      return "\(subject): the proposed \(kind.stageWords) time leaves it in progress while the shift was paused"
    case .sameOffer: return "\(subject) is already in that offer"
    case .unknownOffer(let number): return "no offer \(number) on this shift"
    case .acceptedBeforeOffer(let offer):
      return "\(subject) was accepted before offer \(offer) was; an offer cannot hold work that arrived before it"
    case .alreadyAlone: return "\(subject) is already an offer of its own"
    case .endBeforeDelivery(let kind):
      return "\(subject) has \(kind.controlTitle) recorded after the proposed shift end; correct its times first"
    case .timeline(let refusal): return refusal.description
    case .amountWhileInProgress:
      return "\(subject) is still in progress; what it paid is recorded once it is delivered or cancelled"
    case .expectedWhenFinished:
      return "\(subject) has finished; record what it paid rather than what it was expected to pay"
    }
  }

  static func order(_ kind: DeliveryEvent.Kind) -> Int {
    switch kind {
    case .accept: 0
    case .arrive: 1
    case .pickup: 2
    case .deliver, .cancel: 3
    }
  }
}

extension DeliveryEvent.Kind {
  /// The stage as a sentence names it: acceptance, arrival at the pickup, pickup, delivery,
  /// cancellation.
  public var stageWords: String {
    switch self {
    case .accept: "acceptance"
    case .arrive: "arrival at the pickup"
    case .pickup: "pickup"
    case .deliver: "delivery"
    case .cancel: "cancellation"
    }
  }
}
