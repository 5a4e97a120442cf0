import RouteFeeds
import RouteMileage
import Testing

extension GPXRealFile.Outcome {
  /// What every real-file table pins beside its counts, with the filter on or off: capture
  /// sessions, contributing segments, gaps, and the figure to within 0.5 m (the tables give it
  /// to the millimetre; half a metre leaves room for the last digits of the trigonometry on
  /// another libm, never for a step that was measured or dropped wrongly). Nil metres: nothing
  /// measurable.
  func expectFigures(
    of distance: RouteDistance, sessions: Int, label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sessions == self.sessions, "\(label)", sourceLocation: sourceLocation)
    #expect(distance.contributingSegmentCount == segments, "\(label)", sourceLocation: sourceLocation)
    #expect(distance.gapCount == gaps, "\(label)", sourceLocation: sourceLocation)
    if let meters {
      #expect(abs(distance.meters - meters) < 0.5, "\(label): \(distance.meters) m", sourceLocation: sourceLocation)
    } else {
      #expect(!distance.isMeasured, "\(label)", sourceLocation: sourceLocation)
    }
  }
}

/// The two figures the acceptance rule for real files brackets the unfiltered figure with: the
/// sum of the within-session steps of 120 s or less, and the line joining every position in the
/// order read.
struct TrackBounds {
  var withinSessions = 0.0
  var joined = 0.0

  /// - Parameter positions: the positions in the order read, each with its reader session
  ///   (any one value for positions without one).
  /// - Complexity: O(*n*).
  init(_ positions: [(sample: RouteSample, session: Int)]) {
    for (previous, next) in zip(positions, positions.dropFirst()) {
      let step = GeographicDistance.meters(
        fromLatitude: previous.sample.latitude, longitude: previous.sample.longitude,
        toLatitude: next.sample.latitude, longitude: next.sample.longitude)
      joined += step
      if previous.session == next.session, abs(next.sample.timestamp - previous.sample.timestamp) <= 120 {
        withinSessions += step
      }
    }
  }

  /// Expects `figure` between the two, half a metre either side (as `expectFigures`).
  func expectBrackets(_ figure: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      withinSessions - 0.5 <= figure && figure <= joined + 0.5, "\(withinSessions) ≤ \(figure) ≤ \(joined)",
      sourceLocation: sourceLocation)
  }
}
