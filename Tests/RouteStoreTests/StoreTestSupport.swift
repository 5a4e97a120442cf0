import Foundation
import RouteMileage
import RouteStore
import RouteTestSupport


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

  /// All rows in the file, every shift.
  func totalRowCount() throws -> Int64 {
    try database.integer("SELECT count(*) FROM route_samples") ?? -1
  }
}
