import RouteMileage
import Testing

/// The shift's lifecycle: refusals, ending, working time, capture intervals (seeds 000, 001).
@Suite("ShiftTimeline")
struct ShiftTimelineTests {
  typealias E = ShiftTimeline.Event
  static let h = 3600.0
  static let t0 = Fixture.t0

  /// 08:00 start, 10:00–10:20 pause, 11:00–11:10 park, 12:00 end (as hours after t0 - 8 h).
  static func day() throws -> ShiftTimeline {
    try ShiftTimeline([
      E(.start, at: t0), E(.pause, at: t0 + 2 * h), E(.resume, at: t0 + 2 * h + 1200),
      E(.park, at: t0 + 3 * h), E(.drive, at: t0 + 3 * h + 600), E(.end, at: t0 + 4 * h),
    ])
  }

  @Test func workingTimeIsElapsedLessPausedAndParkedTimeIsWorkingTime() throws {
    let timeline = try Self.day()
    #expect(timeline.state == .ended)
    #expect(timeline.workingDuration(asOf: Self.t0 + 4 * Self.h) == 13_200)
    #expect(timeline.pausedDuration(asOf: Self.t0 + 4 * Self.h) == 1_200)
    #expect(timeline.parkedDuration(asOf: Self.t0 + 4 * Self.h) == 600)
    // After the end nothing grows; before the start nothing has.
    #expect(timeline.workingDuration(asOf: Self.t0 + 9 * Self.h) == 13_200)
    #expect(timeline.workingDuration(asOf: Self.t0 - 60) == 0)
    // During the pause the working figure stands still; during the park it runs.
    #expect(timeline.workingDuration(asOf: Self.t0 + 2 * Self.h + 600) == 7_200)
    #expect(timeline.workingDuration(asOf: Self.t0 + 3 * Self.h + 300) == 3 * Self.h - 1_200 + 300)
    #expect(timeline.pauseCount == 1)
    #expect(timeline.parkCount == 1)
    #expect(timeline.window == ShiftWindow(start: Self.t0, end: Self.t0 + 4 * Self.h))
    #expect(timeline.readingInstant == Self.t0 + 4 * Self.h)
  }

  @Test func aRunningShiftIsReadAtItsLastEvent() throws {
    let running = try ShiftTimeline([E(.start, at: Self.t0), E(.pause, at: Self.t0 + Self.h)])
    #expect(running.end == nil)
    #expect(running.readingInstant == Self.t0 + Self.h)
    #expect(try ShiftTimeline([]).readingInstant == 0)
  }

  @Test func captureRunsWhileRunningAndNotParked() throws {
    let timeline = try Self.day()
    let t0 = Self.t0
    let h = Self.h
    #expect(
      timeline.captureIntervals == [
        .init(start: t0, end: t0 + 2 * h), .init(start: t0 + 2 * h + 1200, end: t0 + 3 * h),
        .init(start: t0 + 3 * h + 600, end: t0 + 4 * h),
      ])
    #expect(
      timeline.interruptions == [
        .init(kind: .pause, start: t0 + 2 * h, end: t0 + 2 * h + 1200),
        .init(kind: .park, start: t0 + 3 * h, end: t0 + 3 * h + 600),
      ])
    #expect(timeline.placement(of: t0 - 1) == .beforeStart)
    #expect(timeline.placement(of: t0) == .capturing(0))
    // Capture intervals are closed: the instant of a pause or resume belongs to capture.
    #expect(timeline.placement(of: t0 + 2 * h) == .capturing(0))
    #expect(timeline.placement(of: t0 + 2 * h + 1) == .paused)
    #expect(timeline.placement(of: t0 + 2 * h + 1200) == .capturing(1))
    #expect(timeline.placement(of: t0 + 3 * h + 5) == .parked)
    #expect(timeline.placement(of: t0 + 4 * h) == .capturing(2))
    #expect(timeline.placement(of: t0 + 4 * h + 1) == .afterEnd)
    #expect(timeline.state(at: t0 + 2 * h + 5) == .paused)
    #expect(timeline.state(at: t0 + 3 * h + 5) == .parked)
    #expect(timeline.state(at: t0 + 3 * h + 600) == .running)
    #expect(timeline.state(at: t0 + 4 * h) == .ended)
  }

  @Test func endingAPausedShiftClosesThePauseAtTheEndInstant() throws {
    let timeline = try ShiftTimeline([E(.start, at: 0), E(.pause, at: 100), E(.end, at: 400)])
    #expect(timeline.interruptions == [.init(kind: .pause, start: 100, end: 400)])
    #expect(timeline.workingDuration(asOf: 1_000) == 100)
    #expect(timeline.window == ShiftWindow(start: 0, end: 400))
  }

  @Test func endingAParkedShiftEndsThePark() throws {
    let timeline = try ShiftTimeline([E(.start, at: 0), E(.park, at: 100), E(.end, at: 400)])
    #expect(timeline.interruptions == [.init(kind: .park, start: 100, end: 400)])
    #expect(timeline.workingDuration(asOf: 400) == 400)
    #expect(timeline.captureIntervals == [.init(start: 0, end: 100)])
  }

  @Test func pausingAParkedShiftEndsTheParkForAPausedShiftIsNeverParked() throws {
    let timeline = try ShiftTimeline([
      E(.start, at: 0), E(.park, at: 100), E(.pause, at: 200), E(.resume, at: 300), E(.end, at: 400),
    ])
    #expect(
      timeline.interruptions == [.init(kind: .park, start: 100, end: 200), .init(kind: .pause, start: 200, end: 300)])
    #expect(timeline.captureIntervals == [.init(start: 0, end: 100), .init(start: 300, end: 400)])
    #expect(timeline.workingDuration(asOf: 400) == 300)
  }

  @Test func aRunningShiftHasNoWindowAndItsWorkingTimeGrows() throws {
    let timeline = try ShiftTimeline([E(.start, at: 0), E(.pause, at: 100)])
    #expect(timeline.window == nil)
    #expect(timeline.state == .paused)
    #expect(timeline.workingDuration(asOf: 500) == 100)
    #expect(timeline.pausedDuration(asOf: 500) == 400)
  }

  /// Every refusal, with the event it collides with.
  @Test(arguments: [
    (
      [E(.start, at: 0), E(.pause, at: 10)], E(.pause, at: 20), ShiftTimeline.Refusal.Rule.pauseWhilePaused,
      E(.pause, at: 10)
    ),
    ([E(.start, at: 0), E(.pause, at: 10)], E(.park, at: 20), .parkWhilePaused, E(.pause, at: 10)),
    ([E(.start, at: 0), E(.park, at: 10)], E(.park, at: 20), .parkWhileParked, E(.park, at: 10)),
    ([E(.start, at: 0), E(.park, at: 10)], E(.resume, at: 20), .resumeWhenNotPaused, E(.park, at: 10)),
    ([E(.start, at: 0)], E(.resume, at: 20), .resumeWhenNotPaused, E(.start, at: 0)),
    ([E(.start, at: 0)], E(.drive, at: 20), .driveWhenNotParked, E(.start, at: 0)),
    ([E(.start, at: 0), E(.pause, at: 10)], E(.drive, at: 20), .driveWhenNotParked, E(.pause, at: 10)),
    ([E(.start, at: 0)], E(.start, at: 20), .secondStart, E(.start, at: 0)),
    ([E(.start, at: 100)], E(.pause, at: 50), .beforeStart, E(.start, at: 100)),
    ([E(.start, at: 0), E(.pause, at: 50)], E(.resume, at: 40), .outOfOrder, E(.pause, at: 50)),
    ([E(.start, at: 0), E(.end, at: 50)], E(.pause, at: 60), .afterEnd, E(.end, at: 50)),
    ([E(.start, at: 0), E(.end, at: 50)], E(.start, at: 60), .afterEnd, E(.end, at: 50)),
  ])
  func refusalsNameTheEventTheyCollideWith(
    before: [E], refused: E, rule: ShiftTimeline.Refusal.Rule, collidesWith: E
  ) throws {
    var timeline = try ShiftTimeline(before)
    let unchanged = timeline
    #expect(throws: ShiftTimeline.Refusal(rule, event: refused, collidesWith: collidesWith)) {
      try timeline.apply(refused)
    }
    #expect(timeline == unchanged, "a refused event changes nothing")
    let refusal = try #require(timeline.refusal(of: refused))
    #expect(refusal.description.contains("the \(collidesWith.kind.rawValue)"))
  }

  @Test func anyEventBeforeTheStartIsRefused() {
    for kind in ShiftTimeline.Event.Kind.allCases where kind != .start {
      #expect(throws: ShiftTimeline.Refusal(.notStarted, event: E(kind, at: 5), collidesWith: nil)) {
        _ = try ShiftTimeline([E(kind, at: 5)])
      }
    }
  }
}
