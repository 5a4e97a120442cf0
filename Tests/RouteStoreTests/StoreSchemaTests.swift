import Foundation
import RouteMileage
import RouteStore
import Testing

@Suite("RouteStore schema and migrations")
struct StoreSchemaTests {
  @Test("A new store is at the current schema version, in WAL mode, with foreign keys on")
  func freshStore() throws {
    try withTemporaryStore { store, _ throws in
      #expect(RouteStore.schemaVersion == 4)
      #expect(try store.database.userVersion() == RouteStore.schemaVersion)
      #expect(try store.database.integer("PRAGMA application_id") == 0x524D_494C)
      #expect(try store.database.texts("PRAGMA journal_mode") == ["wal"])
      #expect(try store.database.integer("PRAGMA foreign_keys") == 1)
      #expect(try store.shifts().isEmpty)
      #expect(try store.integrityCheck())
    }
  }

  @Test("Reopening a store migrates nothing and keeps every row")
  func reopenIsIdempotent() throws {
    try withTemporaryStorePath { path in
      let route = storeTestRoute(count: 50, seed: 1)
      let id: ShiftID
      do {
        let store = try RouteStore(path: path)
        id = try store.createShift(start: 10, end: 20, source: "a.gpx", importedAt: 30, status: .complete)
        try store.appendSamples(route, to: id)
      }
      for _ in 0..<3 {
        let store = try RouteStore(path: path)
        #expect(try store.database.userVersion() == RouteStore.schemaVersion)
        let shifts = try store.shifts()
        #expect(
          shifts == [
            ShiftRecord(id: id, start: 10, end: 20, source: "a.gpx", importedAt: 30, status: .complete, sampleCount: 50)
          ])
        #expect(
          try store.database.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'index'") == 12,
          "two route indexes; version 2: the content-hash index and shift_events' key; version 3: two on offers, two on deliveries, two on clamps; version 4: places' key and deliveries by place"
        )
      }
      // A read-only open of a current store works and reads the same rows.
      let reader = try RouteStore(path: path, access: .readOnly)
      #expect(try reader.shifts().map(\.sampleCount) == [50])
    }
  }

  @Test("Stored samples read back as written, NULL session meaning a legacy row")
  func samplesRoundTrip() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    let samples = [
      RouteSample(
        timestamp: 5, latitude: 1.25, longitude: -2.5, horizontalAccuracy: 4, speed: 3, course: 270, altitude: -10,
        captureSession: CaptureSessionID(7)),
      RouteSample(timestamp: 6, latitude: 1.5, longitude: -2.25),
    ]
    try store.appendSamples(samples, to: id)
    var read: [RouteSample] = []
    try store.forEachSample(of: id) { read.append($0) }
    #expect(read == samples)
    #expect(try store.largestCaptureSession(of: id) == CaptureSessionID(7))
    #expect(try store.sampleCount(of: id) == 2)
  }

  @Test("Deleting a shift deletes its samples and nothing else")
  func deleteCascades() throws {
    try withTemporaryStore { store, path in
      let first = try store.makeRunningShift()
      let second = try store.makeRunningShift()
      try store.appendSamples(storeTestRoute(count: 30, seed: 2), to: first)
      try store.appendSamples(storeTestRoute(count: 20, seed: 3), to: second)
      try store.deleteShift(first)
      #expect(try store.shifts().map(\.id) == [second])
      #expect(try store.totalRowCount() == 20)
      #expect(try store.sampleCount(of: first) == 0)
      #expect(throws: StoreError(.noSuchShift(first), path: path)) { try store.deleteShift(first) }
      #expect(try store.integrityCheck())
    }
  }

  @Test("A shift's window is [start, end] when end is stored, and none otherwise")
  func windows() throws {
    let store = try RouteStore.inMemory()
    let windowed = try store.createShift(start: 100, end: 400, source: "w", importedAt: 1, status: .complete)
    let open = try store.createShift(start: 100, end: nil, source: "o", importedAt: 1, status: .complete)
    #expect(try store.shift(windowed)?.window == ShiftWindow(start: 100, end: 400))
    #expect(try store.shift(open)?.window == nil)
    #expect(try store.shift(ShiftID(99)) == nil)
    #expect(throws: StoreError.self) {
      try store.createShift(start: 10, end: 5, source: "backwards", importedAt: 1, status: .complete)
    }
  }

  @Test("The live probe is answered from the shift index, in the same work however long the shift")
  func probeDoesNotScan() throws {
    let store = try RouteStore.inMemory()
    let plan = try store.database.prepare("EXPLAIN QUERY PLAN SELECT max(id) FROM route_samples WHERE shift_id = ?")
    var details: [String] = []
    while try plan.step() { details.append(plan.text(at: 3)) }
    #expect(details.contains { $0.contains("route_samples_by_shift (shift_id=?)") }, "\(details)")

    let fetch = try store.database.prepare(
      "EXPLAIN QUERY PLAN SELECT id FROM route_samples WHERE shift_id = ? AND id > ? ORDER BY id")
    details = []
    while try fetch.step() { details.append(fetch.text(at: 3)) }
    #expect(details.contains { $0.contains("route_samples_by_shift (shift_id=? AND rowid>?)") }, "\(details)")
    #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")

    // Work done (SQLite virtual-machine steps) by max(id) and by count(*) at two shift lengths.
    let other = try store.makeRunningShift()
    let id = try store.makeRunningShift()
    func steps(_ sql: String) throws -> Int {
      let statement = try store.database.prepare(sql)
      try statement.bind(id.rawValue, at: 1)
      _ = try statement.step()
      statement.reset()
      return statement.virtualMachineSteps()
    }
    let probe = "SELECT max(id) FROM route_samples WHERE shift_id = ?"
    let count = "SELECT count(*) FROM route_samples WHERE shift_id = ?"
    try store.appendSamples(storeTestRoute(count: 1_000, seed: 4), to: id)
    try store.appendSamples(storeTestRoute(count: 1_000, seed: 5), to: other)
    let (probeShort, countShort) = (try steps(probe), try steps(count))
    try store.appendSamples(storeTestRoute(count: 20_000, seed: 6), to: id)
    try store.appendSamples(storeTestRoute(count: 1_000, seed: 7), to: other)
    let (probeLong, countLong) = (try steps(probe), try steps(count))
    #expect(probeShort == probeLong)
    #expect(countLong > 10 * countShort)
  }
}
