import ShiftWork

/// A pickup place's row in the store's catalogue.
public struct PlaceID: RawRepresentable, Hashable, Comparable, Sendable {
  public var rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A place as the catalogue holds it, with its last use derived from the deliveries naming it.
public struct StoredPlace: Sendable, Hashable {
  public var id: PlaceID
  /// The display form, the first accepted spelling unless the driver renamed it.
  public var name: String
  /// When it was first named (the acceptance instant of the delivery that first named it).
  public var createdAt: Double
  /// The latest acceptance among the deliveries naming it; nil when none does (it is then not
  /// recent).
  public var lastUsedAt: Double?
}

/// Why a rename or a merge was refused. Nothing was written. Names only the places the driver
/// asked about, or the one a rename collided with; never a key.
public enum PlaceRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// The store holds no place of that name (or that row).
  case noSuchPlace(String)
  /// Merge a place into itself.
  case samePlace(String)
  /// Rename to a name whose key another place holds.
  case nameHeldBy(String)

  public var description: String {
    switch self {
    case .noSuchPlace(let name): "the store holds no pickup place named \"\(name)\""
    case .samePlace(let name): "\"\(name)\" and the destination are the same place; nothing to merge"
    case .nameHeldBy(let other):
      "that name belongs to another place, \"\(other)\"; merge the two to put their deliveries together"
    }
  }
}

/// The pickup-place catalogue (schema version 4, seed 003). One row per key: a typed name whose
/// key exists reuses that place and the first accepted spelling is never rewritten by matching;
/// only `rename` changes a spelling. Nothing aggregated is stored on a place: recency and wait
/// history are derived from the deliveries naming it. Places reference no shift, so deleting a
/// shift never deletes one.
extension RouteStore {
  /// The place keyed like `name`, created with `name`'s spelling when none is.
  ///
  /// - Complexity: O(log *N*).
  public func placeID(filing name: PickupPlaceName, at instant: Double) throws -> PlaceID {
    if let existing = try placeID(keyed: name.key) { return existing }
    let insert = try database.prepare("INSERT INTO places(name, key, created_at) VALUES (?, ?, ?)")
    try insert.bind(name.display, at: 1)
    try insert.bind(name.key, at: 2)
    try insert.bind(instant, at: 3)
    try insert.run()
    return PlaceID(rawValue: database.lastInsertedRowID)
  }

  private func placeID(keyed key: String) throws -> PlaceID? {
    let select = try database.prepare("SELECT id FROM places WHERE key = ?")
    try select.bind(key, at: 1)
    defer { select.reset() }
    return try select.step() ? PlaceID(rawValue: select.integer(at: 0)) : nil
  }

  /// Every place: recent first (latest use first, then the order the catalogue was built in,
  /// places no delivery names last), or alphabetically by name (case folded, catalogue order
  /// breaking a tie).
  ///
  /// - Complexity: O(*p* log *p* + *n*) for *p* places and *n* deliveries naming one.
  public func places(alphabetical: Bool = false) throws -> [StoredPlace] {
    guard openedSchemaVersion >= 4 else { return [] }
    let select = try database.prepare(
      """
      SELECT p.id, p.name, p.created_at, MAX(d.accepted_at) FROM places p LEFT JOIN deliveries d ON d.place_id = p.id
      GROUP BY p.id ORDER BY p.id
      """)
    defer { select.reset() }
    var places: [StoredPlace] = []
    while try select.step() {
      places.append(
        StoredPlace(
          id: PlaceID(rawValue: select.integer(at: 0)), name: select.text(at: 1), createdAt: select.double(at: 2),
          lastUsedAt: select.optionalDouble(at: 3)))
    }
    if alphabetical {
      let keys = places.map { (try? PickupPlaceName($0.name).key) ?? $0.name }
      let order = places.indices.sorted {
        keys[$0] != keys[$1] ? keys[$0].unicodeScalars.lexicographicallyPrecedes(keys[$1].unicodeScalars) : $0 < $1
      }
      return order.map { places[$0] }
    }
    return places.enumerated().sorted { a, b in
      switch (a.element.lastUsedAt, b.element.lastUsedAt) {
      case (let x?, let y?) where x != y: return x > y
      case (.some, nil): return true
      case (nil, .some): return false
      default: return a.offset < b.offset
      }
    }.map(\.element)
  }

  /// The recent places: at most 5 named by a delivery, latest use first, then catalogue order.
  public func recentPlaces() throws -> [StoredPlace] {
    Array(try places().prefix { $0.lastUsedAt != nil }.prefix(5))
  }

  /// The place whose key is `name`'s, or nil.
  public func place(named name: PickupPlaceName) throws -> StoredPlace? {
    guard openedSchemaVersion >= 4, let id = try placeID(keyed: name.key) else { return nil }
    return try places().first { $0.id == id }
  }

  /// The waits recorded at `place` (deliveries of every shift naming it), derived now.
  ///
  /// - Complexity: O(*n* log *n*) for *n* deliveries naming it.
  public func waitHistory(of place: PlaceID) throws -> PickupWaitHistory {
    let select = try database.prepare(
      """
      SELECT picked_up_at - arrived_at_pickup_at FROM deliveries
      WHERE place_id = ? AND picked_up_at IS NOT NULL AND arrived_at_pickup_at IS NOT NULL
      """)
    try select.bind(place.rawValue, at: 1)
    defer { select.reset() }
    var waits: [Double] = []
    while try select.step() { waits.append(select.double(at: 0)) }
    return PickupWaitHistory(waits: waits)
  }

  /// Renames `place`: spelling and key together, nothing else. Refused, naming the other place,
  /// when another place holds the new key; refused when the row is gone.
  public func rename(_ place: PlaceID, to name: PickupPlaceName) throws {
    try database.transaction {
      guard try exists(place) else { throw PlaceRefusal.noSuchPlace(name.display) }
      if let holder = try placeID(keyed: name.key), holder != place {
        throw PlaceRefusal.nameHeldBy(try self.name(of: holder) ?? "")
      }
      let update = try database.prepare("UPDATE places SET name = ?, key = ? WHERE id = ?")
      try update.bind(name.display, at: 1)
      try update.bind(name.key, at: 2)
      try update.bind(place.rawValue, at: 3)
      try update.run()
    }
  }

  /// Merges `source` into `destination` in one transaction: every delivery naming the source
  /// names the destination, then the source is removed; the destination keeps its name, key and
  /// creation date. Refused, before anything changes, for the same place or a row the store no
  /// longer holds; a refused save rolls everything back.
  ///
  /// - Parameter sourceName: the name the driver gave, for the refusal's words.
  public func merge(_ source: PlaceID, into destination: PlaceID, sourceName: String, destinationName: String) throws {
    try database.transaction {
      guard try exists(source) else { throw PlaceRefusal.noSuchPlace(sourceName) }
      guard try exists(destination) else { throw PlaceRefusal.noSuchPlace(destinationName) }
      guard source != destination else { throw PlaceRefusal.samePlace(sourceName) }
      let move = try database.prepare("UPDATE deliveries SET place_id = ? WHERE place_id = ?")
      try move.bind(destination.rawValue, at: 1)
      try move.bind(source.rawValue, at: 2)
      try move.run()
      let delete = try database.prepare("DELETE FROM places WHERE id = ?")
      try delete.bind(source.rawValue, at: 1)
      try delete.run()
    }
  }

  /// Removes a place no delivery names (what a test uses to stage "deleted meanwhile"); a place
  /// still named is kept by the schema's RESTRICT and the delete is refused by SQLite.
  public func deletePlace(_ place: PlaceID) throws {
    let delete = try database.prepare("DELETE FROM places WHERE id = ?")
    try delete.bind(place.rawValue, at: 1)
    try delete.run()
  }

  private func exists(_ place: PlaceID) throws -> Bool {
    let select = try database.prepare("SELECT 1 FROM places WHERE id = ?")
    try select.bind(place.rawValue, at: 1)
    defer { select.reset() }
    return try select.step()
  }

  private func name(of place: PlaceID) throws -> String? {
    let select = try database.prepare("SELECT name FROM places WHERE id = ?")
    try select.bind(place.rawValue, at: 1)
    defer { select.reset() }
    return try select.step() ? select.text(at: 0) : nil
  }
}
