import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

/// Scenario 7: a shift's deliveries on a phone that redraws its card at every delivery event.
/// A long shift takes 10,000 deliveries (1,000 with `--quick`), one accepted every 2 minutes and
/// each open for 15 (so seven or eight are stacked at any moment; every tenth is cancelled at
/// its pickup). Each event is applied to the `ShiftLedger`, then the union (delivery active
/// time) and the live card (`ShiftCard(ledger:…)`, counts, lines, controls, reminders) are
/// derived at that instant, as `replay --timeline` does: the per-event cost, p50 and p99, and
/// the whole shift.
///
/// Both derivations are O(*n*) in the deliveries so far, so the whole shift is O(*n*²): the
/// figure is what 10,000 deliveries (about two weeks of non-stop stacked work, far beyond one
/// shift) cost at the last event.
enum LedgerBenchmark {
  static let name = "ledger"

  static func run(quick: Bool, report: inout BenchmarkReport) throws {
    let count = quick ? 1_000 : 10_000
    report.say("\n== 7. ledger (\(count) stacked deliveries; union and card at each event)")
    let start = 1_762_000_000.0
    var events: [(at: Double, event: DeliveryEvent)] = []
    events.reserveCapacity(count * 4)
    for index in 0..<count {
      let label = "d\(index + 1)"
      let accepted = start + 60 + Double(index) * 120
      events.append((accepted, DeliveryEvent(.accept, at: accepted, delivery: label)))
      events.append((accepted + 300, DeliveryEvent(.arrive, at: accepted + 300, delivery: label)))
      if index % 10 == 9 {
        events.append((accepted + 600, DeliveryEvent(.cancel, at: accepted + 600, delivery: label)))
      } else {
        events.append((accepted + 600, DeliveryEvent(.pickup, at: accepted + 600, delivery: label)))
        events.append((accepted + 900, DeliveryEvent(.deliver, at: accepted + 900, delivery: label)))
      }
    }
    // Time order, as a live shift records them; a stable sort keeps each delivery's steps in order.
    events = events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    var ledger = ShiftLedger()
    try ledger.apply(ShiftTimeline.Event(.start, at: start))
    let route = RouteDistance()
    var times: [Double] = []
    times.reserveCapacity(events.count)
    var openLines = 0
    let total = try time {
      for (at, event) in events {
        let elapsed = try time {
          try ledger.apply(event)
          blackHole(ledger.activeDuration(asOf: at))
          let card = ShiftCard(ledger: ledger, route: route, at: at)
          openLines &+= card.deliveryLines.count
        }
        times.append(elapsed)
      }
    }
    blackHole(openLines)
    let end = (events.last?.at ?? start) + 60
    try ledger.apply(ShiftTimeline.Event(.end, at: end))
    let counts = ledger.counts
    guard counts.delivered + counts.cancelled == count, counts.inProgress == 0 else {
      throw BenchmarkError("ledger benchmark: \(counts.total) deliveries finished of \(count)")
    }
    let active = ledger.activeDuration(asOf: end)
    times.sort()
    let p50 = quantile(times, 0.5)
    let p99 = quantile(times, 0.99)
    report.say(
      "  \(events.count) events: p50 \(Format.duration(p50)), p99 \(Format.duration(p99)), whole shift \(Format.duration(total)); "
        + "\(counts.delivered) delivered, \(counts.cancelled) cancelled, delivery active time \(DurationWords.short(active))"
    )
    report.record(name, "event p50 seconds", p50, higherIsBetter: false)
    report.record(name, "event p99 seconds", p99, higherIsBetter: false)
    // The target is on the median: a p99 of a few microseconds' work is the scheduler's time
    // slice on a busy machine, not the ledger's.
    report.target(name, "an event with its union and card under 1 ms at p50 (\(Format.duration(p50)))", met: p50 < 1e-3)
  }
}
