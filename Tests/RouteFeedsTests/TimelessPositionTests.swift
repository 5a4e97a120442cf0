import RouteFeeds
import RouteMileage
import Testing

/// A position without a time can be neither ordered nor measured. Every format that can hold
/// one counts it as `missingTime`, and the route says how many it left out and is partial,
/// however well the timed positions measure.
@Suite("Positions without a time: counted, worded, and the route partial")
struct TimelessPositionTests {
  /// `timed` positions a minute apart, 11 m apart in latitude, then `untimed` more.
  static func points(timed: Int, untimed: Int) -> [(latitude: String, time: String?)] {
    (0..<(timed + untimed)).map { index in
      let latitude = String(51.5 + Double(index) * 0.0001)
      let time = index < timed ? "2025-01-01T12:\(index < 10 ? "0" : "")\(index):00Z" : nil
      return (latitude, time)
    }
  }

  static func gpx(timed: Int, untimed: Int) -> String {
    let body = points(timed: timed, untimed: untimed).map { point in
      "<trkpt lat=\"\(point.latitude)\" lon=\"-0.1\">" + (point.time.map { "<time>\($0)</time>" } ?? "") + "</trkpt>"
    }.joined(separator: "\n")
    return "<gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\n\(body)\n</trkseg></trk></gpx>\n"
  }

  static func tcx(timed: Int, untimed: Int) -> String {
    let body = points(timed: timed, untimed: untimed).map { point in
      "<Trackpoint>" + (point.time.map { "<Time>\($0)</Time>" } ?? "")
        + "<Position><LatitudeDegrees>\(point.latitude)</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position></Trackpoint>"
    }.joined(separator: "\n")
    return """
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Other">
      <Id>2025-01-01T12:00:00Z</Id><Lap StartTime="2025-01-01T12:00:00Z"><Track>
      \(body)
      </Track></Lap></Activity></Activities></TrainingCenterDatabase>

      """
  }

  /// A `gx:Track` whose last `when`s are missing: as many `gx:coord` as positions, fewer
  /// `when`.
  static func kml(timed: Int, untimed: Int) -> String {
    let all = points(timed: timed, untimed: untimed)
    let whens = all.compactMap(\.time).map { "<when>\($0)</when>" }.joined(separator: "\n")
    let coords = all.map { "<gx:coord>-0.1 \($0.latitude) 0</gx:coord>" }.joined(separator: "\n")
    return """
      <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Placemark><gx:Track>
      \(whens)
      \(coords)
      </gx:Track></Placemark></Document></kml>

      """
  }

  static func geojson(timed: Int, untimed: Int) -> String {
    let features = points(timed: timed, untimed: untimed).map { point in
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [-0.1, \(point.latitude)]}, \"properties\": {"
        + (point.time.map { "\"time\": \"\($0)\"" } ?? "") + "}}"
    }.joined(separator: ",\n")
    return "{\"type\": \"FeatureCollection\", \"features\": [\n\(features)\n]}\n"
  }

  @Test(arguments: [FeedFormat.gpx, .tcx, .kml, .geojson])
  func timelessPositionsAreLeftOutAndSaidSo(format: FeedFormat) {
    let make: (Int, Int) -> String =
      switch format {
      case .gpx: Self.gpx
      case .tcx: Self.tcx
      case .kml: Self.kml
      default: Self.geojson
      }
    let measured = HostileFeed.measure(make(5, 291))
    #expect(measured.format == format)
    #expect(measured.report.rejected[.missingTime] == 291, "\(measured.report.rejected)")
    #expect(measured.report.retained == 5)
    #expect(measured.distance.positionsWithoutTime == 291)
    #expect(measured.distance.isMeasured)
    #expect(measured.distance.isPartial)
    let quality = RouteQuality(measured.distance)
    #expect(quality.status == .partial)
    #expect(quality.line == "under 0.1 mi recorded · partial route")
    #expect(
      quality.detailSentences == [
        "Measured from 1 unbroken stretch of capture.", "No capture gaps detected.",
        "291 positions have no time and cannot be measured.",
        "Partial route: any driving outside the recorded stretches is not included.",
      ])

    // Every position timed: measured, not partial, no sentence about time.
    let whole = HostileFeed.measure(make(5, 0))
    #expect(whole.distance.positionsWithoutTime == 0)
    #expect(RouteQuality(whole.distance).status == .measured)
    #expect(RouteQuality(whole.distance).withoutTimeSentence == nil)
  }

  @Test func oneTimelessPositionInGermanNumbers() {
    let measured = HostileFeed.measure(Self.gpx(timed: 3, untimed: 1))
    #expect(RouteQuality(measured.distance).withoutTimeSentence == "1 position has no time and cannot be measured.")
    let many = HostileFeed.measure(Self.gpx(timed: 3, untimed: 1_200))
    #expect(
      RouteQuality(many.distance, locale: MileageLocale(identifier: "de_DE")).withoutTimeSentence
        == "1.200 positions have no time and cannot be measured.")
  }

  @Test func noTimedPositionAtAll() {
    let measured = HostileFeed.measure(Self.gpx(timed: 0, untimed: 4))
    #expect(RouteQuality(measured.distance).line == "No route recorded")
    #expect(
      RouteQuality(measured.distance).detailSentences == [
        "No usable position was recorded, so no distance could be measured.",
        "4 positions have no time and cannot be measured.",
      ])
  }
}
