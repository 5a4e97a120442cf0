import RouteMileage
import RouteTestSupport
import Testing

/// One wild fix must not poison the rest of a session, and must never be measured from.
@Suite("RouteSampleFilter: re-anchoring after a wild fix")
struct ReanchoringTests {
  typealias F = Fixture
  typealias Decision = RouteSampleFilter.Decision

  struct Outcome {
    var decisions: [Decision]
    var filter: RouteSampleFilter
    var retained: [RouteSample] {
      decisions.compactMap { if case .retained(let s) = $0 { return s } else { return nil } }
    }
    var reasons: [RouteSampleFilter.Reason?] {
      decisions.map { if case .rejected(let r) = $0 { return r } else { return nil } }
    }
    func measured(maximumSampleInterval: Double = 120) -> RouteDistance {
      RouteMileageCalculator(maximumSampleInterval: maximumSampleInterval).distance(of: retained)
    }
  }

  static func run(
    _ build: (inout RouteSampleFilter) -> [RouteSample], configure: (inout RouteSampleFilter) -> Void = { _ in }
  ) -> Outcome {
    var filter = RouteSampleFilter()
    configure(&filter)
    let samples = build(&filter)
    let decisions = samples.map { filter.consider($0) }
    return Outcome(decisions: decisions, filter: filter)
  }

  /// A correct drive north at 15 m/s, one fix a second from t = 1 s.
  static func goodFixes(_ range: ClosedRange<Int>, step: Double = 1, session: CaptureSessionID?) -> [RouteSample] {
    range.map { F.sample(at: Double($0) * step, north: 15 * Double($0) * step, session: session) }
  }

  /// A route whose first fix is 5 km off to the east, then the correct fixes `range` (see
  /// `goodFixes`), all in one session minted by the filter, or as legacy rows without one; the
  /// session comes back too, for the tests that follow it.
  static func wildStart(
    _ range: ClosedRange<Int>, step: Double = 1, legacy: Bool = false,
    configure: (inout RouteSampleFilter) -> Void = { _ in }
  ) -> (outcome: Outcome, session: CaptureSessionID?) {
    var session: CaptureSessionID?
    let outcome = run(
      { filter in
        session = legacy ? nil : filter.mintCaptureSession()
        return [F.sample(at: 0, east: 5_000, session: session)] + goodFixes(range, step: step, session: session)
      }, configure: configure)
    return (outcome, session)
  }

  @Test func aSessionWhoseFirstFixIs5KilometresOffKeepsItsCorrectFixes() {
    let (outcome, session) = Self.wildStart(1...60)
    // The wild fix is retained (a first fix is judged on its own), the next two correct fixes
    // are rejected for speed, and the third re-anchors the session.
    #expect(outcome.reasons.prefix(4) == [nil, .speed, .speed, nil])
    #expect(outcome.reasons.dropFirst(3).allSatisfy { $0 == nil })
    #expect(outcome.filter.counts.retained == 59)
    #expect(outcome.filter.counts[.speed] == 2)
    #expect(outcome.filter.counts.rejected == 2)
    #expect(outcome.filter.counts.reanchored == 1)
    // The re-anchored fixes are in a fresh session, so the wild fix stands alone.
    let retained = outcome.retained
    #expect(retained[0].captureSession == session)
    let fresh = retained[1].captureSession
    #expect(fresh != nil && fresh != session)
    #expect(retained.dropFirst().allSatisfy { $0.captureSession == fresh })

    let d = outcome.measured()
    // The true route is 59 legs of 15 m (885 m); the first two rejected fixes cover 30 m of it.
    #expect(Tolerance.constructedMeters.accepts(d.meters, 855))
    #expect(d.meters == F.pathMeters(retained.dropFirst().map(\.position)))
    #expect(
      d.segments == [
        RouteSegment(start: F.t0 + 3, end: F.t0 + 60, positionCount: 58, meters: d.meters, floorMeters: d.floorMeters)
      ])
    #expect(d.gaps == [RouteGap(kind: .sessionChange, start: F.t0, end: F.t0 + 3)])
    #expect(d.isolatedPositionCount == 1)
    #expect(d.usablePositionCount == 59)
    #expect(RouteQuality(d).line == "0.5 mi recorded · partial route")
  }

  @Test func withoutReanchoringTheWildFirstFixWouldCostTheWholeSession() {
    let outcome = Self.wildStart(1...60, configure: { $0.speedRejectionsBeforeReanchoring = 0 }).outcome
    #expect(outcome.filter.counts.retained == 1)
    #expect(outcome.filter.counts[.speed] == 60)
    #expect(outcome.measured().unmeasurable == .noTwoContinuousPositions)
  }

  @Test func onSparseFixesTheRunReanchorsEvenWhenTheThirdFixLooksPlausibleFromTheWildOne() {
    // Fixes every 30 s. The third correct fix is 5.18 km from the wild one in 90 s (57.5 m/s,
    // under the limit): the speed rule alone would measure that straight line.
    let outcome = Self.wildStart(1...20, step: 30).outcome
    #expect(outcome.reasons.prefix(4) == [nil, .speed, .speed, nil])
    #expect(outcome.filter.counts.reanchored == 1)
    #expect(outcome.filter.counts.retained == 19)
    let d = outcome.measured()
    #expect(Tolerance.constructedMeters.accepts(d.meters, 17 * 450))
    #expect(d.gaps.map(\.kind) == [.sessionChange])

    // The contrast: with re-anchoring off, a 5.18 km line from the wild fix is measured.
    let naive = Self.wildStart(1...20, step: 30, configure: { $0.speedRejectionsBeforeReanchoring = 0 }).outcome
    #expect(naive.filter.counts.reanchored == 0)
    #expect(naive.measured().meters > d.meters + 5_000)
  }

  @Test func aLegacyRouteWhoseFirstFixIs5KilometresOffRecoversAfterTheInterval() {
    // Legacy rows cannot carry a session break, so the filter waits until the correct fixes are
    // more than the maximum interval past the wild one: the calculator then sees a silence.
    let outcome = Self.wildStart(1...200, legacy: true).outcome
    #expect(outcome.filter.counts[.speed] == 120)
    #expect(outcome.filter.counts.reanchored == 1)
    #expect(outcome.filter.counts.retained == 81)
    #expect(outcome.reasons[121] == nil)
    #expect(outcome.reasons[120] == .speed)
    let retained = outcome.retained
    #expect(retained.allSatisfy { $0.captureSession == nil })
    #expect(retained[1].timestamp == F.t0 + 121)

    let d = outcome.measured()
    // 80 correct fixes kept: 79 legs of 15 m; nothing from the wild fix.
    #expect(Tolerance.constructedMeters.accepts(d.meters, 79 * 15))
    #expect(d.gaps == [RouteGap(kind: .silence, start: F.t0, end: F.t0 + 121)])
    #expect(d.usesInferredContinuity)
    #expect(d.isolatedPositionCount == 1)
  }

  @Test func legacyReanchoringFollowsTheFiltersInterval() {
    let outcome = Self.wildStart(1...60, legacy: true, configure: { $0.maximumSampleInterval = 30 }).outcome
    #expect(outcome.filter.counts[.speed] == 30)
    #expect(outcome.filter.counts.retained == 31)
    let d = outcome.measured(maximumSampleInterval: 30)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 29 * 15))
    #expect(d.gaps.map(\.kind) == [.silence])
  }

  @Test(arguments: [true, false])
  func aSingleWildFixMidSessionIsRejectedAndTheNextGoodFixLinksBack(legacy: Bool) {
    let outcome = Self.run { filter in
      let s = legacy ? nil : filter.mintCaptureSession()
      return Self.goodFixes(1...10, session: s) + [F.sample(at: 11, north: 165, east: 5_000, session: s)]
        + Self.goodFixes(12...20, session: s)
    }
    #expect(outcome.reasons[10] == .speed)
    #expect(outcome.filter.counts[.speed] == 1)
    #expect(outcome.filter.counts.reanchored == 0)
    #expect(outcome.filter.counts.retained == 19)
    let d = outcome.measured()
    // One stretch, no gap: the fix at 12 s links to the one at 10 s (30 m on the same line).
    #expect(d.gapCount == 0)
    #expect(d.contributingSegmentCount == 1)
    #expect(Tolerance.constructedMeters.accepts(d.meters, 19 * 15))
    #expect(d.usesInferredContinuity == legacy)
  }

  @Test func aBurstOfAgreeingWildFixesIsFencedOffByGapsOnBothSides() {
    var ids: [CaptureSessionID] = []
    let outcome = Self.run { filter in
      let s = filter.mintCaptureSession()
      ids.append(s)
      let burst = (11...13).map { F.sample(at: Double($0), north: 15 * Double($0), east: 5_000, session: s) }
      return Self.goodFixes(1...10, session: s) + burst + Self.goodFixes(14...30, session: s)
    }
    // Three mutually consistent wild fixes re-anchor onto the third; the correct fixes then
    // re-anchor back after three of their own.
    #expect(outcome.filter.counts.reanchored == 2)
    #expect(outcome.filter.counts[.speed] == 4)
    #expect(outcome.filter.counts.retained == 26)
    let sessions = outcome.retained.map(\.captureSession)
    #expect(Set(sessions).count == 3)
    #expect(sessions.first == ids.first)
    let d = outcome.measured()
    // 9 legs before the burst, 14 after; no metre to or from the wild fix.
    #expect(Tolerance.constructedMeters.accepts(d.meters, (9 + 14) * 15))
    #expect(d.gaps.map(\.kind) == [.sessionChange, .sessionChange])
    #expect(d.gaps.map(\.start) == [F.t0 + 10, F.t0 + 13])
    #expect(d.gaps.map(\.end) == [F.t0 + 13, F.t0 + 16])
    #expect(d.contributingSegmentCount == 2)
    #expect(d.isolatedPositionCount == 1)
  }

  @Test func aLongerRunCanBeRequired() {
    let outcome = Self.wildStart(1...20, configure: { $0.speedRejectionsBeforeReanchoring = 5 }).outcome
    #expect(outcome.reasons.prefix(6) == [nil, .speed, .speed, .speed, .speed, nil])
    #expect(outcome.filter.counts.reanchored == 1)
    #expect(Tolerance.constructedMeters.accepts(outcome.measured().meters, 15 * 15))
  }

  @Test func reanchoredSessionsContinueTheMinterSoTheyNeverClash() {
    let (outcome, first) = Self.wildStart(1...5, configure: { $0.sessionMinter = CaptureSessionMinter(next: 100) })
    #expect(first == CaptureSessionID(100))
    #expect(outcome.retained.last?.captureSession == CaptureSessionID(101))
    #expect(outcome.filter.sessionMinter.next == 102)
  }
}
