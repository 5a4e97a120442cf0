import RouteIngest
import RouteMileage
import Testing

/// The live card (seed 001): its lines, the controls table, and when it goes out.
@Suite("ShiftCard")
struct ShiftCardTests {
  typealias E = ShiftTimeline.Event
  typealias C = ShiftCard.Control

  static func timeline(_ events: [E]) -> ShiftTimeline { try! ShiftTimeline(events) }
  static let running = timeline([E(.start, at: 0)])
  static let paused = timeline([E(.start, at: 0), E(.pause, at: 100)])
  static let parked = timeline([E(.start, at: 0), E(.park, at: 100)])
  static func route(_ meters: Double, partial: Bool = false) -> RouteDistance {
    RouteDistance(
      meters: meters, segments: [RouteSegment(start: 0, end: 1, positionCount: 2, meters: meters)],
      gaps: partial ? [RouteGap(kind: .silence, start: 1, end: 500)] : [], usablePositionCount: 2)
  }

  // MARK: The controls table, every row

  @Test func runningWithNoDeliveryOpen() {
    #expect(ShiftCard.controls(state: .running) == [.startDelivery, .parkVehicle, .pauseShift, .endShift])
  }

  @Test func runningWithExactlyOneDeliveryOpenOffersItsNextStep() {
    #expect(
      ShiftCard.controls(state: .running, openDeliveries: [.toPickup]) == [
        .arrivedAtPickup, .startDelivery, .parkVehicle,
      ])
    #expect(
      ShiftCard.controls(state: .running, openDeliveries: [.atPickup]) == [.pickedUp, .startDelivery, .parkVehicle])
    #expect(
      ShiftCard.controls(state: .running, openDeliveries: [.toCustomer]) == [.delivered, .startDelivery, .parkVehicle])
  }

  @Test func runningWithTwoOrMoreOpenOffersNoStepAndSaysWhy() {
    #expect(
      ShiftCard.controls(state: .running, openDeliveries: [.toPickup, .atPickup]) == [.startDelivery, .parkVehicle])
    let card = ShiftCard(
      timeline: Self.running, route: Self.route(1000), at: 50, openDeliveries: [.toPickup, .toCustomer, .atPickup])
    #expect(card.stepRefusalLine == "Several deliveries are in progress. Record each step against its own delivery.")
  }

  @Test func parkedLeadsWithResumeDrivingAndReplacesParkVehicle() {
    #expect(ShiftCard.controls(state: .parked) == [.resumeDriving, .startDelivery, .pauseShift, .endShift])
    #expect(
      ShiftCard.controls(state: .parked, openDeliveries: [.atPickup]) == [.resumeDriving, .pickedUp, .startDelivery])
    #expect(
      ShiftCard.controls(state: .parked, openDeliveries: [.atPickup, .toPickup]) == [.resumeDriving, .startDelivery])
  }

  @Test func pausedOffersResumeAndEndOnlyNeverTheParkedPair() {
    #expect(ShiftCard.controls(state: .paused) == [.resumeShift, .endShift])
  }

  @Test func exactlyOneOfTheParkedPairWhileRunningNeitherWhilePaused() {
    for state in [ShiftTimeline.State.running, .parked] {
      for deliveries in [[], [ShiftCard.DeliveryStage.toPickup], [.toPickup, .toCustomer]] {
        let controls = ShiftCard.controls(state: state, openDeliveries: deliveries)
        #expect(controls.filter { $0 == .parkVehicle || $0 == .resumeDriving }.count == 1)
      }
    }
    #expect(!ShiftCard.controls(state: .paused).contains(.parkVehicle))
    #expect(!ShiftCard.controls(state: .paused).contains(.resumeDriving))
    #expect(ShiftCard.controls(state: .ended).isEmpty)
  }

  // MARK: The lines

  @Test func linesForEachState() {
    let running = ShiftCard(timeline: Self.running, route: Self.route(7242), at: 600)
    #expect(running.stateLine == "Shift in Progress")
    #expect(running.workingSeconds == 600)
    #expect(running.readAt == 600)
    #expect(running.workingClockRuns)
    #expect(running.routeLine == "4.5 mi recorded")
    #expect(running.parkedLine == nil)

    let parked = ShiftCard(timeline: Self.parked, route: Self.route(7242, partial: true), at: 600)
    #expect(parked.stateLine == "Shift in Progress", "a parked shift keeps running")
    #expect(parked.parkedLine == "Parked · route not recording")
    #expect(parked.workingSeconds == 600, "parked time is working time")
    #expect(parked.routeLine == "4.5 mi recorded · partial route")

    let paused = ShiftCard(timeline: Self.paused, route: Self.route(7242), at: 600)
    #expect(paused.stateLine == "Shift Paused")
    #expect(paused.parkedLine == nil, "a paused shift is never parked")
    #expect(paused.workingSeconds == 100)
    #expect(!paused.workingClockRuns)
    #expect(paused.controls.contains(.endShift), "End stays on the card while paused")
  }

  @Test func nothingOnTheCardNamesAPlaceACoordinateOrAnAmount() {
    let card = ShiftCard(
      timeline: Self.parked, route: Self.route(12_345.678), at: 600, openDeliveries: [.toPickup, .atPickup])
    let words =
      [card.stateLine, card.routeLine, card.parkedLine ?? "", card.stepRefusalLine ?? ""]
      + card.controls.map(\.rawValue)
    for text in words {
      #expect(!text.contains("$") && !text.contains("€") && !text.contains("°"), "\(text)")
      #expect(!text.contains("51.") && !text.contains("12345"), "\(text)")
    }
  }

  // MARK: Cadence

  @Test func theRouteFigureWaitsThirtySecondsOfShiftTime() {
    var cadence = ShiftCardCadence()
    #expect(cadence.update(timeline: Self.running, route: Self.route(1000), at: 10) != nil, "the first card goes out")
    #expect(cadence.update(timeline: Self.running, route: Self.route(1100), at: 20) == nil)
    #expect(cadence.update(timeline: Self.running, route: Self.route(1200), at: 39.9) == nil)
    #expect(cadence.card?.routeLine == "0.6 mi recorded")
    let later = cadence.update(timeline: Self.running, route: Self.route(1300), at: 40)
    #expect(later?.routeLine == "0.8 mi recorded")
    #expect(cadence.update(timeline: Self.running, route: Self.route(1700), at: 69) == nil)
    #expect(cadence.update(timeline: Self.running, route: Self.route(1700), at: 70)?.routeLine == "1.1 mi recorded")
  }

  @Test func workingTimeAloneNeverPushesACard() {
    var cadence = ShiftCardCadence()
    _ = cadence.update(timeline: Self.running, route: Self.route(1000), at: 10)
    for second in stride(from: 11.0, to: 500, by: 1) {
      #expect(cadence.update(timeline: Self.running, route: Self.route(1000), at: second) == nil)
    }
  }

  @Test func changesOfMeaningGoOutAtOnceWhileTheFigureWaits() {
    var cadence = ShiftCardCadence()
    _ = cadence.update(timeline: Self.running, route: Self.route(1000), at: 90)
    // Pausing 1 s later goes out at once; the route figure that moved meanwhile does not.
    let pausedCard = cadence.update(timeline: Self.paused, route: Self.route(1500), at: 101)
    #expect(pausedCard?.stateLine == "Shift Paused")
    #expect(pausedCard?.controls == [.resumeShift, .endShift])
    #expect(pausedCard?.routeLine == "0.6 mi recorded")
    // Resuming, parking, driving again: each at once.
    let resumed = Self.timeline([E(.start, at: 0), E(.pause, at: 100), E(.resume, at: 105)])
    #expect(cadence.update(timeline: resumed, route: Self.route(1500), at: 105)?.stateLine == "Shift in Progress")
    let parked = Self.timeline([E(.start, at: 0), E(.pause, at: 100), E(.resume, at: 105), E(.park, at: 107)])
    #expect(
      cadence.update(timeline: parked, route: Self.route(1500), at: 107)?.parkedLine == "Parked · route not recording")
    let driving = Self.timeline([
      E(.start, at: 0), E(.pause, at: 100), E(.resume, at: 105), E(.park, at: 107), E(.drive, at: 108),
    ])
    let drove = cadence.update(timeline: driving, route: Self.route(1500), at: 108)
    #expect(drove?.parkedLine == nil)
    #expect(drove?.controls.first == .startDelivery)
    #expect(drove?.routeLine == "0.6 mi recorded", "the figure still waits its 30 s")
    // A route that becomes partial is a change of meaning: the marker travels with the figure.
    #expect(
      cadence.update(timeline: driving, route: Self.route(1500, partial: true), at: 109)?.routeLine
        == "0.9 mi recorded · partial route")
  }

  @Test func aDeliveryControlAppearingGoesOutAtOnce() {
    var cadence = ShiftCardCadence()
    _ = cadence.update(timeline: Self.running, route: Self.route(1000), at: 10)
    #expect(
      cadence.update(timeline: Self.running, route: Self.route(1000), at: 11, openDeliveries: [.toPickup])?.controls
        .first == .arrivedAtPickup)
  }

  @Test func endingShowsTheFinalFigureAtOnce() {
    var cadence = ShiftCardCadence()
    _ = cadence.update(timeline: Self.running, route: Self.route(1000), at: 10)
    let ended = Self.timeline([E(.start, at: 0), E(.end, at: 12)])
    let card = cadence.update(timeline: ended, route: Self.route(2000), at: 12)
    #expect(card?.stateLine == "Shift Ended")
    #expect(card?.routeLine == "1.2 mi recorded")
    #expect(card?.controls == [])
  }
}
