import ShiftWork
import Testing

/// Money is exact integer minor units; an hourly figure is one delivery's own.
@Suite("Money")
struct MoneyTests {
  @Test(arguments: [
    ("12.34", 1234), ("12.3", 1230), ("12", 1200), ("0.01", 1), ("0", 0), ("007.50", 750), ("999999999999.99", -1),
  ])
  func parsesExactly(text: String, minorUnits: Int64) throws {
    if minorUnits < 0 {
      #expect(throws: Money.Refusal.tooLarge) { try Money(parsing: text) }
    } else {
      #expect(try Money(parsing: text).minorUnits == minorUnits)
    }
  }

  @Test func printsWithTheCurrencysDecimals() throws {
    #expect(try Money(parsing: "12.3").description == "12.30")
    #expect(try Money(parsing: "0.05").description == "0.05")
    #expect(Money(minorUnits: 100_000).description == "1000.00")
    // 0.1 + 0.2 in minor units is 0.30 exactly (a Double would give 0.30000000000000004).
    let sum = try Money(parsing: "0.1").minorUnits + Money(parsing: "0.2").minorUnits
    #expect(Money(minorUnits: sum).description == "0.30")
  }

  @Test(arguments: ["12.345", "0.001"])
  func refusesMoreDecimalsThanTheCurrencyHas(text: String) {
    #expect(throws: Money.Refusal.tooManyDecimals(digits: 3)) { try Money(parsing: text) }
    #expect(Money.Refusal.tooManyDecimals(digits: 3).description == "an amount has at most 2 decimals; this one has 3")
  }

  @Test(arguments: ["", ".", "12.", ".5", "-1", "+1", "1e3", "1,50", " 1", "1.2.3", "12,34", "NaN", "١٢"])
  func refusesWhatIsNotADecimal(text: String) {
    #expect(throws: Money.Refusal.notADecimal) { try Money(parsing: text) }
  }

  @Test func earnedPerDeliveryHourIsAmountPlusTipsOverItsOwnInterval() throws {
    // 45 min accepted to delivered, 9.00 + 1.50 tips: 10.50 / 0.75 h = 14.00/h.
    var delivery = Delivery(label: "d1", acceptedAt: 0, arrivedAtPickupAt: 600, pickedUpAt: 900, deliveredAt: 2700)
    #expect(delivery.earnedPerDeliveryHour == nil)  // absent, never zero
    delivery = Delivery(
      label: "d1", acceptedAt: 0, arrivedAtPickupAt: 600, pickedUpAt: 900, deliveredAt: 2700,
      amount: try Money(parsing: "9"),
      tips: try Money(parsing: "1.50"))
    #expect(delivery.earnedPerDeliveryHour?.minorUnitsPerHour == 1400)
    #expect(delivery.earnedPerDeliveryHour?.description == "14.00/h")
    // Tips alone are not an amount: no figure.
    let tipsOnly = Delivery(
      label: "d2", acceptedAt: 0, arrivedAtPickupAt: 1, pickedUpAt: 2, deliveredAt: 3600, tips: Money(minorUnits: 300))
    #expect(tipsOnly.earnedPerDeliveryHour == nil)
    // Never for a cancelled delivery, whatever it holds.
    let cancelled = Delivery(label: "d3", acceptedAt: 0, cancelledAt: 3600, amount: Money(minorUnits: 500))
    #expect(cancelled.earnedPerDeliveryHour == nil)
    // Rounded half to even at the minor unit: 1.00 over 7 minutes = 8.5714…/h → 8.57/h.
    let odd = Delivery(
      label: "d4", acceptedAt: 0, arrivedAtPickupAt: 60, pickedUpAt: 120, deliveredAt: 420,
      amount: Money(minorUnits: 100))
    #expect(odd.earnedPerDeliveryHour?.minorUnitsPerHour == 857)
    // 0.01 over 2 h is 0.005/h, a tie: to even, 0.00/h; 0.03 over 2 h is 0.015/h → 0.02/h.
    let tie = Delivery(
      label: "d5", acceptedAt: 0, arrivedAtPickupAt: 1, pickedUpAt: 2, deliveredAt: 7200, amount: Money(minorUnits: 1))
    #expect(tie.earnedPerDeliveryHour?.minorUnitsPerHour == 0)
    let tie3 = Delivery(
      label: "d6", acceptedAt: 0, arrivedAtPickupAt: 1, pickedUpAt: 2, deliveredAt: 7200, amount: Money(minorUnits: 3))
    #expect(tie3.earnedPerDeliveryHour?.minorUnitsPerHour == 2)
    // A zero-length interval has no hour to divide by.
    let instant = Delivery(
      label: "d7", acceptedAt: 5, arrivedAtPickupAt: 5, pickedUpAt: 5, deliveredAt: 5, amount: Money(minorUnits: 100))
    #expect(instant.earnedPerDeliveryHour == nil)
  }
}

/// A place's wait history: count, median (even count: mean of the two middle), shortest, longest.
@Suite("PickupWaitHistory")
struct PickupWaitHistoryTests {
  @Test func anEvenCountsMedianIsTheMeanOfTheTwoMiddleWaits() {
    let history = PickupWaitHistory(waits: [600, 120, 300, 900])
    #expect(history.count == 4)
    #expect(history.medianSeconds == 450)
    #expect(history.shortestSeconds == 120)
    #expect(history.longestSeconds == 900)
    let odd = PickupWaitHistory(waits: [600, 120, 300])
    #expect(odd.medianSeconds == 300)
    let none = PickupWaitHistory(waits: [])
    #expect(none.count == 0 && none.medianSeconds == nil && none.shortestSeconds == nil && none.longestSeconds == nil)
  }

  @Test func onlyDeliveriesThatRecordedBothEndsAtThatPlaceCount() throws {
    let noodles = try PickupPlaceName("Nowhere Noodles")
    let diner = try PickupPlaceName("Example Diner")
    let deliveries = [
      Delivery(label: "a", acceptedAt: 0, arrivedAtPickupAt: 100, pickedUpAt: 400, deliveredAt: 900, place: noodles),
      // wait never ended
      Delivery(label: "b", acceptedAt: 0, arrivedAtPickupAt: 100, cancelledAt: 2000, place: noodles),
      Delivery(
        label: "c", acceptedAt: 0, arrivedAtPickupAt: 50, pickedUpAt: 150, cancelledAt: 300,
        place: try PickupPlaceName("NOWHERE  noodles")),
      Delivery(label: "d", acceptedAt: 0, arrivedAtPickupAt: 0, pickedUpAt: 5000, deliveredAt: 6000, place: diner),
      Delivery(label: "e", acceptedAt: 0, arrivedAtPickupAt: 0, pickedUpAt: 7000, deliveredAt: 8000),
    ]
    let history = PickupWaitHistory(place: noodles.key, in: deliveries)
    #expect(history.count == 2)
    #expect(history.medianSeconds == 200)
    #expect(history.shortestSeconds == 100)
    #expect(history.longestSeconds == 300)
  }
}
