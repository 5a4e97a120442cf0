import RouteMileage
import Testing

/// The capture filter hands the accumulator what it measured for each retained sample
/// (`RouteSampleFilter.lastRetainedMeasure`): the step from the session's previous retained fix
/// and the latitude's cosine. The accumulator uses the step only when that fix is the last one
/// it walked, which one timestamp comparison tells (retained timestamps strictly increase).
@Suite("The filter's measurement handed to the accumulator")
struct RetainedMeasureTests {
  /// Two interleaved sessions with jitter, a stop and a jump: positions the filter rejects,
  /// retains after a session switch, and retains measuring from its anchor.
  static func samples() -> [RouteSample] {
    var samples: [RouteSample] = []
    var latitude = 51.5
    for second in 0..<600 {
      let moving = second % 120 < 90
      if moving { latitude += 0.00012 }
      let jitter = Double((second * 7919) % 13) * 0.000004
      let session = CaptureSessionID(second < 300 || second % 5 != 0 ? 1 : 2)
      samples.append(
        RouteSample(
          timestamp: 1_764_403_200 + Double(second), latitude: latitude + jitter, longitude: -0.1275 + jitter,
          horizontalAccuracy: 4 + Double(second % 9), captureSession: session))
    }
    return samples
  }

  @Test func handingTheMeasureOverGivesABitIdenticalDistance() {
    var filter = RouteSampleFilter()
    var handed = RouteMileageAccumulator()
    var measured = RouteMileageAccumulator()
    var retained = 0
    for sample in Self.samples() {
      guard case .retained(let kept) = filter.consider(sample) else { continue }
      retained += 1
      handed.append(kept.position, measured: filter.lastRetainedMeasure)
      measured.append(kept.position)
    }
    #expect(retained > 100)
    #expect(handed.distance == measured.distance)
    #expect(handed.distance.meters.bitPattern == measured.distance.meters.bitPattern)
    #expect(handed.distance.floorMeters.bitPattern == measured.distance.floorMeters.bitPattern)
  }

  @Test func theHandedStepCountsOnlyFromTheLastPositionWalked() {
    let first = RoutePosition(timestamp: 0, latitude: 51.5, longitude: -0.12, captureSession: CaptureSessionID(1))
    let second = RoutePosition(timestamp: 1, latitude: 51.5001, longitude: -0.12, captureSession: CaptureSessionID(1))
    let cosine = GeographicDistance.cosineOfLatitude(second.latitude)
    let honest = GeographicDistance.meters(from: first, to: second)

    // Measured from the last position walked: the handed step is the walk's step.
    var fromLast = RouteMileageAccumulator()
    fromLast.append(first)
    fromLast.append(second, measured: .init(fromTimestamp: 0, meters: 123.5, cosineOfLatitude: cosine))
    #expect(fromLast.distance.meters == 123.5)

    // Measured from another fix (another session's anchor, one before a skipped position): the
    // walk measures the step itself.
    var fromOther = RouteMileageAccumulator()
    fromOther.append(first)
    fromOther.append(second, measured: .init(fromTimestamp: -5, meters: 123.5, cosineOfLatitude: cosine))
    #expect(fromOther.distance.meters == honest)

    // A session's first fix (no step measured: NaN) is measured by the walk too.
    var started = RouteMileageAccumulator()
    started.append(first)
    started.append(second, measured: .init(fromTimestamp: .nan, meters: 0, cosineOfLatitude: cosine))
    #expect(started.distance.meters == honest)
  }
}
