import RouteMileage
import Testing

/// The capture-time filter: every default rule at its boundary, in arrival order.
@Suite("RouteSampleFilter: rules at their boundaries")
struct RouteSampleFilterTests {
  typealias F = Fixture

  /// Feeds `samples` in order and returns the decisions.
  static func run(_ filter: inout RouteSampleFilter, _ samples: [RouteSample]) -> [RouteSampleFilter.Decision] {
    samples.map { filter.consider($0) }
  }

  static func reason(_ decision: RouteSampleFilter.Decision) -> RouteSampleFilter.Reason? {
    if case .rejected(let reason) = decision { return reason }
    return nil
  }

  static func retained(_ decisions: [RouteSampleFilter.Decision]) -> [RouteSample] {
    decisions.compactMap { if case .retained(let s) = $0 { return s } else { return nil } }
  }

  /// What a fresh filter decides for two fixes a second apart going due north from the equator
  /// at 10° E, the second at `latitude`: the boundary tests' exact distances.
  static func northFromTheEquator(to latitude: Double) -> [RouteSampleFilter.Reason?] {
    var filter = RouteSampleFilter()
    return run(
      &filter,
      [
        RouteSample(timestamp: 0, latitude: 0, longitude: 10),
        RouteSample(timestamp: 1, latitude: latitude, longitude: 10),
      ]
    ).map(reason)
  }

  /// A fresh filter's decisions for the samples `build` makes in two capture sessions minted from
  /// it, and the filter, for its counts.
  static func runInTwoSessions(
    _ build: (CaptureSessionID, CaptureSessionID) -> [RouteSample]
  ) -> (decisions: [RouteSampleFilter.Decision], filter: RouteSampleFilter) {
    var filter = RouteSampleFilter()
    let a = filter.mintCaptureSession()
    let b = filter.mintCaptureSession()
    let decisions = run(&filter, build(a, b))
    return (decisions, filter)
  }

  /// The second sample's fate after a first, anchoring one.
  func second(
    _ sample: RouteSample, after first: RouteSample = F.sample(at: 0),
    configure: (inout RouteSampleFilter) -> Void = { _ in }
  ) -> RouteSampleFilter.Decision {
    var filter = RouteSampleFilter()
    configure(&filter)
    _ = filter.consider(first)
    return filter.consider(sample)
  }

  @Test func defaults() {
    let f = RouteSampleFilter()
    #expect(f.rejectsNullIsland)
    #expect(f.maximumHorizontalAccuracy == 100)
    #expect(f.maximumFixAge == 10)
    #expect(f.maximumSpeed == 70)
    #expect(f.minimumMovement == 5)
    #expect(f.maximumSampleInterval == 120)
    #expect(f.speedRejectionsBeforeReanchoring == 3)
    #expect(f.counts == RouteSampleFilter.Counts())
  }

  // MARK: Coordinates

  @Test func coordinatesThatDescribeNowhereAreInvalid() {
    let bad: [RouteSample] = [
      RouteSample(timestamp: 1, latitude: .nan, longitude: 0),
      RouteSample(timestamp: 2, latitude: 90.01, longitude: 0),
      RouteSample(timestamp: 3, latitude: -90.01, longitude: 0),
      RouteSample(timestamp: 4, latitude: 0, longitude: 180.01),
      RouteSample(timestamp: 5, latitude: 0, longitude: -.infinity),
      RouteSample(timestamp: .infinity, latitude: 1, longitude: 1),
      RouteSample(timestamp: .nan, latitude: 1, longitude: 1),
    ]
    var filter = RouteSampleFilter()
    let decisions = Self.run(&filter, bad)
    #expect(decisions.allSatisfy { Self.reason($0) == .invalidCoordinate })
    #expect(filter.counts[.invalidCoordinate] == 7)
    #expect(filter.counts.retained == 0)
    // The limits are valid.
    var edges = RouteSampleFilter()
    let edgeDecisions = Self.run(
      &edges,
      [
        RouteSample(timestamp: 1, latitude: 90, longitude: 180, captureSession: CaptureSessionID(1)),
        RouteSample(timestamp: 2, latitude: -90, longitude: -180, captureSession: CaptureSessionID(2)),
      ])
    #expect(Self.retained(edgeDecisions).count == 2)
  }

  @Test func nullIslandIsRejected() {
    var filter = RouteSampleFilter()
    let d = Self.run(
      &filter,
      [
        RouteSample(timestamp: 1, latitude: 0, longitude: 0),
        RouteSample(timestamp: 2, latitude: -0.0, longitude: 0),
        RouteSample(timestamp: 3, latitude: 0, longitude: 0.0001),
      ])
    #expect(d.map(Self.reason) == [.nullIsland, .nullIsland, nil])
    #expect(filter.counts[.nullIsland] == 2)
    var allowing = RouteSampleFilter()
    allowing.rejectsNullIsland = false
    #expect(Self.reason(allowing.consider(RouteSample(timestamp: 1, latitude: 0, longitude: 0))) == nil)
  }

  // MARK: Accuracy

  @Test(arguments: [
    (nil as Double?, true), (0, true), (-0.0, true), (5, true), (99.99, true), (100, true),
    (100.01, false), (250, false), (-1, false), (-0.01, false), (.nan, false), (.infinity, false),
  ])
  func horizontalAccuracyAt100Metres(accuracy: Double?, kept: Bool) {
    var filter = RouteSampleFilter()
    let d = filter.consider(F.sample(at: 0, accuracy: accuracy))
    #expect(Self.reason(d) == (kept ? nil : .accuracy))
    #expect(filter.counts[.accuracy] == (kept ? 0 : 1))
  }

  @Test func customAccuracyLimit() {
    let kept = second(F.sample(at: 1, north: 10, accuracy: 20)) { $0.maximumHorizontalAccuracy = 20 }
    let rejected = second(F.sample(at: 1, north: 10, accuracy: 20.01)) { $0.maximumHorizontalAccuracy = 20 }
    #expect(Self.reason(kept) == nil)
    #expect(Self.reason(rejected) == .accuracy)
  }

  // MARK: Staleness

  @Test(arguments: [
    (nil as Double?, true), (0, true), (-30, true), (9.999, true), (10, true), (10.001, false), (3_600, false),
  ])
  func aFixMoreThan10SecondsOlderThanItsArrivalIsStale(age: Double?, kept: Bool) {
    var filter = RouteSampleFilter()
    let d = filter.consider(F.sample(at: 0, receivedAfter: age))
    #expect(Self.reason(d) == (kept ? nil : .stale))
  }

  @Test func customFixAgeAndNonFiniteArrival() {
    #expect(Self.reason(second(F.sample(at: 1, north: 10, receivedAfter: 2.5)) { $0.maximumFixAge = 2 }) == .stale)
    #expect(Self.reason(second(F.sample(at: 1, north: 10, receivedAfter: 2)) { $0.maximumFixAge = 2 }) == nil)
    var noArrival = F.sample(at: 1, north: 10)
    noArrival.receivedAt = .infinity
    #expect(Self.reason(second(noArrival)) == nil)
  }

  // MARK: Order

  @Test func atOrBeforeTheLastRetainedSampleOfTheShiftIsOutOfOrder() {
    let (d, filter) = Self.runInTwoSessions { a, b in
      [
        F.sample(at: 10, session: a),
        F.sample(at: 10, north: 50, session: a),  // same timestamp
        F.sample(at: 9, north: 50, session: a),  // earlier
        F.sample(at: 5, north: 50, session: b),  // earlier, in another session: still the shift's order
        F.sample(at: 10.001, north: 50, session: b),
      ]
    }
    #expect(d.map(Self.reason) == [nil, .outOfOrder, .outOfOrder, .outOfOrder, nil])
    #expect(filter.counts[.outOfOrder] == 3)
  }

  @Test func aRejectedSampleDoesNotMoveTheOrderMark() {
    var filter = RouteSampleFilter()
    let d = Self.run(
      &filter,
      [
        F.sample(at: 0),
        F.sample(at: 10, north: 50, accuracy: 500),
        F.sample(at: 10, north: 50),
      ])
    #expect(d.map(Self.reason) == [nil, .accuracy, nil])
  }

  // MARK: Speed

  @Test(arguments: [(69.999, true), (70.001, false), (5_000, false)])
  func impliedSpeedAt70MetresPerSecond(metres: Double, kept: Bool) {
    let d = second(F.sample(at: 1, north: metres))
    #expect(Self.reason(d) == (kept ? nil : .speed))
    // Over two seconds the same limit is twice the distance.
    let slower = second(F.sample(at: 2, north: metres * 2))
    #expect(Self.reason(slower) == (kept ? nil : .speed))
  }

  @Test func exactly70MetresPerSecondIsKept() throws {
    let latitude = try #require(Fixture.exactEquatorLatitude(meters: 70))
    #expect(Self.northFromTheEquator(to: latitude) == [nil, nil])
  }

  @Test func speedIsJudgedFromTheLastRetainedFixOfTheSameSession() {
    let d = Self.runInTwoSessions { a, b in
      [
        F.sample(at: 0, session: a),
        F.sample(at: 1, north: 10_000, session: b),  // a session's first fix is judged on its own
        F.sample(at: 2, north: 10_050, session: b),
        F.sample(at: 3, north: 100, session: a),  // 100 m in 3 s from a's last fix: fine
        F.sample(at: 4, north: 10_000, session: a),  // but this is 9.9 km from a's last fix in 1 s
      ]
    }.decisions
    #expect(d.map(Self.reason) == [nil, nil, nil, nil, .speed])
  }

  // MARK: Movement

  @Test(arguments: [(4.999, false), (0, false), (5.001, true), (6, true)])
  func movementUnder5MetresIsDropped(metres: Double, kept: Bool) {
    let d = second(F.sample(at: 1, north: metres))
    #expect(Self.reason(d) == (kept ? nil : .negligibleMovement))
  }

  @Test func exactly5MetresIsKept() throws {
    let latitude = try #require(Fixture.exactEquatorLatitude(meters: 5))
    #expect(Self.northFromTheEquator(to: latitude) == [nil, nil])
    // And one representable step less is dropped.
    let below = latitude.nextDown.nextDown.nextDown
    #expect(GeographicDistance.meters(fromLatitude: 0, longitude: 10, toLatitude: below, longitude: 10) < 5)
    #expect(Self.northFromTheEquator(to: below) == [nil, .negligibleMovement])
  }

  @Test func movementIsMeasuredFromTheLastRetainedFix() {
    // A slow creep of 3 m per fix: each is under 5 m from the previous fix, but the filter
    // compares with the last *retained* one, so every second fix is kept.
    var filter = RouteSampleFilter()
    let s = filter.mintCaptureSession()
    let d = Self.run(&filter, (0..<7).map { F.sample(at: Double($0), north: 3 * Double($0), session: s) })
    #expect(d.map(Self.reason) == [nil, .negligibleMovement, nil, .negligibleMovement, nil, .negligibleMovement, nil])
    #expect(filter.counts[.negligibleMovement] == 3)
    #expect(filter.counts.retained == 4)
  }

  @Test func aSessionsFirstFixIsNotJudgedForMovementEither() {
    let d = Self.runInTwoSessions { a, b in
      [F.sample(at: 0, session: a), F.sample(at: 1, north: 1, session: b)]
    }.decisions
    #expect(d.map(Self.reason) == [nil, nil])
  }

  @Test func legacyRowsAreJudgedAgainstTheLastRetainedLegacyRow() {
    var filter = RouteSampleFilter()
    let s = filter.mintCaptureSession()
    let d = Self.run(
      &filter,
      [
        F.sample(at: 0),
        F.sample(at: 1, north: 2_000, session: s),
        F.sample(at: 2, north: 3),  // 3 m from the legacy anchor, though 2 km from the session fix
        F.sample(at: 3, north: 1_000),  // 1 km in 3 s from the legacy anchor
        F.sample(at: 4, north: 60),
      ])
    #expect(d.map(Self.reason) == [nil, nil, .negligibleMovement, .speed, nil])
  }

  // MARK: Custom speed and movement limits

  /// A speed or movement limit set away from its default, and where a fix one second after the
  /// first falls just past it and just inside it.
  struct CustomLimit: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var set: @Sendable (inout RouteSampleFilter) -> Void
    var rejectedNorth: Double
    var keptNorth: Double
    var reason: RouteSampleFilter.Reason

    static let speed = CustomLimit(
      testDescription: "maximumSpeed 30", set: { $0.maximumSpeed = 30 }, rejectedNorth: 30.01, keptNorth: 29.99,
      reason: .speed)
    static let movement = CustomLimit(
      testDescription: "minimumMovement 20", set: { $0.minimumMovement = 20 }, rejectedNorth: 19.99, keptNorth: 20.01,
      reason: .negligibleMovement)
  }

  @Test(arguments: [CustomLimit.speed, .movement])
  func customLimit(_ limit: CustomLimit) {
    #expect(Self.reason(second(F.sample(at: 1, north: limit.rejectedNorth), configure: limit.set)) == limit.reason)
    #expect(Self.reason(second(F.sample(at: 1, north: limit.keptNorth), configure: limit.set)) == nil)
  }

  // MARK: Rule order and the counts

  @Test func eachRejectionHasTheFirstReasonItBreaks() {
    var filter = RouteSampleFilter()
    _ = filter.consider(F.sample(at: 100))
    let d = Self.run(
      &filter,
      [
        RouteSample(timestamp: F.t0, latitude: 0, longitude: 0, horizontalAccuracy: -1),  // null island before accuracy
        F.sample(at: 50, accuracy: 500, receivedAfter: 60),  // accuracy before stale and order
        F.sample(at: 50, receivedAfter: 60),  // stale before order
        F.sample(at: 50, north: 9_000),  // order before speed
      ])
    #expect(d.map(Self.reason) == [.nullIsland, .accuracy, .stale, .outOfOrder])
  }

  @Test func retainedSamplesKeepEverythingButMaybeTheirSession() {
    var filter = RouteSampleFilter()
    let s = filter.mintCaptureSession()
    let sample = RouteSample(
      timestamp: 5, latitude: 1, longitude: 2, horizontalAccuracy: 8, horizontalAccuracyIsEstimated: true,
      speed: 3, course: 90, altitude: 12, captureSession: s, receivedAt: 6)
    #expect(filter.consider(sample) == .retained(sample))
  }

  @Test func countsAddUpAndListReasonsInRuleOrder() {
    var filter = RouteSampleFilter()
    let samples = [
      F.sample(at: 0), F.sample(at: 1, north: 1), F.sample(at: 2, north: 9_000), F.sample(at: 2, north: 50),
      RouteSample(timestamp: 3, latitude: 0, longitude: 0), F.sample(at: 4, north: 50, accuracy: -3),
      F.sample(at: 2, north: 60),
    ]
    _ = Self.run(&filter, samples)
    #expect(filter.counts.retained == 2)
    #expect(filter.counts.rejected == 5)
    #expect(filter.counts.retained + filter.counts.rejected == samples.count)
    let listed = filter.counts.rejectedByReason
    #expect(listed.map(\.reason) == [.nullIsland, .accuracy, .outOfOrder, .speed, .negligibleMovement])
    #expect(listed.map(\.count) == [1, 1, 1, 1, 1])
  }

  @Test func minterHandsOutIDsInOrder() {
    var minter = CaptureSessionMinter()
    #expect(
      [minter.mint(), minter.mint(), minter.mint()] == [CaptureSessionID(1), CaptureSessionID(2), CaptureSessionID(3)])
    var continuing = RouteSampleFilter(sessionMinter: CaptureSessionMinter(next: 40))
    #expect(continuing.mintCaptureSession() == CaptureSessionID(40))
    #expect(continuing.sessionMinter.next == 41)
  }
}
