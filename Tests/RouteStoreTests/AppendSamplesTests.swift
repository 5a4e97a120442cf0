import Foundation
import RouteMileage
import RouteStore
import Testing

/// `appendSamples` writes its rows through multi-row inserts of 1,024 rows, then of 64, and a
/// one-row insert for the rest: whatever the count, the rows, their order and their rowids are
/// those of one insert a row, and a batch is still written whole or not at all.
@Suite("RouteStore.appendSamples in groups")
struct AppendSamplesTests {
  static func storedRows(_ store: RouteStore, of shift: ShiftID) throws -> [RouteSample] {
    var rows: [RouteSample] = []
    try store.forEachSample(of: shift) { rows.append($0) }
    return rows
  }

  @Test("Every count around the group size stores every row, in order, with consecutive rowids")
  func everyCountAroundTheGroup() throws {
    let store = try RouteStore.inMemory()
    var written = 0
    for count in [
      0, 1, 63, 64, 65, 127, 128, 129, 200, 1_023, 1_024, 1_025, 1_024 + 64, 1_024 + 65, 2_048 + 63, 4_096 + 5,
    ] {
      let shift = try store.makeRunningShift()
      // A slice that does not start at index 0, as the import writer's batches are not.
      let route = storeTestRoute(count: count + 3, seed: UInt64(count) + 1)
      let samples = route[3...]
      try store.appendSamples(samples, to: shift)
      #expect(try Self.storedRows(store, of: shift) == Array(samples), "\(count) samples")
      let first = try store.database.integer("SELECT min(id) FROM route_samples WHERE shift_id = \(shift.rawValue)")
      let last = try store.database.integer("SELECT max(id) FROM route_samples WHERE shift_id = \(shift.rawValue)")
      if count > 0 {
        #expect(first == Int64(written + 1), "\(count) samples")
        #expect(last == Int64(written + count), "\(count) samples")
      }
      written += count
      #expect(try store.totalRowCount() == Int64(written))
    }
    #expect(try store.integrityCheck())
  }

  @Test("A NaN in the second group refuses the whole batch, naming its place")
  func nanInALaterGroup() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    var samples = storeTestRoute(count: 150, seed: 5)
    samples[100].longitude = .nan
    #expect(throws: StoreError(.unstorableSample(index: 100), path: ":memory:")) {
      try store.appendSamples(samples, to: shift)
    }
    #expect(try store.totalRowCount() == 0)
  }

  @Test("A batch for a shift that does not exist writes nothing, and the error names the one-row statement")
  func missingShiftWritesNothing() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    try store.appendSamples(storeTestRoute(count: 10, seed: 6), to: shift)
    let error = try #require(throws: StoreError.self) {
      try store.appendSamples(storeTestRoute(count: 130, seed: 7), to: ShiftID(99))
    }
    #expect(error.kind == .constraint)
    #expect(error.sql?.hasSuffix("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)") == true, "\(String(describing: error.sql))")
    #expect(try store.totalRowCount() == 10)
  }

  @Test("Inside the caller's transaction the groups roll back with it")
  func rollsBackWithTheCaller() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    try store.database.beginImmediate()
    try store.appendSamples(storeTestRoute(count: 300, seed: 8), to: shift)
    #expect(try store.totalRowCount() == 300)
    try store.database.rollback()
    #expect(try store.totalRowCount() == 0)
  }

  @Test("A NaN past the first 1,024 rows refuses the whole batch, naming its place")
  func nanPastTheFirstLargeGroup() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    var samples = storeTestRoute(count: 1_100, seed: 9)
    samples[1_050].latitude = .nan
    #expect(throws: StoreError(.unstorableSample(index: 1_050), path: ":memory:")) {
      try store.appendSamples(samples, to: shift)
    }
    #expect(try store.totalRowCount() == 0)
  }

  @Test("The import writer's batch of 1,100 rows for a missing shift leaves nothing, in its own transaction")
  func writerBatchForAMissingShiftLeavesNothing() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.makeRunningShift()
    try store.appendSamples(storeTestRoute(count: 10, seed: 10), to: shift)
    var writer = ShiftImportWriter(store: store, shift: ShiftID(99), startsAtFirstSample: false, batchSize: 2_000)
    for sample in storeTestRoute(count: 1_100, seed: 11) { writer.retain(sample) }
    let error = try #require(throws: StoreError.self) { try writer.flush() }
    #expect(error.kind == .constraint)
    #expect(try store.totalRowCount() == 10)
    #expect(!store.database.isInTransaction)
    #expect(writer.samplesWritten == 0)
  }

  @Test("A store opened for writing keeps SQLite's temporary files in memory; a reader does not change it")
  func temporaryStorageInMemory() throws {
    try withTemporaryStorePath { path in
      let writer = try RouteStore(path: path)
      #expect(try writer.database.integer("PRAGMA temp_store") == 2)
      let reader = try RouteStore(path: path, access: .readOnly)
      #expect(try reader.database.integer("PRAGMA temp_store") == 0)
    }
  }
}
