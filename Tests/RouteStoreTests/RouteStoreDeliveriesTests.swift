import Foundation
import RouteFeeds
import RouteMileage
import RouteStore
import RouteTestSupport
import ShiftWork
import Testing

/// Schema version 3: offers, deliveries and clamps, saved with a shift and read back as its
/// ledger.
@Suite("RouteStore: deliveries (schema version 3)")
struct RouteStoreDeliveriesTests {
  typealias E = ShiftTimeline.Event
  static let t0 = 1_762_243_200.0  // 2025-11-04T08:00:00Z

  /// A shift with an offer of two, a third accepted while they are open, a cancelled one, a
  /// label holding a comma and a quote, and every kind of clamp: a delivery event earlier than
  /// the line before, one earlier than its delivery's last event, a shift event earlier than the
  /// line before.
  static func ledger() throws -> ShiftLedger {
    var ledger = ShiftLedger()
    func recorded(_ event: ShiftWorkEvent) throws { try ledger.applyRecorded(event) }
    func d(_ kind: DeliveryEvent.Kind, _ at: Double, _ label: String, offer: String? = nil) -> ShiftWorkEvent {
      .delivery(DeliveryEvent(kind, at: t0 + at, delivery: label, offer: offer))
    }
    try recorded(.shift(E(.start, at: t0)))
    try recorded(d(.accept, 600, "d1", offer: "o1"))
    try recorded(d(.accept, 600, "d2", offer: "o1"))
    try recorded(d(.arrive, 900, "d1"))
    try recorded(d(.accept, 1200, "d3"))
    try recorded(d(.arrive, 1250, "d2"))
    try recorded(d(.pickup, 1500, "d1"))
    try recorded(d(.arrive, 1800, "d3"))
    // Earlier than its own arrival: applied at the arrival, a deliveryLastEvent clamp.
    try ledger.apply(DeliveryEvent(.pickup, at: t0 + 1400, delivery: "d3"))
    try recorded(d(.pickup, 1900, "d2"))
    try recorded(d(.deliver, 2400, "d1"))
    // Earlier than the line before: applied at 2400, a previousRecord clamp.
    try recorded(d(.cancel, 2300, "d3"))
    try recorded(d(.deliver, 3000, "d2"))
    // A shift event earlier than the line before.
    try recorded(.shift(E(.park, at: t0 + 2900)))
    try recorded(.shift(E(.drive, at: t0 + 3200)))
    try recorded(d(.accept, 3300, "d4, the \"corner\" one"))
    try recorded(d(.arrive, 3600, "d4, the \"corner\" one"))
    try recorded(d(.pickup, 3700, "d4, the \"corner\" one"))
    try recorded(d(.deliver, 4000, "d4, the \"corner\" one"))
    // Paused the instant the last open delivery was delivered; the next accepted the instant
    // the shift resumed (ties a reader must apply in that order).
    try recorded(.shift(E(.pause, at: t0 + 4000)))
    try recorded(.shift(E(.resume, at: t0 + 4400)))
    try recorded(d(.accept, 4400, "d5"))
    try recorded(d(.cancel, 4800, "d5"))
    try recorded(.shift(E(.end, at: t0 + 5400)))
    return ledger
  }

  static func rowCounts(_ store: RouteStore) throws -> [Int64] {
    try ["offers", "deliveries", "clamps"].map { try store.database.integer("SELECT count(*) FROM \($0)") ?? -1 }
  }

  static func importShift(_ store: RouteStore, _ ledger: ShiftLedger, source: String = "a.csv") throws -> ShiftID {
    var writer = try store.beginImport(
      source: source, timeline: ledger.timeline, ledger: ledger, window: nil, contentHash: nil, importedAt: t0)
    try writer.finish()
    return writer.shift
  }

  @Test func theTestLedgerHoldsWhatItClaims() throws {
    let ledger = try Self.ledger()
    #expect(ledger.deliveries.map(\.label) == ["d1", "d2", "d3", "d4, the \"corner\" one", "d5"])
    #expect(ledger.deliveries.map(\.clamps.count) == [0, 0, 2, 0, 0])
    #expect(ledger.deliveries[2].clamps.map(\.reason) == [.deliveryLastEvent, .previousRecord])
    #expect(ledger.shiftClamps.count == 1)
    #expect(ledger.offers.map(\.status) == [.completed, .cancelled, .completed, .cancelled])
  }

  @Test func aShiftsDeliveriesReadBackAsTheSameLedgerWithTheSameFigures() throws {
    try withTemporaryStorePath { path in
      let ledger = try Self.ledger()
      let id = try Self.importShift(try RouteStore(path: path), ledger)
      for access in [Database.Access.readWrite, .readOnly] {
        let store = try RouteStore(path: path, access: access)
        let record = try #require(try store.shift(id))
        let loaded = try #require(record.ledger)
        #expect(loaded.timeline == ledger.timeline)
        #expect(loaded.deliveries == ledger.deliveries, "labels, offers, the five instants and every clamp")
        #expect(loaded.shiftClamps == ledger.shiftClamps)
        #expect(loaded.offers == ledger.offers)
        #expect(loaded.offerNumbers == [1, 1, 2, 3, 4])
        #expect(loaded.counts == DeliveryCounts(delivered: 3, cancelled: 2, inProgress: 0))
        let end = Self.t0 + 5400
        #expect(loaded.activeDuration(asOf: end) == ledger.activeDuration(asOf: end))
        #expect(loaded.activeDuration(asOf: end) == 3500, "[0:10, 0:50] ∪ [0:55, 1:06:40] ∪ [1:13:20, 1:20]")
        #expect(loaded.nonDeliveryDuration(asOf: end) == 1900)
        #expect(loaded.deliveries.map(\.waitedAtPickupSeconds) == [600, 650, 0, 100, nil])
        #expect(try store.shifts().first?.ledger == loaded)
      }
    }
  }

  @Test func whatIsStoredIsTheRecordAndNothingDerived() throws {
    let store = try RouteStore.inMemory()
    let id = try Self.importShift(store, try Self.ledger())
    func columns(_ table: String) throws -> [String] {
      try store.database.texts("SELECT name FROM pragma_table_info('\(table)')")
    }
    #expect(try columns("offers") == ["id", "shift_id", "label"])
    #expect(
      try columns("deliveries") == [
        "id", "shift_id", "offer_id", "label", "accepted_at", "arrived_at_pickup_at", "picked_up_at", "delivered_at",
        "cancelled_at", "place_id", "amount_minor", "tips_minor", "expected_minor",
      ])
    #expect(
      try columns("clamps") == [
        "shift_id", "seq", "delivery_id", "event", "recorded_at", "applied_at", "reason", "clamped_to_event",
        "clamped_to_at", "clamped_to_delivery",
      ])
    #expect(try Self.rowCounts(store) == [4, 5, 3])
    #expect(
      try store.database.texts("SELECT coalesce(label, 'NULL') FROM offers ORDER BY id") == [
        "o1", "NULL", "NULL", "NULL",
      ])
    // An unfinished delivery's later instants are NULL, not zero.
    #expect(try store.database.integer("SELECT count(*) FROM deliveries WHERE picked_up_at IS NULL") == 1)
    _ = id
  }

  @Test func deletingAShiftDeletesItsOffersDeliveriesAndClampsAndNothingElse() throws {
    let store = try RouteStore.inMemory()
    let first = try Self.importShift(store, try Self.ledger(), source: "a.csv")
    let second = try Self.importShift(store, try Self.ledger(), source: "b.csv")
    #expect(try Self.rowCounts(store) == [8, 10, 6])
    try store.deleteShift(first)
    #expect(try Self.rowCounts(store) == [4, 5, 3])
    #expect(try store.database.integer("SELECT count(*) FROM deliveries WHERE shift_id = \(first.rawValue)") == 0)
    #expect(try store.shift(second)?.ledger?.deliveries == (try Self.ledger()).deliveries)
    try store.deleteShift(second)
    #expect(try Self.rowCounts(store) == [0, 0, 0])
    #expect(try store.integrityCheck())
    #expect(try store.database.integer("SELECT count(*) FROM pragma_foreign_key_check") == 0)
  }

  @Test func savingAgainReplacesTheDeliveriesWholeOrNotAtAll() throws {
    let store = try RouteStore.inMemory()
    let ledger = try Self.ledger()
    let id = try Self.importShift(store, ledger)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try store.database.transaction {
        try store.saveDeliveries(ShiftLedger(timeline: ledger.timeline), of: id)
        #expect(try Self.rowCounts(store) == [0, 0, 0])
        throw Stop()
      }
    }
    #expect(try store.shift(id)?.ledger?.deliveries == ledger.deliveries)
    try store.saveDeliveries(ShiftLedger(timeline: ledger.timeline), of: id)
    #expect(try Self.rowCounts(store) == [0, 0, 0])
    #expect(try store.shift(id)?.ledger == nil, "no delivery and no clamp: nothing to report")
    // Saving into a shift that does not exist is refused whole.
    #expect(throws: StoreError.self) { try store.saveDeliveries(ledger, of: ShiftID(99)) }
    #expect(try Self.rowCounts(store) == [0, 0, 0])
  }

  @Test func aStoredRowTheRulesRefuseIsReportedNotGuessedAt() throws {
    let store = try RouteStore.inMemory()
    let id = try Self.importShift(store, try Self.ledger())
    // Delivered before it was picked up: a row edited by hand.
    try store.database.execute("UPDATE deliveries SET delivered_at = picked_up_at - 60 WHERE label = 'd1'")
    let error = try #require(throws: StoreError.self) { try store.shift(id) }
    #expect(error.kind == .unreadableRow)
  }

  @Test func aShiftWithoutDeliveriesHasNoLedgerAndNoRows() throws {
    let store = try RouteStore.inMemory()
    let timeline = try ShiftTimeline([E(.start, at: Self.t0), E(.end, at: Self.t0 + 600)])
    var writer = try store.beginImport(
      source: "a.csv", timeline: timeline, window: nil, contentHash: nil, importedAt: Self.t0)
    try writer.finish()
    #expect(try store.shift(writer.shift)?.ledger == nil)
    #expect(try Self.rowCounts(store) == [0, 0, 0])
  }
}

/// The migration to version 3 from every earlier version, on real files each written by the
/// build of its version.
@Suite("RouteStore: migration to schema version 3")
struct DeliveryStoreMigrationTests {
  /// A store written by the schema-version-2 build (85c8497): shift 1 with a timeline (start
  /// 09:00, pause 09:02, resume 09:03, end 09:06), shift 2 with --shift-start/--shift-end, shift
  /// 3 a feed cut off mid-line (truncated).
  static let version2 = "store/version2.sqlite"

  @Test func theVersion2FixtureMatchesItsManifestRow() throws {
    let manifest = String(decoding: try Fixtures.bytes("MANIFEST.tsv"), as: UTF8.self)
    let row = try #require(manifest.split(separator: "\n").first { $0.hasPrefix(Self.version2 + "\t") })
    var hash = ContentHash()
    hash.update(try Fixtures.bytes(Self.version2))
    #expect(row.split(separator: "\t").last.map(String.init) == hash.finalize())
  }

  @Test(arguments: [RouteStoreTimelineTests.version1, version2])
  func anEarlierStoreIsMigratedKeepingEverythingAndTakesDeliveries(fixture: String) throws {
    try withTemporaryStorePath { path in
      try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
      let earlier = fixture == Self.version2 ? 2 : 1
      // Read as it is first (read-only never migrates): what the earlier build wrote.
      let before = try RouteStore(path: path, access: .readOnly)
      #expect(before.openedSchemaVersion == earlier)
      let oldShifts = try before.shifts()
      let oldFigures = try oldShifts.map { try before.measure($0) }
      #expect(oldShifts.allSatisfy { $0.ledger == nil })
      if earlier == 2 {
        #expect(oldShifts.map(\.sampleCount) == [61, 48, 30])
        #expect(oldShifts.map { $0.timeline?.events.count } == [4, nil, nil])
        #expect(oldShifts.map(\.isTruncated) == [false, false, true])
      }

      let store = try RouteStore(path: path)
      #expect(store.openedSchemaVersion == 4)
      #expect(try store.database.userVersion() == 4)
      #expect(try store.integrityCheck())
      let shifts = try store.shifts()
      #expect(shifts == oldShifts, "every shift, timeline, hash and cut-off kept")
      #expect(try shifts.map { try store.measure($0) } == oldFigures)
      #expect(try RouteStoreDeliveriesTests.rowCounts(store) == [0, 0, 0])

      // Version 3 works on the migrated file: a shift with deliveries, read back and deleted.
      let ledger = try RouteStoreDeliveriesTests.ledger()
      let id = try RouteStoreDeliveriesTests.importShift(store, ledger)
      #expect(try store.shift(id)?.ledger?.deliveries == ledger.deliveries)
      // A read-only open of the migrated file reads them too.
      #expect(try RouteStore(path: path, access: .readOnly).shift(id)?.ledger?.offers == ledger.offers)
      try store.deleteShift(id)
      #expect(try RouteStoreDeliveriesTests.rowCounts(store) == [0, 0, 0])
      #expect(try store.shifts() == oldShifts)
    }
  }
}
