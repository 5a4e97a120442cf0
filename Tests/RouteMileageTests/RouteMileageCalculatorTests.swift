import RouteMileage
import RouteTestSupport
import Testing

/// The whole-route measurement: continuity, gaps, windows, usability, ordering and collapsing.
@Suite("RouteMileageCalculator: rules at their boundaries")
struct RouteMileageCalculatorTests {
  typealias F = Fixture

  // MARK: Continuity: the maximum sample interval

  @Test func exactly120SecondsApartIsContinuous() {
    let d = F.measure([F.position(at: 0, session: 1), F.position(at: 120, north: 500, session: 1)])
    #expect(d.contributingSegmentCount == 1)
    #expect(d.gapCount == 0)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 500))
    #expect(d.isMeasured && !d.isPartial)
  }

  @Test func aThousandthOfASecondMoreIsASilence() {
    let d = F.measure([F.position(at: 0, session: 1), F.position(at: 120.001, north: 500, session: 1)])
    #expect(d.meters == 0)
    #expect(d.contributingSegmentCount == 0)
    #expect(d.gapCount == 1)
    #expect(d.gaps.first?.kind == .silence)
    #expect(d.gaps.first?.start == F.t0)
    #expect(d.gaps.first?.end == F.t0 + 120.001)
    #expect(d.isolatedPositionCount == 2)
    #expect(d.usablePositionCount == 2)
    #expect(!d.isMeasured)
    #expect(d.unmeasurable == .noTwoContinuousPositions)
  }

  @Test(arguments: [nil, Int64(3)])
  func theIntervalRuleAppliesToLegacyRowsToo(session: Int64?) {
    let at120 = F.measure([F.position(at: 0, session: session), F.position(at: 120, north: 50, session: session)])
    let after = F.measure([F.position(at: 0, session: session), F.position(at: 120.001, north: 50, session: session)])
    #expect(at120.contributingSegmentCount == 1 && at120.gapCount == 0)
    #expect(after.contributingSegmentCount == 0 && after.gaps.map(\.kind) == [.silence])
  }

  @Test func aCustomMaximumSampleIntervalIsHonoured() {
    let route = [
      F.position(at: 0, session: 1), F.position(at: 30, north: 100, session: 1),
      F.position(at: 60.001, north: 200, session: 1), F.position(at: 90.001, north: 300, session: 1),
    ]
    let tight = F.measure(route, maximumSampleInterval: 30)
    #expect(tight.contributingSegmentCount == 2)
    #expect(tight.gaps.map(\.kind) == [.silence])
    #expect(tight.gaps.first?.start == F.t0 + 30)
    #expect(Tolerance.constructedMeters.accepts(tight.meters, 200))
    #expect(tight.segments.map(\.positionCount) == [2, 2])
    // The default keeps the whole drive.
    let loose = F.measure(route)
    #expect(loose.contributingSegmentCount == 1 && loose.gapCount == 0)
    #expect(Tolerance.constructedMeters.accepts(loose.meters, 300))
    #expect(RouteMileageCalculator().maximumSampleInterval == 120)
    #expect(RouteContinuity.defaultMaximumSampleInterval == 120)
  }

  @Test func continuityRuleDirectly() {
    let rule = RouteContinuity()
    let a = F.position(at: 0, session: 1)
    #expect(rule.gap(from: a, to: F.position(at: 120, session: 1)) == nil)
    #expect(rule.gap(from: a, to: F.position(at: 120.001, session: 1)) == .silence)
    #expect(rule.gap(from: a, to: F.position(at: 1, session: 2)) == .sessionChange)
    // A session change outranks a silence.
    #expect(rule.gap(from: a, to: F.position(at: 500, session: 2)) == .sessionChange)
    #expect(rule.gap(from: a, to: F.position(at: 1)) == .legacySessionBoundary)
    #expect(rule.gap(from: F.position(at: 0), to: F.position(at: 1, session: 1)) == .legacySessionBoundary)
    #expect(rule.gap(from: F.position(at: 0), to: F.position(at: 120)) == nil)
    #expect(rule.gap(from: F.position(at: 0), to: F.position(at: 120.001)) == .silence)
  }

  // MARK: Sessions, legacy rows and the mix

  @Test func oneSessionIsMeasuredWholeAndNotPartial() {
    let d = F.measure(F.drive(count: 61, session: 7))
    #expect(Tolerance.constructedMeters.accepts(d.meters, 900))
    #expect(d.segments.count == 1)
    #expect(d.segments[0].positionCount == 61)
    #expect(d.segments[0].start == F.t0 && d.segments[0].end == F.t0 + 60)
    #expect(d.gapCount == 0)
    #expect(d.usablePositionCount == 61)
    #expect(!d.usesInferredContinuity && !d.isPartial)
  }

  @Test func aSessionChangeIsAGapEvenSecondsApart() {
    let route = F.drive(count: 10, session: 1) + F.drive(count: 10, from: 10, startNorth: 150, session: 2)
    let d = F.measure(route)
    #expect(d.segments.count == 2)
    #expect(d.gaps.map(\.kind) == [.sessionChange])
    #expect(d.gaps[0].start == F.t0 + 9 && d.gaps[0].end == F.t0 + 10)
    // 9 legs of 15 m in each session; the 15 m across the change is not counted.
    #expect(Tolerance.constructedMeters.accepts(d.meters, 270))
    #expect(d.isPartial && !d.usesInferredContinuity)
  }

  @Test func legacyRowsUseInferredContinuityAndAreAlwaysPartial() {
    let d = F.measure(F.drive(count: 11))
    #expect(Tolerance.constructedMeters.accepts(d.meters, 150))
    #expect(d.contributingSegmentCount == 1)
    #expect(d.gapCount == 0)
    #expect(d.usesInferredContinuity)
    #expect(d.isPartial)
  }

  @Test func sessionToLegacyAndBackAreBoundaryGaps() {
    let route =
      F.drive(count: 5, session: 1) + F.drive(count: 5, from: 5, startNorth: 75)
      + F.drive(count: 5, from: 10, startNorth: 150, session: 1)
    let d = F.measure(route)
    #expect(d.gaps.map(\.kind) == [.legacySessionBoundary, .legacySessionBoundary])
    #expect(d.gaps.map(\.start) == [F.t0 + 4, F.t0 + 9])
    #expect(d.gaps.map(\.end) == [F.t0 + 5, F.t0 + 10])
    #expect(d.segments.count == 3)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 180))
    // Two consecutive legacy rows: continuity was inferred there.
    #expect(d.usesInferredContinuity)
  }

  @Test func inferredContinuityIsPinnedToTwoConsecutiveLegacyRows() {
    // Legacy, session, legacy: no two consecutive positions both lack a session.
    let alternating = F.measure([
      F.position(at: 0), F.position(at: 1, north: 10, session: 1), F.position(at: 2, north: 20),
    ])
    #expect(!alternating.usesInferredContinuity)
    #expect(alternating.gapCount == 2 && !alternating.isMeasured)
    // Two legacy rows, even across a silence, are two consecutive legacy usable positions.
    let acrossSilence = F.measure([F.position(at: 0), F.position(at: 500, north: 10)])
    #expect(acrossSilence.usesInferredContinuity)
    #expect(acrossSilence.gaps.map(\.kind) == [.silence])
    #expect(!acrossSilence.isMeasured && acrossSilence.isPartial)
    // One legacy row alone infers nothing.
    let single = F.measure([F.position(at: 0)])
    #expect(!single.usesInferredContinuity && !single.isPartial)
    // A repeated legacy timestamp collapses to one position, so nothing is inferred.
    let repeated = F.measure([
      F.position(at: 0), F.position(at: 0, north: 10), F.position(at: 1, north: 20, session: 1),
    ])
    #expect(!repeated.usesInferredContinuity)
    // An unusable legacy row between two session rows does not count as a position.
    let unusableBetween = F.measure([
      F.position(at: 0), RoutePosition(timestamp: F.t0 + 1, latitude: .nan, longitude: 0),
      F.position(at: 2, north: 10, session: 1),
    ])
    #expect(!unusableBetween.usesInferredContinuity)
  }

  // MARK: Shift window

  var window: ShiftWindow { ShiftWindow(start: F.t0, end: F.t0 + 3_600)! }

  @Test func firstPositionExactlyTheIntervalAfterStartIsNotAGap() {
    let d = F.measure(F.drive(count: 3_600 - 240 + 1, from: 120, session: 1), window: window)
    // 120 s after start and 120 s before end: no window gaps.
    #expect(d.gapCount == 0)
    #expect(!d.isPartial)
  }

  @Test func firstPositionMoreThanTheIntervalAfterStartIsAWindowStartGap() {
    let route = [F.position(at: 120.001, session: 1), F.position(at: 3_480, north: 0.5, session: 1)]
    let d = F.measure(route + [F.position(at: 3_479, north: 0.25, session: 1)], window: window)
    // The start is 120.001 s late; the end (3,480 s of 3,600) is exactly on the interval.
    #expect(d.gaps.map(\.kind) == [.windowStart, .silence])
    #expect(d.gaps[0] == RouteGap(kind: .windowStart, start: F.t0, end: F.t0 + 120.001))
    #expect(d.gaps[1] == RouteGap(kind: .silence, start: F.t0 + 120.001, end: F.t0 + 3_479))
    #expect(Tolerance.constructedMeters.accepts(d.meters, 0.25))
  }

  @Test func windowStartGapBoundary() {
    let atInterval = F.measure(
      [F.position(at: 120, session: 1), F.position(at: 130, north: 20, session: 1)],
      window: ShiftWindow(start: F.t0, end: F.t0 + 200)!)
    #expect(atInterval.gapCount == 0)
    let past = F.measure(
      [F.position(at: 120.001, session: 1), F.position(at: 130, north: 20, session: 1)],
      window: ShiftWindow(start: F.t0, end: F.t0 + 200)!)
    #expect(past.gaps == [RouteGap(kind: .windowStart, start: F.t0, end: F.t0 + 120.001)])
    #expect(past.gaps[0].duration == (F.t0 + 120.001) - F.t0)
    #expect(Tolerance.constructedMeters.accepts(past.meters, 20))
    #expect(past.isPartial)
  }

  @Test func windowEndGapBoundary() {
    let route = [F.position(at: 0, session: 1), F.position(at: 100, north: 20, session: 1)]
    // The last position exactly the interval before the end is not a gap.
    let atInterval = F.measure(route, window: ShiftWindow(start: F.t0, end: F.t0 + 220)!)
    #expect(atInterval.gapCount == 0)
    #expect(!atInterval.isPartial)
    let past = F.measure(route, window: ShiftWindow(start: F.t0, end: F.t0 + 220.001)!)
    #expect(past.gaps == [RouteGap(kind: .windowEnd, start: F.t0 + 100, end: F.t0 + 220.001)])
    #expect(Tolerance.constructedMeters.accepts(past.meters, 20))
    #expect(past.contributingSegmentCount == 1)
    #expect(past.isPartial)
  }

  @Test func bothWindowGapsWithACustomInterval() {
    let w = ShiftWindow(start: F.t0, end: F.t0 + 100)!
    let d = F.measure(
      [
        F.position(at: 30.5, session: 1), F.position(at: 40, north: 20, session: 1),
        F.position(at: 69.5, north: 40, session: 1),
      ],
      window: w, maximumSampleInterval: 30)
    #expect(d.gaps.map(\.kind) == [.windowStart, .windowEnd])
    #expect(d.gaps.map(\.start) == [F.t0, F.t0 + 69.5])
    #expect(d.gaps.map(\.end) == [F.t0 + 30.5, F.t0 + 100])
    let inside = F.measure(
      [
        F.position(at: 30, session: 1), F.position(at: 40, north: 20, session: 1),
        F.position(at: 70, north: 40, session: 1),
      ],
      window: w, maximumSampleInterval: 30)
    #expect(inside.gapCount == 0)
  }

  @Test func positionsOutsideTheWindowAreCountedAndNotMeasured() {
    let w = ShiftWindow(start: F.t0 + 100, end: F.t0 + 200)!
    let route = [
      F.position(at: 0, north: -5_000, session: 1),  // before the shift, 5 km away
      F.position(at: 99.999, north: -1_000, session: 1),
      F.position(at: 100, session: 1),  // on the start: inside
      F.position(at: 150, north: 300, session: 1),
      F.position(at: 200, north: 600, session: 1),  // on the end: inside
      F.position(at: 200.001, north: 9_000, session: 1),
      F.position(at: 250, north: 9_500, session: 1),
    ]
    let d = F.measure(route, window: w)
    #expect(d.positionsOutsideWindow == 4)
    #expect(d.usablePositionCount == 3)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 600))
    #expect(d.gapCount == 0)
    #expect(
      d.segments == [
        RouteSegment(start: F.t0 + 100, end: F.t0 + 200, positionCount: 3, meters: d.meters, floorMeters: d.floorMeters)
      ])
    // Without the window (a running shift) all of it is measured and nothing is outside.
    let running = F.measure(route)
    #expect(running.positionsOutsideWindow == 0)
    #expect(running.usablePositionCount == 7)
  }

  @Test func aWindowWithNoPositionInsideIsNoUsablePosition() {
    let w = ShiftWindow(start: F.t0 + 1_000, end: F.t0 + 2_000)!
    let d = F.measure(F.drive(count: 5, session: 1), window: w)
    #expect(d.positionsOutsideWindow == 5)
    #expect(d.usablePositionCount == 0)
    #expect(d.unmeasurable == .noUsablePosition)
  }

  @Test func shiftWindowRejectsNonsense() {
    #expect(ShiftWindow(start: 10, end: 9) == nil)
    #expect(ShiftWindow(start: .nan, end: 9) == nil)
    #expect(ShiftWindow(start: 0, end: .infinity) == nil)
    #expect(ShiftWindow(start: 5, end: 5) != nil)
  }

  // MARK: Usable positions

  @Test func onlyPositionsThatDescribeNowhereAreRejected() {
    let good = F.drive(count: 4, session: 1)
    let bad: [RoutePosition] = [
      RoutePosition(timestamp: F.t0 + 0.5, latitude: .nan, longitude: 0, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: F.t0 + 1.5, latitude: 90.000001, longitude: 0, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: F.t0 + 2.5, latitude: 10, longitude: -180.000001, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: F.t0 + 2.6, latitude: 10, longitude: .infinity, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: .nan, latitude: 10, longitude: 10, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: -.infinity, latitude: 10, longitude: 10, captureSession: CaptureSessionID(1)),
    ]
    let d = F.measure(good + bad)
    #expect(d.unusablePositionCount == 6)
    #expect(d.usablePositionCount == 4)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 45))
    #expect(d.gapCount == 0)
    // The limits themselves describe somewhere.
    for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
      #expect(RoutePosition(timestamp: 0, latitude: lat, longitude: lon).isUsable)
    }
    // The calculator does not re-judge quality: (0, 0) and a 10 km jump in 1 s are measured.
    let raw = F.measure([
      RoutePosition(timestamp: 0, latitude: 0, longitude: 0),
      RoutePosition(timestamp: 1, latitude: 10_000 / F.metersPerDegreeLatitude, longitude: 0),
    ])
    #expect(Tolerance.constructedMeters.accepts(raw.meters, 10_000))
  }

  @Test func nothingAtAllIsNoUsablePosition() {
    let d = F.measure([])
    #expect(d == RouteDistance())
    #expect(d.unmeasurable == .noUsablePosition)
    #expect(!d.isMeasured && !d.isPartial)
    let onlyBad = F.measure([RoutePosition(timestamp: 0, latitude: 100, longitude: 0)])
    #expect(onlyBad.unmeasurable == .noUsablePosition)
    #expect(onlyBad.unusablePositionCount == 1)
  }

  @Test func oneUsablePositionIsNoTwoContinuousPositions() {
    let d = F.measure([F.position(at: 0, session: 1)])
    #expect(d.unmeasurable == .noTwoContinuousPositions)
    #expect(d.usablePositionCount == 1 && d.isolatedPositionCount == 1)
    #expect(d.gapCount == 0 && d.meters == 0)
  }

  // MARK: Equal timestamps and order

  @Test func equalTimestampsCollapseToTheLowestLatitude() {
    let a = F.position(at: 0, session: 1)
    // The farther one is further west, so a longitude-first tie-break would pick it.
    let far = F.position(at: 10, north: 150, east: -30, session: 1)
    let near = F.position(at: 10, north: 100, east: 30, session: 1)
    let next = F.position(at: 20, north: 200, session: 1)
    for rows in [[a, far, near, next], [a, near, far, next], [next, far, a, near]] {
      let d = F.measure(rows)
      // a → near → next.
      let expected = GeographicDistance.meters(from: a, to: near) + GeographicDistance.meters(from: near, to: next)
      #expect(d.meters == expected)
      #expect(d.usablePositionCount == 3)
      #expect(d.positionsNotAfterPrevious == 1)
      #expect(d.segments.first?.positionCount == 3)
    }
  }

  @Test func equalTimestampsAndLatitudeCollapseToTheLowestLongitude() {
    let a = F.position(at: 0, session: 1)
    let west = F.position(at: 10, north: 100, east: -30, session: 1)
    let east = F.position(at: 10, north: 100, east: 30, session: 1)
    let dWest = F.measure([a, east, west])
    let expected = GeographicDistance.meters(from: a, to: west)
    #expect(dWest.meters == expected)
    #expect(F.measure([a, west, east]) == dWest)
  }

  @Test func equalTimestampsWithDifferentSessionsCollapseDeterministically() {
    let a = F.position(at: 0, session: 1)
    let legacyTwin = F.position(at: 10, north: 100)
    let sessionTwin = F.position(at: 10, north: 100, session: 1)
    // Same place and time: the legacy row sorts first, so there is a boundary gap either way.
    let one = F.measure([a, sessionTwin, legacyTwin])
    let two = F.measure([legacyTwin, a, sessionTwin])
    #expect(one == two)
    #expect(one.gaps.map(\.kind) == [.legacySessionBoundary])
  }

  @Test func signedZerosAndTiesInEveryFieldStillGiveOneAnswer() {
    // -0.0 and 0.0 are equal by `==` but not the same bits; the order must still be total.
    let rows = [
      RoutePosition(timestamp: 0, latitude: 0.0, longitude: 10, captureSession: CaptureSessionID(2)),
      RoutePosition(timestamp: -0.0, latitude: -0.0, longitude: 10, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: 0, latitude: -0.0, longitude: 10),
      RoutePosition(timestamp: 0, latitude: 0.0, longitude: 10, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: 10, latitude: 0.001, longitude: 10, captureSession: CaptureSessionID(1)),
      RoutePosition(timestamp: 10, latitude: 0.001, longitude: 10, captureSession: CaptureSessionID(1)),
    ]
    let reference = F.measure(rows)
    var rng = SeededRandom(seed: 0x2E30)
    for _ in 0..<50 {
      #expect(F.measure(rng.permuted(rows)).bitFingerprint == reference.bitFingerprint)
    }
    // The -0.0 timestamp sorts first and the rest at that instant collapse into it.
    #expect(reference.positionsNotAfterPrevious == 4)
    #expect(reference.usablePositionCount == 2)
    #expect(reference.contributingSegmentCount == 1)
  }

  @Test func theResultHoldsNoCoordinate() {
    let d = F.measure(
      F.drive(count: 5, session: 1) + F.drive(count: 5, from: 500, startNorth: 1_000, session: 1),
      window: ShiftWindow(start: F.t0, end: F.t0 + 1_000)!)
    let text = String(describing: d) + String(reflecting: d)
    #expect(!text.contains("51.5"))
    #expect(!text.contains("-0.12"))
    #expect(!text.lowercased().contains("latitude") && !text.lowercased().contains("longitude"))
    #expect(!text.contains("RoutePosition"))
  }

  @Test func storedOutOfOrderRowsAreSortedFirst() {
    let route = F.drive(count: 20, session: 1)
    let shuffled = [route[5], route[0], route[19]] + route[6..<19].reversed() + route[1..<5]
    let d = F.measure(Array(shuffled))
    #expect(d == F.measure(route))
    #expect(Tolerance.constructedMeters.accepts(d.meters, 285))
    #expect(d.positionsNotAfterPrevious == 0)
  }

  @Test func samplesOverloadMeasuresTheirPositions() {
    let samples = F.drive(count: 5, session: 1).map {
      RouteSample(
        timestamp: $0.timestamp, latitude: $0.latitude, longitude: $0.longitude,
        horizontalAccuracy: 500, captureSession: $0.captureSession)
    }
    // Accuracy is the filter's business, not the recorded figure's; only the floor reads it.
    let d = RouteMileageCalculator().distance(of: samples)
    let positions = F.drive(count: 5, session: 1).map {
      var p = $0
      p.horizontalAccuracy = 500
      return p
    }
    #expect(d == F.measure(positions))
    #expect(d.meters == F.measure(F.drive(count: 5, session: 1)).meters)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 60))
  }

  // MARK: What the result holds

  @Test func metresAreExactlyTheSumOfTheSegmentsInOrder() {
    let route =
      F.drive(count: 7, session: 1) + F.drive(count: 4, from: 200, startNorth: 5_000, session: 1)
      + F.drive(count: 9, from: 210, step: 3, speed: 11, startNorth: 9_000, session: 2)
    let d = F.measure(route)
    #expect(d.segments.count == 3)
    #expect(d.gaps.map(\.kind) == [.silence, .sessionChange])
    #expect(d.meters == d.segments.reduce(0) { $0 + $1.meters })
    #expect(d.segments[0].meters == F.pathMeters(Array(route[0..<7])))
    #expect(d.segments[1].meters == F.pathMeters(Array(route[7..<11])))
    #expect(d.segments[2].meters == F.pathMeters(Array(route[11...])))
    #expect(d.segments.map(\.positionCount) == [7, 4, 9])
    #expect(Tolerance.constructedMeters.accepts(d.meters, (90 + 45 + 8 * 33)))
  }

  @Test func milesAreConvertedInOnePlace() {
    #expect(metersPerMile == 1_609.344)
    let d = RouteDistance(
      meters: 1_609.344, segments: [RouteSegment(start: 0, end: 1, positionCount: 2, meters: 1_609.344)])
    #expect(d.miles == 1)
  }
}
