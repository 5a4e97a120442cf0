import Foundation
import RouteMileage
import RouteStore
import Testing

/// A path this process may not write, whoever it runs as: a file made read-only for an ordinary
/// user, or, as root (who ignores file modes), a sysfs attribute the kernel will not open for
/// writing. Nil when neither is available.
func storeTestReadOnlyPath(in directory: String) -> String? {
  if geteuid() != 0 {
    let path = directory + "/read-only.sqlite"
    _ = FileManager.default.createFile(atPath: path, contents: Data())
    chmod(path, 0o444)
    return path
  }
  let attribute = "/sys/kernel/notes"
  return FileManager.default.fileExists(atPath: attribute) ? attribute : nil
}

@Suite("RouteStore errors")
struct RouteStoreErrorTests {
  @Test("A file that is not SQLite gives a clear error")
  func notADatabase() throws {
    try withTemporaryStorePath { path in
      try Data("time,lat,lon\n2024-01-01T00:00:00Z,51.5,-0.1\n".utf8 + [UInt8](repeating: 0x41, count: 200))
        .write(to: URL(fileURLWithPath: path))
      let error = try storeOpeningError(at: path, kind: .notADatabase)
      #expect(
        error.description.hasPrefix("the store \(path) is not a routemiles store: the file is not an SQLite database"))
    }
  }

  @Test("Another program's SQLite database is refused, not written into")
  func foreignDatabase() throws {
    try withTemporaryStorePath { path in
      do {
        let other = try Database(path: path)
        try other.execute("CREATE TABLE contacts(name TEXT)")
      }
      try storeOpeningError(at: path, kind: .notARouteStore)
      let reopened = try Database(path: path)
      #expect(try reopened.texts("SELECT name FROM sqlite_schema") == ["contacts"])
    }
  }

  @Test("A path that cannot be written gives a read-only error")
  func readOnlyPath() throws {
    let directory = FileManager.default.temporaryDirectory.path + "/routestore-ro-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try #require(storeTestReadOnlyPath(in: directory))
    let error = try storeOpeningError(at: path, kind: .readOnly)
    #expect(error.description.hasPrefix("cannot write to the store \(path): the file or its directory is read-only"))
  }

  @Test("A store opened read-only refuses writes with a read-only error")
  func readOnlyAccess() throws {
    try withTemporaryStore { _, path in
      let reader = try RouteStore(path: path, access: .readOnly)
      let error = try #require(throws: StoreError.self) {
        try reader.createShift(start: 0, end: nil, source: "x", importedAt: 0, status: .importing)
      }
      #expect(error.kind == .readOnly)
    }
  }

  @Test("A store that does not exist read-only, or in a missing directory, cannot be opened")
  func missingDirectory() throws {
    let missing = FileManager.default.temporaryDirectory.path + "/no-such-dir-\(UUID().uuidString)/store.sqlite"
    let error = try storeOpeningError(at: missing, kind: .cannotOpen)
    #expect(error.description.hasPrefix("cannot open the store \(missing): its directory does not exist"))
    try storeOpeningError(at: missing, access: .readOnly, kind: .cannotOpen)
  }

  @Test("A store locked by another writer gives a busy error after the timeout, then works")
  func locked() throws {
    try withTemporaryStore { holder, path in
      try holder.database.beginImmediate()
      let other = try RouteStore(path: path, busyTimeoutMilliseconds: 20)
      #expect(try other.shifts().isEmpty)
      let error = try #require(throws: StoreError.self) {
        try other.createShift(start: 0, end: nil, source: "x", importedAt: 0, status: .importing)
      }
      #expect(error.kind == .busy)
      #expect(error.description.contains("is locked by another process writing to it; try again when it has finished"))
      #expect(throws: StoreError.self) { try other.appendSamples(storeTestRoute(count: 3, seed: 1), to: ShiftID(1)) }
      try holder.database.commit()
      #expect(throws: Never.self) {
        try other.createShift(start: 0, end: nil, source: "x", importedAt: 0, status: .importing)
      }
    }
  }

  @Test("A store written by a newer version is refused, saying so")
  func schemaFromTheFuture() throws {
    try withTemporaryStorePath { path in
      do {
        let store = try RouteStore(path: path)
        try store.database.execute("PRAGMA user_version = 999")
      }
      for access in [Database.Access.readWrite, .readOnly] {
        let error = try storeOpeningError(
          at: path, access: access, kind: .schemaFromTheFuture(found: 999, supported: RouteStore.schemaVersion))
        #expect(
          error.description
            == "the store \(path) was written by a newer version of routemiles (store schema 999; this build knows up to 4); upgrade routemiles to open it"
        )
      }
    }
  }

  @Test("An error from a failed insert never carries the values it was given")
  func privacy() throws {
    let store = try RouteStore.inMemory()
    let sample = RouteSample(
      timestamp: 1_712_345_678.25, latitude: 51.234567891, longitude: -0.987654321,
      horizontalAccuracy: 13.579, speed: 24.68, course: 123.45, altitude: 67.89,
      captureSession: CaptureSessionID(424_242))
    let error = try #require(throws: StoreError.self) { try store.appendSamples([sample], to: ShiftID(31_337)) }
    #expect(error.kind == .constraint)
    #expect(error.sql?.contains("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)") == true)
    for text in [error.description, error.debugDescription, "\(error)", String(reflecting: error)] {
      for secret in ["51.23", "0.98", "1712345678", "13.57", "24.68", "123.45", "67.89", "424242", "31337"] {
        #expect(!text.contains(secret), "\(secret) leaked")
      }
    }
    var nan = sample
    nan.longitude = .nan
    let unstorable = try #require(throws: StoreError.self) {
      try store.appendSamples([sample, nan], to: try store.makeRunningShift())
    }
    #expect(unstorable.description.hasPrefix("sample 2 of the batch has a NaN timestamp or coordinate"))
    #expect(!unstorable.description.contains("51.23"))
  }

  @Test("Measuring a shift that does not exist says so")
  func noSuchShift() throws {
    let store = try RouteStore.inMemory()
    let error = try #require(throws: StoreError.self) { try store.measure(shift: ShiftID(12)) }
    #expect(error.description == "there is no shift 12 in the store :memory:")
  }
}
