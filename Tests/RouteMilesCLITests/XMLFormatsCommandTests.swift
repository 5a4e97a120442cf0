import Foundation
import RouteTestSupport
import Testing

/// TCX and KML through the tool: detected by their root element, forced with
/// `--input-format`, and found by `batch` in a directory.
@Suite struct XMLFormatsCommandTests {
  static let tcx = """
    <?xml version="1.0"?>
    <TrainingCenterDatabase><Activities><Activity><Lap><Track>
    <Trackpoint><Time>2025-01-01T07:00:00Z</Time><Position><LatitudeDegrees>45.5</LatitudeDegrees><LongitudeDegrees>13.25</LongitudeDegrees></Position></Trackpoint>
    <Trackpoint><Time>2025-01-01T07:00:10Z</Time><Position><LatitudeDegrees>45.501</LatitudeDegrees><LongitudeDegrees>13.25</LongitudeDegrees></Position></Trackpoint>
    <Trackpoint><Time>2025-01-01T07:00:15Z</Time></Trackpoint>
    </Track></Lap></Activity></Activities></TrainingCenterDatabase>

    """
  /// Also the document inside the KMZ of `OwnTracksAndKMZCommandTests`.
  static let kml = """
    <kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
    <when>2025-01-01T07:00:00Z</when><when>2025-01-01T07:00:10Z</when>
    <gx:coord>13.25 45.5 0</gx:coord><gx:coord>13.25 45.501 0</gx:coord>
    </gx:Track></Placemark></kml>

    """

  @Test func detectedForcedAndWalked() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let tcx = try CLITestSupport.write(Self.tcx, to: "ride.tcx", in: directory)
    let kml = try CLITestSupport.write(Self.kml, to: "walk.kml", in: directory)

    try CLITestSupport.measuredJSON([tcx], format: "tcx", meters: 111.195, ingest: ["rejected": ["missingPosition": 1]])

    let forced = CLITestSupport.run(["measure", "--json", "--input-format", "kml", tcx])
    #expect(forced.status == 1)
    #expect(forced.error.contains("this is not a KML document: its root element is <Training…>, not <kml>"))
    #expect(
      CLITestSupport.run(["measure", "--input-format", "kmz", kml]).error.contains(
        "use gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks"))

    #expect(Set(try CLITestSupport.batchFormats(in: directory)) == ["tcx", "kml"])
  }
}
