import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A long, gapless 1 Hz route for the walk benchmarks: a vehicle at 8–16 m/s on a gently curving
/// path in an invented place (open ocean near 0.5° N, 160° W), one capture session.
enum BenchmarkRoute {
  static func positions(seconds: Int, session: CaptureSessionID? = CaptureSessionID(1)) -> [RoutePosition] {
    var positions: [RoutePosition] = []
    positions.reserveCapacity(seconds)
    var latitude = 0.5
    var longitude = -160.0
    var heading = 0.3
    let metersPerDegree = GeographicDistance.metersPerDegree
    for second in 0..<seconds {
      let speed = 12 + 4 * sin(Double(second) / 97)
      heading += 0.01 * sin(Double(second) / 311)
      latitude += speed * cos(heading) / metersPerDegree
      longitude += speed * sin(heading) / (metersPerDegree * cos(latitude * .pi / 180))
      positions.append(
        RoutePosition(
          timestamp: 1_764_403_200 + Double(second), latitude: latitude, longitude: longitude, captureSession: session))
    }
    return positions
  }

  static func samples(seconds: Int) -> [RouteSample] {
    positions(seconds: seconds).map {
      RouteSample(
        timestamp: $0.timestamp, latitude: $0.latitude, longitude: $0.longitude, horizontalAccuracy: 8,
        captureSession: $0.captureSession)
    }
  }
}
