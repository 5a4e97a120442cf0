import RouteFeeds
import RouteMileage

extension FeedReason {
  // Positions the shift timeline places where capture does not run (reported under `rejected`,
  // so `records = retained + Σ rejected + errors` holds with a timeline too).
  /// A position inside a pause of the shift.
  public static let insidePause = FeedReason("insidePause")
  /// A position while the vehicle was parked.
  public static let whileParked = FeedReason("whileParked")
  /// A position before the shift's start or after its end.
  public static let outsideShift = FeedReason("outsideShift")
}

extension ShiftIngest {
  /// With a timeline, decides before the capture filter whether a record could have been
  /// captured at all (DESIGN.md, "The shift timeline").
  ///
  /// A position inside a pause, inside a park or outside [start, end] never reaches the filter
  /// (it must not become the anchor the next fix is judged against): it is rejected by reason
  /// (`insidePause`, `whileParked`, `outsideShift`), and the walk counts it and measures nothing
  /// from it. A position in a capture interval other than the last
  /// one seen ends every capture session, so each resume or drive starts a new one, exactly as
  /// the app's capture restarts. Legacy rows stay legacy.
  ///
  /// The placement is the walk's own (`RouteMileageAccumulator.placeOnTimeline(_:)`): one
  /// decision, one cache, for the ingest and the walk.
  ///
  /// - Returns: whether the position goes on to the filter.
  /// - Complexity: O(1) inside the current capture interval, else O(log *k*) in the events.
  mutating func admitByTimeline(_ sample: RouteSample) -> Bool {
    guard let placement = accumulator.placeOnTimeline(sample.timestamp) else { return true }
    guard case .capturing(let index) = placement else {
      let reason: FeedReason =
        switch placement {
        case .paused: .insidePause
        case .parked: .whileParked
        default: .outsideShift
        }
      counted.rejected[reason, default: 0] += 1
      // Without the filter the caller walks it in walk order with the rest.
      if filtering { accumulator.appendOutsideCapture(sample.position, placement: placement) }
      return false
    }
    // The filter sees positions in time order, so a change of interval is a resume or a drive.
    // Without the filter, rows come as stored; `timelineSessionKey` gives each (reader
    // session, interval) its own capture session instead, whatever the order.
    if filtering, let current = captureInterval, current != index { interruptCapture() }
    captureInterval = index
    return true
  }

  /// Without the filter, the reader session a position is minted a capture session under: one
  /// per (reader session, capture interval) pair, so each resume or drive starts a new capture
  /// session and the stored order of the rows does not matter. Legacy rows stay legacy; without
  /// a timeline it is the reader session itself.
  ///
  /// - Complexity: O(1).
  func timelineSessionKey(_ session: Int?) -> Int? {
    guard hasTimeline, let session, let captureInterval else { return session }
    return session &* 1_048_576 &+ captureInterval
  }
}
