import RouteMileage

/// How a shift's deliveries stand: counts by outcome.
public struct DeliveryCounts: Sendable, Hashable {
  public var delivered = 0
  public var cancelled = 0
  public var inProgress = 0

  public init(delivered: Int = 0, cancelled: Int = 0, inProgress: Int = 0) {
    self.delivered = delivered
    self.cancelled = cancelled
    self.inProgress = inProgress
  }

  public var total: Int { delivered + cancelled + inProgress }
}

/// The figures derived from a ledger. Nothing here is stored, and none is per delivery in
/// distance: route distance belongs to the shift.
extension ShiftLedger {
  /// Deliveries by outcome. O(*n*).
  public var counts: DeliveryCounts {
    var counts = DeliveryCounts()
    for delivery in deliveries {
      switch delivery.state {
      case .delivered: counts.delivered += 1
      case .cancelled: counts.cancelled += 1
      case .accepted, .arrivedAtPickup, .pickedUp: counts.inProgress += 1
      }
    }
    return counts
  }

  /// The deliveries still in progress (no terminal event), in number order, with their numbers.
  /// O(*n*).
  public var openDeliveries: [(number: Int, delivery: Delivery)] {
    deliveries.indices.compactMap { deliveries[$0].isFinished ? nil : ($0 + 1, deliveries[$0]) }
  }

  /// The instant a recorded shift's figures are read at: the timeline's (its end, or the last
  /// shift event of a shift still running) or the last delivery event, whichever is later.
  /// O(*n*).
  public var readingInstant: Double {
    deliveries.reduce(timeline.readingInstant) { max($0, $1.lastEvent.at) }
  }

  /// Delivery active time up to `instant`: the length of the union of every delivery's
  /// accepted-to-terminal interval, a delivery still in progress counting up to `instant`
  /// (seed 000: 30 min and 25 min overlapping by 20 is 35 min, never 55). A cancelled delivery
  /// counts until its cancellation.
  ///
  /// - Complexity: O(*n*): the deliveries are kept in acceptance order, so one sweep merges.
  public func activeDuration(asOf instant: Double) -> Double {
    var total = 0.0
    forEachActiveStretch(asOf: instant) { total += $1 - $0 }
    return total
  }

  /// The stretches of that union, in time order, each [start, end] with end > start (a
  /// zero-length delivery adds no stretch). O(*n*).
  public func activeStretches(asOf instant: Double) -> [(start: Double, end: Double)] {
    var stretches: [(start: Double, end: Double)] = []
    forEachActiveStretch(asOf: instant) { stretches.append(($0, $1)) }
    return stretches
  }

  /// The one sweep both figures above come from.
  private func forEachActiveStretch(asOf instant: Double, _ body: (Double, Double) -> Void) {
    var runStart = -Double.infinity
    var runEnd = -Double.infinity
    for delivery in deliveries {
      let start = delivery.acceptedAt
      guard start < instant else { break }
      let end = min(delivery.finishedAt ?? instant, instant)
      if start > runEnd {
        if runEnd > runStart { body(runStart, runEnd) }
        runStart = start
        runEnd = end
      } else if end > runEnd {
        runEnd = end
      }
    }
    if runEnd > runStart { body(runStart, runEnd) }
  }

  /// Non-delivery time up to `instant`: elapsed shift time (end − start, pauses included) less
  /// delivery active time, clamped at zero. It is not idle time, work or driving. O(*n*).
  public func nonDeliveryDuration(asOf instant: Double) -> Double {
    max(0, timeline.elapsedDuration(asOf: instant) - activeDuration(asOf: instant))
  }

  /// The offers, numbered in the order of their first delivery. An acceptance naming no offer
  /// is an offer of one with no label.
  ///
  /// - Complexity: O(*n*) expected.
  public var offers: [Offer] {
    var offers: [Offer] = []
    var states: [[DeliveryState]] = []
    var indexByLabel: [String: Int] = [:]
    for (index, delivery) in deliveries.enumerated() {
      let number = index + 1
      if let label = delivery.offer, let existing = indexByLabel[label] {
        offers[existing].deliveries.append(number)
        offers[existing].acceptedAt = min(offers[existing].acceptedAt, delivery.acceptedAt)
        states[existing].append(delivery.state)
        continue
      }
      if let label = delivery.offer { indexByLabel[label] = offers.count }
      offers.append(
        Offer(
          number: offers.count + 1, label: delivery.offer, acceptedAt: delivery.acceptedAt, deliveries: [number],
          status: .inProgress))
      states.append([delivery.state])
    }
    for index in offers.indices { offers[index].status = Offer.Status(of: states[index]) }
    return offers
  }

  /// The number of the offer each delivery arrived in, indexed like `deliveries`. O(*n*).
  public var offerNumbers: [Int] {
    var numbers: [Int] = []
    numbers.reserveCapacity(deliveries.count)
    var byLabel: [String: Int] = [:]
    var next = 1
    for delivery in deliveries {
      if let label = delivery.offer, let number = byLabel[label] {
        numbers.append(number)
        continue
      }
      if let label = delivery.offer { byLabel[label] = next }
      numbers.append(next)
      next += 1
    }
    return numbers
  }
}
