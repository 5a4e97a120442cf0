import RouteMileage
import RouteStore
import ShiftWork
import Testing

/// Schema version 4: the pickup-place catalogue and what a delivery paid. Every name is invented.
@Suite("RouteStore: pickup places and amounts (schema version 4)")
struct RouteStorePlacesTests {
  typealias E = ShiftTimeline.Event
  static let t0 = 1_762_243_200.0  // 2025-11-04T08:00:00Z

  /// A shift starting `day` days after t0 whose deliveries name `places` in turn (nil: none),
  /// each accepted 10 min apart, arriving 5 min later and picked up `waits[i]` seconds after.
  static func ledger(day: Double, places: [String?], waits: [Double]? = nil) throws -> ShiftLedger {
    let start = t0 + day * 86_400
    var ledger = ShiftLedger()
    try ledger.apply(E(.start, at: start))
    for (index, name) in places.enumerated() {
      let accepted = start + Double(index + 1) * 600
      let label = "d\(index + 1)"
      try ledger.apply(
        DeliveryEvent(.accept, at: accepted, delivery: label, place: try name.map { try PickupPlaceName($0) }))
      try ledger.apply(DeliveryEvent(.arrive, at: accepted + 300, delivery: label))
      try ledger.apply(DeliveryEvent(.pickup, at: accepted + 300 + (waits?[index] ?? 60), delivery: label))
      try ledger.apply(DeliveryEvent(.deliver, at: accepted + 3000, delivery: label))
    }
    try ledger.apply(E(.end, at: start + 36_000))
    return ledger
  }

  static func importShift(_ store: RouteStore, _ ledger: ShiftLedger, source: String) throws -> ShiftID {
    var writer = try store.beginImport(
      source: source, timeline: ledger.timeline, ledger: ledger, window: nil, contentHash: nil, importedAt: t0)
    try writer.finish()
    return writer.shift
  }

  static func placeCount(_ store: RouteStore) throws -> Int64 {
    try store.database.integer("SELECT count(*) FROM places") ?? -1
  }

  @Test func aKeyIsReusedAcrossImportsAndTheFirstSpellingWins() throws {
    try withTemporaryStore { store, _ in
      _ = try Self.importShift(
        store, try Self.ledger(day: 0, places: ["Nowhere\u{2019}s  Noodles", "A&B Grill"]), source: "a")
      _ = try Self.importShift(
        store, try Self.ledger(day: 1, places: ["nowhere's noodles", "Nowheres Noodles"]), source: "b")
      _ = try Self.importShift(
        store, try Self.ledger(day: 2, places: ["NOWHERE`S NOODLES", nil, "a&b grill"]), source: "c")
      #expect(try Self.placeCount(store) == 3)
      let places = try store.places()
      // Latest use first: day 2's two places, then day 1's.
      #expect(places.map(\.name) == ["A&B Grill", "Nowhere\u{2019}s Noodles", "Nowheres Noodles"])
      let noodles = try #require(try store.place(named: PickupPlaceName("NOWHERE'S NOODLES")))
      #expect(noodles.name == "Nowhere\u{2019}s Noodles")
      #expect(noodles.createdAt == Self.t0 + 600)
      #expect(try store.waitHistory(of: noodles.id).count == 3)
      // The ledger read back names the place by its stored spelling.
      let ledger = try #require(try store.shifts().last?.ledger)
      #expect(ledger.deliveries.map { $0.place?.display } == ["Nowhere\u{2019}s Noodles", nil, "A&B Grill"])
    }
  }

  @Test func recentPlacesAreAtMostFiveAndAShiftDeletedLeavesItsPlacesNoLongerRecent() throws {
    try withTemporaryStore { store, _ in
      let names = [
        "Example Diner", "Nowhere Noodles", "Sample Subs", "Imaginary Pizza", "Fictional Falafel", "Pretend Pho",
      ]
      let first = try Self.importShift(store, try Self.ledger(day: 0, places: names), source: "a")
      // Latest use first; at most five.
      #expect(
        try store.recentPlaces().map(\.name) == [
          "Pretend Pho", "Fictional Falafel", "Imaginary Pizza", "Sample Subs", "Nowhere Noodles",
        ])
      _ = try Self.importShift(store, try Self.ledger(day: 1, places: ["example diner"]), source: "b")
      #expect(try store.recentPlaces().first?.name == "Example Diner")
      try store.deleteShift(first)
      // Every place stays; only the one still named is recent.
      #expect(try Self.placeCount(store) == 6)
      #expect(try store.recentPlaces().map(\.name) == ["Example Diner"])
      // The unused ones follow in catalogue order; alphabetical is by name.
      #expect(
        try store.places().map(\.name) == [
          "Example Diner", "Nowhere Noodles", "Sample Subs", "Imaginary Pizza", "Fictional Falafel", "Pretend Pho",
        ])
      #expect(
        try store.places(alphabetical: true).map(\.name) == [
          "Example Diner", "Fictional Falafel", "Imaginary Pizza", "Nowhere Noodles", "Pretend Pho", "Sample Subs",
        ])
    }
  }

  @Test func renameChangesSpellingAndKeyAndRefusesACollisionNamingTheOtherPlace() throws {
    try withTemporaryStore { store, _ in
      _ = try Self.importShift(
        store, try Self.ledger(day: 0, places: ["Nowhere Noodle", "Example Diner"]), source: "a")
      let noodle = try #require(try store.place(named: PickupPlaceName("Nowhere Noodle")))
      #expect(throws: PlaceRefusal.nameHeldBy("Example Diner")) {
        try store.rename(noodle.id, to: PickupPlaceName("EXAMPLE DINER"))
      }
      #expect(
        PlaceRefusal.nameHeldBy("Example Diner").description
          == "that name belongs to another place, \"Example Diner\"; merge the two to put their deliveries together")
      #expect(try store.place(named: PickupPlaceName("Nowhere Noodle"))?.name == "Nowhere Noodle")
      try store.rename(noodle.id, to: PickupPlaceName("Nowhere Noodles"))
      #expect(try store.place(named: PickupPlaceName("nowhere noodle")) == nil)
      let renamed = try #require(try store.place(named: PickupPlaceName("nowhere noodles")))
      #expect(renamed.id == noodle.id && renamed.createdAt == noodle.createdAt && renamed.name == "Nowhere Noodles")
      // A change of case alone is the same key, the same place: allowed.
      try store.rename(noodle.id, to: PickupPlaceName("NOWHERE NOODLES"))
      #expect(try store.place(named: PickupPlaceName("Nowhere Noodles"))?.name == "NOWHERE NOODLES")
    }
  }

  @Test func mergeMovesEveryDeliveryInOneTransactionAndARefusalWritesNothing() throws {
    try withTemporaryStore { store, _ in
      _ = try Self.importShift(
        store,
        try Self.ledger(
          day: 0, places: ["Example Diner", "Nowhere Noodles", "Example Diner", "Sample Subs"],
          waits: [120, 600, 300, 60]),
        source: "a")
      let diner = try #require(try store.place(named: PickupPlaceName("Example Diner")))
      let noodles = try #require(try store.place(named: PickupPlaceName("Nowhere Noodles")))
      let subs = try #require(try store.place(named: PickupPlaceName("Sample Subs")))
      #expect(throws: PlaceRefusal.samePlace("Example Diner")) {
        try store.merge(diner.id, into: diner.id, sourceName: "Example Diner", destinationName: "Example Diner")
      }
      // A destination deleted meanwhile (staged: Sample Subs loses its delivery, then its row).
      let before = try store.database.integer("SELECT group_concat(place_id) FROM deliveries")
      try store.database.execute("UPDATE deliveries SET place_id = NULL WHERE place_id = \(subs.id.rawValue)")
      try store.deletePlace(subs.id)
      let staged = try store.database.integer("SELECT count(*) FROM deliveries WHERE place_id IS NOT NULL")
      #expect(throws: PlaceRefusal.noSuchPlace("Sample Subs")) {
        try store.merge(diner.id, into: subs.id, sourceName: "Example Diner", destinationName: "Sample Subs")
      }
      #expect(try store.database.integer("SELECT count(*) FROM deliveries WHERE place_id IS NOT NULL") == staged)
      #expect(try store.database.integer("SELECT count(*) FROM deliveries WHERE place_id = \(diner.id.rawValue)") == 2)
      #expect(try Self.placeCount(store) == 2)
      _ = before
      // The real merge: the destination wins entirely; the waits read together.
      try store.merge(diner.id, into: noodles.id, sourceName: "Example Diner", destinationName: "Nowhere Noodles")
      #expect(try store.places().map(\.name) == ["Nowhere Noodles"])
      let history = try store.waitHistory(of: noodles.id)
      #expect(history.count == 3)
      #expect(history.medianSeconds == 300)
      #expect(history.shortestSeconds == 120 && history.longestSeconds == 600)
      // Every delivery keeps its recorded times.
      let ledger = try #require(try store.shifts().first?.ledger)
      #expect(ledger.deliveries.map(\.waitedAtPickupSeconds) == [120, 600, 300, 60])
    }
  }

  @Test func amountsRoundTripExactlyAndAbsentStaysAbsent() throws {
    try withTemporaryStore { store, _ in
      var ledger = try Self.ledger(day: 0, places: [nil, nil])
      try ledger.setAmount(1, to: Money(parsing: "12.34"))
      try ledger.setTips(1, to: Money(parsing: "0.10"))
      let id = try Self.importShift(store, ledger, source: "a")
      let read = try #require(try store.shift(id)?.ledger)
      #expect(read.deliveries[0].amount?.minorUnits == 1234)
      #expect(read.deliveries[0].tips?.minorUnits == 10)
      #expect(
        read.deliveries[1].amount == nil && read.deliveries[1].tips == nil && read.deliveries[1].expectedAmount == nil)
      #expect(read.deliveries == ledger.deliveries)
    }
  }
}
