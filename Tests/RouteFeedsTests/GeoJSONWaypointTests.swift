import RouteMileage
import Testing

@testable import RouteFeeds

/// Point features beside a track are waypoints (places), not fixes; a collection of only Points
/// is a point-per-fix recording and is measured (`GeoJSONPointRoles`).
@Suite struct GeoJSONWaypointTests: FeedReaderSuite {
  static func makeReader() -> GeoJSONReader { GeoJSONReader(options: FeedOptions()) }

  static func point(_ time: String, _ longitude: Double, _ latitude: Double, name: String? = nil) -> String {
    let named = name.map { "\"name\": \"\($0)\", " } ?? ""
    return """
      {"type": "Feature", "properties": {\(named)"time": "\(time)"},
       "geometry": {"type": "Point", "coordinates": [\(longitude), \(latitude)]}}
      """
  }

  /// A 20-fix track a minute apart, heading north 300 m a minute.
  static let track: String = {
    let times = (0..<20).map { "\"2025-11-29T08:\($0 < 10 ? "0" : "")\($0):00Z\"" }.joined(separator: ", ")
    let coordinates = (0..<20).map { "[-0.1300, \(51.5000 + Double($0) * 0.0027)]" }.joined(separator: ", ")
    return """
      {"type": "Feature", "properties": {"coordTimes": [\(times)]},
       "geometry": {"type": "LineString", "coordinates": [\(coordinates)]}}
      """
  }()

  static func collection(_ features: [String]) -> String {
    "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
  }

  /// Four named Points scattered far off the track within one minute, as a GPX conversion
  /// writes waypoints (before the track), and one unnamed Point after it.
  static let withWaypoints = collection(
    [
      point("2025-11-29T08:05:10Z", -0.1500, 51.5100, name: "Depot"),
      point("2025-11-29T08:05:20Z", -0.1200, 51.5200, name: "Drop A"),
      point("2025-11-29T08:05:40Z", -0.1500, 51.5300, name: "Drop B"),
      point("2025-11-29T08:06:07Z", -0.1200, 51.5050, name: "Drop C"),
      track,
      point("2025-11-29T08:30:00Z", -0.1000, 51.5000),
    ])

  @Test func pointsBesideATrackAreWaypointsNotFixes() {
    let trackOnly = GeoJSONReaderTests.measure(Array(Self.collection([Self.track]).utf8), filter: true)
    for chunk in [1, 13, 4096, Int.max] {
      let read = Self.read(Self.withWaypoints, chunkSize: chunk)
      #expect(read.error == nil)
      let waypoints = read.records.filter { $0 == .rejected(.waypoint, line: $0.line) }
      #expect(waypoints.count == 5)
      #expect(Self.positions(read.records).count == 20)
    }
    let measured = GeoJSONReaderTests.measure(Array(Self.withWaypoints.utf8), filter: true)
    #expect(measured.report.rejected[.waypoint] == 5)
    #expect(measured.report.records == 25)
    #expect(measured.distance.meters == trackOnly.distance.meters)
    #expect(measured.distance.meters.rounded() == 5704)
  }

  @Test func aCollectionOfOnlyPointsIsMeasuredNamedOrNot() {
    for named in [false, true] {
      let points = (0..<10).map {
        Self.point("2025-11-29T08:0\($0):00Z", -0.13, 51.5 + Double($0) * 0.0027, name: named ? "Fix \($0)" : nil)
      }
      let read = Self.read(Self.collection(points), chunkSize: 7)
      #expect(read.error == nil)
      #expect(Self.positions(read.records).count == 10, "named: \(named)")
      #expect(!read.records.contains { if case .rejected = $0 { true } else { false } })
    }
  }

  @Test func heldNamedPointsAreBoundedAndKeepTheirOrder() {
    let count = GeoJSONPointRoles.maximumHeld + 10
    let points = (0..<count).map {
      Self.point("2025-11-29T08:00:00Z", -0.13, 51.5 + Double($0) * 1e-5, name: "Fix")
    }
    var largest = 0
    let read = readChunked(Self.makeReader(), Array(Self.collection(points).utf8), chunkSize: 4096) {
      largest = max(largest, $0.mapper.heldCapacity)
    }
    #expect(read.error == nil)
    let lines = read.records.compactMap { if case .position(_, _, let line) = $0 { line } else { nil } }
    #expect(lines.count == count)
    #expect(lines == lines.sorted())
    #expect(largest < 2 * GeoJSONPointRoles.maximumHeld * 96)
  }
}
