import RouteMileage
import ShiftWork

extension ShiftCard {
  /// One open delivery on the card: `Delivery 1 · At pickup · 18:04`, its clock counting from
  /// its own acceptance (a system clock counts on from `acceptedAt`; `text` is read at the
  /// card's instant).
  public struct DeliveryLine: Sendable, Hashable {
    public var number: Int
    public var stage: DeliveryStage
    /// The anchor its clock counts from.
    public var acceptedAt: Double
    /// The stage in the card's shortened vocabulary: To pickup, At pickup, To customer.
    public var stageWords: String
    /// The line as read at the card's instant.
    public var text: String

    /// The line as read at `instant` (the clock counts on from `acceptedAt`).
    public func text(at instant: Double) -> String {
      ShiftCardWords.deliveryLine(number: number, stage: stageWords, clock: ShiftCard.clock(instant - acceptedAt))
    }

    /// What the line means, without its running clock.
    var identity: [Double] { [Double(number), acceptedAt, Double(stage.rank)] }
  }

  /// Past this many open deliveries the card states the remainder (seed 001).
  public static let maximumDeliveryLines = 3

  /// The card for `ledger` (its timeline and deliveries) and `route` at `instant`.
  ///
  /// - Complexity: O(*k* + *n*) in the timeline's events and the deliveries.
  public init(ledger: ShiftLedger, route: RouteDistance, at instant: Double, locale: MileageLocale = .english) {
    let open = ledger.deliveries.enumerated().filter { !$0.element.isFinished && $0.element.acceptedAt <= instant }
    self.init(
      timeline: ledger.timeline, route: route, at: instant,
      openDeliveries: open.map { DeliveryStage($0.element.state) },
      locale: locale)
    let running = state == .running || state == .parked
    if !ledger.deliveries.isEmpty {
      let counts = ledger.counts
      deliveryCountsLine = ShiftCardWords.deliveryCounts(
        inProgress: counts.inProgress, delivered: counts.delivered, locale: locale)
    }
    guard running else { return }
    if open.count == 1 { deliveryStatusLine = open[0].element.state.words }
    deliveryLines = open.prefix(Self.maximumDeliveryLines).map { index, delivery in
      var line = DeliveryLine(
        number: index + 1, stage: DeliveryStage(delivery.state), acceptedAt: delivery.acceptedAt,
        stageWords: delivery.state.shortWords, text: "")
      line.text = line.text(at: instant)
      return line
    }
    if open.count > Self.maximumDeliveryLines {
      moreDeliveriesLine = ShiftCardWords.moreDeliveries(open.count - Self.maximumDeliveryLines)
    }
    reminderLines = ledger.reminders(at: instant).map { reminder in
      let minutes = Int(reminder.seconds / 60)
      return switch reminder.step {
      case .pickup: ShiftCardWords.pickupReminder(delivery: reminder.delivery.number, minutes: minutes)
      default: ShiftCardWords.arrivalReminder(delivery: reminder.delivery.number, minutes: minutes)
      }
    }
  }

  /// A delivery's clock: `M:SS` under an hour (`18:04`), `H:MM:SS` from an hour.
  public static func clock(_ seconds: Double) -> String {
    let whole = max(0, Int(seconds))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    if whole >= 3600 { return "\(whole / 3600):\(two(whole / 60 % 60)):\(two(whole % 60))" }
    return "\(whole / 60):\(two(whole % 60))"
  }
}

extension ShiftCard.DeliveryStage {
  /// The stage of a delivery in progress (a finished one has none; it is never asked).
  init(_ state: DeliveryState) {
    switch state {
    case .accepted: self = .toPickup
    case .arrivedAtPickup: self = .atPickup
    case .pickedUp, .delivered, .cancelled: self = .toCustomer
    }
  }

  var rank: Int {
    switch self {
    case .toPickup: 0
    case .atPickup: 1
    case .toCustomer: 2
    }
  }
}
