import RouteMileage
import Testing

/// The stop rule's remembered fix, per capture session: it survives a switch to another
/// session and back, and a retained fix clears it.
@Suite("RouteSampleFilter: the stop fix each session remembers")
struct RouteSampleFilterStopStateTests {
  /// A fix of `session` at `seconds`, `metres` north of 52° N, 13° E.
  static func fix(_ session: CaptureSessionID, _ seconds: Double, north metres: Double) -> RouteSample {
    RouteSample(
      timestamp: seconds, latitude: 52 + metres / GeographicDistance.metersPerDegree, longitude: 13,
      captureSession: session)
  }

  @Test func eachSessionKeepsItsOwnStationaryFixAcrossSwitches() throws {
    var filter = RouteSampleFilter()
    let a = filter.mintCaptureSession()
    let b = filter.mintCaptureSession()
    // Both sessions anchor, then stand, interleaved, each switch parking the other's state.
    #expect(filter.consider(Self.fix(a, 0, north: 0)) == .retained(Self.fix(a, 0, north: 0)))
    #expect(filter.consider(Self.fix(b, 20, north: 1_000)) == .retained(Self.fix(b, 20, north: 1_000)))
    #expect(filter.consider(Self.fix(a, 60, north: 1)) == .rejected(.negligibleMovement))
    #expect(filter.consider(Self.fix(b, 61, north: 1_002)) == .rejected(.negligibleMovement))
    #expect(filter.consider(Self.fix(a, 100, north: 3)) == .rejected(.negligibleMovement))
    #expect(filter.consider(Self.fix(b, 110, north: 1_001)) == .rejected(.negligibleMovement))
    // A moves on 130 s after its anchor: its own latest stationary fix (100 s) is kept first.
    #expect(filter.consider(Self.fix(a, 130, north: 40)) == .retained(Self.fix(a, 130, north: 40)))
    #expect(filter.keptThroughStop == Self.fix(a, 100, north: 3))
    #expect(filter.consider(Self.fix(b, 135, north: 1_002)) == .rejected(.negligibleMovement))
    #expect(filter.consider(Self.fix(a, 140, north: 41)) == .rejected(.negligibleMovement))
    #expect(filter.keptThroughStop == nil)
    // B moves on 130 s after its anchor: its own latest (135 s), not A's.
    #expect(filter.consider(Self.fix(b, 150, north: 1_050)) == .retained(Self.fix(b, 150, north: 1_050)))
    #expect(filter.keptThroughStop == Self.fix(b, 135, north: 1_002))
    #expect(filter.counts.retained == 6)
    #expect(filter.counts[.negligibleMovement] == 4)
  }

  @Test func aRetainedFixForgetsTheStationaryOne() {
    var filter = RouteSampleFilter()
    let a = filter.mintCaptureSession()
    _ = filter.consider(Self.fix(a, 0, north: 0))
    #expect(filter.consider(Self.fix(a, 50, north: 2)) == .rejected(.negligibleMovement))
    // Retained: the fix standing at 50 s is forgotten, so nothing is kept through a stop when
    // the next fix comes more than the interval later (a silence, not a stop).
    #expect(filter.consider(Self.fix(a, 60, north: 30)) == .retained(Self.fix(a, 60, north: 30)))
    #expect(filter.keptThroughStop == nil)
    #expect(filter.consider(Self.fix(a, 200, north: 60)) == .retained(Self.fix(a, 200, north: 60)))
    #expect(filter.keptThroughStop == nil)
    #expect(filter.counts[.negligibleMovement] == 1)
  }
}
