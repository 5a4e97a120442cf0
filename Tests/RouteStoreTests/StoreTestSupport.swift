import Foundation
import RouteMileage
import RouteStore
import RouteTestSupport
import Testing

/// A database path unique to one test, under the temporary directory, removed with its WAL
/// and shared-memory files afterwards.
func withTemporaryStorePath<T>(_ body: (String) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory.path
  let path = "\(directory)/routestore-test-\(UUID().uuidString).sqlite"
  defer {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
  return try body(path)
}

/// A store opened on a file at a temporary path (`withTemporaryStorePath`), for the tests that
/// need a real file: WAL mode, a second connection on the same path, reopening.
func withTemporaryStore<T>(_ body: (RouteStore, String) throws -> T) throws -> T {
  try withTemporaryStorePath { path in try body(try RouteStore(path: path), path) }
}

/// Opening the store at `path` fails with a `StoreError` of `kind`; the error, for its message.
@discardableResult
func storeOpeningError(
  at path: String, access: Database.Access = .readWrite, kind: StoreError.Kind,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> StoreError {
  let error = try #require(throws: StoreError.self, sourceLocation: sourceLocation) {
    try RouteStore(path: path, access: access)
  }
  #expect(error.kind == kind, sourceLocation: sourceLocation)
  return error
}

/// Where the live tests start: a running shift holding the start of a seeded drive, and a live
/// measurement already refreshed over it.
struct LiveShift {
  var id: ShiftID
  /// The whole drive; only `route[0..<stored]` is in the store.
  var route: [RouteSample]
  var live: ActiveRouteMeasurement
  /// What the first refresh returned.
  var first: RouteDistance
}

/// A drive in time order: one fix a second, a few metres apart, with capture sessions that
/// change now and then and the odd silence longer than the continuity interval.
func storeTestRoute(count: Int, seed: UInt64, start: Double = 1_700_000_000) -> [RouteSample] {
  var random = SeededRandom(seed: seed)
  var samples: [RouteSample] = []
  samples.reserveCapacity(count)
  var time = start
  var latitude = 51.5
  var longitude = -0.12
  var session: Int64 = 1
  for _ in 0..<count {
    let roll = Int.random(in: 0..<200, using: &random)
    if roll == 0 { time += 300 }  // a silence: a gap
    if roll == 1 { session += 1 }  // a new capture session: a gap
    time += Double.random(in: 1...3, using: &random)
    latitude += Double.random(in: -0.0002...0.0002, using: &random)
    longitude += Double.random(in: -0.0002...0.0002, using: &random)
    samples.append(
      RouteSample(
        timestamp: time, latitude: latitude, longitude: longitude,
        horizontalAccuracy: Double.random(in: 3...20, using: &random), speed: 8, course: 90, altitude: 30,
        captureSession: CaptureSessionID(session)))
  }
  return samples
}

/// Bit-identical, not just `==`: the metres' bit patterns too.
func storeTestIdentical(_ a: RouteDistance, _ b: RouteDistance) -> Bool {
  a == b && a.meters.bitPattern == b.meters.bitPattern
    && a.floorMeters.bitPattern == b.floorMeters.bitPattern
    && zip(a.segments, b.segments).allSatisfy {
      $0.meters.bitPattern == $1.meters.bitPattern && $0.floorMeters.bitPattern == $1.floorMeters.bitPattern
    }
}

extension RouteStore {
  /// A running shift (no window) for the live tests.
  func makeRunningShift(start: Double = 1_700_000_000) throws -> ShiftID {
    try createShift(start: start, end: nil, source: "live", importedAt: start, status: .running)
  }

  /// A running shift holding the first `stored` samples (all when nil) of
  /// `storeTestRoute(count:seed:)`, and a live measurement of it refreshed once from `reader`
  /// (this connection when nil).
  func startLiveShift(count: Int, seed: UInt64, stored: Int? = nil, reader: RouteStore? = nil) throws -> LiveShift {
    let id = try makeRunningShift()
    let route = storeTestRoute(count: count, seed: seed)
    try appendSamples(route[0..<(stored ?? count)], to: id)
    var live = ActiveRouteMeasurement(shift: id)
    let first = try live.refresh(from: reader ?? self)
    return LiveShift(id: id, route: route, live: live, first: first)
  }

  /// Opens a write transaction and appends `samples` in it, left open for the test to commit
  /// or roll back.
  func appendUncommitted(_ samples: ArraySlice<RouteSample>, to id: ShiftID) throws {
    try database.beginImmediate()
    try appendSamples(samples, to: id)
  }

  /// All rows in the file, every shift.
  func totalRowCount() throws -> Int64 {
    try database.integer("SELECT count(*) FROM route_samples") ?? -1
  }
}
