import CSQLite
import RouteMileage
import ShiftWork

/// Shift timelines and feed content hashes (schema version 2).
///
/// A shift's timeline is stored as its events, in order (`shift_events`); the shift's `start`
/// and `end` columns follow it, so its window is the timeline's [start, end] and a timeline that
/// has not ended leaves the shift without a window. Nothing derived (working time, intervals) is
/// stored: it is computed from the events every time.
extension RouteStore {
  /// The shift's timeline, or nil when none was recorded.
  ///
  /// - Throws: `.unreadableRow` when the stored events break the lifecycle rules (a file edited
  ///   by hand), rather than guessing.
  /// - Complexity: O(*k* log *K*) for its *k* events.
  public func timeline(of shift: ShiftID) throws -> ShiftTimeline? {
    // A version-1 store opened read-only has no timelines.
    guard openedSchemaVersion >= 2 else { return nil }
    let sql = "SELECT at, event FROM shift_events WHERE shift_id = ? ORDER BY seq"
    let statement = try database.prepare(sql)
    try statement.bind(shift.rawValue, at: 1)
    defer { statement.reset() }
    var events: [ShiftTimeline.Event] = []
    while try statement.step() {
      guard let kind = ShiftTimeline.Event.Kind(rawValue: statement.text(at: 1)) else {
        throw StoreError(.unreadableRow, sql: sql, path: database.path)
      }
      events.append(ShiftTimeline.Event(kind, at: statement.double(at: 0)))
    }
    guard !events.isEmpty else { return nil }
    do {
      return try ShiftTimeline(events)
    } catch {
      throw StoreError(.unreadableRow, sql: sql, path: database.path)
    }
  }

  /// Replaces the shift's timeline and moves its window to the timeline's: `start` to its start,
  /// `end` to its end (NULL while it has not ended). One transaction.
  ///
  /// - Complexity: O(*k*) statements for *k* events.
  public func setTimeline(_ timeline: ShiftTimeline, of shift: ShiftID) throws {
    try database.transaction {
      let delete = try database.prepare("DELETE FROM shift_events WHERE shift_id = ?")
      try delete.bind(shift.rawValue, at: 1)
      try delete.run()
      let insert = try database.prepare("INSERT INTO shift_events(shift_id, seq, at, event) VALUES (?, ?, ?, ?)")
      for (index, event) in timeline.events.enumerated() {
        try insert.bind(shift.rawValue, at: 1)
        try insert.bind(Int64(index), at: 2)
        try insert.bind(event.at, at: 3)
        try insert.bind(event.kind.rawValue, at: 4)
        try insert.run()
      }
      if let start = timeline.start {
        try updateShift(shift, #"UPDATE shifts SET start = ?, "end" = ? WHERE id = ?"#) {
          try $0.bind(start, at: 1)
          try $0.bind(timeline.end, at: 2)
        }
      }
    }
  }

  /// Records the SHA-256 of the feed the shift was imported from.
  public func setContentHash(_ hash: String?, of shift: ShiftID) throws {
    try updateShift(shift, "UPDATE shifts SET content_hash = ? WHERE id = ?") { statement in
      if let hash { try statement.bind(hash, at: 1) } else { try statement.bind(nil as Int64?, at: 1) }
    }
  }

  /// The first shift whose import finished and whose feed had this content, if any; a truncated
  /// one (a cut-off feed, finished) counts, since the same bytes give the same cut-off shift. An
  /// interrupted import of the same file does not count: importing it again is how it is mended.
  ///
  /// - Complexity: O(log *S*) through the content-hash index.
  public func completeShift(withContentHash hash: String) throws -> ShiftID? {
    let statement = try database.prepare(
      "SELECT id FROM shifts WHERE content_hash = ? AND status = 'complete' ORDER BY id LIMIT 1")
    try statement.bind(hash, at: 1)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return ShiftID(statement.integer(at: 0))
  }

  /// Creates the `importing` shift an import with a timeline writes into: its window is the
  /// timeline's, its events are stored with it, its deliveries and offers too (`ledger`), and its
  /// content hash, in one transaction: an import stopped at any point leaves all of them or none.
  ///
  /// - Parameters:
  ///   - timeline: nil falls back to `window` (`--shift-start/--shift-end`) or no window.
  ///   - ledger: the timeline file's deliveries and clamps; nil or empty stores none.
  ///   - contentHash: the feed's SHA-256, when it was read from a file.
  public func beginImport(
    source: String, timeline: ShiftTimeline?, ledger: ShiftLedger? = nil, window: ShiftWindow?, contentHash: String?,
    importedAt: Double, batchSize: Int = ShiftImportWriter.defaultBatchSize
  ) throws -> ShiftImportWriter {
    guard let timeline, let start = timeline.start else {
      return try database.transaction {
        let writer = try beginImport(source: source, window: window, importedAt: importedAt, batchSize: batchSize)
        if contentHash != nil { try setContentHash(contentHash, of: writer.shift) }
        return writer
      }
    }
    return try database.transaction {
      let shift = try createShift(
        start: start, end: timeline.end, source: source, importedAt: importedAt, status: .importing)
      try setTimeline(timeline, of: shift)
      if let ledger, !ledger.deliveries.isEmpty || !ledger.shiftClamps.isEmpty { try saveDeliveries(ledger, of: shift) }
      if contentHash != nil { try setContentHash(contentHash, of: shift) }
      return ShiftImportWriter(store: self, shift: shift, startsAtFirstSample: false, batchSize: batchSize)
    }
  }
}

extension Statement {
  /// The column's text, or nil when it is NULL.
  public func optionalText(at column: Int32) -> String? {
    isNull(at: column) ? nil : text(at: column)
  }
}
