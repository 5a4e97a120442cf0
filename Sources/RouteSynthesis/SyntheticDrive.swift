import RouteMileage

/// A deterministic synthetic drive: a vehicle on the streets of an invented town, recorded by a
/// phone-grade GPS receiver, with whatever capture gaps, parks and faults its configuration
/// asks for.
///
///     let drive = SyntheticDrive(seed: 42, duration: 3_600)
///     for sample in drive.samples { … }          // 3,601 RouteSamples, lazily
///     try FeedWriter.write(drive, as: .gpx, to: fd)  // streamed, 64 KiB at a time
///
/// It is a `Sequence` of `SyntheticFix`es in the order a recorder writes them (duplicates and
/// late rows included). Nothing is stored: each iteration re-simulates the drive from its seed,
/// so a drive of any length costs O(1) memory, and two iterations give identical fixes.
///
/// - Complexity: O(*n*) time for *n* simulated seconds, O(1) memory (the state of the vehicle,
///   the receiver, and at most a handful of rows held back to be written late).
public struct SyntheticDrive: Sequence, Sendable, Hashable {
  public var configuration: DriveConfiguration

  public init(_ configuration: DriveConfiguration) {
    self.configuration = configuration
  }

  /// A drive of `duration` seconds starting at `start` (seconds since 1970, UTC), with the
  /// everyday fault rates and random delivery stops.
  public init(
    seed: UInt64, duration: Int, start: Int64 = 1_762_272_000, fixInterval: Int = 1,
    place: InventedPlace = .nemoFlats, faults: FaultRates = .everyday, events: [DriveEvent] = []
  ) {
    self.init(
      DriveConfiguration(
        seed: seed, start: start, duration: duration, fixInterval: fixInterval, place: place,
        faults: faults, events: events))
  }

  public func makeIterator() -> Iterator { Iterator(configuration, tracksFacts: false) }

  /// The reported samples, without no-fix epochs, in written order.
  public var samples: LazyMapSequence<LazyFilterSequence<SyntheticDrive>, RouteSample> {
    self.lazy.filter { $0.hasFix }.map { $0.sample }
  }

  /// The drive's ground truth, by generating it once.
  ///
  /// - Complexity: O(*n*) time, O(1) memory.
  public func facts() -> DriveFacts {
    var iterator = Iterator(configuration, tracksFacts: true)
    while iterator.next() != nil {}
    return iterator.facts ?? DriveFacts()
  }

  /// The true path length driven inside `spans` (seconds since 1970, UTC): the vehicle's true
  /// positions, one a second, joined by haversines, counting a second's step only when it and
  /// the second before lie in the same span. Pass a measurement's contributing segments to get
  /// the distance truly driven inside them, which no floor may exceed.
  ///
  /// - Complexity: O(*n* + *s* log *s*) time for *n* simulated seconds and *s* spans.
  public func drivenMeters(inside spans: [ClosedRange<Double>]) -> Double {
    var iterator = Iterator(configuration, tracksFacts: true)
    iterator.tracker?.spans = spans.sorted { $0.lowerBound < $1.lowerBound }
    while iterator.next() != nil {}
    return iterator.tracker?.spanMeters ?? 0
  }
}

extension SyntheticDrive {
  public struct Iterator: IteratorProtocol, Sendable {
    private let start: Int64
    private let duration: Int
    private let interval: Int
    private let legacy: Bool
    private let subsecond: Bool
    private let rates: FaultRates
    private let originLatitude: Double
    private let originLongitude: Double
    private let metersPerDegreeLongitude: Double

    private var motion: VehicleMotion
    private var receiver: ReceiverModel
    private var faultRNG: SynthesisRandom
    private var sessionRNG: SynthesisRandom

    private var captureOffs: [(at: Int, duration: Int, isRelaunch: Bool)]
    private var parks: [(at: Int, duration: Int, pausesCapture: Bool)]
    private var fixLosses: [(at: Int, duration: Int)]
    private var wildJumps: [(at: Int, meters: Double)]
    private var corruptions: [Int]

    private var tick = -1
    private var capturing = true
    private var offUntil = -1
    private var pausedForPark = false
    private var session = 1
    private var sessionTag: UInt64 = 0
    private var sessionStartTick = 0
    private var sessionPhase: Int64 = 0
    private var fixLossUntil = -1
    private var pendingWild: Double?
    private var pendingCorruption = false
    private var spikeLeft = 0

    private var queue: [SyntheticFix] = []
    private var queueHead = 0
    private var held: SyntheticFix?
    private var heldCountdown = 0
    private var heldOvertaken = false

    fileprivate var tracker: DriveFactsTracker?

    init(_ configuration: DriveConfiguration, tracksFacts: Bool) {
      let seed = configuration.seed
      start = configuration.start
      duration = configuration.duration
      interval = configuration.fixInterval
      legacy = configuration.legacyRows
      subsecond = configuration.subsecondTimestamps
      rates = configuration.faults
      motion = VehicleMotion(
        seed: SplitMix64.derive(seed, 1), homeRadius: configuration.place.radiusMeters,
        deliveryStops: configuration.deliveryStops)
      receiver = ReceiverModel(seed: SplitMix64.derive(seed, 2), reception: configuration.reception)
      faultRNG = SynthesisRandom(seed: SplitMix64.derive(seed, 3))
      sessionRNG = SynthesisRandom(seed: SplitMix64.derive(seed, 4))
      // The start is moved up to 1.5 km from the town centre, so drives of one place differ.
      var placement = SynthesisRandom(seed: SplitMix64.derive(seed, 5))
      let centreLatitude = configuration.place.latitude
      let longitudeScale = SynthesisMath.cos(centreLatitude * Double.pi / 180) * GeographicDistance.metersPerDegree
      originLatitude = centreLatitude + placement.uniform(-1500, 1500) / GeographicDistance.metersPerDegree
      originLongitude = configuration.place.longitude + placement.uniform(-1500, 1500) / longitudeScale
      metersPerDegreeLongitude = longitudeScale

      captureOffs = []
      parks = []
      fixLosses = []
      wildJumps = []
      corruptions = []
      for event in configuration.events {
        switch event {
        case .captureGap(let at, let duration): captureOffs.append((at, Swift.max(1, duration), false))
        case .relaunch(let at, let interruption): captureOffs.append((at, Swift.max(1, interruption), true))
        case .park(let at, let duration, let paused): parks.append((at, duration, paused))
        case .fixLoss(let at, let duration): fixLosses.append((at, duration))
        case .wildJump(let at, let meters): wildJumps.append((at, meters))
        case .corruptedSentence(let at): corruptions.append(at)
        }
      }
      // Consumed from the end: latest first in storage.
      captureOffs.sort { $0.at > $1.at }
      parks.sort { $0.at > $1.at }
      fixLosses.sort { $0.at > $1.at }
      wildJumps.sort { $0.at > $1.at }
      corruptions.sort(by: >)

      queue.reserveCapacity(8)
      if tracksFacts { tracker = DriveFactsTracker() }
      startSession()
    }

    /// The facts gathered so far (all of them once `next()` has returned nil); nil unless the
    /// iterator was made by `SyntheticDrive.facts()`.
    public var facts: DriveFacts? { tracker?.facts }

    public mutating func next() -> SyntheticFix? {
      while true {
        if queueHead < queue.count {
          let fix = queue[queueHead]
          queueHead += 1
          if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
          }
          tracker?.written(fix)
          return fix
        }
        if tick >= duration {
          guard held != nil else { return nil }
          releaseHeld()
          continue
        }
        tick += 1
        advanceWorld()
        if let fix = produceFix(), let direct = arrange(fix) {
          tracker?.written(direct)
          return direct
        }
      }
    }

    // MARK: - The world, one second at a time

    private mutating func advanceWorld() {
      if tick > 0 {
        motion.tick()
        receiver.tick()
      }
      while let event = captureOffs.last, event.at <= tick {
        captureOffs.removeLast()
        offUntil = Swift.max(offUntil, tick + event.duration)
        if capturing {
          if event.isRelaunch {
            tracker?.facts.relaunches += 1
            tracker?.facts.relaunchSeconds += event.duration
          } else {
            tracker?.facts.captureGaps += 1
            tracker?.facts.captureGapSeconds += event.duration
          }
        }
      }
      while let park = parks.last, park.at <= tick {
        parks.removeLast()
        motion.requestPark(duration: park.duration, pausesCapture: park.pausesCapture)
      }
      while let loss = fixLosses.last, loss.at <= tick {
        fixLosses.removeLast()
        fixLossUntil = Swift.max(fixLossUntil, tick + loss.duration)
        tracker?.facts.fixLossStretches += 1
      }
      while let jump = wildJumps.last, jump.at <= tick {
        wildJumps.removeLast()
        pendingWild = jump.meters
      }
      while let corruption = corruptions.last, corruption <= tick {
        corruptions.removeLast()
        pendingCorruption = true
      }

      let parkedAndPaused = motion.isParked && motion.parkPausesCapture
      if parkedAndPaused, !pausedForPark, capturing {
        tracker?.facts.pausedParks += 1
      }
      if parkedAndPaused, capturing || pausedForPark { tracker?.facts.pausedParkSeconds += 1 }
      pausedForPark = parkedAndPaused && (capturing || pausedForPark)
      let shouldCapture = tick >= offUntil && !pausedForPark
      if shouldCapture, !capturing {
        session += 1
        startSession()
      }
      capturing = shouldCapture

      if tracker != nil {
        let (latitude, longitude) = truthPosition()
        tracker?.second(
          time: Double(start + Int64(tick)) + Double(sessionPhase) / 1000,
          latitude: latitude, longitude: longitude, speed: motion.speed, capturing: capturing, session: session)
        tracker?.facts.parks = motion.parks
        tracker?.facts.trafficStops = motion.trafficStops
      }
    }

    private mutating func startSession() {
      sessionStartTick = tick < 0 ? 0 : tick
      sessionTag = sessionRNG.next()
      sessionPhase = subsecond ? Int64(sessionRNG.integer(0...999)) : 0
      tracker?.facts.sessions += 1
    }

    private func truthPosition() -> (latitude: Double, longitude: Double) {
      (
        originLatitude + motion.y / GeographicDistance.metersPerDegree,
        originLongitude + motion.x / metersPerDegreeLongitude
      )
    }

    // MARK: - Fixes

    @inline(__always)
    private mutating func produceFix() -> SyntheticFix? {
      guard capturing, (tick - sessionStartTick) % interval == 0 else { return nil }
      let (truthLatitude, truthLongitude) = truthPosition()
      let milliseconds = (start + Int64(tick)) * 1000 + sessionPhase
      let captureSession = legacy ? nil : CaptureSessionID(Int64(session))
      var faults: SyntheticFix.Faults = []
      if pendingCorruption {
        pendingCorruption = false
        faults.insert(.corruptedSentence)
      }
      let speed = motion.speed
      var fix = SyntheticFix(
        sample: RouteSample(
          timestamp: Double(milliseconds) / 1000, latitude: .nan, longitude: .nan,
          captureSession: captureSession),
        milliseconds: milliseconds, session: session, sessionTag: sessionTag, hasFix: false,
        satellites: 0, faults: faults, truthLatitude: truthLatitude, truthLongitude: truthLongitude,
        truthSpeed: speed)
      guard tick >= fixLossUntil else {
        tracker?.produced(fix)
        return fix
      }

      var accuracy = receiver.accuracy
      var (east, north, up) = receiver.error()
      if spikeLeft > 0 || faultRNG.chance(rates.accuracySpike) {
        if spikeLeft == 0 { spikeLeft = faultRNG.integer(1...4) }
        spikeLeft -= 1
        accuracy = (faultRNG.uniform(150, 450) * 10).rounded() / 10
        east = faultRNG.normal() * 0.35 * accuracy
        north = faultRNG.normal() * 0.35 * accuracy
        faults.insert(.accuracySpike)
      }
      if pendingWild != nil || faultRNG.chance(rates.wildJump) {
        let meters = pendingWild ?? faultRNG.uniform(800, 6000)
        pendingWild = nil
        let (s, c) = SynthesisMath.sinCos(faultRNG.uniform(0, 2 * Double.pi))
        east += meters * s
        north += meters * c
        faults.insert(.wildJump)
      }
      let satellites =
        faults.contains(.accuracySpike)
        ? faultRNG.integer(3...5)
        : Swift.min(14, Swift.max(4, Int((17 - accuracy / 3.5 + receiver.wobble(1.0)).rounded())))
      if faultRNG.chance(rates.invalidAccuracy) {
        accuracy = -1
        faults.insert(.invalidAccuracy)
      }
      var latitude = Self.quantized(originLatitude + (motion.y + north) / GeographicDistance.metersPerDegree)
      var longitude = Self.quantized(originLongitude + (motion.x + east) / metersPerDegreeLongitude)
      if faultRNG.chance(rates.nullIsland) {
        latitude = 0
        longitude = 0
        faults.insert(.nullIsland)
      }

      let reportedSpeed = speed < 0.05 ? 0 : (Swift.max(0, speed + receiver.wobble(0.12)) * 100).rounded() / 100
      var course: Double?
      if speed >= 0.5 {
        var degrees = (motion.heading * 180 / Double.pi + receiver.wobble(1.0)).truncatingRemainder(dividingBy: 360)
        if degrees < 0 { degrees += 360 }
        course = Swift.min(359.9, (degrees * 10).rounded() / 10)
      }
      let altitude = ((Self.terrain(x: motion.x, y: motion.y) + up) * 10).rounded() / 10

      fix.sample = RouteSample(
        timestamp: Double(milliseconds) / 1000, latitude: latitude, longitude: longitude,
        horizontalAccuracy: accuracy, speed: reportedSpeed, course: course, altitude: altitude,
        captureSession: captureSession)
      fix.hasFix = true
      fix.satellites = satellites
      fix.faults = faults
      tracker?.produced(fix)
      return fix
    }

    /// Arranges a produced fix for writing: returns it when it can be written at once with
    /// nothing waiting (the common case, which copies nothing); otherwise queues it, with its
    /// duplicate, or holds it back to be written late, and returns nil.
    @inline(__always)
    private mutating func arrange(_ produced: SyntheticFix) -> SyntheticFix? {
      var fix = produced
      if let late = held, late.session != fix.session { releaseHeld() }
      if held == nil, faultRNG.chance(rates.lateArrival) {
        fix.faults.insert(.lateArrival)
        held = fix
        heldCountdown = faultRNG.integer(1...5)
        heldOvertaken = false
        return nil
      }
      let duplicated = faultRNG.chance(rates.duplicate)
      var releasing = false
      if held != nil {
        heldOvertaken = true
        heldCountdown -= 1
        releasing = heldCountdown == 0
      }
      if queueHead == queue.count, !duplicated, !releasing { return fix }
      queue.append(fix)
      if duplicated {
        fix.faults.insert(.duplicate)
        queue.append(fix)
      }
      if releasing { releaseHeld() }
      return nil
    }

    /// Queues the held fix. One that no newer fix overtook (its session or the drive ended
    /// first) is not late after all.
    private mutating func releaseHeld() {
      guard var late = held else { return }
      if !heldOvertaken { late.faults.remove(.lateArrival) }
      queue.append(late)
      held = nil
    }

    /// Degrees to 7 decimals (about 1 cm), exactly as the GPX and CSV writers print them, so a
    /// reader sees the very value the generator measured.
    private static func quantized(_ degrees: Double) -> Double {
      (degrees * 10_000_000).rounded() / 10_000_000
    }

    /// Metres above the sea of the invented town: gentle hills, 5–60 m.
    private static func terrain(x: Double, y: Double) -> Double {
      30 + 14 * SynthesisMath.sin(x / 1700 + 0.3) + 9 * SynthesisMath.sin(y / 1100 + 1.1)
        + 3 * SynthesisMath.sin((x + y) / 400)
    }
  }
}
