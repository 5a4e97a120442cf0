import RouteMileage
import RouteTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Building blocks for positions at exact metre offsets.
///
/// On this sphere one degree of latitude is R·π/180 ≈ 111,195.08 m, and the haversine of a pure
/// latitude step is that step times R (up to rounding in the last bits), so a position built
/// `n` metres north of another is `n` metres away to about 1e-10 m.
enum Fixture {
  /// 2023-11-14T22:13:20Z; any instant will do, this one has realistic magnitude (so the
  /// timestamp arithmetic rounds as it does on real data).
  static let t0: Double = 1_700_000_000
  static let baseLatitude = 51.5
  static let baseLongitude = -0.12
  static let metersPerDegreeLatitude = GeographicDistance.metersPerDegree

  static func degreesLatitude(meters: Double) -> Double { meters / metersPerDegreeLatitude }

  /// A position `north` metres north of the base point (along its meridian) and `east` metres
  /// along the parallel, `seconds` after `t0`.
  static func position(
    at seconds: Double, north: Double = 0, east: Double = 0, session: Int64? = nil
  ) -> RoutePosition {
    let latitude = baseLatitude + degreesLatitude(meters: north)
    let longitude =
      baseLongitude + east / (metersPerDegreeLatitude * cos(baseLatitude * Double.pi / 180))
    return RoutePosition(
      timestamp: t0 + seconds, latitude: latitude, longitude: longitude,
      captureSession: session.map { CaptureSessionID($0) })
  }

  static func sample(
    at seconds: Double, north: Double = 0, east: Double = 0, session: CaptureSessionID? = nil,
    accuracy: Double? = nil, receivedAfter: Double? = nil
  ) -> RouteSample {
    let p = position(at: seconds, north: north, east: east)
    return RouteSample(
      timestamp: p.timestamp, latitude: p.latitude, longitude: p.longitude,
      horizontalAccuracy: accuracy, captureSession: session,
      receivedAt: receivedAfter.map { p.timestamp + $0 })
  }

  /// A straight drive north at `speed` m/s, one position per `step` seconds.
  static func drive(
    count: Int, from start: Double = 0, step: Double = 1, speed: Double = 15,
    startNorth: Double = 0, session: Int64? = nil
  ) -> [RoutePosition] {
    (0..<count).map { i in
      position(
        at: start + Double(i) * step, north: startNorth + Double(i) * step * speed, session: session)
    }
  }

  /// A latitude north of the equator (on the 10° E meridian, away from (0, 0)) whose haversine
  /// from (0°, 10° E) is exactly `target` metres, so a rule can be tested *on* its boundary;
  /// nil if no double lands exactly on it.
  ///
  /// Near the equator latitude doubles are far finer than a metre's ulp, so bisection plus a
  /// short scan of neighbours finds one.
  static func exactEquatorLatitude(meters target: Double) -> Double? {
    func d(_ latitude: Double) -> Double {
      GeographicDistance.meters(fromLatitude: 0, longitude: 10, toLatitude: latitude, longitude: 10)
    }
    var low = target / metersPerDegreeLatitude * (1 - 1e-6)
    var high = target / metersPerDegreeLatitude * (1 + 1e-6)
    guard d(low) < target, d(high) >= target else { return nil }
    while true {
      let middle = low + (high - low) / 2
      if middle <= low || middle >= high { break }
      if d(middle) < target { low = middle } else { high = middle }
    }
    var up = high
    var down = high
    for _ in 0..<200 {
      if d(up) == target { return up }
      if d(down) == target { return down }
      up = up.nextUp
      down = down.nextDown
    }
    return nil
  }

  /// Measures `positions` with the default calculator.
  static func measure(
    _ positions: [RoutePosition], window: ShiftWindow? = nil, maximumSampleInterval: Double = 120
  ) -> RouteDistance {
    RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
      .distance(of: positions, covering: window)
  }

  /// The sum of haversines along `positions` in order, the way a segment adds them up.
  static func pathMeters(_ positions: [RoutePosition]) -> Double {
    var meters = 0.0
    for i in positions.indices.dropFirst() {
      meters += GeographicDistance.meters(from: positions[i - 1], to: positions[i])
    }
    return meters
  }
}

/// A stored route as a shift might hold it: sessions, legacy rows, repeated rows, repeated
/// timestamps, silences, a few rows that describe nowhere, and sometimes a shift window.
struct GeneratedRoute {
  var rows: [RoutePosition]
  var window: ShiftWindow?
  var maximumSampleInterval: Double

  var calculator: RouteMileageCalculator {
    RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval)
  }

  /// - Parameter unusableRows: whether to include rows that describe nowhere on Earth.
  /// - Parameter longitudeRange: where the route starts; keep it away from ±180 when a test
  ///   translates the route in longitude.
  static func random(
    _ rng: inout SeededRandom, maximumCount: Int = 120, unusableRows: Bool = true,
    longitudeRange: ClosedRange<Double> = -180...180
  ) -> GeneratedRoute {
    let count = Int.random(in: 0...maximumCount, using: &rng)
    let interval: Double = [120, 120, 120, 60, 30].randomElement(using: &rng)!
    var latitude = Double.random(in: -80...80, using: &rng)
    var longitude = Double.random(in: longitudeRange, using: &rng)
    var time = Fixture.t0 + Double.random(in: 0..<86_400, using: &rng).rounded()
    var session: CaptureSessionID? = CaptureSessionID(1)
    var rows: [RoutePosition] = []
    rows.reserveCapacity(count + 8)
    for _ in 0..<count {
      // Sometimes switch capture session (or drop to legacy rows, or come back to one).
      if rng.chance(0.06) {
        session = rng.chance(0.35) ? nil : CaptureSessionID(Int64.random(in: 1...4, using: &rng))
      }
      // Time steps: ordinary driving, a repeated timestamp, the interval exactly, a silence.
      let roll = Double.random(in: 0..<1, using: &rng)
      let step: Double
      switch roll {
      case ..<0.08: step = 0
      case ..<0.80: step = Double(Int.random(in: 1...15, using: &rng))
      case ..<0.85: step = interval
      case ..<0.88: step = interval + 0.001
      case ..<0.94: step = Double.random(in: 20..<interval, using: &rng)
      default: step = Double.random(in: interval...4 * interval, using: &rng)
      }
      time += step
      // Move up to ~300 m; sometimes not at all (a parked vehicle in stored legacy data).
      if !rng.chance(0.05) {
        let dNorth = Double.random(in: -300...300, using: &rng)
        let dEast = Double.random(in: -300...300, using: &rng)
        latitude += dNorth / Fixture.metersPerDegreeLatitude
        longitude += dEast / (Fixture.metersPerDegreeLatitude * max(0.1, cos(latitude * .pi / 180)))
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        latitude = min(89.9, max(-89.9, latitude))
      }
      var row = RoutePosition(
        timestamp: time, latitude: latitude, longitude: longitude, captureSession: session)
      if unusableRows, rng.chance(0.03) {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: row.latitude = .nan
        case 1: row.latitude = 90.5
        case 2: row.longitude = -180.25
        case 3: row.longitude = .infinity
        default: row.timestamp = .nan
        }
      }
      rows.append(row)
      // An exact repeat of a row (a double save).
      if rng.chance(0.04) { rows.append(row) }
    }
    var window: ShiftWindow?
    if let first = rows.first?.timestamp, let last = rows.last?.timestamp, first.isFinite, last.isFinite,
      rng.chance(0.5)
    {
      let start = first + Double.random(in: -400...200, using: &rng).rounded()
      let end = last + Double.random(in: -200...400, using: &rng).rounded()
      window = ShiftWindow(start: start, end: end)
    }
    return GeneratedRoute(rows: rows, window: window, maximumSampleInterval: interval)
  }
}

extension RouteDistance {
  /// Every field, with each `Double` as its bit pattern, so `==` on this is bit-identity.
  var bitFingerprint: [UInt64] {
    var bits: [UInt64] = [
      meters.bitPattern, UInt64(usablePositionCount), usesInferredContinuity ? 1 : 0,
      UInt64(unusablePositionCount), UInt64(positionsOutsideWindow),
      UInt64(positionsNotAfterPrevious), UInt64(isolatedPositionCount),
    ]
    for s in segments {
      bits += [s.start.bitPattern, s.end.bitPattern, UInt64(s.positionCount), s.meters.bitPattern]
    }
    for g in gaps {
      bits += [UInt64(RouteGap.Kind.allCases.firstIndex(of: g.kind)!), g.start.bitPattern, g.end.bitPattern]
    }
    return bits
  }

  /// Gaps between two positions (not the window's ends).
  var innerGaps: [RouteGap] {
    gaps.filter { $0.kind != .windowStart && $0.kind != .windowEnd }
  }
}

/// Everything `RouteQuality` can say about a route, for checks over all of it.
func allWording(_ quality: RouteQuality) -> [String] {
  [quality.line, quality.spoken] + quality.detailSentences
    + [quality.figure, quality.bareSpoken, quality.floorSentence, quality.jitterSentence].compactMap { $0 }
}
