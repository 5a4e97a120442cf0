import RouteMileage

/// What a synthetic drive holds, known from the generator itself: the ground truth a
/// measurement of its feed can be judged against.
///
/// Distances are haversines (`GeographicDistance`) over the true path. `drivenMeters` is every
/// metre the vehicle drove, sampled each second; `capturedMeters` the part driven while capture
/// was on, `uncapturedMeters` the part driven while it was off (capture gaps and relaunches: a
/// mileage tool must not count these). `idealMeters` is what a perfect receiver recording at the
/// drive's fix interval would measure: the true positions of consecutive fixes of one session,
/// at most `RouteContinuity.defaultMaximumSampleInterval` apart, joined by straight lines.
public struct DriveFacts: Sendable, Hashable {
  /// Seconds since 1970 (UTC) of the first and last rows written.
  public var firstTimestamp: Double?
  public var lastTimestamp: Double?
  /// Rows written: every fix, duplicate and no-fix epoch.
  public var records = 0
  /// Rows with a position (records less no-fix epochs).
  public var positions = 0
  /// Epochs without a fix (NMEA status V; not written to GPX or CSV).
  public var noFixEpochs = 0
  public var sessions = 0
  public var captureGaps = 0
  public var captureGapSeconds = 0
  public var relaunches = 0
  public var relaunchSeconds = 0
  /// Parks during which capture paused (each ends its session).
  public var pausedParks = 0
  public var pausedParkSeconds = 0
  /// Every park (deliveries and scheduled parks), and red lights and stop signs.
  public var parks = 0
  public var trafficStops = 0
  /// Seconds the vehicle stood still.
  public var stationarySeconds = 0
  public var fixLossStretches = 0
  public var wildJumps = 0
  /// Seconds since 1970 (UTC) of the first `DriveFacts.listedTimes` wild jumps.
  public var wildJumpTimes: [Double] = []
  public var accuracySpikes = 0
  public var invalidAccuracies = 0
  public var nullIslands = 0
  public var duplicates = 0
  public var lateArrivals = 0
  public var corruptedSentences = 0
  /// Times consecutive rows fall on different UTC days.
  public var midnightCrossings = 0
  public var drivenMeters = 0.0
  public var capturedMeters = 0.0
  public var uncapturedMeters = 0.0
  public var idealMeters = 0.0
  /// m/s.
  public var topSpeed = 0.0

  public init() {}

  /// How many event times the facts list (wild jumps); the counts are always complete.
  public static let listedTimes = 20

  /// Seconds from the first row to the last.
  public var span: Double {
    guard let firstTimestamp, let lastTimestamp else { return 0 }
    return lastTimestamp - firstTimestamp
  }
}

/// Accumulates `DriveFacts` while a drive is generated. O(1) memory.
struct DriveFactsTracker: Sendable {
  var facts = DriveFacts()
  private var lastTruth: (latitude: Double, longitude: Double)?
  private var lastTruthCaptured = false
  private var lastTruthSession = 0
  private var lastIdeal: (timestamp: Double, latitude: Double, longitude: Double, session: Int)?
  private var lastRowDay: Int64?
  /// Spans of time (sorted, disjoint) whose true path length is wanted, and that length so far.
  var spans: [ClosedRange<Double>] = []
  private var spanIndex = 0
  private(set) var spanMeters = 0.0
  private var lastTime = -Double.infinity

  /// One simulated second, at `time` (seconds since 1970, UTC).
  mutating func second(time: Double, latitude: Double, longitude: Double, speed: Double, capturing: Bool, session: Int)
  {
    if let last = lastTruth {
      let meters = GeographicDistance.meters(
        fromLatitude: last.latitude, longitude: last.longitude, toLatitude: latitude, longitude: longitude)
      facts.drivenMeters += meters
      while spanIndex < spans.count, spans[spanIndex].upperBound < time { spanIndex += 1 }
      if spanIndex < spans.count, spans[spanIndex].contains(time), spans[spanIndex].contains(lastTime) {
        spanMeters += meters
      }
      if capturing, lastTruthCaptured, session == lastTruthSession {
        facts.capturedMeters += meters
      } else {
        facts.uncapturedMeters += meters
      }
    }
    if speed == 0 { facts.stationarySeconds += 1 }
    facts.topSpeed = max(facts.topSpeed, speed)
    lastTruth = (latitude, longitude)
    lastTime = time
    lastTruthCaptured = capturing
    lastTruthSession = session
  }

  /// One fix as produced, in time order (before duplicates and late rows are arranged).
  mutating func produced(_ fix: SyntheticFix) {
    if fix.faults.contains(.wildJump) {
      facts.wildJumps += 1
      if facts.wildJumpTimes.count < DriveFacts.listedTimes { facts.wildJumpTimes.append(fix.sample.timestamp) }
    }
    if fix.faults.contains(.accuracySpike) { facts.accuracySpikes += 1 }
    if fix.faults.contains(.invalidAccuracy) { facts.invalidAccuracies += 1 }
    if fix.faults.contains(.nullIsland) { facts.nullIslands += 1 }
    if fix.faults.contains(.corruptedSentence) { facts.corruptedSentences += 1 }
    guard fix.hasFix else { return }
    let time = fix.sample.timestamp
    if let last = lastIdeal, last.session == fix.session,
      time - last.timestamp <= RouteContinuity.defaultMaximumSampleInterval
    {
      facts.idealMeters += GeographicDistance.meters(
        fromLatitude: last.latitude, longitude: last.longitude,
        toLatitude: fix.truthLatitude, longitude: fix.truthLongitude)
    }
    lastIdeal = (time, fix.truthLatitude, fix.truthLongitude, fix.session)
  }

  /// One row as written.
  mutating func written(_ fix: SyntheticFix) {
    facts.records += 1
    if fix.hasFix { facts.positions += 1 } else { facts.noFixEpochs += 1 }
    if fix.faults.contains(.duplicate) { facts.duplicates += 1 }
    if fix.faults.contains(.lateArrival) { facts.lateArrivals += 1 }
    let time = fix.sample.timestamp
    if facts.firstTimestamp == nil { facts.firstTimestamp = time }
    facts.lastTimestamp = max(facts.lastTimestamp ?? time, time)
    let day = fix.milliseconds >= 0 ? fix.milliseconds / 86_400_000 : (fix.milliseconds + 1) / 86_400_000 - 1
    if let lastRowDay, lastRowDay != day { facts.midnightCrossings += 1 }
    lastRowDay = day
  }
}
