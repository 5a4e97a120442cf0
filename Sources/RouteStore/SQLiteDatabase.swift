import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One SQLite connection: the handle, opened with explicit flags and closed when released.
///
/// Why a class: the connection is a resource with identity; prepared statements keep it alive,
/// and `sqlite3_close_v2` in `deinit` closes it once the last of them is finalized.
///
/// Not `Sendable`: a connection is opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`), so
/// it must be used from one thread at a time. Open one connection per thread or task; SQLite's
/// WAL mode lets readers on other connections run beside one writer.
public final class Database {
  /// How the file is opened.
  public enum Access: Sendable, Hashable {
    /// Read and write; the file is created when missing.
    case readWrite
    /// Read only; the file must exist. Nothing is migrated or written.
    case readOnly
  }

  /// The default time a statement waits for another connection's write lock before it fails
  /// with `StoreError.Kind.busy`.
  public static let defaultBusyTimeoutMilliseconds: Int32 = 5_000

  let handle: OpaquePointer
  /// The path the connection was opened with (":memory:" for an in-memory database).
  public let path: String
  public let access: Access
  /// How long a statement waits for another connection's lock; also bounds the retries while
  /// another process creates or migrates the store.
  public let busyTimeoutMilliseconds: Int32
  /// True when a read-only connection opened the file as immutable (see `init`).
  public let isImmutableSnapshot: Bool

  /// Opens (or creates) the database file and sets the connection up: extended result codes,
  /// the busy timeout, `PRAGMA foreign_keys=ON` (so deleting a shift deletes its rows) and, for
  /// writing, `PRAGMA temp_store=MEMORY`.
  ///
  /// A file the process may not write is opened read-only by SQLite without complaint; a
  /// read-write open refuses that here with `.readOnly`, before anything is read.
  ///
  /// - Parameter createIfMissing: false opens only an existing file, even for writing (deleting
  ///   a shift never creates a store).
  /// - Throws: `StoreError` (`.cannotOpen`, `.noSuchStore`, `.isADirectory`, `.unreadable`,
  ///   `.readOnly`, …).
  ///
  /// A read-only connection never writes and never leaves a file behind: SQLite's WAL mode would
  /// otherwise create `-wal` and `-shm` files beside the store, owned by the reader, which then
  /// block the owner's next import (and cannot be created at all in a folder the reader may not
  /// write). So when the store has no `-wal` file — no writer is at work and the last one
  /// checkpointed — it is opened `immutable=1`: no locks, no side files, and it opens in a
  /// read-only folder. When a `-wal` exists, a writer's files are already there and the store is
  /// opened `mode=ro` with normal locking, to see the writer's committed batches.
  public init(
    path: String, access: Access = .readWrite, createIfMissing: Bool = true,
    busyTimeoutMilliseconds: Int32 = defaultBusyTimeoutMilliseconds
  ) throws {
    if path != ":memory:", !path.isEmpty, !path.hasPrefix("file:"),
      let problem = Self.fileProblem(path, mayCreate: access == .readWrite && createIfMissing)
    {
      throw StoreError(problem.kind, path: path, systemErrno: problem.errno)
    }
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    var openPath = path
    var immutable = false
    switch access {
    case .readWrite: flags |= SQLITE_OPEN_READWRITE | (createIfMissing ? SQLITE_OPEN_CREATE : 0)
    case .readOnly:
      flags |= SQLITE_OPEN_READONLY
      if path != ":memory:", !path.isEmpty {
        flags |= SQLITE_OPEN_URI
        immutable = !StoreClock.fileExists(path + "-wal")
        openPath = Self.fileURI(path, immutable: immutable)
      }
    }
    var opened: OpaquePointer?
    let code = sqlite3_open_v2(openPath, &opened, flags, nil)
    guard let opened else {
      throw StoreError(.other, code: code, sqliteMessage: String(cString: sqlite3_errstr(code)), path: path)
    }
    guard code == SQLITE_OK else {
      let error = StoreError.from(code: code, connection: opened, sql: nil, path: path)
      sqlite3_close_v2(opened)
      throw error
    }
    handle = opened
    self.path = path
    self.access = access
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    self.isImmutableSnapshot = immutable
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    if access == .readWrite, sqlite3_db_readonly(handle, "main") == 1 {
      throw StoreError(
        .readOnly, code: SQLITE_READONLY, sqliteMessage: "the file could only be opened read-only", path: path)
    }
    try execute("PRAGMA foreign_keys = ON")
    if access == .readWrite {
      // SQLite's temporary storage in memory: chiefly the statement journal of a multi-row
      // INSERT (the copy of each page it changes that existed before it, so a failed statement
      // can be undone), which would otherwise go to a temporary file past 64 KiB: about 6,300
      // page writes for a 315,052-row import. It undoes a statement inside a live transaction
      // only, so durability is unchanged (a crash is recovered from the WAL). The store's other
      // temporary b-trees are per-shift sorts of a few rows; every large read follows an index.
      try execute("PRAGMA temp_store = MEMORY")
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// What is wrong with the store's path before SQLite is asked, in the words that are true:
  /// a missing file (when it may not be created) is `.noSuchStore`, and `.cannotOpen` with
  /// ENOENT only when its directory is missing; a directory is `.isADirectory` (SQLite would
  /// call it a disk I/O error); a file the process may not read is `.unreadable` (SQLite
  /// would call it read-only). Nil when the path looks openable. O(1) system calls.
  static func fileProblem(_ path: String, mayCreate: Bool) -> (kind: StoreError.Kind, errno: Int32)? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      guard errno == ENOENT else { return nil }
      let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
      let folder = slash.map { $0 == path.utf8.startIndex ? "/" : String(path[..<$0]) } ?? "."
      var folderStatus = stat()
      guard stat(folder, &folderStatus) == 0, (folderStatus.st_mode & S_IFMT) == S_IFDIR else {
        return (.cannotOpen, ENOENT)
      }
      return mayCreate ? nil : (.noSuchStore, ENOENT)
    }
    if (status.st_mode & S_IFMT) == S_IFDIR { return (.isADirectory, EISDIR) }
    if faccessat(AT_FDCWD, path, R_OK, 0) != 0 { return (.unreadable, errno) }
    return nil
  }

  /// `file:` URI for a read-only open: the path percent-encoded where a URI needs it.
  static func fileURI(_ path: String, immutable: Bool) -> String {
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...:
        let hex = Array("0123456789ABCDEF".utf8)
        encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
      default:
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return "file:" + encoded + (immutable ? "?mode=ro&immutable=1" : "?mode=ro")
  }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The row ID of the last row this connection inserted.
  public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// Rows inserted, updated or deleted by this connection since it opened (a rollback does not
  /// take any back). O(1). With `PRAGMA data_version` (other connections' commits) it tells the
  /// live path whether anything beyond the rows it fetched could have changed.
  public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

  /// Prepares one statement. Prepare once and reuse for anything run per row or per batch.
  public func prepare(_ sql: String) throws -> Statement {
    try Statement(database: self, sql: sql)
  }

  /// Runs SQL that binds nothing (schema, pragmas, transaction control), stepping every
  /// statement in it to completion.
  public func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// The first column of the first row of a query that binds nothing, as an integer (nil when
  /// there is no row or the value is NULL).
  public func integer(_ sql: String) throws -> Int64? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.optionalInteger(at: 0)
  }

  /// The first column of every row of a query that binds nothing, as text.
  public func texts(_ sql: String) throws -> [String] {
    let statement = try prepare(sql)
    var values: [String] = []
    while try statement.step() { values.append(statement.text(at: 0)) }
    return values
  }

  /// `PRAGMA user_version`: the schema version this store's migrations reached.
  public func userVersion() throws -> Int { Int(try integer("PRAGMA user_version") ?? 0) }

  /// The `StoreError` for a result code SQLite just returned on this connection.
  func error(_ code: Int32, sql: String?) -> StoreError {
    StoreError.from(code: code, connection: handle, sql: sql, path: path)
  }
}

extension StoreError {
  /// Classifies an SQLite result code into the cases a user can act on.
  ///
  /// `CANTOPEN` with a permission or read-only-file-system errno is reported as `.readOnly`:
  /// the path exists, the process just may not write there.
  static func from(code: Int32, connection: OpaquePointer?, sql: String?, path: String?) -> StoreError {
    let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    let systemErrno = connection.map { sqlite3_system_errno($0) } ?? 0
    let kind: Kind
    switch code & 0xff {
    case SQLITE_NOTADB: kind = .notADatabase
    case SQLITE_READONLY: kind = .readOnly
    case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
    case SQLITE_CORRUPT: kind = .corrupt
    case SQLITE_FULL: kind = .full
    case SQLITE_CONSTRAINT: kind = .constraint
    case SQLITE_CANTOPEN:
      // EPERM 1, EACCES 13, EROFS 30
      kind = [1, 13, 30].contains(systemErrno) ? .readOnly : .cannotOpen
    default: kind = .other
    }
    return StoreError(kind, code: code, sqliteMessage: message, sql: sql, path: path, systemErrno: systemErrno)
  }
}
