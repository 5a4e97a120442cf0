/// Decides, at capture time, which positions of a shift are worth keeping.
///
/// It sees one candidate at a time in arrival order and either retains it or rejects it with a
/// reason, and it counts every rejection by reason, so nothing vanishes silently. Its rules are
/// applied once, when a sample is captured; the calculator never repeats them. Each threshold is
/// a property with the default DESIGN.md gives it. In order:
///
/// 1. `invalidCoordinate`: a non-finite timestamp or coordinate, |latitude| > 90 or
///    |longitude| > 180.
/// 2. `nullIsland`: exactly (0, 0), a receiver's "no fix" written as a position.
/// 3. `accuracy`: horizontal accuracy negative (invalid), NaN, or above
///    `maximumHorizontalAccuracy` (100 m). A sample with no accuracy passes.
/// 4. `stale`: the fix is more than `maximumFixAge` (10 s) older than its arrival time, when the
///    feed carries one.
/// 5. `outOfOrder`: a timestamp at or before the last sample retained for the shift. This is
///    what lets retained samples stream through the accumulator in order.
/// 6. `speed`: an implied speed above `maximumSpeed` (70 m/s) from the last retained sample of
///    the same capture session. A session's first fix is judged on its own.
/// 7. `negligibleMovement`: less than `minimumMovement` (5 m) from the last retained sample of
///    the same session, so a parked vehicle records nothing.
///
/// Legacy samples (no capture session) are judged against the last retained legacy sample, as
/// if they were one session.
///
/// ## Stops
///
/// A vehicle standing for minutes while fixes keep arriving is not a gap in capture: the
/// dropped fixes prove capture ran. So the filter remembers the session's latest fix dropped as
/// `negligibleMovement` (within `minimumMovement` of the anchor). When a candidate comes more
/// than `maximumSampleInterval` after the anchor and that remembered fix lies within the interval
/// of both (so it bridges them), the remembered fix is retained after all, before the candidate is judged,
/// as a *stop fix* (`keptThroughStop`; moved from `negligibleMovement` to `retained` in the
/// counts), and becomes the anchor. Through a stop of any length one fix in each interval is
/// kept, so the retained positions are continuous by the ordinary rule, and the distance
/// counted across the stop is measured between real positions, never invented: each step is
/// between two fixes at most the interval apart. A true silence (no fix at all for longer than
/// the interval, before the stop or after it) keeps nothing across it and stays a gap. Stops no longer than the
/// interval keep nothing
/// either, so they measure exactly as before.
///
/// ## Re-anchoring
///
/// The speed rule compares against the last *retained* fix, so one wild fix that gets retained
/// (a session's first fix 5 km off, or a jump that looked plausible after a long pause) would
/// reject every correct fix after it. So the filter watches runs of speed rejections: when
/// `speedRejectionsBeforeReanchoring` (3) consecutive rejected fixes of a session agree with one
/// another (each within `maximumSpeed` of the one before), the anchor was the wild one. The fix
/// that completes such a run (whether or not it is itself too fast from the anchor: on sparse
/// data the speed rule alone would eventually link back to the wild fix) is retained as the new
/// anchor, and never measured from the old one:
/// - a session sample is moved into a freshly minted capture session, so the calculator sees
///   a session change, a gap, instead of a straight line from the wild fix;
/// - a legacy sample cannot carry a break, so it is retained only once it is more than
///   `maximumSampleInterval` after the wild anchor, which the calculator sees as a silence.
///
/// The fixes in the run before it stay rejected as `speed`; the wild anchor stays as a stretch
/// of one position, which contributes no distance.
public struct RouteSampleFilter: Sendable {
  /// Why a candidate was not retained.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    case invalidCoordinate, nullIsland, accuracy, stale, outOfOrder, speed, negligibleMovement
  }

  /// The fate of one candidate.
  public enum Decision: Sendable, Hashable {
    /// Retained, as given, or moved into a new capture session by re-anchoring.
    case retained(RouteSample)
    case rejected(Reason)
  }

  /// What the filter has decided so far.
  public struct Counts: Sendable, Hashable {
    public var retained = 0
    /// Retained samples that re-anchored a session after a wild fix.
    public var reanchored = 0
    // One field a reason rather than an array: counting a rejection is one add, with no
    // uniqueness check or bounds check on the per-candidate path.
    @usableFromInline var invalidCoordinate = 0
    @usableFromInline var nullIsland = 0
    @usableFromInline var accuracy = 0
    @usableFromInline var stale = 0
    @usableFromInline var outOfOrder = 0
    @usableFromInline var speed = 0
    @usableFromInline var negligibleMovement = 0

    public init() {}
    public subscript(reason: Reason) -> Int {
      get {
        switch reason {
        case .invalidCoordinate: invalidCoordinate
        case .nullIsland: nullIsland
        case .accuracy: accuracy
        case .stale: stale
        case .outOfOrder: outOfOrder
        case .speed: speed
        case .negligibleMovement: negligibleMovement
        }
      }
      set {
        switch reason {
        case .invalidCoordinate: invalidCoordinate = newValue
        case .nullIsland: nullIsland = newValue
        case .accuracy: accuracy = newValue
        case .stale: stale = newValue
        case .outOfOrder: outOfOrder = newValue
        case .speed: speed = newValue
        case .negligibleMovement: negligibleMovement = newValue
        }
      }
    }
    public var rejected: Int { Reason.allCases.reduce(0) { $0 + self[$1] } }
    /// Non-zero rejection counts by reason, in the rules' order.
    public var rejectedByReason: [(reason: Reason, count: Int)] {
      Reason.allCases.compactMap { self[$0] > 0 ? ($0, self[$0]) : nil }
    }
  }

  /// Reject exactly (0, 0).
  public var rejectsNullIsland = true
  /// Metres; a larger radius is rejected (exactly this much is kept).
  public var maximumHorizontalAccuracy: Double = 100
  /// Seconds between a fix's timestamp and its arrival; older is stale (exactly this is kept).
  public var maximumFixAge: Double = 10
  /// Metres per second from the session's last retained fix; faster is rejected (exactly this
  /// is kept).
  public var maximumSpeed: Double = 70
  /// Metres from the session's last retained fix; less is dropped (exactly this is kept).
  public var minimumMovement: Double = 5
  /// How many consecutive, mutually consistent speed rejections prove the anchor wrong; 0 turns
  /// re-anchoring off.
  public var speedRejectionsBeforeReanchoring = 3
  /// Seconds; the calculator's continuity interval, used to re-anchor legacy rows across a
  /// silence.
  public var maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval

  public private(set) var counts = Counts()
  /// What the filter measured for the sample it retained last. The ingest stage hands it to
  /// `RouteMileageAccumulator.append(_:measured:)` instead of measuring the same pair again.
  package private(set) var lastRetainedMeasure = RetainedMeasure(fromTimestamp: .nan, meters: 0, cosineOfLatitude: 1)
  /// Mints the shift's capture session IDs; the ingest stage mints its sessions here too.
  public var sessionMinter: CaptureSessionMinter
  /// The stop fix the last `consider(_:)` retained before judging its candidate (see Stops), with
  /// its measured step; nil when it retained none. Whoever walks the retained samples takes it
  /// before the candidate's own decision.
  public var keptThroughStop: RouteSample? { keptStopFix ? stopFix : nil }
  /// Whether the last `consider(_:)` or `take(_:)` retained a stop fix, `stopFix`: a flag and a
  /// sample kept in place, so the per-candidate reset is one store, not a sample-sized one.
  package private(set) var keptStopFix = false
  package private(set) var stopFix = RouteSample(timestamp: 0, latitude: 0, longitude: 0)
  /// What the filter measured for `keptThroughStop`.
  package private(set) var keptThroughStopMeasure = RetainedMeasure(fromTimestamp: .nan, meters: 0, cosineOfLatitude: 1)

  /// What the filter measured for a retained sample, for the accumulator to reuse.
  @usableFromInline package struct RetainedMeasure: Sendable {
    /// The timestamp of the session's previous retained fix the step was measured from; NaN
    /// when the sample started or re-anchored a session (no step was measured).
    @usableFromInline package var fromTimestamp: Double
    /// `GeographicDistance` metres from that fix.
    @usableFromInline package var meters: Double
    /// `GeographicDistance.cosineOfLatitude` of the retained sample.
    @usableFromInline package var cosineOfLatitude: Double
    /// True for a stop fix: the step stood within the movement threshold while fixes kept
    /// arriving (see Stops); the walk counts the stop.
    @inlinable package var throughStop: Bool {
      get { stopWord != 0 }
      set { stopWord = newValue ? 1 : 0 }
    }
    /// `throughStop` as a whole word: the ingest reads the measure right after the filter wrote
    /// it, and a word read over a one-byte store cannot be forwarded from the store buffer.
    @usableFromInline var stopWord: Int

    package init(fromTimestamp: Double, meters: Double, cosineOfLatitude: Double, throughStop: Bool = false) {
      self.fromTimestamp = fromTimestamp
      self.meters = meters
      self.cosineOfLatitude = cosineOfLatitude
      self.stopWord = throughStop ? 1 : 0
    }
  }

  /// One capture session's state. The anchor and the remembered stationary fix are kept in
  /// place beside a flag rather than as optionals: retaining a sample then clears the
  /// stationary fix with one store, and reading the anchor copies no optional.
  @usableFromInline struct SessionState: Sendable {
    /// The last retained fix (valid when `hasAnchor`).
    var anchor = RoutePosition(timestamp: 0, latitude: 0, longitude: 0)
    var hasAnchor = false
    /// `GeographicDistance.cosineOfLatitude` of the anchor, kept so each candidate costs one
    /// cosine, not two.
    var anchorCosine = 1.0
    var outputSession: CaptureSessionID?
    var runLength = 0
    var runLast = RoutePosition(timestamp: 0, latitude: 0, longitude: 0)
    /// The latest fix dropped as `negligibleMovement` since the anchor, with its step from the
    /// anchor and its cosine (see Stops); valid when `hasStationary`, the step and cosine only
    /// when `stationaryMeasured` (a fix judged by the bound alone is measured if it is kept).
    var stationary = RouteSample(timestamp: 0, latitude: 0, longitude: 0)
    var hasStationary = false
    var stationaryMeasured = false
    var stationaryMeters = 0.0
    var stationaryCosine = 1.0
  }

  var lastRetainedTimestamp = -Double.infinity
  var currentKey: CaptureSessionID?
  var current = SessionState()
  var otherSessions: [CaptureSessionID?: SessionState] = [:]

  /// - Parameter sessionMinter: where new capture sessions come from; continue past the
  ///   largest ID a stored shift already uses.
  public init(sessionMinter: CaptureSessionMinter = CaptureSessionMinter()) {
    self.sessionMinter = sessionMinter
  }

  /// Mints the next capture session ID of the shift.
  public mutating func mintCaptureSession() -> CaptureSessionID { sessionMinter.mint() }

  /// Judges one candidate, in arrival order, and counts the outcome.
  ///
  /// - Complexity: O(1) amortised.
  public mutating func consider(_ sample: RouteSample) -> Decision {
    var candidate = sample
    if let reason = take(&candidate) { return .rejected(reason) }
    return .retained(candidate)
  }

  /// `consider(_:)` for the ingest stage, without a decision holding a copy of the sample: the
  /// reason it was rejected, or nil when it was retained, `sample` then carrying its output
  /// capture session (as `Decision.retained` would).
  ///
  /// - Complexity: O(1) amortised.
  package mutating func take(_ sample: inout RouteSample) -> Reason? {
    keptStopFix = false
    let reason = judge(&sample)
    if let reason {
      counts[reason] += 1
    } else {
      counts.retained += 1
    }
    return reason
  }

  @inline(__always)
  private mutating func judge(_ sample: inout RouteSample) -> Reason? {
    let position = sample.position
    guard position.isUsable else { return .invalidCoordinate }
    if rejectsNullIsland, sample.latitude == 0, sample.longitude == 0 { return .nullIsland }
    if let accuracy = sample.horizontalAccuracy,
      accuracy.isNaN || accuracy < 0 || accuracy > maximumHorizontalAccuracy
    {
      return .accuracy
    }
    if let received = sample.receivedAt, received.isFinite, received - sample.timestamp > maximumFixAge {
      return .stale
    }
    guard sample.timestamp > lastRetainedTimestamp else { return .outOfOrder }

    if sample.captureSession != currentKey { switchSession(to: sample.captureSession) }
    guard current.hasAnchor else {
      current.outputSession = sample.captureSession
      return retain(&sample, at: position, cosine: GeographicDistance.cosineOfLatitude(position.latitude))
    }
    var anchor = current.anchor
    if current.runLength == 0, sample.timestamp - anchor.timestamp > maximumSampleInterval, current.hasStationary,
      current.stationary.timestamp - anchor.timestamp <= maximumSampleInterval,
      sample.timestamp - current.stationary.timestamp <= maximumSampleInterval,
      current.stationary.timestamp > lastRetainedTimestamp
    {
      anchor = keepThroughStop(current.stationary, from: anchor)
    }
    if current.runLength == 0 {
      // Clearly standing: by the bound, below the movement threshold and within the speed rule
      // (metres over the same positive seconds), so the haversine would decide
      // `negligibleMovement` too. Squared, as the bound is, which keeps the order only for a
      // positive limit (otherwise the haversine decides). Its metres and cosine are measured
      // only if the fix is kept through a stop.
      let bound = GeographicDistance.metersSquaredUpperBound(
        fromLatitude: anchor.latitude, longitude: anchor.longitude, cosineOfLatitude: current.anchorCosine,
        toLatitude: position.latitude, longitude: position.longitude)
      let limit = min(minimumMovement, maximumSpeed * (sample.timestamp - anchor.timestamp))
      if limit > 0, bound < limit * limit {
        current.stationary = sample
        current.hasStationary = true
        current.stationaryMeasured = false
        return .negligibleMovement
      }
    }
    let cosine = GeographicDistance.cosineOfLatitude(position.latitude)
    let meters = GeographicDistance.meters(
      fromLatitude: anchor.latitude, longitude: anchor.longitude, cosineOfLatitude: current.anchorCosine,
      toLatitude: position.latitude, longitude: position.longitude, cosineOfLatitude: cosine)
    let tooFast = meters / (sample.timestamp - anchor.timestamp) > maximumSpeed
    let continuesRun = current.runLength > 0 && agrees(current.runLast, position)
    let runLength = continuesRun ? current.runLength + 1 : (tooFast ? 1 : 0)

    let reanchorDue = speedRejectionsBeforeReanchoring > 0 && runLength >= speedRejectionsBeforeReanchoring
    if reanchorDue {
      if sample.captureSession != nil {
        current.outputSession = sessionMinter.mint()
        counts.reanchored += 1
        return retain(&sample, at: position, cosine: cosine)
      }
      if sample.timestamp - anchor.timestamp > maximumSampleInterval {
        counts.reanchored += 1
        return retain(&sample, at: position, cosine: cosine)
      }
    }
    if tooFast || reanchorDue {
      current.runLength = runLength
      current.runLast = position
      return .speed
    }
    current.runLength = 0
    if meters < minimumMovement {
      current.stationary = sample
      current.hasStationary = true
      current.stationaryMeasured = true
      current.stationaryMeters = meters
      current.stationaryCosine = cosine
      return .negligibleMovement
    }
    retain(&sample, at: position, cosine: cosine)
    lastRetainedMeasure.fromTimestamp = anchor.timestamp
    lastRetainedMeasure.meters = meters
    return nil
  }

  /// Retains the session's remembered stationary fix as a stop fix (see Stops), moving it from
  /// `negligibleMovement` to `retained`; returns it as the new anchor.
  private mutating func keepThroughStop(_ stationary: RouteSample, from anchor: RoutePosition) -> RoutePosition {
    if !current.stationaryMeasured {
      // Judged standing by the bound alone: measured now, from the same anchor (a retained
      // fix clears the stationary one) with the same operands, so bit-identical to measuring
      // it then.
      current.stationaryCosine = GeographicDistance.cosineOfLatitude(stationary.latitude)
      current.stationaryMeters = GeographicDistance.meters(
        fromLatitude: anchor.latitude, longitude: anchor.longitude, cosineOfLatitude: current.anchorCosine,
        toLatitude: stationary.latitude, longitude: stationary.longitude, cosineOfLatitude: current.stationaryCosine)
      current.stationaryMeasured = true
    }
    let meters = current.stationaryMeters
    var kept = stationary
    retain(&kept, at: stationary.position, cosine: current.stationaryCosine)
    stopFix = kept
    counts[.negligibleMovement] -= 1
    counts.retained += 1
    keptStopFix = true
    keptThroughStopMeasure = RetainedMeasure(
      fromTimestamp: anchor.timestamp, meters: meters, cosineOfLatitude: current.stationaryCosine, throughStop: true)
    return stationary.position
  }

  /// Whether `next` is reachable from `previous` within the speed limit.
  private func agrees(_ previous: RoutePosition, _ next: RoutePosition) -> Bool {
    let seconds = next.timestamp - previous.timestamp
    return seconds > 0
      && GeographicDistance.meters(from: previous, to: next) <= maximumSpeed * seconds
  }

  /// Retains `sample` (at `position`, its own), moving it into the current output session;
  /// returns nil, the retained sample's reason.
  @discardableResult
  private mutating func retain(_ sample: inout RouteSample, at position: RoutePosition, cosine: Double) -> Reason? {
    lastRetainedMeasure = RetainedMeasure(fromTimestamp: .nan, meters: 0, cosineOfLatitude: cosine)
    sample.captureSession = current.outputSession
    current.anchor = position
    current.hasAnchor = true
    current.anchorCosine = cosine
    current.runLength = 0
    current.hasStationary = false
    lastRetainedTimestamp = position.timestamp
    return nil
  }

  /// Keeps the current session's state in stored properties: consecutive samples almost always
  /// share a session, so the dictionary is touched only when the session changes (the caller
  /// compares the keys first).
  @inline(never)
  private mutating func switchSession(to key: CaptureSessionID?) {
    otherSessions[currentKey] = current
    current = otherSessions.removeValue(forKey: key) ?? SessionState()
    currentKey = key
  }
}
