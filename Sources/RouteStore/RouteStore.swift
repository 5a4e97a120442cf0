import RouteMileage

/// The SQLite store of shifts and their route rows.
///
/// It keeps what was captured and nothing derived: no distance, no count. Every figure is
/// measured from the rows when it is asked for (`measure(shift:)`), so it can never disagree
/// with them.
///
/// One `RouteStore` is one connection (see `Database`): not `Sendable`; open one per thread or
/// task. Readers on other connections see whole committed batches only (WAL).
public final class RouteStore {
  /// The connection, for transaction control and for tests that look at the file directly.
  public let database: Database
  /// The schema version of the file as opened: `schemaVersion`, or older for a store opened
  /// read-only that an older build wrote (read as it is, never migrated by a reader).
  public let openedSchemaVersion: Int

  // Statements run per batch or per refresh, prepared once per connection.
  var insertSampleStatement: Statement?
  var insertSamplesStatement: Statement?
  var insertLargeSamplesStatement: Statement?
  var largestRowIDStatement: Statement?
  var rowByIDStatement: Statement?
  var rowsAfterStatement: Statement?
  var dataVersionStatement: Statement?
  var rowsThroughStatement: Statement?

  /// Opens (creating and migrating when needed) the store at `path`.
  ///
  /// - Parameters:
  ///   - access: `.readOnly` never writes, not even a migration (an out-of-date store is refused).
  ///   - createIfMissing: false opens only an existing store (a deletion never creates one).
  ///   - busyTimeoutMilliseconds: how long a write waits for another process's write lock.
  /// - Throws: `StoreError`: `.cannotOpen`, `.readOnly`, `.notADatabase`, `.notARouteStore`,
  ///   `.schemaFromTheFuture`, `.busy`, …
  public init(
    path: String, access: Database.Access = .readWrite, createIfMissing: Bool = true,
    busyTimeoutMilliseconds: Int32 = Database.defaultBusyTimeoutMilliseconds
  ) throws {
    database = try Database(
      path: path, access: access, createIfMissing: createIfMissing, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    try StoreSchema.prepare(database)
    openedSchemaVersion = try database.userVersion()
  }

  /// A private store in memory, gone when released (tests, and measuring without a file).
  public static func inMemory() throws -> RouteStore {
    try RouteStore(path: ":memory:")
  }

  /// The schema version this build writes.
  public static var schemaVersion: Int { StoreSchema.currentVersion }

  /// `PRAGMA integrity_check`: true when SQLite finds nothing wrong.
  ///
  /// - Complexity: O(size of the file).
  public func integrityCheck() throws -> Bool {
    try database.texts("PRAGMA integrity_check") == ["ok"]
  }

  // MARK: Shifts

  /// Records a new shift and returns its ID.
  ///
  /// - Parameters:
  ///   - start: the window's start, or (no window) the first sample's time when known.
  ///   - end: the window's end; nil for a shift with no window.
  @discardableResult
  public func createShift(
    start: Double, end: Double?, source: String, importedAt: Double, status: ShiftStatus
  ) throws -> ShiftID {
    let statement = try database.prepare(
      #"INSERT INTO shifts(start, "end", source, imported_at, status) VALUES (?, ?, ?, ?, ?)"#)
    try statement.bind(start, at: 1)
    try statement.bind(end, at: 2)
    try statement.bind(source, at: 3)
    try statement.bind(importedAt, at: 4)
    try statement.bind(status.rawValue, at: 5)
    try statement.run()
    return ShiftID(database.lastInsertedRowID)
  }

  /// Sets a shift's status (for example `.complete` when a replayed live shift ends).
  public func setStatus(_ status: ShiftStatus, of shift: ShiftID) throws {
    try updateShift(shift, #"UPDATE shifts SET status = ? WHERE id = ?"#) { try $0.bind(status.rawValue, at: 1) }
  }

  /// Moves a shift's start (an import without a window starts at its first retained sample).
  public func setStart(_ start: Double, of shift: ShiftID) throws {
    try updateShift(shift, #"UPDATE shifts SET start = ? WHERE id = ?"#) { try $0.bind(start, at: 1) }
  }

  /// Marks a shift complete, optionally setting its window end, in one statement.
  public func finishShift(_ shift: ShiftID, end: Double? = nil) throws {
    if let end {
      try updateShift(shift, #"UPDATE shifts SET status = 'complete', "end" = ? WHERE id = ?"#) {
        try $0.bind(end, at: 1)
      }
    } else {
      try setStatus(.complete, of: shift)
    }
  }

  /// Deletes a shift and, by cascade, every route row, timeline event, offer, delivery and clamp
  /// of it, in one statement.
  ///
  /// - Complexity: O(*n* log *N*) for its *n* rows in a store of *N*.
  public func deleteShift(_ shift: ShiftID) throws {
    try updateShift(shift, "DELETE FROM shifts WHERE id = ?") { _ in }
  }

  /// One shift, or nil when there is none with this ID.
  ///
  /// - Complexity: O(log *N* + *n*): its rows are counted through the shift index.
  public func shift(_ shift: ShiftID) throws -> ShiftRecord? {
    let statement = try database.prepare(shiftQuery + " WHERE s.id = ?")
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    var record = try Self.record(statement)
    statement.reset()
    record.timeline = try timeline(of: record.id)
    record.ledger = try ledger(of: record.id, timeline: record.timeline)
    return record
  }

  /// Every shift, oldest ID first, with its timeline and deliveries.
  ///
  /// - Complexity: O(*S* + *N* + *D* log *D*) for *S* shifts, *N* rows and *D* deliveries (the
  ///   counts are read, not stored).
  public func shifts() throws -> [ShiftRecord] {
    let statement = try database.prepare(shiftQuery + " ORDER BY s.id")
    var records: [ShiftRecord] = []
    while try statement.step() { records.append(try Self.record(statement)) }
    for index in records.indices {
      records[index].timeline = try timeline(of: records[index].id)
      records[index].ledger = try ledger(of: records[index].id, timeline: records[index].timeline)
    }
    return records
  }

  var shiftQuery: String {
    #"""
    SELECT s.id, s.start, s."end", s.source, s.imported_at, s.status,
      (SELECT count(*) FROM route_samples r WHERE r.shift_id = s.id),
    """# + (openedSchemaVersion >= 2 ? " s.content_hash, s.stopped_reading" : " NULL, NULL") + " FROM shifts s"
  }

  static func record(_ row: Statement) throws -> ShiftRecord {
    guard let status = ShiftStatus(rawValue: row.text(at: 5)) else {
      throw StoreError(.unreadableRow, sql: row.sql, path: row.database.path)
    }
    return ShiftRecord(
      id: ShiftID(row.integer(at: 0)), start: row.double(at: 1), end: row.optionalDouble(at: 2),
      source: row.text(at: 3), importedAt: row.double(at: 4), status: status,
      sampleCount: Int(row.integer(at: 6)), contentHash: row.optionalText(at: 7),
      stoppedReading: row.optionalText(at: 8))
  }

  /// Runs an UPDATE or DELETE whose last parameter is the shift ID; `.noSuchShift` when it
  /// touched nothing.
  func updateShift(_ shift: ShiftID, _ sql: String, bind: (Statement) throws -> Void) throws {
    let statement = try database.prepare(sql)
    try bind(statement)
    try statement.bind(shift.rawValue, at: statement.parameterCount)
    try statement.run()
    if database.changes == 0 { throw StoreError(.noSuchShift(shift), path: database.path) }
  }
}
