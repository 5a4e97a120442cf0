import RouteMileage
import Testing

/// The walk against a shift timeline: pauses and parks are gaps of their own kind, positions
/// inside them and outside [start, end] are counted and not measured.
@Suite("Measuring with a timeline")
struct TimelineMeasurementTests {
  typealias F = Fixture
  typealias E = ShiftTimeline.Event

  /// Start at 0 s, pause 600–900 s, park 1200–1500 s, end 1800 s (seconds after t0).
  static let timeline = try! ShiftTimeline([
    E(.start, at: F.t0), E(.pause, at: F.t0 + 600), E(.resume, at: F.t0 + 900), E(.park, at: F.t0 + 1200),
    E(.drive, at: F.t0 + 1500), E(.end, at: F.t0 + 1800),
  ])

  /// One session, a fix every 5 s from 300 s before the start to 300 s after the end.
  static var continuousFixes: [RoutePosition] {
    F.drive(count: 2400 / 5 + 1, from: -300, step: 5, speed: 10, session: 1)
  }

  @Test func pausesAndParksAreGapsOfTheirOwnKindEvenWhenFixesContinue() {
    let distance = RouteMileageCalculator().distance(of: Self.continuousFixes, timeline: Self.timeline)
    #expect(distance.gaps.map(\.kind) == [.pause, .parked])
    #expect(distance.gaps.map(\.start) == [F.t0 + 600, F.t0 + 1200])
    #expect(distance.gaps.map(\.end) == [F.t0 + 900, F.t0 + 1500])
    #expect(distance.contributingSegmentCount == 3)
    // 300 s before start and after end, each 60 fixes (the boundary fixes are inside).
    #expect(distance.positionsOutsideWindow == 120)
    // Strictly inside the pause (600, 900) and park (1200, 1500): 59 fixes each.
    #expect(distance.positionsInsidePause == 59)
    #expect(distance.positionsWhileParked == 59)
    // Three stretches of 600, 300 and 300 s at 10 m/s.
    let expected =
      F.pathMeters(Self.continuousFixes.filter { $0.timestamp >= F.t0 && $0.timestamp <= F.t0 + 600 })
      + F.pathMeters(Self.continuousFixes.filter { $0.timestamp >= F.t0 + 900 && $0.timestamp <= F.t0 + 1200 })
      + F.pathMeters(Self.continuousFixes.filter { $0.timestamp >= F.t0 + 1500 && $0.timestamp <= F.t0 + 1800 })
    #expect(distance.meters == expected)
    #expect(distance.isPartial)
  }

  @Test func aSilenceBetweenTheLastFixAndAPauseIsAGapToo() {
    // Fixes stop 300 s before the pause and come back 300 s after the resume.
    let fixes = Self.continuousFixes.filter {
      ($0.timestamp >= F.t0 && $0.timestamp <= F.t0 + 300)
        || ($0.timestamp >= F.t0 + 1200 - 0 && $0.timestamp <= F.t0 + 1800)
    }
    let pauseOnly = try! ShiftTimeline([
      E(.start, at: F.t0), E(.pause, at: F.t0 + 600), E(.resume, at: F.t0 + 900), E(.end, at: F.t0 + 1800),
    ])
    let distance = RouteMileageCalculator().distance(of: fixes, timeline: pauseOnly)
    #expect(distance.gaps.map(\.kind) == [.silence, .pause, .silence])
    #expect(distance.gaps.map(\.duration) == [300, 300, 300])
  }

  @Test func windowGapsComeFromTheTimeline() {
    let fixes = Self.continuousFixes.filter { $0.timestamp >= F.t0 + 300 && $0.timestamp <= F.t0 + 500 }
    let timeline = try! ShiftTimeline([E(.start, at: F.t0), E(.end, at: F.t0 + 1800)])
    let distance = RouteMileageCalculator().distance(of: fixes, timeline: timeline)
    #expect(distance.gaps.map(\.kind) == [.windowStart, .windowEnd])
  }

  @Test func anyChunkingAndALiveTimelineGiveTheOnePassFigure() {
    let onePass = RouteMileageCalculator().distance(of: Self.continuousFixes, timeline: Self.timeline)
    // Live: the walk learns each event when it happens, and positions arrive in time order.
    var live = RouteMileageAccumulator(timeline: try! ShiftTimeline([E(.start, at: F.t0)]))
    var known = try! ShiftTimeline([E(.start, at: F.t0)])
    var pending = Self.timeline.events.dropFirst()
    for position in Self.continuousFixes {
      while let event = pending.first, event.at <= position.timestamp {
        try! known.apply(event)
        live.extendTimeline(known)
        pending.removeFirst()
      }
      live.append(position)
    }
    #expect(live.distance == onePass)
  }

  @Test func withoutATimelineNothingChanges() {
    let fixes = Self.continuousFixes
    #expect(RouteMileageAccumulator(timeline: nil).distance == RouteMileageAccumulator().distance)
    var a = RouteMileageAccumulator(timeline: nil)
    a.append(contentsOf: fixes)
    #expect(a.distance == RouteMileageCalculator().distance(of: fixes))
  }
}
