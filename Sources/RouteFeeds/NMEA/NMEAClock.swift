import RouteMileage

/// Turns the times of day NMEA sentences carry into dates and capture sessions.
///
/// Sentences carry a UTC time of day; only RMC (`ddmmyy`) and ZDA carry a date. The clock
/// keeps a *relative* day count that starts at 0 on the first epoch and advances at each
/// midnight, so every epoch can be placed before any date is known; the first date the feed
/// gives (or `--date`) fixes `offsetDays`, turning relative days into real ones, for the epochs
/// before it as well as after.
///
/// - **Midnight.** Consecutive epochs are taken to be the nearest interpretation apart: a time
///   of day more than 12 hours *earlier* than the last is the next day (23:59:59 → 00:00:01
///   is 2 s later); one more than 12 hours *later* is the day before (a sentence a few
///   seconds late across midnight). An epoch whose RMC (status A) carries a date is placed on
///   that date instead, once the calendar is fixed (a receiver off for more than 12 hours).
/// - **Sessions.** Each file starts session 0. An epoch starts the next session when it is
///   earlier than the one before (time running backwards other than at midnight), or when more
///   than `maximumSampleInterval` seconds passed since the last time-bearing sentence (epoch or
///   ZDA), fix or no fix: the receiver stopped talking.
///
/// O(1) per epoch and O(1) memory.
struct NMEAClock {
  /// An epoch placed on the clock.
  struct Placement {
    /// Relative day; add `offsetDays` for days since 1970-01-01.
    var day: Int
    var timeOfDay: Int64
    var session: Int
  }

  let maximumSampleInterval: Double
  /// True when `--date` fixed the start date: the feed's own dates are then not read.
  let dateIsGiven: Bool
  /// Real day = relative day + this; nil until the feed or `--date` says.
  private(set) var offsetDays: Int?

  private var placedAny = false
  /// The last epoch placed: relative day, time of day (µs), and seconds on the relative clock.
  private var day = 0
  private var timeOfDay: Int64 = 0
  private var lastSeconds = 0.0
  /// The latest time heard on the relative clock (an epoch or a ZDA), for silences.
  private var heardSeconds = 0.0
  private var session = 0
  /// A ZDA date seen before the first epoch: (real day, time of day).
  private var earlyDate: (day: Int, timeOfDay: Int64)?

  init(maximumSampleInterval: Double, date: CivilDate?) {
    self.maximumSampleInterval = maximumSampleInterval
    if let date {
      dateIsGiven = true
      offsetDays = CivilTime.daysSinceEpoch(year: date.year, month: date.month, day: date.day)
    } else {
      dateIsGiven = false
    }
  }

  static let halfDay: Int64 = NMEAFieldParser.microsecondsPerDay / 2

  /// The relative day of `time` by the nearest-interpretation rule, from the last epoch.
  private func nearestDay(_ time: Int64) -> Int {
    let step = time - timeOfDay
    if step < -Self.halfDay { return day + 1 }
    if step > Self.halfDay { return day - 1 }
    return day
  }

  @inline(__always)
  static func seconds(day: Int, timeOfDay: Int64) -> Double {
    Double(day) * 86_400 + Double(timeOfDay) / 1_000_000
  }

  /// Places a closing epoch.
  ///
  /// - Parameter date: the real day its RMC gave (status A), if any.
  /// - Returns: the placement, and whether this epoch fixed `offsetDays`.
  mutating func place(timeOfDay time: Int64, date: Int?) -> (Placement, datedNow: Bool) {
    let wasDated = offsetDays != nil
    var relativeDay = placedAny ? nearestDay(time) : 0
    if let date, !dateIsGiven {
      if let offsetDays {
        relativeDay = date - offsetDays
      } else {
        offsetDays = date - relativeDay
      }
    }
    let seconds = Self.seconds(day: relativeDay, timeOfDay: time)
    if placedAny {
      if seconds < lastSeconds || seconds - max(lastSeconds, heardSeconds) > maximumSampleInterval {
        session += 1
      }
    }
    placedAny = true
    day = relativeDay
    timeOfDay = time
    lastSeconds = seconds
    heardSeconds = seconds
    if let early = earlyDate {
      earlyDate = nil
      _ = observe(day: early.day, timeOfDay: early.timeOfDay)
    }
    return (Placement(day: relativeDay, timeOfDay: time, session: session), !wasDated && offsetDays != nil)
  }

  /// A ZDA: a real date at a time of day. It keeps the session alive, and fixes the calendar
  /// if nothing has yet. Once it is fixed, ZDA dates are not read again: a receiver whose ZDA
  /// and RMC disagree would otherwise move epochs between days at every sentence.
  ///
  /// - Returns: whether this fixed `offsetDays`.
  mutating func observe(day date: Int, timeOfDay time: Int64) -> Bool {
    guard placedAny else {
      if !dateIsGiven { earlyDate = (date, time) }
      return false
    }
    let relativeDay = nearestDay(time)
    heardSeconds = max(heardSeconds, Self.seconds(day: relativeDay, timeOfDay: time))
    guard !dateIsGiven, offsetDays == nil else { return false }
    offsetDays = date - relativeDay
    return true
  }

  /// Seconds since 1970-01-01 of a placement, once the date is known.
  func timestamp(_ placement: Placement) -> Double? {
    guard let offsetDays else { return nil }
    return Self.seconds(day: placement.day + offsetDays, timeOfDay: placement.timeOfDay)
  }
}
