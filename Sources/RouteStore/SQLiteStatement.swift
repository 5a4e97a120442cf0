import CSQLite

/// One prepared statement: bind, step, read columns, reset; finalized when released.
///
/// Reuse one `Statement` for every row of a batch (bind → step → reset): preparing parses and
/// plans the SQL, which costs more than inserting a row. `step` resets the statement itself
/// when it reports no more rows, and a statement must be reset (or run to the end) before the
/// connection's read snapshot can move on — in WAL mode an unreset SELECT keeps its reader
/// looking at the past, so every reader here resets as soon as it has what it needs.
///
/// Errors carry the statement's own text (`sqlite3_sql`, placeholders only), never the
/// expanded SQL with values in it.
public final class Statement {
  /// Holds the connection open for as long as the statement exists.
  public let database: Database
  let handle: OpaquePointer
  /// The SQL as written, with `?` placeholders.
  public let sql: String

  /// `SQLITE_TRANSIENT`, which Swift cannot import from the C macro: tells SQLite to copy a
  /// bound buffer before `bind` returns (as GRDB recreates it).
  static var transient: sqlite3_destructor_type {
    unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
  }

  init(database: Database, sql: String) throws {
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v2(database.handle, sql, -1, &prepared, nil)
    guard code == SQLITE_OK, let prepared else { throw database.error(code, sql: sql) }
    self.database = database
    self.handle = prepared
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// How many `?` placeholders the statement has.
  public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

  /// Binds a real, or NULL for nil. SQLite stores NaN as NULL.
  public func bind(_ value: Double?, at index: Int32) throws {
    let code = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
    try check(code)
  }

  /// Binds an integer, or NULL for nil.
  public func bind(_ value: Int64?, at index: Int32) throws {
    let code = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
    try check(code)
  }

  /// Binds text (copied by SQLite).
  public func bind(_ value: String, at index: Int32) throws {
    var value = value
    let code = value.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Statement.transient)
      }
    }
    try check(code)
  }

  /// Steps once: true when a row is ready to read, false when the statement has finished (and
  /// has been reset). On error the statement is reset and the error thrown.
  @discardableResult
  public func step() throws -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE:
      sqlite3_reset(handle)
      return false
    default:
      // `sqlite3_reset` returns the same error code; read the message first.
      let error = database.error(code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Steps to the end (an INSERT, UPDATE or DELETE).
  public func run() throws {
    while try step() {}
  }

  /// Ends the current run early (releasing its read snapshot) and keeps the bindings.
  public func reset() {
    sqlite3_reset(handle)
  }

  /// Whether the column of the current row is NULL.
  public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

  public func optionalDouble(at column: Int32) -> Double? {
    isNull(at: column) ? nil : sqlite3_column_double(handle, column)
  }

  public func integer(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  public func optionalInteger(at column: Int32) -> Int64? {
    isNull(at: column) ? nil : sqlite3_column_int64(handle, column)
  }

  public func text(at column: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// SQLite's count of virtual-machine steps this statement has run (`SQLITE_STMTSTATUS_VM_STEP`),
  /// a deterministic measure of the work a query did; used to show the live probe does not scan.
  public func virtualMachineSteps(reset: Bool = false) -> Int {
    Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, reset ? 1 : 0))
  }

  func check(_ code: Int32) throws {
    guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
  }
}
