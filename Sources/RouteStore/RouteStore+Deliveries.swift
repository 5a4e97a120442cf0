import RouteMileage
import ShiftWork

/// A shift's deliveries and offers (schema version 3).
///
/// What is stored is what was recorded: an offer's label, and each delivery's label, offer and
/// the instants of the events it recorded (acceptance always; the other four NULL until
/// recorded), plus every clamp that moved an instant forward. No state, no count, no interval,
/// no active time and no distance is stored: state is which instants exist, and every figure is
/// derived by `ShiftLedger` each time it is read. Offer and delivery numbers are presentation,
/// derived too.
///
/// Deleting a shift deletes its offers, deliveries and clamps (`ON DELETE CASCADE`).
extension RouteStore {
  /// The shift's ledger (its timeline and deliveries, with their clamps), or nil when it
  /// recorded neither a delivery nor a clamp (or has no timeline, or the store was opened
  /// read-only at a version before 3).
  ///
  /// - Throws: `.unreadableRow` when the stored rows break the lifecycle rules (a file edited
  ///   by hand), rather than guessing.
  /// - Complexity: O((*k* + *n*) log (*k* + *n*)) for *k* shift events and *n* deliveries.
  public func ledger(of shift: ShiftID, timeline: ShiftTimeline?) throws -> ShiftLedger? {
    guard openedSchemaVersion >= 3, let timeline else { return nil }
    let paid =
      openedSchemaVersion >= 4
      ? "p.name, d.amount_minor, d.tips_minor, d.expected_minor FROM deliveries d LEFT JOIN places p ON p.id = d.place_id"
      : "NULL, NULL, NULL, NULL FROM deliveries d"
    let sql = """
      SELECT d.id, d.label, o.label, d.accepted_at, d.arrived_at_pickup_at, d.picked_up_at, d.delivered_at, d.cancelled_at,
      \(paid) JOIN offers o ON o.id = d.offer_id WHERE d.shift_id = ? ORDER BY d.id
      """
    let statement = try database.prepare(sql)
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    var deliveries: [Delivery] = []
    var indexByRow: [Int64: Int] = [:]
    while try statement.step() {
      indexByRow[statement.integer(at: 0)] = deliveries.count
      guard let paid = Self.paid(statement, from: 8) else {
        throw StoreError(.unreadableRow, sql: sql, path: database.path)
      }
      deliveries.append(
        Delivery(
          label: statement.text(at: 1), offer: statement.optionalText(at: 2), acceptedAt: statement.double(at: 3),
          arrivedAtPickupAt: statement.optionalDouble(at: 4), pickedUpAt: statement.optionalDouble(at: 5),
          deliveredAt: statement.optionalDouble(at: 6), cancelledAt: statement.optionalDouble(at: 7),
          place: paid.place, amount: paid.amount, tips: paid.tips, expectedAmount: paid.expected))
    }
    statement.reset()
    let (deliveryClamps, shiftClamps) = try readClamps(of: shift, deliveries: deliveries, indexByRow: indexByRow)
    for (index, clamps) in deliveryClamps {
      let d = deliveries[index]
      deliveries[index] = Delivery(
        label: d.label, offer: d.offer, acceptedAt: d.acceptedAt, arrivedAtPickupAt: d.arrivedAtPickupAt,
        pickedUpAt: d.pickedUpAt, deliveredAt: d.deliveredAt, cancelledAt: d.cancelledAt, clamps: clamps,
        place: d.place, amount: d.amount, tips: d.tips, expectedAmount: d.expectedAmount)
    }
    guard !deliveries.isEmpty || !shiftClamps.isEmpty else { return nil }
    do {
      return try ShiftLedger(timeline: timeline, deliveries: deliveries, shiftClamps: shiftClamps)
    } catch {
      throw StoreError(.unreadableRow, sql: sql, path: database.path)
    }
  }

  /// The place (its stored spelling) and the three amounts in columns `first` … `first + 3`;
  /// nil when a stored value is not one (a file edited by hand).
  private static func paid(_ statement: Statement, from first: Int32) -> (
    place: PickupPlaceName?, amount: Money?, tips: Money?, expected: Money?
  )? {
    var place: PickupPlaceName?
    if let name = statement.optionalText(at: first) {
      guard let parsed = try? PickupPlaceName(name) else { return nil }
      place = parsed
    }
    var amounts: [Money?] = []
    for column in first + 1...first + 3 {
      guard let minor = statement.optionalInteger(at: column) else {
        amounts.append(nil)
        continue
      }
      guard minor >= 0, minor <= Money.maximumMinorUnits else { return nil }
      amounts.append(Money(minorUnits: minor))
    }
    return (place, amounts[0], amounts[1], amounts[2])
  }

  /// The shift's clamps in the order recorded: each delivery's (by its index in `deliveries`)
  /// and the shift events' own.
  private func readClamps(of shift: ShiftID, deliveries: [Delivery], indexByRow: [Int64: Int]) throws
    -> (deliveries: [Int: [Clamp]], shift: [Clamp])
  {
    let sql = """
      SELECT delivery_id, event, recorded_at, applied_at, reason, clamped_to_event, clamped_to_at, clamped_to_delivery
      FROM clamps WHERE shift_id = ? ORDER BY seq
      """
    let statement = try database.prepare(sql)
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    var offerByLabel: [String: String?] = [:]
    for delivery in deliveries { offerByLabel[delivery.label] = delivery.offer }
    var shiftClamps: [Clamp] = []
    var deliveryClamps: [Int: [Clamp]] = [:]
    while try statement.step() {
      let index = statement.optionalInteger(at: 0).flatMap { indexByRow[$0] }
      guard
        let reason = Clamp.Reason(rawValue: statement.text(at: 4)),
        let recorded = Self.event(
          statement.text(at: 1), at: statement.double(at: 2), delivery: index.map { deliveries[$0].label },
          offerByLabel: offerByLabel),
        let clampedTo = Self.event(
          statement.text(at: 5), at: statement.double(at: 6), delivery: statement.optionalText(at: 7),
          offerByLabel: offerByLabel),
        statement.isNull(at: 0) == (index == nil)
      else { throw StoreError(.unreadableRow, sql: sql, path: database.path) }
      let clamp = Clamp(recorded: recorded, appliedAt: statement.double(at: 3), reason: reason, clampedTo: clampedTo)
      if let index { deliveryClamps[index, default: []].append(clamp) } else { shiftClamps.append(clamp) }
    }
    return (deliveryClamps, shiftClamps)
  }

  /// A stored event: a shift event by its name, or a delivery event (which names its delivery;
  /// an acceptance carries that delivery's offer). Nil for a name neither knows.
  private static func event(_ name: String, at: Double, delivery: String?, offerByLabel: [String: String?])
    -> ShiftWorkEvent?
  {
    if let delivery {
      guard let kind = DeliveryEvent.Kind(rawValue: name) else { return nil }
      let offer = kind == .accept ? offerByLabel[delivery] ?? nil : nil
      return .delivery(DeliveryEvent(kind, at: at, delivery: delivery, offer: offer))
    }
    return ShiftTimeline.Event.Kind(rawValue: name).map { .shift(ShiftTimeline.Event($0, at: at)) }
  }

  /// Replaces the shift's offers, deliveries and clamps with `ledger`'s (each delivery's place
  /// filed in the catalogue by its key, `placeID(filing:at:)`), in one transaction (a
  /// savepoint inside the caller's, so an import keeps them in the transaction that creates its
  /// shift).
  ///
  /// - Complexity: O(*n* log *N*) for *n* deliveries, offers and clamps in a store of *N* rows.
  public func saveDeliveries(_ ledger: ShiftLedger, of shift: ShiftID) throws {
    try database.transaction {
      for table in ["clamps", "deliveries", "offers"] {
        let delete = try database.prepare("DELETE FROM \(table) WHERE shift_id = ?")
        try delete.bind(shift.rawValue, at: 1)
        try delete.run()
      }
      let insertOffer = try database.prepare("INSERT INTO offers(shift_id, label) VALUES (?, ?)")
      var offerRows: [Int64] = []
      for offer in ledger.offers {
        try insertOffer.bind(shift.rawValue, at: 1)
        try insertOffer.bind(offer.label, at: 2)
        try insertOffer.run()
        offerRows.append(database.lastInsertedRowID)
      }
      let insertDelivery = try database.prepare(
        """
        INSERT INTO deliveries(shift_id, offer_id, label, accepted_at, arrived_at_pickup_at, picked_up_at, delivered_at,
          cancelled_at, place_id, amount_minor, tips_minor, expected_minor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      let insertClamp = try database.prepare(
        """
        INSERT INTO clamps(shift_id, seq, delivery_id, event, recorded_at, applied_at, reason, clamped_to_event,
          clamped_to_at, clamped_to_delivery) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      var seq: Int64 = 0
      func insert(_ clamp: Clamp, delivery: Int64?) throws {
        try insertClamp.bind(shift.rawValue, at: 1)
        try insertClamp.bind(seq, at: 2)
        try insertClamp.bind(delivery, at: 3)
        try insertClamp.bind(clamp.recorded.name, at: 4)
        try insertClamp.bind(clamp.recorded.at, at: 5)
        try insertClamp.bind(clamp.appliedAt, at: 6)
        try insertClamp.bind(clamp.reason.rawValue, at: 7)
        try insertClamp.bind(clamp.clampedTo.name, at: 8)
        try insertClamp.bind(clamp.clampedTo.at, at: 9)
        if case .delivery(let event) = clamp.clampedTo {
          try insertClamp.bind(event.delivery, at: 10)
        } else {
          try insertClamp.bind(nil as String?, at: 10)
        }
        try insertClamp.run()
        seq += 1
      }
      for (delivery, offerNumber) in zip(ledger.deliveries, ledger.offerNumbers) {
        try insertDelivery.bind(shift.rawValue, at: 1)
        try insertDelivery.bind(offerRows[offerNumber - 1], at: 2)
        try insertDelivery.bind(delivery.label, at: 3)
        try insertDelivery.bind(delivery.acceptedAt, at: 4)
        try insertDelivery.bind(delivery.arrivedAtPickupAt, at: 5)
        try insertDelivery.bind(delivery.pickedUpAt, at: 6)
        try insertDelivery.bind(delivery.deliveredAt, at: 7)
        try insertDelivery.bind(delivery.cancelledAt, at: 8)
        try insertDelivery.bind(
          try delivery.place.map { place in try placeID(filing: place, at: delivery.acceptedAt).rawValue }, at: 9)
        try insertDelivery.bind(delivery.amount?.minorUnits, at: 10)
        try insertDelivery.bind(delivery.tips?.minorUnits, at: 11)
        try insertDelivery.bind(delivery.expectedAmount?.minorUnits, at: 12)
        try insertDelivery.run()
        let row = database.lastInsertedRowID
        for clamp in delivery.clamps { try insert(clamp, delivery: row) }
      }
      for clamp in ledger.shiftClamps { try insert(clamp, delivery: nil) }
    }
  }
}

extension Statement {
  /// Binds text (copied by SQLite), or NULL for nil.
  public func bind(_ value: String?, at index: Int32) throws {
    if let value { try bind(value, at: index) } else { try bind(nil as Int64?, at: index) }
  }
}
