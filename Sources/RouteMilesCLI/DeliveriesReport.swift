import RouteFeeds
import RouteIngest
import RouteMileage
import ShiftWork

extension MeasurementJSON {
  /// The `deliveries` object, present only when the shift's timeline recorded deliveries:
  ///
  /// ```
  /// {"delivered","cancelled","inProgress","activeSeconds","nonDeliverySeconds",
  ///  "offers":[{"number","label","status","deliveries"}],
  ///  "items":[{"number","label","offer","place","state","acceptedAt","arrivedAtPickupAt","pickedUpAt","deliveredAt",
  ///            "cancelledAt","waitedAtPickupSeconds","acceptedToDeliveredSeconds","clamped"}]}
  /// ```
  /// Read at the ledger's reading instant (the shift's end; for a shift still running, its last
  /// recorded event). A missing instant or interval is `null`; an offer of one recorded without
  /// a label has `"label": null`; a delivery naming no pickup place has `"place": null` (the
  /// place's display form otherwise; its key is never written). No per-delivery or per-offer distance exists to write.
  static func deliveries(_ ledger: ShiftLedger) -> JSONObject {
    let instant = ledger.readingInstant
    let counts = ledger.counts
    var json = JSONObject()
    json.set("delivered", counts.delivered)
    json.set("cancelled", counts.cancelled)
    json.set("inProgress", counts.inProgress)
    json.set("activeSeconds", ledger.activeDuration(asOf: instant))
    json.set("nonDeliverySeconds", ledger.nonDeliveryDuration(asOf: instant))
    json.set(
      "offers",
      ledger.offers.map { offer in
        var object = JSONObject()
        object.set("number", offer.number)
        object.set("label", offer.label)
        object.set("status", offer.status.rawValue)
        object.set("deliveries", integers: offer.deliveries)
        return object
      })
    let offerNumbers = ledger.offerNumbers
    json.set(
      "items",
      ledger.deliveries.enumerated().map { index, delivery in
        var object = JSONObject()
        object.set("number", index + 1)
        object.set("label", delivery.label)
        object.set("offer", offerNumbers[index])
        object.set("place", delivery.place?.display)
        object.set("state", delivery.state.rawValue)
        object.set("acceptedAt", CivilTime.iso8601(delivery.acceptedAt))
        object.set("arrivedAtPickupAt", delivery.arrivedAtPickupAt.map(CivilTime.iso8601))
        object.set("pickedUpAt", delivery.pickedUpAt.map(CivilTime.iso8601))
        object.set("deliveredAt", delivery.deliveredAt.map(CivilTime.iso8601))
        object.set("cancelledAt", delivery.cancelledAt.map(CivilTime.iso8601))
        object.set("waitedAtPickupSeconds", delivery.waitedAtPickupSeconds)
        object.set("acceptedToDeliveredSeconds", delivery.acceptedToDeliveredSeconds)
        object.set("clamped", delivery.clamps.map(clamp))
        return object
      })
    return json
  }

  /// One clamp: `{"event","recordedAt","appliedAt","reason"}`; `reason` is `previousLine`
  /// (earlier than the line before) or `deliveryLastEvent` (earlier than the delivery's own
  /// last event).
  static func clamp(_ clamp: Clamp) -> JSONObject {
    var json = JSONObject()
    json.set("event", clamp.recorded.name)
    json.set("recordedAt", CivilTime.iso8601(clamp.recorded.at))
    json.set("appliedAt", CivilTime.iso8601(clamp.appliedAt))
    json.set("reason", clamp.reason == .previousRecord ? "previousLine" : "deliveryLastEvent")
    return json
  }
}

extension HumanReport {
  /// The sentence said where a reader would look for a per-delivery distance.
  static let noDistancePerDelivery =
    "No distance, cost or per-mile figure is given per delivery or per offer: route distance is measured for the shift."

  /// `Deliveries: 4 delivered, 1 cancelled, 0 in progress, in 5 offers; delivery active time …,
  /// non-delivery time ….`: the counts and the two durations, read at the ledger's reading
  /// instant (a report's first delivery line, and a stored shift's line in `shifts`). O(*n*).
  static func deliverySummary(_ ledger: ShiftLedger) -> String {
    let instant = ledger.readingInstant
    let counts = ledger.counts
    let offers = ledger.offers.count
    return
      "Deliveries: \(counts.delivered) delivered, \(counts.cancelled) cancelled, \(counts.inProgress) in progress, "
      + "in \(offers) \(offers == 1 ? "offer" : "offers"); delivery active time "
      + "\(DurationWords.short(ledger.activeDuration(asOf: instant))), non-delivery time "
      + "\(DurationWords.short(ledger.nonDeliveryDuration(asOf: instant)))."
  }

  /// The deliveries of a shift in words: the counts and the two durations, then each delivery
  /// under its number in acceptance order with its outcome, the events it recorded and their
  /// times, and the intervals both of whose ends exist (seed 000, "On a completed shift").
  static func deliveryLines(_ ledger: ShiftLedger, clamps: [ShiftTimelineFile.ClampedLine], explain: Bool) -> [String] {
    let instant = ledger.readingInstant
    let offers = ledger.offers
    let offerNumbers = ledger.offerNumbers
    var lines: [String] = []
    lines.append("  " + deliverySummary(ledger))
    for (index, delivery) in ledger.deliveries.enumerated() {
      var text = "    Delivery \(index + 1) (\(delivery.label)): \(delivery.state.words)"
      if let place = delivery.place { text += "; pickup place \(place.display)" }
      let offer = offers[offerNumbers[index] - 1]
      if offer.deliveries.count > 1 {
        let others = offer.deliveries.filter { $0 != index + 1 }.map(String.init).joined(separator: ", ")
        text += "; offer \(offer.number), accepted together with Delivery \(others)"
      }
      var events = ["Accepted \(CivilTime.iso8601(delivery.acceptedAt))"]
      if let at = delivery.arrivedAtPickupAt { events.append("arrived at pickup \(CivilTime.iso8601(at))") }
      if let at = delivery.pickedUpAt { events.append("picked up \(CivilTime.iso8601(at))") }
      if let at = delivery.deliveredAt { events.append("delivered \(CivilTime.iso8601(at))") }
      if let at = delivery.cancelledAt { events.append("cancelled \(CivilTime.iso8601(at))") }
      text += ". " + events.joined(separator: ", ") + "."
      var intervals: [String] = []
      if let wait = delivery.waitedAtPickupSeconds { intervals.append("waited at pickup \(DurationWords.short(wait))") }
      if let whole = delivery.acceptedToDeliveredSeconds {
        intervals.append("accepted to delivered \(DurationWords.short(whole))")
      }
      if !intervals.isEmpty { text += " " + intervals.joined(separator: ", ").capitalizedFirst + "." }
      lines.append(text)
    }
    if offers.contains(where: { $0.deliveries.count > 1 }) {
      let grouped = offers.filter { $0.deliveries.count > 1 }.map { offer in
        "offer \(offer.number)\(offer.label.map { " (\($0))" } ?? "") \(offer.status.words)"
      }
      lines.append("  Offers of several deliveries: " + grouped.joined(separator: "; ") + ".")
    }
    for clamp in clamps { lines.append("  Clamped: " + clamp.description + ".") }
    lines.append("  " + noDistancePerDelivery)
    if explain {
      let stretches = ledger.activeStretches(asOf: instant).map {
        "\(CivilTime.iso8601($0.start)) → \(CivilTime.iso8601($0.end)) (\(DurationWords.short($0.end - $0.start)))"
      }
      if !stretches.isEmpty {
        lines.append(
          "  Delivery active time is the union of each delivery's accepted-to-finished interval, overlaps counted once:"
        )
        for (index, stretch) in stretches.enumerated() { lines.append("    \(index + 1). \(stretch)") }
      }
    }
    return lines
  }
}

extension String {
  /// The string with its first character upper-cased.
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
