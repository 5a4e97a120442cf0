/// The walk with a shift timeline (DESIGN.md, "The shift timeline").
///
/// With a timeline the window is the timeline's [start, end] (no end while the shift runs), and:
/// - a position inside a pause or a park is counted (`positionsInsidePause`,
///   `positionsWhileParked`) and not measured, like one outside the window;
/// - every closed pause and park is a gap of its own kind (`pause`, `parked`) spanning the
///   interruption itself, even when fixes continued through it, and no distance is measured
///   across it: the walk starts a new segment after it whatever the capture sessions say;
/// - capture is expected to stop at a pause and start again at the resume, so a silence longer
///   than the maximum interval between the last position and the interruption, or between the
///   resume and the next position, is a `silence` gap too (before the first position it is the
///   `windowStart` gap, after the last one the `windowEnd` gap, as without a timeline).
///
/// An interruption still open (the shift is paused or parked now) becomes a gap when it closes.
/// The timeline may grow while the walk runs (a live shift): `extendTimeline(_:)`.
extension RouteMileageAccumulator {
  /// A walk measured against `timeline`; see the extension's notes.
  public init(maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval, timeline: ShiftTimeline?) {
    self.init(maximumSampleInterval: maximumSampleInterval, window: nil)
    if let timeline { extendTimeline(timeline) }
  }

  /// Replaces the timeline with a later reading of the same shift (the same events and
  /// possibly more). Interruptions the walk has already passed stay where they were.
  public mutating func extendTimeline(_ newer: ShiftTimeline) {
    timeline = newer
    hasTimeline = true
    // An open interval may have closed: the placer looks it up again at the next position.
    if placer == nil { placer = TimelinePlacer(newer) } else { placer!.extend(newer) }
    updateNextInterruptionEnd()
  }

  /// The end of the next closed interruption not walked yet (+∞ when there is none), so the walk
  /// looks at the timeline only when a position reaches it.
  @usableFromInline
  mutating func updateNextInterruptionEnd() {
    let interruptions = timeline?.interruptions ?? []
    nextInterruptionEnd =
      interruptionsWalked < interruptions.count ? (interruptions[interruptionsWalked].end ?? .infinity) : .infinity
  }

  /// Where the timeline places `instant`, nil without a timeline: the walk's own placer, so a
  /// caller that judges positions before the walk (the ingest) acts on the answer the walk's
  /// own placement of the same instant then takes from the placer's cache.
  ///
  /// - Complexity: O(1) inside the current capture interval, else O(log *k*) in the events.
  @inlinable
  public mutating func placeOnTimeline(_ instant: Double) -> ShiftTimeline.Placement? {
    placer?.place(instant)
  }

  /// Counts a position `placeOnTimeline(_:)` placed outside capture exactly as `append` would
  /// (an unusable one as unusable) and measures nothing from it. O(1).
  public mutating func appendOutsideCapture(_ position: RoutePosition, placement: ShiftTimeline.Placement) {
    guard position.isUsable else {
      unusable += 1
      return
    }
    countOutsideCapture(placement)
  }

  /// Counts a position placed outside capture by its placement.
  @usableFromInline
  mutating func countOutsideCapture(_ placement: ShiftTimeline.Placement) {
    switch placement {
    case .capturing: break
    case .paused: insidePause += 1
    case .parked: whileParked += 1
    case .beforeStart, .afterEnd: outsideWindow += 1
    }
  }

  /// Records the gaps for every closed interruption that ends at or before `to` and has not been
  /// walked yet; returns whether there was one.
  @usableFromInline
  @discardableResult
  mutating func walkInterruptions(from: Double, to: Double, leadingKind: RouteGap.Kind) -> Bool {
    guard let interruptions = timeline?.interruptions else { return false }
    var edge = from
    var crossed = false
    var kind = leadingKind
    while interruptionsWalked < interruptions.count, let end = interruptions[interruptionsWalked].end, end <= to {
      let interruption = interruptions[interruptionsWalked]
      if interruption.start - edge > continuity.maximumSampleInterval {
        gaps.append(RouteGap(kind: kind, start: edge, end: interruption.start))
      }
      gaps.append(RouteGap(kind: interruption.kind == .pause ? .pause : .parked, start: interruption.start, end: end))
      edge = end
      kind = .silence
      crossed = true
      interruptionsWalked += 1
    }
    if crossed { updateNextInterruptionEnd() }
    if to - edge > continuity.maximumSampleInterval, crossed || leadingKind == .windowStart {
      gaps.append(RouteGap(kind: kind, start: edge, end: to))
    }
    return crossed
  }

  /// The gaps after the last position, at reading time: closed interruptions not yet walked,
  /// and, once the shift has ended, the window-end gap.
  func trailingTimelineGaps() -> [RouteGap] {
    guard let timeline, let last else { return [] }
    var trailing: [RouteGap] = []
    var edge = last.timestamp
    for interruption in timeline.interruptions.dropFirst(interruptionsWalked) {
      guard let end = interruption.end else { break }
      if interruption.start - edge > continuity.maximumSampleInterval {
        trailing.append(RouteGap(kind: .silence, start: edge, end: interruption.start))
      }
      trailing.append(
        RouteGap(kind: interruption.kind == .pause ? .pause : .parked, start: interruption.start, end: end))
      edge = end
    }
    if let end = timeline.end, end - edge > continuity.maximumSampleInterval {
      trailing.append(RouteGap(kind: .windowEnd, start: edge, end: end))
    }
    return trailing
  }
}
