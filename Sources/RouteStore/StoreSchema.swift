/// The store's schema and its migrations, versioned by `PRAGMA user_version`.
///
/// Migration *i* takes a store from version *i* to *i* + 1; a new build appends one and never
/// edits an old one. All pending migrations run in one `BEGIN IMMEDIATE` transaction together
/// with the new `user_version`, so a store is at one version or the next, never between.
/// A store whose `user_version` is above `currentVersion` was written by a newer build: it is
/// refused, not guessed at.
///
/// `PRAGMA application_id` marks the file as a routemiles store, so an SQLite file of some
/// other program is refused instead of having tables added to it.
enum StoreSchema {
  /// "RMIL".
  static let applicationID: Int64 = 0x524D_494C

  static let migrations: [String] = [
    // 1: shifts and their route rows.
    """
    CREATE TABLE shifts(
      id INTEGER PRIMARY KEY,
      start REAL NOT NULL,
      "end" REAL NULL,
      source TEXT NOT NULL,
      imported_at REAL NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('importing', 'complete', 'running')),
      CHECK ("end" IS NULL OR "end" >= start)
    );
    CREATE TABLE route_samples(
      id INTEGER PRIMARY KEY,
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      timestamp REAL NOT NULL,
      latitude REAL NOT NULL,
      longitude REAL NOT NULL,
      accuracy REAL,
      speed REAL,
      course REAL,
      altitude REAL,
      capture_session INTEGER
    );
    CREATE INDEX route_samples_by_shift_time ON route_samples(shift_id, timestamp);
    CREATE INDEX route_samples_by_shift ON route_samples(shift_id);
    """,
    // 2: each shift's timeline (start, pause, resume, park, drive, end), in order, and the
    // SHA-256 of the feed file it was imported from (an import of the same content is skipped).
    """
    CREATE TABLE shift_events(
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      at REAL NOT NULL,
      event TEXT NOT NULL CHECK (event IN ('start', 'pause', 'resume', 'park', 'drive', 'end')),
      PRIMARY KEY (shift_id, seq)
    );
    ALTER TABLE shifts ADD COLUMN content_hash TEXT NULL;
    CREATE INDEX shifts_by_content_hash ON shifts(content_hash) WHERE content_hash IS NOT NULL;
    """,
  ]

  static var currentVersion: Int { migrations.count }

  /// Brings a read-write store to `currentVersion`, or refuses a file that is not one.
  ///
  /// - Complexity: O(1) when the store is current (two pragma reads, no write lock taken).
  static func prepare(_ database: Database) throws {
    // The first read of the file: a non-SQLite file fails here with NOTADB.
    var version = try database.userVersion()
    try refuseForeign(database, version: version)
    if database.access == .readWrite {
      // WAL: readers keep reading while one writer commits; a commit is one append to the log.
      // Idempotent; a store that is already in WAL needs no lock to say so.
      _ = try database.texts("PRAGMA journal_mode = WAL")
    }
    guard version < currentVersion else { return }
    // A read-only open never migrates; a store written by an older build is read as it is
    // (`RouteStore.schemaVersion(of:)` tells the queries what it has).
    if database.access == .readOnly, version >= 1 { return }
    guard database.access == .readWrite else {
      throw StoreError(
        .readOnly, sqliteMessage: "the store's schema is older than this build's and must be upgraded by a read-write open",
        path: database.path)
    }
    try database.transaction {
      // Another process may have migrated between the read above and the lock.
      version = try database.userVersion()
      try refuseForeign(database, version: version)
      for migration in migrations[version...] {
        try database.execute(migration)
      }
      try database.execute("PRAGMA application_id = \(applicationID)")
      try database.execute("PRAGMA user_version = \(currentVersion)")
    }
  }

  static func refuseForeign(_ database: Database, version: Int) throws {
    if version > currentVersion {
      throw StoreError(.schemaFromTheFuture(found: version, supported: currentVersion), path: database.path)
    }
    let application = try database.integer("PRAGMA application_id") ?? 0
    if application != 0, application != applicationID {
      throw StoreError(.notARouteStore, path: database.path)
    }
    if version == 0, application == 0,
      try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0 > 0
    {
      throw StoreError(.notARouteStore, path: database.path)
    }
  }
}
