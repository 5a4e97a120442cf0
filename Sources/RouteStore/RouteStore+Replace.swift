import RouteMileage

/// The interrupted imports an import of the same file replaces.
///
/// An interrupted import (status `importing`) holds whole batches from the start of its feed. A
/// later import of the same file writes the same rows first, so when an interrupted shift of
/// the same source holds exactly the first rows of the new shift, it is an unfinished copy of
/// it: the new shift replaces it (`ShiftImportWriter.finish(stoppedReading:replacing:)`), in
/// the transaction that finishes the new one, so the store never counts the drive twice and
/// never loses it. One whose rows differ (another file at that path, other filter flags) is
/// kept and named, for the user to delete.
public struct InterruptedCopies: Sendable, Hashable {
  /// Interrupted shifts of the same source whose rows begin the new shift's rows.
  public var replaceable: [ShiftID] = []
  /// Interrupted shifts of the same source whose rows do not.
  public var differing: [ShiftID] = []

  public init(replaceable: [ShiftID] = [], differing: [ShiftID] = []) {
    self.replaceable = replaceable
    self.differing = differing
  }
}

extension RouteStore {
  /// The interrupted imports of `source` other than `shift`, split by whether their rows (in
  /// the order written: time, latitude, longitude) are the first rows of `shift`.
  ///
  /// - Complexity: O(*n* log *N*) for the *n* rows of the shifts compared, streamed (O(1) memory).
  public func interruptedCopies(of shift: ShiftID, source: String) throws -> InterruptedCopies {
    let candidates = try database.prepare(
      "SELECT id FROM shifts WHERE status = 'importing' AND source = ? AND id <> ? ORDER BY id")
    try candidates.bind(source, at: 1)
    try candidates.bind(shift.rawValue, at: 2)
    var ids: [ShiftID] = []
    while try candidates.step() { ids.append(ShiftID(candidates.integer(at: 0))) }
    var copies = InterruptedCopies()
    for id in ids {
      if try rowsBegin(shift, with: id) {
        copies.replaceable.append(id)
      } else {
        copies.differing.append(id)
      }
    }
    return copies
  }

  /// Whether every row of `prefix`, in order, equals the row of `shift` at the same place.
  func rowsBegin(_ shift: ShiftID, with prefix: ShiftID) throws -> Bool {
    let sql = "SELECT timestamp, latitude, longitude FROM route_samples WHERE shift_id = ? ORDER BY id"
    let longer = try database.prepare(sql)
    let shorter = try database.prepare(sql)
    try longer.bind(shift.rawValue, at: 1)
    try shorter.bind(prefix.rawValue, at: 1)
    while try shorter.step() {
      guard try longer.step() else { return false }
      for column in Int32(0)..<3 where shorter.double(at: column) != longer.double(at: column) { return false }
    }
    return true
  }

  /// Deletes shifts still `importing` (a finished one is never removed so), inside the caller's
  /// transaction.
  func deleteInterrupted(_ shifts: [ShiftID]) throws {
    let statement = try database.prepare("DELETE FROM shifts WHERE id = ? AND status = 'importing'")
    for shift in shifts {
      try statement.bind(shift.rawValue, at: 1)
      try statement.run()
    }
  }

  /// Deletes `shift` and the interrupted copies it replaces, in one transaction: what an import
  /// of content already stored leaves behind is nothing.
  public func deleteShift(_ shift: ShiftID, withInterrupted copies: [ShiftID]) throws {
    try database.transaction {
      try deleteShift(shift)
      try deleteInterrupted(copies)
    }
  }
}
