/// Reads a recording's times written without a zone as local time in one zone, in file order.
///
/// Most local times name one instant. Two kinds do not, once a year each:
///
/// - **skipped** (the hour clocks jump over in spring): no instant has that local time; it is
///   read with the offset in force before the change (a clock not yet moved on), so it lands
///   just after the change;
/// - **repeated** (the hour clocks go through twice in autumn): it is read as its first pass,
///   unless the recording's previous zone-less time, as read, lies more than half the change
///   after that reading — the times stepped back by about the size of the change, so the clock
///   has just been turned back and this is the second pass. A recording that runs through the
///   change therefore reads as one continuous drive, and a fix a few seconds out of order
///   inside the repeated hour stays where it is.
///
/// The rule needs the file's order, so each feed gets its own reading.
///
/// - Complexity: O(log *n*) per time in the zone's transitions.
public struct LocalTimeReading: Sendable {
  public let zone: ZoneRules
  /// The last instant read, in file order.
  private var previous: Double?

  public init(zone: ZoneRules) { self.zone = zone }

  /// The instant (seconds since 1970, UTC) of `local`, a local time written as if it were UTC
  /// (the seconds a zone-less timestamp parses to).
  public mutating func instant(local: Double) -> Double {
    let instant = resolve(local)
    previous = instant
    return instant
  }

  private func resolve(_ local: Double) -> Double {
    // Offsets a day either side: a zone changes at most once in two days.
    let before = zone.offset(at: local - 86_400)
    let after = zone.offset(at: local + 86_400)
    if before == after { return local - Double(before) }
    let early = local - Double(before)
    let late = local - Double(after)
    let earlyValid = zone.offset(at: early) == before
    let lateValid = zone.offset(at: late) == after
    switch (earlyValid, lateValid) {
    case (true, true):
      // Repeated: `first` is the earlier instant, `second` the later.
      let first = min(early, late)
      let second = max(early, late)
      if let previous, previous - first > (second - first) / 2 { return second }
      return first
    case (true, false): return early
    case (false, true): return late
    case (false, false): return early  // skipped: the offset before the change
    }
  }
}
