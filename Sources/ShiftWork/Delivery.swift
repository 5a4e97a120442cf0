/// One customer dropoff a driver recorded: its acceptance and whichever lifecycle events
/// followed (seed 000). Its state is derived from which timestamps exist; nothing else is stored.
///
/// It holds no distance and no customer: route distance belongs to the shift. The pickup place
/// and the amounts are what the driver typed, each optional; absent is absent, never zero.
public struct Delivery: Sendable, Hashable {
  /// The record's own label (the timeline file's `delivery`), its identity.
  public let label: String
  /// The label of the offer it arrived in, nil for an offer of one.
  public internal(set) var offer: String?
  public internal(set) var acceptedAt: Double
  public internal(set) var arrivedAtPickupAt: Double?
  public internal(set) var pickedUpAt: Double?
  public internal(set) var deliveredAt: Double?
  public internal(set) var cancelledAt: Double?
  /// Every instant of this delivery that was applied later than recorded, in the order applied.
  public internal(set) var clamps: [Clamp]
  /// Where it was collected from, when the driver named a place.
  public internal(set) var place: PickupPlaceName?
  /// What it paid (the platform's amount), recorded only once it finished.
  public internal(set) var amount: Money?
  /// Its tips, recorded only once it finished; counted with `amount` in what it earned.
  public internal(set) var tips: Money?
  /// What the driver expected it to pay, recorded only while in progress. Never earnings: no
  /// figure is derived from it, and it is never turned into `amount`.
  public internal(set) var expectedAmount: Money?

  /// A delivery as a store or a test holds it. Nothing is checked here: `timesAreConsistent`
  /// says whether the row describes a state the lifecycle can produce.
  public init(
    label: String, offer: String? = nil, acceptedAt: Double, arrivedAtPickupAt: Double? = nil,
    pickedUpAt: Double? = nil, deliveredAt: Double? = nil, cancelledAt: Double? = nil, clamps: [Clamp] = [],
    place: PickupPlaceName? = nil, amount: Money? = nil, tips: Money? = nil, expectedAmount: Money? = nil
  ) {
    self.label = label
    self.offer = offer
    self.acceptedAt = acceptedAt
    self.arrivedAtPickupAt = arrivedAtPickupAt
    self.pickedUpAt = pickedUpAt
    self.deliveredAt = deliveredAt
    self.cancelledAt = cancelledAt
    self.clamps = clamps
    self.place = place
    self.amount = amount
    self.tips = tips
    self.expectedAmount = expectedAmount
  }

  /// Derived from the timestamps: the terminal one if any, else the furthest stage recorded.
  public var state: DeliveryState {
    if cancelledAt != nil { return .cancelled }
    if deliveredAt != nil { return .delivered }
    if pickedUpAt != nil { return .pickedUp }
    if arrivedAtPickupAt != nil { return .arrivedAtPickup }
    return .accepted
  }

  public var isFinished: Bool { deliveredAt != nil || cancelledAt != nil }
  /// The terminal instant (delivered or cancelled), nil while in progress.
  public var finishedAt: Double? { deliveredAt ?? cancelledAt }

  /// The last event recorded, with its instant.
  public var lastEvent: DeliveryEvent {
    let (kind, at): (DeliveryEvent.Kind, Double) =
      if let cancelledAt { (.cancel, cancelledAt) } else if let deliveredAt {
        (.deliver, deliveredAt)
      } else if let pickedUpAt {
        (.pickup, pickedUpAt)
      } else if let arrivedAtPickupAt { (.arrive, arrivedAtPickupAt) } else { (.accept, acceptedAt) }
    return DeliveryEvent(kind, at: at, delivery: label, offer: kind == .accept ? offer : nil)
  }

  /// The event of `kind` this delivery recorded, if it did.
  public func event(_ kind: DeliveryEvent.Kind) -> DeliveryEvent? {
    let at: Double? =
      switch kind {
      case .accept: acceptedAt
      case .arrive: arrivedAtPickupAt
      case .pickup: pickedUpAt
      case .deliver: deliveredAt
      case .cancel: cancelledAt
      }
    return at.map { DeliveryEvent(kind, at: $0, delivery: label, offer: kind == .accept ? offer : nil) }
  }

  /// Waited at pickup: pickedUp − arrivedAtPickup, only when both were recorded (a missing end
  /// is left out, never filled in with zero).
  public var waitedAtPickupSeconds: Double? {
    guard let arrivedAtPickupAt, let pickedUpAt else { return nil }
    return pickedUpAt - arrivedAtPickupAt
  }

  /// Accepted to delivered: delivered − accepted, only for a delivery that was completed.
  public var acceptedToDeliveredSeconds: Double? { deliveredAt.map { $0 - acceptedAt } }

  /// Earned per recorded delivery hour: (amount + tips) ÷ accepted-to-delivered, only for a
  /// delivered delivery that carries an amount (never for a cancelled one, never with tips alone,
  /// nil for a zero-length interval).
  public var earnedPerDeliveryHour: HourlyEarnings? {
    guard let amount, let seconds = acceptedToDeliveredSeconds else { return nil }
    return HourlyEarnings(earned: amount.minorUnits + (tips?.minorUnits ?? 0), seconds: seconds)
  }

  /// Whether the delivery is in progress at `instant`: accepted at or before it and not
  /// finished by it (a delivery finished at the very instant is no longer in progress).
  public func isInProgress(at instant: Double) -> Bool {
    acceptedAt <= instant && (finishedAt.map { $0 > instant } ?? true)
  }

  /// Whether the row describes a state the lifecycle can produce: accepted ≤ arrived ≤ picked
  /// up ≤ terminal over the stages present, a pickup only after an arrival, a completion only
  /// after a pickup, at most one terminal event, every instant finite. A row that fails this
  /// says two contradictory things and is never the subject of a reminder.
  public var timesAreConsistent: Bool {
    if deliveredAt != nil && cancelledAt != nil { return false }
    if pickedUpAt != nil && arrivedAtPickupAt == nil { return false }
    if deliveredAt != nil && pickedUpAt == nil { return false }
    var previous = acceptedAt
    guard previous.isFinite else { return false }
    for instant in [arrivedAtPickupAt, pickedUpAt, deliveredAt ?? cancelledAt] {
      guard let instant else { continue }
      guard instant.isFinite, instant >= previous else { return false }
      previous = instant
    }
    return true
  }
}
