import RouteMileage
import ShiftWork

/// The live card of a shift (seed 001), derived from its timeline and its route at an instant.
///
/// It is a picture of the shift, never a second record of it: the state line, the working
/// time with the instant it was read at (a system clock counts on from that anchor while the
/// shift runs; while paused the figure stands still), the RouteQuality line, the parked line
/// only while parked, the deliveries (counts, the status line when exactly one is open, a line
/// per open delivery, reminders; `ShiftCard+Deliveries.swift`), and the controls the lifecycle
/// rules permit (seed 001's table). Nothing on it names a place, a coordinate or an amount; its
/// words are `ShiftCardWords`' and name no other product: it holds words, durations and instants.
///
/// When to push a new card is `ShiftCardCadence`'s business.
public struct ShiftCard: Sendable, Hashable {
  /// A control on the card, with the words a driver reads and a listener hears.
  public enum Control: String, Sendable, Hashable, CaseIterable {
    case resumeDriving = "Resume Driving"
    case arrivedAtPickup = "Arrived at Pickup"
    case pickedUp = "Picked Up"
    case delivered = "Delivered"
    case startDelivery = "Start Delivery"
    case parkVehicle = "Park Vehicle"
    case pauseShift = "Pause Shift"
    case resumeShift = "Resume Shift"
    case endShift = "End Shift"
  }

  /// Where a delivery in progress stands, for its next step on the card.
  public enum DeliveryStage: Sendable, Hashable {
    case toPickup, atPickup, toCustomer

    /// The step the card offers for a delivery at this stage.
    public var nextStep: Control {
      switch self {
      case .toPickup: .arrivedAtPickup
      case .atPickup: .pickedUp
      case .toCustomer: .delivered
      }
    }
  }

  public var state: ShiftTimeline.State
  /// "Shift in Progress" (running or parked: a parked shift keeps running), "Shift Paused",
  /// or "Shift Ended".
  public var stateLine: String
  /// Elapsed less paused, at `readAt`.
  public var workingSeconds: Double
  /// The instant `workingSeconds` was read at (seconds since 1970, UTC).
  public var readAt: Double
  /// Whether working time grows with wall-clock time from `readAt` (not while paused or ended).
  public var workingClockRuns: Bool
  /// RouteQuality's line for the route shown.
  public var routeLine: String
  /// `ShiftCardWords.parked` while parked, nil otherwise.
  public var parkedLine: String?
  /// In order, first the one that matters most.
  public var controls: [Control]
  /// `ShiftCardWords.severalDeliveries` when two or more deliveries are open and running.
  public var stepRefusalLine: String?
  /// "2 in progress · 5 delivered", once the shift has recorded a delivery; nil before.
  public var deliveryCountsLine: String?
  /// What the one delivery in progress is doing ("Waiting at the pickup"), only when exactly
  /// one is open: with two there is no "the delivery".
  public var deliveryStatusLine: String?
  /// One line per open delivery, in number order, at most three.
  public var deliveryLines: [DeliveryLine] = []
  /// "1 more also active" past three open deliveries.
  public var moreDeliveriesLine: String?
  /// Reminders from the record (never a detection), one per stale delivery.
  public var reminderLines: [String] = []

  /// The card for `timeline` and `route` at `instant`.
  ///
  /// - Parameter openDeliveries: the stages of the deliveries in progress (none for a shift
  ///   with no delivery open, the case the tool replays).
  public init(
    timeline: ShiftTimeline, route: RouteDistance, at instant: Double, openDeliveries: [DeliveryStage] = [],
    locale: MileageLocale = .english
  ) {
    let state = timeline.state(at: instant)
    self.state = state
    stateLine =
      switch state {
      case .paused: ShiftCardWords.paused
      case .ended: ShiftCardWords.ended
      case .running, .parked, .notStarted: ShiftCardWords.inProgress
      }
    workingSeconds = timeline.workingDuration(asOf: instant)
    readAt = instant
    workingClockRuns = state == .running || state == .parked
    routeLine = RouteQuality(route, locale: locale).line
    parkedLine = state == .parked ? ShiftCardWords.parked : nil
    controls = Self.controls(state: state, openDeliveries: openDeliveries)
    stepRefusalLine =
      (state == .running || state == .parked) && openDeliveries.count >= 2 ? ShiftCardWords.severalDeliveries : nil
    deliveryCountsLine = nil
    deliveryStatusLine = nil
  }

  /// Seed 001's table, "What it offers".
  ///
  /// | The shift is | The card offers |
  /// |---|---|
  /// | Running, no delivery open | Start Delivery, Park Vehicle, Pause Shift, End Shift |
  /// | Running, one delivery open | its next step, Start Delivery, Park Vehicle |
  /// | Running, two or more open | Start Delivery, Park Vehicle (and the reason for no step) |
  /// | Parked | Resume Driving first, then the row above with Park Vehicle replaced |
  /// | Paused | Resume Shift, End Shift |
  ///
  /// Pausing and ending are refused while a delivery is open, so neither is offered then.
  /// Exactly one of Park Vehicle and Resume Driving is on a running card; neither on a paused
  /// one (a paused shift is never parked). A shift not started or ended offers nothing.
  public static func controls(state: ShiftTimeline.State, openDeliveries: [DeliveryStage] = []) -> [Control] {
    func running() -> [Control] {
      switch openDeliveries.count {
      case 0: [.startDelivery, .parkVehicle, .pauseShift, .endShift]
      case 1: [openDeliveries[0].nextStep, .startDelivery, .parkVehicle]
      default: [.startDelivery, .parkVehicle]
      }
    }
    switch state {
    case .running: return running()
    case .parked: return [.resumeDriving] + running().filter { $0 != .parkVehicle }
    case .paused: return [.resumeShift, .endShift]
    case .notStarted, .ended: return []
    }
  }

  /// Whether `other` means something different: state, parked line, controls, step refusal,
  /// route line, the delivery counts, status, rows (which deliveries are counted and at what
  /// stage, not their clocks) and reminders. Working time and a delivery's clock alone are not a
  /// change (each clock counts itself from its anchor).
  public func differsInMeaning(from other: ShiftCard) -> Bool {
    state != other.state || parkedLine != other.parkedLine || controls != other.controls
      || stepRefusalLine != other.stepRefusalLine || routeLine != other.routeLine
      || deliveryCountsLine != other.deliveryCountsLine || deliveryStatusLine != other.deliveryStatusLine
      || deliveryLines.map(\.identity) != other.deliveryLines.map(\.identity)
      || moreDeliveriesLine != other.moreDeliveriesLine || reminderLines != other.reminderLines
  }
}

/// When a live card goes out (seed 001, "The clock counts itself").
///
/// Changes of meaning (pausing, resuming, parking, driving again, ending, a control appearing or
/// disappearing) go out at once, because a driver who paused and saw no acknowledgement would
/// press again. The route figure waits `routeUpdateInterval` (30 s) of shift time between
/// changes; a change in what qualifies it (measured or not, partial or not) is a change of
/// meaning and goes at once, so the partial marker always travels with the figure. When the
/// shift ends the final figure goes at once. Working time is never a reason to push.
///
/// This is the one implementation of the card's cadence; `replay` draws what it returns.
public struct ShiftCardCadence: Sendable {
  public var routeUpdateInterval: Double
  /// The card as last pushed.
  public private(set) var card: ShiftCard?
  /// The route the pushed card shows.
  public private(set) var shownRoute = RouteDistance()
  /// The latest route offered, shown or not.
  public private(set) var latestRoute = RouteDistance()
  var lastRouteChange = -Double.infinity

  public init(routeUpdateInterval: Double = 30) {
    self.routeUpdateInterval = routeUpdateInterval
  }

  /// When the latest figure, held back by the interval, may be shown; nil when the card already
  /// shows it. O(1).
  public var figureDueAt: Double? {
    latestRoute.meters == shownRoute.meters ? nil : lastRouteChange + routeUpdateInterval
  }

  /// Offers the shift as it stands at `instant`; returns the card to push now, or nil when the
  /// card already out still says the same thing.
  ///
  /// - Complexity: O(*k*) in the timeline's events.
  public mutating func update(
    timeline: ShiftTimeline, route: RouteDistance, at instant: Double, openDeliveries: [ShiftCard.DeliveryStage] = [],
    locale: MileageLocale = .english
  ) -> ShiftCard? {
    update(route: route, at: instant, ended: timeline.state(at: instant) == .ended) { shownRoute in
      ShiftCard(timeline: timeline, route: shownRoute, at: instant, openDeliveries: openDeliveries, locale: locale)
    }
  }

  /// Offers the shift and its deliveries as they stand at `instant` (a delivery starting,
  /// advancing or finishing goes out at once, as a reminder appearing does).
  ///
  /// - Complexity: O(*k* + *n*) in the timeline's events and the deliveries.
  public mutating func update(
    ledger: ShiftLedger, route: RouteDistance, at instant: Double, locale: MileageLocale = .english
  )
    -> ShiftCard?
  {
    update(route: route, at: instant, ended: ledger.timeline.state(at: instant) == .ended) { shownRoute in
      ShiftCard(ledger: ledger, route: shownRoute, at: instant, locale: locale)
    }
  }

  private mutating func update(
    route: RouteDistance, at instant: Double, ended: Bool, card make: (RouteDistance) -> ShiftCard
  )
    -> ShiftCard?
  {
    latestRoute = route
    let qualifierChanged = route.isMeasured != shownRoute.isMeasured || route.isPartial != shownRoute.isPartial
    let figureDue = route.meters != shownRoute.meters && instant - lastRouteChange >= routeUpdateInterval
    if card == nil || ended || qualifierChanged || figureDue {
      if card == nil || route.meters != shownRoute.meters || qualifierChanged { lastRouteChange = instant }
      shownRoute = route
    }
    let next = make(shownRoute)
    if let card, !next.differsInMeaning(from: card) { return nil }
    card = next
    return next
  }
}
