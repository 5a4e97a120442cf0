import RouteIngest
import RouteMileage
import ShiftWork
import Testing

/// The card's words, from their one table: the card and `replay` say them, and none names
/// another product.
@Suite("ShiftCardWords")
struct ShiftCardWordsTests {
  static let german = MileageLocale(identifier: "de_DE")

  @Test func theReplayCardCountsBatchesByThePluralRule() {
    #expect(
      ShiftCardWords.samples(captured: 2, rejected: 0, batches: 1, discarded: 0, locale: .english)
        == "Samples: 2 captured · 0 rejected · 1 batch")
    #expect(
      ShiftCardWords.samples(captured: 12_345, rejected: 1, batches: 0, discarded: 0, locale: Self.german)
        == "Samples: 12.345 captured · 1 rejected · 0 batches")
    #expect(
      ShiftCardWords.samples(captured: 40, rejected: 2, batches: 3, discarded: 1, locale: .english)
        == "Samples: 40 captured · 2 rejected · 3 batches (1 discarded)")
  }

  @Test func theCardSaysTheTablesWords() throws {
    typealias E = ShiftTimeline.Event
    let route = RouteDistance()
    let paused = try ShiftTimeline([E(.start, at: 0), E(.pause, at: 100)])
    let parked = try ShiftTimeline([E(.start, at: 0), E(.park, at: 100)])
    let ended = try ShiftTimeline([E(.start, at: 0), E(.end, at: 100)])
    #expect(ShiftCard(timeline: paused, route: route, at: 200).stateLine == ShiftCardWords.paused)
    #expect(ShiftCard(timeline: ended, route: route, at: 200).stateLine == ShiftCardWords.ended)
    let parkedCard = ShiftCard(timeline: parked, route: route, at: 200)
    #expect(parkedCard.stateLine == ShiftCardWords.inProgress)
    #expect(parkedCard.parkedLine == ShiftCardWords.parked)
    #expect(
      ShiftCard(timeline: parked, route: route, at: 200, openDeliveries: [.toPickup, .atPickup]).stepRefusalLine
        == ShiftCardWords.severalDeliveries)
    #expect(ShiftCardWords.inProgress == "Shift in Progress")
    #expect(ShiftCardWords.parked == "Parked · route not recording")
    #expect(
      ShiftCardWords.severalDeliveries
        == "Several deliveries are in progress. Record each step against its own delivery.")
  }

  @Test func noWordOfTheCardNamesAnotherProduct() {
    let words =
      [
        ShiftCardWords.inProgress, ShiftCardWords.paused, ShiftCardWords.ended, ShiftCardWords.parked,
        ShiftCardWords.severalDeliveries, ShiftCardWords.reminderNote,
        ShiftCardWords.pickupReminder(delivery: 1, minutes: 5), ShiftCardWords.arrivalReminder(delivery: 1, minutes: 5),
        ShiftCardWords.stoppedWithCtrlC(at: "0:01:00", kept: nil),
      ] + ShiftCard.Control.allCases.map(\.rawValue)
    for word in words {
      #expect(!word.contains("DashPilot") && !word.hasPrefix("Open "), "\(word)")
    }
  }
}
