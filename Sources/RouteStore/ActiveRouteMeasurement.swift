import RouteMileage

/// A running shift's figure, kept up to date from the store without re-reading the route.
///
/// It is the open walk (`RouteMileageAccumulator`, with no window: a running shift has none)
/// plus the bookkeeping that keeps the walk honest against the store (seed 004, "Measuring a
/// route that is still growing"). Each `refresh`:
///
/// 1. **Probes** — two indexed lookups, O(log *N*) each, whatever the shift's length:
///    `SELECT max(id) FROM route_samples WHERE shift_id = ?` (answered from the end of the
///    `(shift_id)` index, whose entries end in the rowid), and the last row consumed, by rowid;
///    plus the connection's change marks, O(1). The seed's count of rows is not taken on every
///    refresh: SQLite's `count(*)` visits every index entry, so it is O(*n*) in the shift's rows,
///    and a 24-hour shift's refresh would cost 24 times a 1-hour one; step 4 says when it is
///    taken. When the largest rowid is the high-water mark
///    and the last consumed row is still there, unchanged, nothing happened: the held figure is
///    returned and no row is fetched.
/// 2. **Detects a discard exactly.** Rows leave a running shift only from its end: a rolled-back
///    or discarded batch removes the rows inserted after some point, which always include the
///    newest row consumed if they include any consumed row at all. So if the row at the
///    high-water rowid is gone, moved to another shift or changed (SQLite reuses the rowids a
///    rollback freed, so a new row can sit at the old number), the walk is thrown away and the
///    shift measured afresh. Comparing the row itself, rather than a count or the largest rowid,
///    is what makes "one discarded batch plus one new batch in the same interval" visible even
///    when the largest rowid is back where it was, or higher.
/// 3. **Extends** otherwise: fetches only `WHERE shift_id = ? AND id > highWater ORDER BY id`
///    and walks those rows. While the newest consumed row exists every new row gets a larger
///    rowid (SQLite assigns max(rowid) + 1), so none is missed. A fetched row at or before the
///    last position walked is not counted (the walk's forward-only rule, as in a single pass).
/// 4. **Counts the rows consumed** (the seed's check) when the store may have changed in a way
///    the fetched rows do not explain: `SELECT count(*) … WHERE shift_id = ? AND id <= highWater`
///    against the rows this walk has consumed, and a fresh measurement when they differ. That is
///    what catches an *older* row deleted (or moved to another shift, or inserted below the
///    high-water mark) while the newest consumed row stays in place. The count is O(*n*) in the
///    shift's rows, so it is run only when needed, decided in O(1): this connection's
///    `total_changes()` moved by more than the rows just fetched, or `PRAGMA data_version` says
///    another connection committed. On the connection that writes the shift — the capture
///    path — appending rows moves `total_changes()` by exactly the rows fetched, so a refresh
///    stays O(log *N* + *k*) and never counts; a reader on another connection counts on every
///    refresh that follows a commit.
///
/// A fresh measurement reads the shift's rows once, orders them exactly as
/// `RouteMileageCalculator` does and walks them, so at that moment it is bit-identical to the
/// one-pass figure; for rows arriving in time order (which the capture filter guarantees) every
/// later extension stays bit-identical to it too.
///
/// Limits, stated plainly: an older row *updated in place* (same rowid, same shift, new time or
/// coordinates) leaves the count unchanged and is not detected (the held figure keeps that
/// row's old distance until the next fresh measurement); neither is a discard followed by a
/// re-insert that puts back a bit-identical newest row and as many rows as it removed. A store
/// that holds rows out of time order is measured exactly by the one-pass calculation and
/// approximately by an extension. None of this reaches a finished shift: its figure is always
/// `RouteStore.measure(shift:)`, one pass over its rows.
///
/// Nothing derived is persisted: the walk lives as long as this value.
public struct ActiveRouteMeasurement: Sendable {
  /// What a refresh did, for tests and benchmarks.
  public struct Counters: Sendable, Hashable {
    /// Refreshes (each is one probe: the change marks, the largest rowid and the last consumed
    /// row).
    public var probes = 0
    /// Refreshes that found nothing new and fetched nothing.
    public var unchanged = 0
    /// Refreshes that fetched only rows after the high-water mark.
    public var extensions = 0
    /// Walks started from scratch because consumed rows had disappeared or changed.
    public var freshMeasurements = 0
    /// Rows read from the store by fetches (extensions and fresh measurements), not probes.
    public var rowsFetched = 0
    /// Refreshes that counted the shift's consumed rows (the store changed beyond the rows
    /// fetched: another connection committed, or this one deleted or updated something).
    public var rowCounts = 0
    public init() {}
  }

  /// The newest row walked: its rowid and what it said, to tell whether it is still there.
  struct ConsumedRow: Sendable, Hashable {
    var id: Int64
    var shift: Int64
    var timestamp: UInt64
    var latitude: UInt64
    var longitude: UInt64
    var session: Int64?

    init(id: Int64, shift: Int64, position: RoutePosition) {
      self.id = id
      self.shift = shift
      timestamp = position.timestamp.bitPattern
      latitude = position.latitude.bitPattern
      longitude = position.longitude.bitPattern
      session = position.captureSession?.rawValue
    }
  }

  public let shift: ShiftID
  public let maximumSampleInterval: Double
  var walk: RouteMileageAccumulator
  var newestConsumed: ConsumedRow?
  /// Rows of the shift walked so far, all at or below the high-water rowid: what the store
  /// must still hold there for the walk to stand.
  var rowsConsumed = 0
  /// The store's change marks at the last refresh; nil before the first.
  var lastMarks: RouteStore.ChangeMarks?
  /// The figure as of the last refresh.
  public private(set) var distance: RouteDistance
  public private(set) var counters = Counters()

  public init(shift: ShiftID, maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval) {
    self.shift = shift
    self.maximumSampleInterval = maximumSampleInterval
    walk = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
    distance = walk.distance
  }

  /// The shift's timeline as the live walk knows it so far; see `applyTimeline(_:)`.
  public var timeline: ShiftTimeline? { walk.timeline }

  /// Measures the live shift against its timeline as it stands now (the same events and maybe
  /// more than last time: a pause, a resume, the end). Pauses and parks the walk has passed stay
  /// gaps; positions inside them are counted, not measured. The figure is re-read at once.
  ///
  /// - Complexity: O(*g*) to re-read the figure; no rows are fetched.
  public mutating func applyTimeline(_ timeline: ShiftTimeline) {
    walk.extendTimeline(timeline)
    distance = walk.distance
  }

  /// The largest rowid walked so far (0 before any).
  public var highWaterRowID: Int64 { newestConsumed?.id ?? 0 }

  /// Brings the figure up to date with the store's rows for the shift and returns it.
  ///
  /// Call it on the connection that writes the shift (uncommitted rows are then visible, and a
  /// rollback of them is caught) or on any other (it sees committed batches only).
  ///
  /// - Complexity: O(log *N*) when nothing changed; O(*k* log *N*) for *k* new rows; O(*n* log *n*)
  ///   for a fresh measurement of a shift of *n* rows.
  @discardableResult
  public mutating func refresh(from store: RouteStore) throws -> RouteDistance {
    counters.probes += 1
    let marks = try store.changeMarks()
    defer { lastMarks = marks }
    let largest = try store.largestRowID(of: shift)
    if let consumed = newestConsumed {
      let current = try store.consumedRow(id: consumed.id)
      guard current == consumed else {
        try measureAfresh(from: store)
        return distance
      }
    }
    var fetched = 0
    if let largest, largest > highWaterRowID {
      counters.extensions += 1
      try store.forEachRow(of: shift, after: highWaterRowID) { id, position in
        fetched += 1
        walk.append(position)
        newestConsumed = ConsumedRow(id: id, shift: shift.rawValue, position: position)
      }
      counters.rowsFetched += fetched
      rowsConsumed += fetched
    } else {
      counters.unchanged += 1
    }
    // The seed's count of rows consumed, when the change marks cannot vouch for the store.
    if let last = lastMarks, !marks.explains(since: last, fetchedRows: fetched) {
      counters.rowCounts += 1
      if try store.rowCount(of: shift, through: highWaterRowID) != rowsConsumed {
        try measureAfresh(from: store)
        return distance
      }
    }
    distance = walk.distance
    return distance
  }

  /// Starts the walk again from every row the shift holds now.
  mutating func measureAfresh(from store: RouteStore) throws {
    counters.freshMeasurements += 1
    var positions: [RoutePosition] = []
    var newest: ConsumedRow?
    try store.forEachRow(of: shift, after: 0) { id, position in
      positions.append(position)
      newest = ConsumedRow(id: id, shift: shift.rawValue, position: position)
    }
    counters.rowsFetched += positions.count
    // The calculator's own walk, so a fresh walk is the one-pass figure bit for bit.
    walk = RouteMileageCalculator.walk(
      positions, with: RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval, timeline: walk.timeline))
    newestConsumed = newest
    rowsConsumed = positions.count
    distance = walk.distance
  }
}

extension RouteStore {
  /// What tells a live refresh, in O(1), whether the store changed beyond the rows it fetched.
  struct ChangeMarks: Sendable, Hashable {
    /// `PRAGMA data_version`: moves when another connection commits.
    var dataVersion: Int64
    /// This connection's `total_changes()`: moves with every row it inserts, updates or deletes.
    var totalChanges: Int64

    /// True when nothing changed since `last` except `fetchedRows` rows appended on this
    /// connection (which the refresh has just walked).
    func explains(since last: ChangeMarks, fetchedRows: Int) -> Bool {
      dataVersion == last.dataVersion && totalChanges - last.totalChanges == Int64(fetchedRows)
    }
  }

  /// The connection's change marks now. O(1).
  func changeMarks() throws -> ChangeMarks {
    if dataVersionStatement == nil { dataVersionStatement = try database.prepare("PRAGMA data_version") }
    let statement = dataVersionStatement!
    defer { statement.reset() }
    _ = try statement.step()
    return ChangeMarks(dataVersion: statement.integer(at: 0), totalChanges: database.totalChanges)
  }

  /// How many of the shift's rows have a rowid at or below `through`.
  ///
  /// - Complexity: O(*n*) in those rows: SQLite steps through the `(shift_id)` index entries.
  func rowCount(of shift: ShiftID, through: Int64) throws -> Int {
    if rowsThroughStatement == nil {
      rowsThroughStatement = try database.prepare("SELECT count(*) FROM route_samples WHERE shift_id = ? AND id <= ?")
    }
    let statement = rowsThroughStatement!
    try statement.bind(shift.rawValue, at: 1)
    try statement.bind(through, at: 2)
    defer { statement.reset() }
    _ = try statement.step()
    return Int(statement.integer(at: 0))
  }

  /// `max(id)` of the shift's rows: one seek to the end of its stretch of the `(shift_id)` index.
  ///
  /// - Complexity: O(log *N*).
  public func largestRowID(of shift: ShiftID) throws -> Int64? {
    if largestRowIDStatement == nil {
      largestRowIDStatement = try database.prepare("SELECT max(id) FROM route_samples WHERE shift_id = ?")
    }
    let statement = largestRowIDStatement!
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    _ = try statement.step()
    return statement.optionalInteger(at: 0)
  }

  /// The row at `id`, as the live path compares it; nil when there is none.
  ///
  /// - Complexity: O(log *N*) (a rowid lookup).
  func consumedRow(id: Int64) throws -> ActiveRouteMeasurement.ConsumedRow? {
    if rowByIDStatement == nil {
      rowByIDStatement = try database.prepare(
        "SELECT shift_id, timestamp, latitude, longitude, capture_session, accuracy FROM route_samples WHERE id = ?")
    }
    let statement = rowByIDStatement!
    try statement.bind(id, at: 1)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return ActiveRouteMeasurement.ConsumedRow(
      id: id, shift: statement.integer(at: 0), position: Self.position(statement, from: 1))
  }

  /// Streams the shift's rows with rowid above `after`, in rowid order.
  ///
  /// - Complexity: O(log *N* + *k*) for *k* rows: a range of the `(shift_id)` index.
  func forEachRow(of shift: ShiftID, after: Int64, _ body: (Int64, RoutePosition) throws -> Void) throws {
    if rowsAfterStatement == nil {
      rowsAfterStatement = try database.prepare(
        """
        SELECT id, timestamp, latitude, longitude, capture_session, accuracy FROM route_samples
        WHERE shift_id = ? AND id > ? ORDER BY id
        """)
    }
    let statement = rowsAfterStatement!
    try statement.bind(shift.rawValue, at: 1)
    try statement.bind(after, at: 2)
    defer { statement.reset() }
    while try statement.step() {
      try body(statement.integer(at: 0), Self.position(statement, from: 1))
    }
  }
}
