/// Everything that decides a synthetic drive. The same configuration always gives the same
/// fixes, bit for bit.
///
/// Times are whole seconds: `start` since 1970-01-01T00:00:00Z (UTC), event times as offsets
/// from `start`. The vehicle moves for `duration` seconds; the drive's first tick is at
/// `start` and its last at `start + duration`.
public struct DriveConfiguration: Sendable, Hashable {
  /// Seeds the three independent streams (motion, receiver noise, faults): changing a fault
  /// rate never changes the path driven.
  public var seed: UInt64
  public var start: Int64
  public var duration: Int
  /// Seconds between recorded fixes within a capture session (the vehicle is simulated every
  /// second either way).
  public var fixInterval: Int = 1
  public var place: InventedPlace = .nemoFlats
  public var reception: Reception = .suburban
  /// Random delivery stops (the vehicle parks 75–300 s, capture on) every 7–25 minutes of
  /// driving.
  public var deliveryStops: Bool = true
  /// Rows carry no capture session (a legacy recorder); the CSV writer leaves the column out.
  public var legacyRows: Bool = false
  /// Fix times carry milliseconds, with a phase of their own per capture session, as phone
  /// location APIs report them; otherwise fixes fall on whole seconds.
  public var subsecondTimestamps: Bool = false
  public var faults: FaultRates = .none
  /// Scheduled events, in any order.
  public var events: [DriveEvent] = []

  public init(
    seed: UInt64, start: Int64 = 1_762_272_000, duration: Int, fixInterval: Int = 1,
    place: InventedPlace = .nemoFlats, reception: Reception = .suburban, deliveryStops: Bool = true,
    legacyRows: Bool = false, subsecondTimestamps: Bool = false, faults: FaultRates = .none,
    events: [DriveEvent] = []
  ) {
    self.seed = seed
    self.start = start
    self.duration = max(0, duration)
    self.fixInterval = max(1, fixInterval)
    self.place = place
    self.reception = reception
    self.deliveryStops = deliveryStops
    self.legacyRows = legacyRows
    self.subsecondTimestamps = subsecondTimestamps
    self.faults = faults
    self.events = events
  }
}

/// Something that happens at a scheduled moment of a drive. Offsets are seconds from the
/// drive's start.
public enum DriveEvent: Sendable, Hashable {
  /// Capture stops while the vehicle drives on (the recorder was switched off, the OS
  /// suspended it); it resumes `duration` seconds later in a new capture session.
  case captureGap(at: Int, duration: Int)
  /// The app was killed and relaunched: nothing is recorded for `interruption` seconds, then a
  /// new capture session starts. Counted apart from capture gaps.
  case relaunch(at: Int, interruption: Int)
  /// The vehicle parks at the first chance after `at` for `duration` seconds. With
  /// `capturePaused` the recorder pauses while it stands (a new session when it drives off);
  /// otherwise it keeps recording the receiver's jitter.
  case park(at: Int, duration: Int, capturePaused: Bool)
  /// The receiver has no fix for `duration` seconds (a tunnel, a covered car park); capture
  /// goes on, so NMEA records no-fix epochs and GPX or CSV record nothing.
  case fixLoss(at: Int, duration: Int)
  /// The first fix at or after `at` is reported `meters` away from the truth with an ordinary
  /// accuracy: the receiver is wrong and confident. At a session's start it is that session's
  /// first fix.
  case wildJump(at: Int, meters: Double)
  /// The first NMEA epoch at or after `at` has one character of its RMC sentence changed after
  /// the checksum was computed, as a noisy serial line does. Other formats ignore it.
  case corruptedSentence(at: Int)
}

/// How good the sky is: the receiver's reported accuracy wanders around `typicalAccuracy`
/// within `accuracyRange`, with occasional degraded spells (an urban canyon, dense trees).
public struct Reception: Sendable, Hashable {
  /// Metres.
  public var typicalAccuracy: Double
  public var accuracyRange: ClosedRange<Double>
  /// Chance per second that a degraded spell starts.
  public var degradedSpellChance: Double
  /// Metres reported during a degraded spell (kept at or below 60 m, so that any HDOP
  /// constant between 4 and 6.6 m keeps such fixes under the filter's 100 m limit).
  public var degradedAccuracy: ClosedRange<Double>

  public init(
    typicalAccuracy: Double, accuracyRange: ClosedRange<Double>, degradedSpellChance: Double,
    degradedAccuracy: ClosedRange<Double>
  ) {
    self.typicalAccuracy = typicalAccuracy
    self.accuracyRange = accuracyRange
    self.degradedSpellChance = degradedSpellChance
    self.degradedAccuracy = degradedAccuracy
  }

  /// Open sky: 3–12 m, rarely degraded.
  public static let openSky = Reception(
    typicalAccuracy: 5, accuracyRange: 3...12, degradedSpellChance: 0.000_5, degradedAccuracy: 18...30)
  /// Low buildings and trees: 3–25 m, degraded now and then.
  public static let suburban = Reception(
    typicalAccuracy: 8, accuracyRange: 3...25, degradedSpellChance: 0.001_5, degradedAccuracy: 30...50)
  /// Tall buildings: 5–30 m, often degraded.
  public static let urban = Reception(
    typicalAccuracy: 13, accuracyRange: 5...30, degradedSpellChance: 0.004, degradedAccuracy: 35...60)
}

/// Chances per recorded fix of each random fault. Scheduled faults are `DriveEvent`s.
public struct FaultRates: Sendable, Hashable {
  /// A spell of 1–4 fixes reporting 150–450 m accuracy (above the filter's 100 m), scattered
  /// to match.
  public var accuracySpike: Double = 0
  /// One fix 0.8–6 km off with an ordinary accuracy.
  public var wildJump: Double = 0
  /// The fix is written twice, identically.
  public var duplicate: Double = 0
  /// The fix is written 1–5 rows late (never across a session change).
  public var lateArrival: Double = 0
  /// The accuracy is written as −1 (Core Location's "invalid").
  public var invalidAccuracy: Double = 0
  /// The fix is written as (0, 0), a logger's "no position".
  public var nullIsland: Double = 0

  public init(
    accuracySpike: Double = 0, wildJump: Double = 0, duplicate: Double = 0, lateArrival: Double = 0,
    invalidAccuracy: Double = 0, nullIsland: Double = 0
  ) {
    self.accuracySpike = accuracySpike
    self.wildJump = wildJump
    self.duplicate = duplicate
    self.lateArrival = lateArrival
    self.invalidAccuracy = invalidAccuracy
    self.nullIsland = nullIsland
  }

  public static let none = FaultRates()
  /// What a phone produces on an ordinary day: a rare accuracy spike, a very rare jump.
  public static let everyday = FaultRates(accuracySpike: 0.001, wildJump: 0.000_2)
}
