import RouteMileage

extension RouteStore {
  /// Writes one batch of samples to a shift: all of them or, on any error, none.
  ///
  /// Outside a transaction the batch is its own `BEGIN IMMEDIATE … COMMIT`; inside the caller's
  /// transaction it is a savepoint, so the caller's `rollback()` discards it with the rest.
  ///
  /// The rows go in `samplesPerLargeInsert` (then `samplesPerInsert`) at a time, through
  /// multi-row `INSERT … VALUES (…), (…)` statements prepared once per connection (the remainder
  /// through a one-row statement). One statement
  /// run keeps its B-tree cursors positioned at the end of the table and of both indexes, so a
  /// row appended after the last one is placed without a search from the root, and the
  /// statement's set-up (opening the cursors, the transaction checks) is paid once per group
  /// instead of once per row. The rows, their order and their rowids are those of one insert a
  /// row.
  ///
  /// A NaN timestamp, latitude or longitude cannot be stored (SQLite turns NaN into NULL) and
  /// refuses the whole batch with `.unstorableSample` before anything is written; NaN in an
  /// optional field is stored as NULL, as unknown. The capture filter and the feed readers
  /// never produce NaN.
  ///
  /// - Throws: `StoreError`; `.constraint` when the shift does not exist.
  /// - Complexity: O(*k* log *N*) for *k* samples in a store of *N* rows.
  public func appendSamples(_ samples: some Collection<RouteSample>, to shift: ShiftID) throws {
    try checkStorable(samples)
    try database.transaction { try insertRows(samples, of: shift) }
  }

  /// `appendSamples(_:to:)` for a caller that holds its own transaction and rolls all of it
  /// back when this throws (the import writer): the rows go straight into that transaction.
  ///
  /// No savepoint of its own, because a savepoint is costly here: inside one, SQLite copies
  /// every page the batch changes that existed when the savepoint began into a sub-journal, a
  /// temporary file past 64 KiB (about 42,700 page writes for a 315,052-row import). The
  /// caller's rollback makes the batch whole or absent without it.
  ///
  /// - Precondition: a transaction is open (`Database.isInTransaction`).
  /// - Throws: as `appendSamples(_:to:)`; the caller must then roll its transaction back.
  /// - Complexity: O(*k* log *N*) for *k* samples in a store of *N* rows.
  func appendSamplesInOpenTransaction(_ samples: some Collection<RouteSample>, to shift: ShiftID) throws {
    precondition(database.isInTransaction, "appendSamplesInOpenTransaction needs the caller's transaction")
    try checkStorable(samples)
    try insertRows(samples, of: shift)
  }

  /// Refuses a batch holding a NaN time or coordinate, before anything is written. O(*k*).
  func checkStorable(_ samples: some Collection<RouteSample>) throws {
    if let bad = samples.firstIndex(where: { $0.timestamp.isNaN || $0.latitude.isNaN || $0.longitude.isNaN }) {
      throw StoreError(
        .unstorableSample(index: samples.distance(from: samples.startIndex, to: bad)), path: database.path)
    }
  }

  /// Inserts the rows in the transaction already open: `samplesPerLargeInsert` to a statement
  /// while that many remain, then `samplesPerInsert`, then one at a time.
  func insertRows(_ samples: some Collection<RouteSample>, of shift: ShiftID) throws {
    let single = try insertSample()
    var index = samples.startIndex
    var remaining = samples.count
    for rows in [Self.samplesPerLargeInsert, Self.samplesPerInsert] where remaining >= rows {
      let group = try insertSamples(rows)
      while remaining >= rows {
        for row in 0..<Int32(rows) {
          try Self.bind(samples[index], of: shift, to: group, from: row &* Self.columnsPerSample &+ 1)
          samples.formIndex(after: &index)
        }
        do {
          try group.run()
        } catch var error as StoreError {
          // Name the one-row template, not the statement of many placeholders.
          error.sql = single.sql
          throw error
        }
        remaining -= rows
      }
    }
    while index != samples.endIndex {
      try Self.bind(samples[index], of: shift, to: single, from: 1)
      try single.run()
      samples.formIndex(after: &index)
    }
  }

  /// Rows per multi-row insert for the bulk of a batch: 1,024 rows of 9 placeholders (9,216,
  /// below SQLite's limit of 32,766). Each run pays the statement's set-up and
  /// keeps a statement journal (the foreign key makes a multi-row insert one that may abort) of
  /// the pages it changes that existed before it, so longer statements copy fewer pages: for
  /// 315,052 rows about 6,300 against 13,100 with 64-row statements.
  static let samplesPerLargeInsert = 1_024
  /// Rows per multi-row insert for what is left (fewer than `samplesPerLargeInsert`): 64 rows,
  /// enough that the statement's per-run cost is a small share of a row's.
  static let samplesPerInsert = 64
  static let columnsPerSample: Int32 = 9

  /// Binds one sample's nine columns at placeholders `first` … `first + 8`.
  @inline(__always)
  static func bind(_ sample: RouteSample, of shift: ShiftID, to insert: Statement, from first: Int32) throws {
    try insert.bind(shift.rawValue, at: first)
    try insert.bind(sample.timestamp, at: first &+ 1)
    try insert.bind(sample.latitude, at: first &+ 2)
    try insert.bind(sample.longitude, at: first &+ 3)
    try insert.bind(sample.horizontalAccuracy, at: first &+ 4)
    try insert.bind(sample.speed, at: first &+ 5)
    try insert.bind(sample.course, at: first &+ 6)
    try insert.bind(sample.altitude, at: first &+ 7)
    try insert.bind(sample.captureSession?.rawValue, at: first &+ 8)
  }

  static let insertColumns =
    "INSERT INTO route_samples(shift_id, timestamp, latitude, longitude, accuracy, speed, course, altitude, "
    + "capture_session) VALUES "
  static let rowPlaceholders = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"

  func insertSample() throws -> Statement {
    if let insertSampleStatement { return insertSampleStatement }
    let statement = try database.prepare(Self.insertColumns + Self.rowPlaceholders)
    insertSampleStatement = statement
    return statement
  }

  /// The multi-row insert of `rows` rows (`samplesPerLargeInsert` or `samplesPerInsert`),
  /// prepared once per connection. Its placeholders are anonymous (`?`): binding the shift once
  /// as a shared `?1` would save a ninth of the binds, but SQLite looks each numbered placeholder
  /// up in a list while parsing, quadratic in their number (236 M instructions for 8,193).
  func insertSamples(_ rows: Int) throws -> Statement {
    let large = rows == Self.samplesPerLargeInsert
    if let statement = large ? insertLargeSamplesStatement : insertSamplesStatement { return statement }
    let placeholders = [String](repeating: Self.rowPlaceholders, count: rows)
    let statement = try database.prepare(Self.insertColumns + placeholders.joined(separator: ", "))
    if large { insertLargeSamplesStatement = statement } else { insertSamplesStatement = statement }
    return statement
  }

  /// Deletes every route row of a shift, keeping the shift.
  ///
  /// - Complexity: O(*n* log *N*) for its *n* rows in a store of *N*.
  public func deleteSamples(of shift: ShiftID) throws {
    let statement = try database.prepare("DELETE FROM route_samples WHERE shift_id = ?")
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    _ = try statement.step()
  }

  /// How many route rows the shift holds.
  ///
  /// - Complexity: O(*n*) in the shift's rows: SQLite counts index entries one by one. This is
  ///   why the live path never counts (see `ActiveRouteMeasurement`).
  public func sampleCount(of shift: ShiftID) throws -> Int {
    let statement = try database.prepare("SELECT count(*) FROM route_samples WHERE shift_id = ?")
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    _ = try statement.step()
    return Int(statement.integer(at: 0))
  }

  /// The largest capture session stored for the shift, so a continued shift mints its next
  /// session past it (`CaptureSessionMinter(next: largest + 1)`). Nil when every row is legacy
  /// or there are none.
  ///
  /// - Complexity: O(*n*) in the shift's rows.
  public func largestCaptureSession(of shift: ShiftID) throws -> CaptureSessionID? {
    let statement = try database.prepare("SELECT max(capture_session) FROM route_samples WHERE shift_id = ?")
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    _ = try statement.step()
    return statement.optionalInteger(at: 0).map(CaptureSessionID.init(rawValue:))
  }

  /// Streams the shift's rows in timestamp order, one `RouteSample` at a time, without loading
  /// the route. Stored samples carry no arrival time and no estimated-accuracy flag.
  ///
  /// - Complexity: O(*n* log *N*) through the (shift, timestamp) index; O(1) memory.
  public func forEachSample(of shift: ShiftID, _ body: (RouteSample) throws -> Void) throws {
    let statement = try database.prepare(
      """
      SELECT timestamp, latitude, longitude, accuracy, speed, course, altitude, capture_session
      FROM route_samples WHERE shift_id = ? ORDER BY timestamp
      """)
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    while try statement.step() {
      try body(
        RouteSample(
          timestamp: statement.double(at: 0), latitude: statement.double(at: 1),
          longitude: statement.double(at: 2), horizontalAccuracy: statement.optionalDouble(at: 3),
          speed: statement.optionalDouble(at: 4), course: statement.optionalDouble(at: 5),
          altitude: statement.optionalDouble(at: 6),
          captureSession: statement.optionalInteger(at: 7).map(CaptureSessionID.init(rawValue:))))
    }
  }

  /// The positions the measurement walks, in timestamp order (ties in storage order; the
  /// calculator orders ties itself).
  ///
  /// - Complexity: O(*n* log *N*) time, O(*n*) memory (56 bytes a position).
  public func positions(of shift: ShiftID) throws -> [RoutePosition] {
    let statement = try database.prepare(
      "SELECT timestamp, latitude, longitude, capture_session, accuracy FROM route_samples WHERE shift_id = ? ORDER BY timestamp"
    )
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    var positions: [RoutePosition] = []
    while try statement.step() { positions.append(Self.position(statement, from: 0)) }
    return positions
  }

  /// The shift's figure: `RouteMileageCalculator` over its stored rows in one pass, with the
  /// shift's timeline, or else its window, when it has one. This is the only figure a finished shift reports; it is
  /// measured every time it is asked, never stored.
  ///
  /// An interrupted import (`.importing`) is measured the same way, over the whole batches it
  /// wrote, and is cut off (`RouteDistance.cutOff`): its route is partial and its words say the
  /// import stopped before the end of its feed. The caller labels it interrupted, never finished.
  /// A finished import of a feed cut off mid-record is cut off at the line `stopped_reading`
  /// names: the partial figure and the words `measure` gives the same file.
  ///
  /// - Throws: `.noSuchShift` when there is no such shift.
  /// - Complexity: O(*n* log *N*) to read *n* rows; O(*n*) to walk them (already in order).
  public func measure(
    shift: ShiftID, maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval
  ) throws -> RouteDistance {
    guard let record = try self.shift(shift) else { throw StoreError(.noSuchShift(shift), path: database.path) }
    return try measure(record, maximumSampleInterval: maximumSampleInterval)
  }

  /// `measure(shift:)` for a shift already listed.
  public func measure(
    _ record: ShiftRecord, maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval
  ) throws -> RouteDistance {
    let calculator = RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
    let positions = try positions(of: record.id)
    // With a recorded timeline the shift is measured against it: its window, and every pause
    // and park a gap of its own.
    var distance =
      record.timeline.map { calculator.distance(of: positions, timeline: $0) }
      ?? calculator.distance(of: positions, covering: record.window)
    distance.cutOff = record.cutOff
    return distance
  }

  /// The position in columns `first` … `first + 4`: timestamp, latitude, longitude, session,
  /// accuracy (the floor's only input beyond the recorded figure's).
  static func position(_ row: Statement, from first: Int32) -> RoutePosition {
    RoutePosition(
      timestamp: row.double(at: first), latitude: row.double(at: first + 1),
      longitude: row.double(at: first + 2),
      captureSession: row.optionalInteger(at: first + 3).map(CaptureSessionID.init(rawValue:)),
      horizontalAccuracy: row.optionalDouble(at: first + 4))
  }
}
