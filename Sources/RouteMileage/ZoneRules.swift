/// A time zone's UTC offsets over time, as the IANA time zone database gives them: the offset
/// in force from each transition on, and the rule that repeats every year after the last one
/// (a TZif file's footer).
///
/// Used to read times written without a zone as local time in a named zone (`--time-zone`);
/// `LocalTimeReading` holds the rule for local times that occur twice or never.
///
/// - Complexity: `offset(at:)` is O(log *n*) in the transitions.
public struct ZoneRules: Sendable, Hashable {
  /// The zone's name (`Europe/London`), for messages.
  public var name: String
  /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
  public var transitions: [Int64]
  /// The offset east of UTC, in seconds, in force from each transition on.
  public var offsets: [Int32]
  /// The offset before the first transition.
  public var initialOffset: Int32
  /// The yearly rule after the last transition; nil when the last offset simply stays.
  public var recurring: RecurringZoneRule?

  public init(name: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, recurring: RecurringZoneRule?)
  {
    precondition(transitions.count == offsets.count, "one offset per transition")
    self.name = name
    self.transitions = transitions
    self.offsets = offsets
    self.initialOffset = initialOffset
    self.recurring = recurring
  }

  /// The offset east of UTC, in seconds, at instant `t` (seconds since 1970, UTC).
  public func offset(at t: Double) -> Int {
    guard let last = transitions.last, t < Double(last) else {
      if let recurring, transitions.last.map({ t >= Double($0) }) ?? true { return recurring.offset(at: t) }
      return Int(offsets.last ?? initialOffset)
    }
    guard t >= Double(transitions[0]) else { return Int(initialOffset) }
    // The last transition at or before t.
    var low = 0
    var high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if Double(transitions[middle]) <= t { low = middle } else { high = middle - 1 }
    }
    return Int(offsets[low])
  }
}

/// A POSIX TZ rule (`GMT0BST,M3.5.0/1,M10.5.0`): a standard offset and, optionally, a daylight
/// offset in force between two yearly dates.
public struct RecurringZoneRule: Sendable, Hashable {
  /// A day of the year as POSIX TZ writes it.
  public enum Day: Sendable, Hashable {
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1–5, 5 = the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
    /// `Jn`: day 1–365, February 29 never counted.
    case julian(Int)
    /// `n`: day 0–365, February 29 counted in leap years.
    case zeroBased(Int)

    /// The day's number since 1970 in `year`.
    func daysSinceEpoch(year: Int) -> Int {
      let january1 = CivilTime.daysSinceEpoch(year: year, month: 1, day: 1)
      switch self {
      case .julian(let day):
        let leap = CivilTime.isValidDate(year: year, month: 2, day: 29)
        return january1 + day - 1 + (leap && day >= 60 ? 1 : 0)
      case .zeroBased(let day):
        return january1 + day
      case .monthWeekDay(let month, let week, let weekday):
        let first = CivilTime.daysSinceEpoch(year: year, month: month, day: 1)
        // 1970-01-01 was a Thursday (4).
        let firstWeekday = ((first + 4) % 7 + 7) % 7
        var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
        while day > 28, !CivilTime.isValidDate(year: year, month: month, day: day) { day -= 7 }
        return first + day - 1
      }
    }
  }

  /// Seconds east of UTC.
  public var standardOffset: Int
  /// Seconds east of UTC while daylight saving is in force; nil for a zone without it.
  public var daylightOffset: Int?
  public var start: Day
  /// Seconds after local midnight (standard time) at which daylight saving starts.
  public var startTime: Int
  public var end: Day
  /// Seconds after local midnight (daylight time) at which it ends.
  public var endTime: Int

  public init(standardOffset: Int, daylightOffset: Int?, start: Day, startTime: Int, end: Day, endTime: Int) {
    self.standardOffset = standardOffset
    self.daylightOffset = daylightOffset
    self.start = start
    self.startTime = startTime
    self.end = end
    self.endTime = endTime
  }

  /// The offset at instant `t`. O(1).
  public func offset(at t: Double) -> Int {
    guard let daylight = daylightOffset else { return standardOffset }
    let year = CivilTime.date(daysSinceEpoch: Int(((t + Double(standardOffset)) / 86_400).rounded(.down))).year
    let starts = Double(start.daysSinceEpoch(year: year) * 86_400 + startTime - standardOffset)
    let ends = Double(end.daysSinceEpoch(year: year) * 86_400 + endTime - daylight)
    let inDaylight = starts < ends ? (t >= starts && t < ends) : !(t >= ends && t < starts)
    return inDaylight ? daylight : standardOffset
  }
}
