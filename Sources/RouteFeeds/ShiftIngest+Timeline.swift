import RouteMileage

extension ShiftIngest {
  /// With a timeline, decides before the capture filter whether a record could have been
  /// captured at all (DESIGN.md, "The shift timeline").
  ///
  /// A position inside a pause, inside a park or outside [start, end] never reaches the filter
  /// (it must not become the anchor the next fix is judged against): the walk counts it by
  /// reason and measures nothing from it. A position in a capture interval other than the last
  /// one seen ends every capture session, so each resume or drive starts a new one, exactly as
  /// the app's capture restarts. Legacy rows stay legacy.
  ///
  /// - Returns: whether the position goes on to the filter.
  /// - Complexity: O(*k*) in the timeline's events.
  mutating func admitByTimeline(_ sample: RouteSample) -> Bool {
    let instant = sample.timestamp
    // Hot path: still inside the capture interval of the previous position.
    if instant >= capturingFrom && instant <= capturingTo { return true }
    guard let timeline else { return true }
    guard case .capturing(let index) = timeline.placement(of: instant) else {
      if filter != nil {
        accumulator.append(sample.position)
      } else {
        unfiltered.append(sample.position)
      }
      return false
    }
    if let current = captureInterval, current != index { interruptCapture() }
    captureInterval = index
    capturingFrom = timeline.captureIntervals[index].start
    capturingTo = timeline.captureIntervals[index].end ?? .infinity
    return true
  }
}
