import RouteMileage
import Testing

/// The one decision of where a position lies on the shift's timeline, and the walk's use of it.
@Suite struct TimelinePlacerTests {
  typealias E = ShiftTimeline.Event

  /// start 0, pause 100–200, park 300–400, end 500.
  static func timeline() throws -> ShiftTimeline {
    try ShiftTimeline([
      E(.start, at: 0), E(.pause, at: 100), E(.resume, at: 200), E(.park, at: 300), E(.drive, at: 400),
      E(.end, at: 500),
    ])
  }

  @Test func placesEveryInstantAsTheTimelineDoesInAnyOrder() throws {
    let timeline = try Self.timeline()
    var placer = TimelinePlacer(timeline)
    // Out of order on purpose, and the cached interval's edges: the cache never changes an answer.
    let instants: [Double] = [50, 0, 100, 99.5, 150, 200, 250, 300, 350, 400, 450, 500, 501, -1, 120, 60, 410]
    for instant in instants {
      #expect(placer.place(instant) == timeline.placement(of: instant), "at \(instant)")
    }
    #expect(placer.place(150) == .paused)
    #expect(placer.place(350) == .parked)
    #expect(placer.place(-1) == .beforeStart)
    #expect(placer.place(501) == .afterEnd)
  }

  @Test func aLaterReadingOfTheShiftIsLookedUpAgain() throws {
    let running = try ShiftTimeline([E(.start, at: 0)])
    var placer = TimelinePlacer(running)
    #expect(placer.place(600) == .capturing(0))
    placer.extend(try Self.timeline())
    #expect(placer.place(600) == .afterEnd)
  }

  /// The ingest's answer is the walk's: a position it placed in a pause, handed over with that
  /// placement, is counted as the walk counts one it places itself.
  @Test func theWalkCountsAPositionPlacedForItAsItsOwn() throws {
    let timeline = try Self.timeline()
    var handed = RouteMileageAccumulator(timeline: timeline)
    var own = RouteMileageAccumulator(timeline: timeline)
    for instant: Double in [10, 150, 350, 600] {
      let position = RoutePosition(timestamp: instant, latitude: 45, longitude: -73)
      let placed = handed.placeOnTimeline(instant)
      let placement = try #require(placed)
      if case .capturing = placement {
        handed.append(position)
      } else {
        handed.appendOutsideCapture(position, placement: placement)
      }
      own.append(position)
    }
    #expect(handed.distance == own.distance)
    #expect(handed.distance.positionsInsidePause == 1)
    #expect(handed.distance.positionsWhileParked == 1)
    #expect(handed.distance.positionsOutsideWindow == 1)
  }
}
