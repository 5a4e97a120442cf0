/// The measurement walk: a value that remembers where it reached and extends forwards only.
///
/// Feed it positions in time order and read `distance` whenever you like. It holds no position
/// list, only the last position walked, the open segment's running figures and the (short)
/// lists of closed segments and gaps, so extending a twelve-hour route by a handful of
/// positions costs a handful of steps, not a re-walk of the shift.
///
/// This is the only implementation of continuity, gaps and usability in the package.
/// `RouteMileageCalculator` is this same walk fed a sorted route all at once, so a whole-route
/// measurement and an extended one cannot drift apart: for positions appended in time order,
/// any chunking gives a bit-identical `RouteDistance`.
///
/// Rules, in the order they are applied to each position:
/// 1. A position that describes nowhere on Earth (`RoutePosition.isUsable`) is counted and skipped.
/// 2. With a shift window, a position outside it is counted and skipped.
/// 3. A position at or before the last one walked is counted and skipped: the walk never goes
///    back, and of several positions sharing a timestamp only the first is measured.
/// 4. Otherwise it extends the open segment when continuous with the previous position, or
///    closes it and records a gap.
///
/// - Complexity: O(1) amortised time per position. Memory is O(1) in the number of positions;
///   it grows only with the number of gaps (one segment and one gap record per break).
public struct RouteMileageAccumulator: Sendable, Hashable {
  public let continuity: RouteContinuity
  /// The finished shift's window, or nil for a running shift.
  public let window: ShiftWindow?

  @usableFromInline var last: RoutePosition?
  @usableFromInline var openSegmentStart: Double = 0
  @usableFromInline var openSegmentPositions: Int = 0
  @usableFromInline var openSegmentMeters: Double = 0
  @usableFromInline var closedMeters: Double = 0
  @usableFromInline var closedSegments: [RouteSegment] = []
  @usableFromInline var gaps: [RouteGap] = []
  @usableFromInline var usable: Int = 0
  @usableFromInline var unusable: Int = 0
  @usableFromInline var outsideWindow: Int = 0
  @usableFromInline var notAfterPrevious: Int = 0
  @usableFromInline var isolated: Int = 0
  @usableFromInline var inferred: Bool = false
  /// The shift's timeline, when known; see `RouteMileageAccumulator+Timeline.swift`.
  public internal(set) var timeline: ShiftTimeline?
  @usableFromInline var interruptionsWalked: Int = 0
  @usableFromInline var insidePause: Int = 0
  @usableFromInline var whileParked: Int = 0
  // Where the timeline places each position (see `TimelinePlacer`, which caches the current
  // capture interval), and `timeline != nil` as a flag for the hot path.
  @usableFromInline var hasTimeline = false
  @usableFromInline var placer: TimelinePlacer?
  @usableFromInline var nextInterruptionEnd = Double.infinity
  /// The open segment's floor (`RouteFloorWalk`) and the closed segments' floors so far.
  @usableFromInline var floor: RouteFloorWalk
  @usableFromInline var closedFloorMeters: Double = 0
  @usableFromInline var withoutAccuracy: Int = 0
  @usableFromInline var poorAccuracy: Int = 0
  @usableFromInline var creepingSeconds: Double = 0
  @usableFromInline var creepingMeters: Double = 0
  /// Stops the walk passed through (see `RouteStop`), and the open one's start while
  /// `stopOpen`.
  @usableFromInline var stops: [RouteStop] = []
  @usableFromInline var stopOpen = false
  @usableFromInline var stopStart: Double = 0

  public init(
    maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval,
    window: ShiftWindow? = nil, floorAssumption: RouteFloorAssumption = .standard
  ) {
    self.continuity = RouteContinuity(maximumSampleInterval: maximumSampleInterval)
    self.window = window
    self.floor = RouteFloorWalk(assumption: floorAssumption)
  }

  /// Every position offered so far, walked or skipped.
  public var positionsOffered: Int { usable + unusable + outsideWindow + notAfterPrevious + insidePause + whileParked }

  /// The last position walked, or nil before the first. An extension only counts positions
  /// after this one.
  public var lastPosition: RoutePosition? { last }

  /// Walks one more position.
  ///
  /// - Complexity: O(1) amortised.
  @inlinable
  public mutating func append(_ position: RoutePosition) {
    append(position, measured: nil)
  }

  /// Walks one more position that `RouteSampleFilter` has just retained, with what the filter
  /// measured for it (`RouteSampleFilter.lastRetainedMeasure`): the step from the session's
  /// previous retained fix is used as this walk's step when that fix is the last one walked,
  /// and the latitude's cosine feeds the floor, so neither the haversine nor the cosine is
  /// computed twice. Bit-identical to `append(_:)`.
  ///
  /// One comparison tells whether the filter's step is this walk's: retained samples have
  /// strictly increasing timestamps (the filter's `outOfOrder` rule), so the fix the filter
  /// measured from is the last one walked exactly when their timestamps are equal. It differs
  /// after a session switch, a fix outside the window, or a re-anchoring (then the walk measures).
  ///
  /// The filter retains only usable positions (its `invalidCoordinate` rule is
  /// `RoutePosition.isUsable`), so the walk's own usability test is not repeated here.
  @inlinable
  package mutating func append(_ position: RoutePosition, measured: RouteSampleFilter.RetainedMeasure) {
    append(position, measured: Optional(measured), knownUsable: true)
  }

  /// Inlined into each caller: the ingest stage always has a measure, so the optional's tests
  /// fold away, and the call's frame is not set up for every position. `knownUsable`: the
  /// caller has already tested `isUsable` (a constant at each call, so the test folds away).
  @inlinable @inline(__always)
  mutating func append(
    _ position: RoutePosition, measured: RouteSampleFilter.RetainedMeasure?, knownUsable: Bool = false
  ) {
    guard knownUsable || position.isUsable else {
      unusable += 1
      return
    }
    if hasTimeline {
      let placement = placer!.place(position.timestamp)
      guard case .capturing = placement else { return countOutsideCapture(placement) }
    } else if let window, !window.contains(position.timestamp) {
      outsideWindow += 1
      return
    }
    guard let previous = last else {
      if let start = timeline?.start {
        walkInterruptions(from: start, to: position.timestamp, leadingKind: .windowStart)
      } else if let window, position.timestamp - window.start > continuity.maximumSampleInterval {
        gaps.append(RouteGap(kind: .windowStart, start: window.start, end: position.timestamp))
      }
      startSegment(at: position, cosineOfLatitude: measured?.cosineOfLatitude)
      return
    }
    guard position.timestamp > previous.timestamp else {
      notAfterPrevious += 1
      return
    }
    if previous.captureSession == nil, position.captureSession == nil {
      inferred = true
    }
    if hasTimeline, position.timestamp >= nextInterruptionEnd,
      walkInterruptions(from: previous.timestamp, to: position.timestamp, leadingKind: .silence)
    {
      // A pause or park lies between them: capture stopped, whatever the sessions say.
      closeSegment()
      startSegment(at: position, cosineOfLatitude: measured?.cosineOfLatitude)
      return
    }
    if let kind = continuity.gap(from: previous, to: position) {
      closeSegment()
      gaps.append(RouteGap(kind: kind, start: previous.timestamp, end: position.timestamp))
      startSegment(at: position, cosineOfLatitude: measured?.cosineOfLatitude)
    } else {
      let step: Double
      if let measured, measured.fromTimestamp == previous.timestamp {
        step = measured.meters
      } else {
        step = GeographicDistance.meters(from: previous, to: position)
      }
      openSegmentMeters += step
      let seconds = position.timestamp - previous.timestamp
      if step < seconds {
        creepingSeconds += seconds
        creepingMeters += step
      }
      if let measured, measured.throughStop, measured.fromTimestamp == previous.timestamp {
        if !stopOpen {
          stopOpen = true
          stopStart = previous.timestamp
        }
      } else if stopOpen {
        stopOpen = false
        stops.append(RouteStop(start: stopStart, end: position.timestamp))
      }
      openSegmentPositions += 1
      usable += 1
      last = position
      countAccuracy(position)
      floor.extend(position, cosineOfLatitude: measured?.cosineOfLatitude)
    }
  }

  /// Walks one more sample.
  @inlinable
  public mutating func append(_ sample: RouteSample) {
    append(sample.position)
  }

  /// Walks each position in order.
  ///
  /// - Complexity: O(*n*) for *n* positions.
  @inlinable
  public mutating func append(contentsOf positions: some Sequence<RoutePosition>) {
    for position in positions { append(position) }
  }

  @inlinable
  mutating func startSegment(at position: RoutePosition, cosineOfLatitude: Double?) {
    openSegmentStart = position.timestamp
    openSegmentPositions = 1
    openSegmentMeters = 0
    usable += 1
    last = position
    countAccuracy(position)
    floor.start(position, cosineOfLatitude: cosineOfLatitude)
  }

  @inlinable
  mutating func countAccuracy(_ position: RoutePosition) {
    if let accuracy = position.horizontalAccuracy, accuracy >= 0 {
      if accuracy > RouteDistance.poorAccuracy { poorAccuracy += 1 }
    } else {
      withoutAccuracy += 1
    }
  }

  /// Closes the open segment into the closed lists: a segment of two or more positions is
  /// kept with its distance and floor, a single position counts as isolated. The one place a
  /// segment is closed; `distance` closes a copy's open segment here too.
  @inlinable
  mutating func closeSegment() {
    if stopOpen, let last {
      stopOpen = false
      stops.append(RouteStop(start: stopStart, end: last.timestamp))
    }
    if openSegmentPositions >= 2, let last {
      closedSegments.append(
        RouteSegment(
          start: openSegmentStart, end: last.timestamp,
          positionCount: openSegmentPositions, meters: openSegmentMeters, floorMeters: floor.meters))
      closedMeters += openSegmentMeters
      closedFloorMeters += floor.meters
    } else if openSegmentPositions == 1 {
      isolated += 1
    }
  }

  /// The route so far, as it reads now.
  ///
  /// With a window, a last position more than the maximum interval before the window's end
  /// adds a window-end gap here, at reading time, so the walk itself stays forward-only.
  ///
  /// - Complexity: O(*g*) to copy the segment and gap lists when a segment is open or a
  ///   window-end gap applies; O(1) otherwise (the lists are shared, copy-on-write).
  public var distance: RouteDistance {
    // Close the open segment on a copy: the walk itself stays open for later positions.
    var closing = self
    closing.closeSegment()
    let segments = closing.closedSegments
    let meters = closing.closedMeters
    let floorMeters = closing.closedFloorMeters
    let isolatedCount = closing.isolated
    let stops = closing.stops
    var allGaps = gaps
    if hasTimeline {
      allGaps += trailingTimelineGaps()
    } else if let window, let last, window.end - last.timestamp > continuity.maximumSampleInterval {
      allGaps.append(RouteGap(kind: .windowEnd, start: last.timestamp, end: window.end))
    }
    return RouteDistance(
      meters: meters, segments: segments, gaps: allGaps,
      usablePositionCount: usable, usesInferredContinuity: inferred,
      unusablePositionCount: unusable, positionsOutsideWindow: outsideWindow,
      positionsNotAfterPrevious: notAfterPrevious, isolatedPositionCount: isolatedCount,
      floorMeters: floorMeters, positionsWithoutAccuracy: withoutAccuracy,
      positionsWithPoorAccuracy: poorAccuracy, creepingSeconds: creepingSeconds,
      creepingMeters: creepingMeters,
      positionsInsidePause: insidePause, positionsWhileParked: whileParked, stops: stops,
      positionsWithheld: floor.positionsWithheld)
  }
}
