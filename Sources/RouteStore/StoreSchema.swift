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
    // 2: each shift's timeline (start, pause, resume, park, drive, end), in order; the
    // SHA-256 of the feed file it was imported from (an import of the same content is skipped);
    // and, for a finished import of a feed cut off mid-record, where and why reading stopped
    // ("line 812: the feed ends early: …"; never a coordinate). NULL: read to its end.
    """
    CREATE TABLE shift_events(
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      at REAL NOT NULL,
      event TEXT NOT NULL CHECK (event IN ('start', 'pause', 'resume', 'park', 'drive', 'end')),
      PRIMARY KEY (shift_id, seq)
    );
    ALTER TABLE shifts ADD COLUMN content_hash TEXT NULL;
    ALTER TABLE shifts ADD COLUMN stopped_reading TEXT NULL;
    CREATE INDEX shifts_by_content_hash ON shifts(content_hash) WHERE content_hash IS NOT NULL;
    """,
    // 3: each shift's offers and deliveries (seed 000), and the clamps that moved a recorded
    // instant forward. A delivery references its shift and its offer (of the same shift); an
    // offer's label is the timeline file's, NULL for an offer of one recorded without one. A
    // delivery holds its label and the instants it recorded: accepted_at always (acceptance is
    // its creation), the other four NULL until recorded. No state, interval, count or distance
    // column: all are derived. Deleting a shift deletes them all.
    """
    CREATE TABLE offers(
      id INTEGER PRIMARY KEY,
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      label TEXT NULL,
      UNIQUE (shift_id, id)
    );
    CREATE UNIQUE INDEX offers_by_shift_label ON offers(shift_id, label) WHERE label IS NOT NULL;
    CREATE TABLE deliveries(
      id INTEGER PRIMARY KEY,
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      offer_id INTEGER NOT NULL,
      label TEXT NOT NULL,
      accepted_at REAL NOT NULL,
      arrived_at_pickup_at REAL NULL,
      picked_up_at REAL NULL,
      delivered_at REAL NULL,
      cancelled_at REAL NULL,
      FOREIGN KEY (shift_id, offer_id) REFERENCES offers(shift_id, id) ON DELETE CASCADE,
      UNIQUE (shift_id, label),
      CHECK (delivered_at IS NULL OR cancelled_at IS NULL)
    );
    CREATE INDEX deliveries_by_offer ON deliveries(shift_id, offer_id);
    CREATE TABLE clamps(
      shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      delivery_id INTEGER NULL REFERENCES deliveries(id) ON DELETE CASCADE,
      event TEXT NOT NULL,
      recorded_at REAL NOT NULL,
      applied_at REAL NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('deliveryLastEvent', 'previousRecord')),
      clamped_to_event TEXT NOT NULL,
      clamped_to_at REAL NOT NULL,
      clamped_to_delivery TEXT NULL,
      PRIMARY KEY (shift_id, seq),
      CHECK (applied_at >= recorded_at)
    );
    CREATE INDEX clamps_by_delivery ON clamps(delivery_id);
    """,
    // 4: the pickup-place catalogue (seed 003) and what a delivery paid (seed 000). A place is
    // its display name and its key (UNIQUE: one row per key) and when it was first named; it
    // references no shift, so deleting a shift never deletes a place. A delivery references at
    // most one place (RESTRICT: a place still referenced is never deleted) and may hold an
    // amount, tips and an expected amount in integer minor units (NULL: none recorded). Existing
    // deliveries migrate with no place and no amount.
    """
    CREATE TABLE places(
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      key TEXT NOT NULL UNIQUE,
      created_at REAL NOT NULL
    );
    ALTER TABLE deliveries ADD COLUMN place_id INTEGER NULL REFERENCES places(id) ON DELETE RESTRICT;
    ALTER TABLE deliveries ADD COLUMN amount_minor INTEGER NULL CHECK (amount_minor >= 0);
    ALTER TABLE deliveries ADD COLUMN tips_minor INTEGER NULL CHECK (tips_minor >= 0);
    ALTER TABLE deliveries ADD COLUMN expected_minor INTEGER NULL CHECK (expected_minor >= 0);
    CREATE INDEX deliveries_by_place ON deliveries(place_id);
    """,
  ]

  static var currentVersion: Int { migrations.count }

  /// Brings a read-write store to `currentVersion`, or refuses a file that is not one.
  ///
  /// Safe against other processes doing the same at the same moment (several `import`s starting
  /// on a store that does not exist yet): the file's state is read in one statement, so it is
  /// one consistent snapshot (never "tables but no application ID" from a half-seen creation);
  /// creation and migration run under the write lock and re-read the state there; and any busy
  /// answer SQLite gives without waiting (a journal-mode switch or lock upgrade racing another
  /// connection) is retried until the connection's busy timeout has passed.
  ///
  /// - Complexity: O(1) when the store is current (one read, no write lock taken).
  static func prepare(_ database: Database) throws {
    let deadline = StoreClock.milliseconds() + Int64(database.busyTimeoutMilliseconds)
    var pause: Int64 = 2
    while true {
      do {
        try prepareOnce(database)
        return
      } catch let error as StoreError where error.kind == .busy && StoreClock.milliseconds() < deadline {
        if database.isInTransaction { try? database.rollback() }
        StoreClock.sleep(milliseconds: pause)
        pause = min(pause * 2, 50)
      }
    }
  }

  static func prepareOnce(_ database: Database) throws {
    // The first read of the file: a non-SQLite file fails here with NOTADB.
    var state = try State(database)
    try refuseForeign(database, state: state)
    // A read-only open never migrates; a store written by an older build is read as it is
    // (`RouteStore.openedSchemaVersion` tells the queries what it has).
    if database.access == .readOnly, state.version >= 1, state.version < currentVersion { return }
    if state.version < currentVersion {
      guard database.access == .readWrite else {
        throw StoreError(
          .readOnly,
          sqliteMessage: "the store's schema is older than this build's and must be upgraded by a read-write open",
          path: database.path)
      }
      try database.transaction {
        // Another process may have created or migrated it between the read above and the lock.
        state = try State(database)
        try refuseForeign(database, state: state)
        for migration in migrations[state.version...] {
          try database.execute(migration)
        }
        if state.version < currentVersion {
          try database.execute("PRAGMA application_id = \(applicationID)")
          try database.execute("PRAGMA user_version = \(currentVersion)")
        }
      }
    }
    if database.access == .readWrite, try database.texts("PRAGMA journal_mode").first?.lowercased() != "wal" {
      // WAL: readers keep reading while one writer commits; a commit is one append to the log.
      // Switched once, by whichever connection first finds the store in another mode.
      _ = try database.texts("PRAGMA journal_mode = WAL")
    }
  }

  /// What the file says it is, read in one statement (one snapshot).
  struct State {
    var version: Int
    var application: Int64
    var objects: Int64

    init(_ database: Database) throws {
      let statement = try database.prepare(
        "SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id), "
          + "(SELECT count(*) FROM sqlite_schema)")
      defer { statement.reset() }
      _ = try statement.step()
      version = Int(statement.optionalInteger(at: 0) ?? 0)
      application = statement.optionalInteger(at: 1) ?? 0
      objects = statement.optionalInteger(at: 2) ?? 0
    }
  }

  static func refuseForeign(_ database: Database, state: State) throws {
    if state.version > currentVersion {
      throw StoreError(.schemaFromTheFuture(found: state.version, supported: currentVersion), path: database.path)
    }
    if state.application != 0, state.application != applicationID {
      throw StoreError(.notARouteStore, path: database.path)
    }
    if state.version == 0, state.application == 0, state.objects > 0 {
      throw StoreError(.notARouteStore, path: database.path)
    }
  }
}
