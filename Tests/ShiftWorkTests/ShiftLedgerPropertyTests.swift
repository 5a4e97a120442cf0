import RouteMileage
import RouteTestSupport
import ShiftWork
import Testing

/// Random stacked shifts: the ledger against independent references.
@Suite("ShiftLedger properties")
struct ShiftLedgerPropertyTests {
  typealias S = ShiftTimeline.Event
  typealias D = DeliveryEvent

  /// A valid random shift in whole seconds: running stretches separated by pauses, parks inside
  /// them, and stacked deliveries that start and finish inside one running stretch (some left
  /// open in the last stretch when the shift is still running).
  struct RandomShift {
    /// The running stretches' events, each block: its shift events (start or resume first, then
    /// parks and drives) and its deliveries' events, each delivery's in lifecycle order.
    var blocks: [(shift: [S], deliveries: [[D]])] = []
    /// The pauses between blocks and the end, after each block.
    var closers: [S?] = []
    var start: Double
    var end: Double?

    init(random: inout SeededRandom, ended: Bool) {
      var clock = 1_762_243_200.0
      start = clock
      let blockCount = 1 + random.below(3)
      var label = 0
      for block in 0..<blockCount {
        let length = Double(1800 + random.below(4 * 3600))
        let blockStart = clock
        let blockEnd = clock + length
        var shiftEvents = [S(block == 0 ? .start : .resume, at: blockStart)]
        if random.chance(0.6) {
          let parkAt = blockStart + Double(random.below(Int(length) / 2))
          shiftEvents.append(S(.park, at: parkAt))
          shiftEvents.append(S(.drive, at: parkAt + Double(random.below(Int(length) / 3))))
        }
        var deliveries: [[D]] = []
        let isLast = block == blockCount - 1
        for _ in 0..<random.below(8) {
          label += 1
          let name = "d\(label)"
          let offer: String? = random.chance(0.3) ? "o\(label % 3)-\(block)" : nil
          var at = blockStart + Double(random.below(Int(length)))
          var events = [D(.accept, at: at, delivery: name, offer: offer)]
          let leaveOpen = isLast && !ended && random.chance(0.3)
          let stage = random.below(4)
          for kind in [D.Kind.arrive, .pickup, .deliver].prefix(stage) {
            let next = at + Double(random.below(1200))
            if next > blockEnd { break }
            at = next
            events.append(D(kind, at: at, delivery: name))
          }
          if !leaveOpen && events.last?.kind != .deliver {
            events.append(D(.cancel, at: min(blockEnd, at + Double(random.below(900))), delivery: name))
          }
          deliveries.append(events)
        }
        blocks.append((shiftEvents, deliveries))
        clock = blockEnd
        if isLast {
          closers.append(ended ? S(.end, at: blockEnd) : nil)
          end = ended ? blockEnd : nil
        } else {
          closers.append(S(.pause, at: blockEnd))
          clock = blockEnd + Double(60 + random.below(1800))
        }
      }
    }

    /// Every event in time order, shift events before delivery events at one instant within a
    /// block (a start or resume comes first) and closers last.
    var sorted: [ShiftWorkEvent] {
      var events: [ShiftWorkEvent] = []
      for (index, block) in blocks.enumerated() {
        var inBlock =
          block.shift.map { ShiftWorkEvent.shift($0) }
          + block.deliveries.flatMap { $0.map { ShiftWorkEvent.delivery($0) } }
        // A stable sort: ties keep shift events first and each delivery's steps in order.
        inBlock = inBlock.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        events += inBlock
        if let closer = closers[index] { events.append(.shift(closer)) }
      }
      return events
    }

    /// A random interleaving that keeps the shift's events in order and each delivery's steps
    /// in order, mixing each block's deliveries and parks freely.
    func shuffled(_ random: inout SeededRandom) -> [ShiftWorkEvent] {
      var events: [ShiftWorkEvent] = []
      for (index, block) in blocks.enumerated() {
        var queues: [[ShiftWorkEvent]] = block.deliveries.map { $0.map { .delivery($0) } }
        var shiftQueue = block.shift.dropFirst().map { ShiftWorkEvent.shift($0) }
        events.append(.shift(block.shift[0]))
        queues.append(shiftQueue)
        shiftQueue = []
        while queues.contains(where: { !$0.isEmpty }) {
          let candidates = queues.indices.filter { !queues[$0].isEmpty }
          let pick = candidates[random.below(candidates.count)]
          events.append(queues[pick].removeFirst())
        }
        if let closer = closers[index] { events.append(.shift(closer)) }
      }
      return events
    }

    var intervals: [(start: Double, end: Double?)] {
      blocks.flatMap { $0.deliveries }.map { events in
        let terminal = events.last.flatMap { $0.kind == .deliver || $0.kind == .cancel ? $0.at : nil }
        return (events[0].at, terminal)
      }
    }
  }

  static func build(_ events: [ShiftWorkEvent]) throws(LedgerRefusal) -> ShiftLedger {
    var ledger = ShiftLedger()
    for event in events { try ledger.apply(event) }
    return ledger
  }

  @Test func anyOrderTheRulesAcceptGivesTheSameLedger() throws {
    var random = SeededRandom(seed: 24)
    for trial in 0..<200 {
      let shift = RandomShift(random: &random, ended: trial % 2 == 0)
      let reference = try Self.build(shift.sorted)
      for _ in 0..<5 {
        let order = shift.shuffled(&random)
        #expect(try Self.build(order) == reference)
      }
    }
  }

  @Test func activeTimeEqualsABruteForcePerSecondCountAndNeverExceedsElapsed() throws {
    var random = SeededRandom(seed: 2400)
    for trial in 0..<150 {
      let shift = RandomShift(random: &random, ended: trial % 3 != 0)
      let ledger = try Self.build(shift.sorted)
      let lastEvent = ledger.readingInstant
      // Read at the end, at the last event, and at a random instant inside the shift.
      let inside = shift.start + Double(random.below(max(1, Int(lastEvent - shift.start))))
      for instant in [lastEvent, inside, lastEvent + 600] {
        // One flag a second: a second is active when some delivery covers all of it.
        var active = [Bool](repeating: false, count: max(0, Int(instant - shift.start)))
        for interval in shift.intervals where interval.start < instant {
          let end = min(interval.end ?? instant, instant)
          for second in Int(
            interval.start - shift.start)..<max(Int(interval.start - shift.start), Int(end - shift.start))
          {
            active[second] = true
          }
        }
        let covered = active.count { $0 }
        let union = ledger.activeDuration(asOf: instant)
        #expect(union == Double(covered), "trial \(trial)")
        #expect(union <= ledger.timeline.elapsedDuration(asOf: instant))
        #expect(ledger.nonDeliveryDuration(asOf: instant) == ledger.timeline.elapsedDuration(asOf: instant) - union)
      }
    }
  }
}
