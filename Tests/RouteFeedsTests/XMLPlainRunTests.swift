import Foundation
import RouteMileage
import Testing

@testable import RouteFeeds

/// A TCX point whose markup is the last plain point's (`TCXPointShape`), and runs of points or
/// KML values across the same whitespace (`XMLPlainGap`), are read in one call. Every point or
/// value that differs from what was kept, in markup, gap or value, must give what the general
/// scanner gives, read whole, cut at every byte and in small chunks.
@Suite struct XMLPlainRunTests {
  static func point(_ second: Int, indent: String = "\n  ", latitude: String = "45.5", time: String? = nil) -> String {
    let time = time ?? "2025-01-01T07:00:\(second < 10 ? "0" : "")\(second)Z"
    return "<Trackpoint>\(indent)<Time>\(time)</Time>\(indent)<Position>\(indent)<LatitudeDegrees>\(latitude)"
      + "</LatitudeDegrees>\(indent)<LongitudeDegrees>13.25</LongitudeDegrees>\(indent)</Position>\(indent)"
      + "<AltitudeMeters>12.5</AltitudeMeters>\(indent)<DistanceMeters>\(second).5</DistanceMeters>\n</Trackpoint>"
  }

  /// Points of one shape, each kind of difference between two of them: a reference, a line
  /// break, a space or a `+` in a value, a time on another day, a value longer than the value
  /// buffer, a comment, another indentation, a repeated field, a skipped field's text with a
  /// reference; and gaps of other lengths, empty, longer than 16 bytes, with a carriage return.
  static let shapedTCX = XMLPlainRecordTests.tcx([
    point(0), point(1), point(2),
    point(3, latitude: "4&#53;.5003"), point(4),
    point(5, latitude: "\n45.5005\n"), point(6, latitude: "45.5006 "), point(7, latitude: "+45.5007"),
    point(8, time: "2025-01-02T07:00:08Z"), point(9, time: "2025-01-01T07:00:09.250Z"),
    point(10, latitude: String(repeating: " ", count: 1_030) + "45.5010"), point(11),
    point(12).replacingOccurrences(of: "</Time>", with: "</Time><!-- c -->"), point(13),
    point(14, indent: "\n    "), point(15, indent: "\n    "), point(16, indent: "\n    "), point(17),
    point(18).replacingOccurrences(of: "</Time>", with: "</Time><Time>2025-01-01T08:00:00Z</Time>"),
    point(19).replacingOccurrences(of: "19.5", with: "A &amp; B"), point(20), " " + point(21),
    point(22), "                     " + point(23), point(24), "\r\n" + point(25), point(26),
    point(27), point(28).replacingOccurrences(of: "<AltitudeMeters>12.5</AltitudeMeters>", with: ""),
    point(29), point(30).replacingOccurrences(of: "<LatitudeDegrees>45.5</LatitudeDegrees>", with: ""),
  ])

  @Test func tcxPointsUnlikeTheLastShapeGiveTheGeneralScannersRecords() throws {
    let read = XMLPlainRecordTests.expectFastPathAgrees(Self.shapedTCX, .tcx)
    #expect(read.error == nil)
    #expect(read.records.count == 31)
    let samples = positionsWithSessions(read.records).map(\.sample)
    #expect(samples.count == 29)
    #expect(samples[3].latitude == 45.5003 && samples[5].latitude == 45.5005 && samples[6].latitude == 45.5006)
    #expect(samples[8].timestamp == XMLPlainRecordTests.t("2025-01-02T07:00:08Z"))
    #expect(samples[9].timestamp == XMLPlainRecordTests.t("2025-01-01T07:00:09.250Z"))
    #expect(read.records[10] == .unreadable(.badNumber, line: 96))
    #expect(read.records[30] == .unreadable(.badNumber, line: 277))
  }

  /// A KML track read by the fast path across gaps of every kind, its times first and then its
  /// places (so values wait), a place before its time, two times in a row, values the one-pass
  /// readers decline (a reference, a `+`, an exponent, a space, commas, two numbers, an empty
  /// `gx:coord`, a value longer than the value buffer) and a time left over at the track's end.
  static let runKML = XMLPlainRecordTests.kml(
    [
      "<when>2025-01-01T07:00:00Z</when>", "<gx:coord>13.25 45.5 12.5</gx:coord>",
      "<when>2025-01-01T07:00:01Z</when>", "<gx:coord>13.2501 45.5001 12.5</gx:coord>",
      "<when>2025-01-01T07:00:02Z</when>", "<gx:coord>13.2502 4&#53;.5002 12.5</gx:coord>",
      "<when>2025-01-01T07:00:03Z</when>", "<gx:coord>13.2503,45.5003</gx:coord>",
      "<gx:coord>13.2504 45.5004 +1</gx:coord>", "<when>2025-01-01T07:00:04Z</when>",
      "<when>2025-01-01T07:00:05Z</when>", "<when>2025-01-01T07:00:06Z</when>",
      "<gx:coord>13.2505 45.5005 1e1</gx:coord>", "<gx:coord>13.2506 45.5006 </gx:coord>",
      "<when>2025-01-02T07:00:07Z</when>", "<gx:coord></gx:coord>",
      "<when>2025-01-01T07:00:08Z</when>", "<gx:coord>" + String(repeating: " ", count: 1_030) + "1 2</gx:coord>",
      "<when>2025-01-01T07:00:09Z</when>", "<gx:coord>13.2509 45.5009 7</gx:coord>",
      "<when>2025-01-01T07:00:10Z</when>",
    ].joined(separator: "\n  ") + "\n<when>2025-01-01T07:00:11Z</when><gx:coord>13.2511 45.5011</gx:coord>"
      + "                    <when>2025-01-01T07:00:12Z</when>\r\n<gx:coord>13.2512 45.5012</gx:coord>"
      + "<when>2025-01-01T07:00:13Z</when>")

  @Test func kmlValuesAcrossGapsGiveTheGeneralScannersRecords() {
    let read = XMLPlainRecordTests.expectFastPathAgrees(Self.runKML, .kml)
    #expect(read.error == nil)
    let samples = positionsWithSessions(read.records).map(\.sample)
    #expect(
      samples.map(\.latitude) == [
        45.5, 45.5001, 45.5002, 45.5003, 45.5004, 45.5005, 45.5006, 45.5009, 45.5011, 45.5012,
      ])
    #expect(read.records[7] == .rejected(.missingPosition, line: 19))
    #expect(read.records[8] == .unreadable(.badNumber, line: 21))
    #expect(read.records.suffix(2) == [.rejected(.missingPosition, line: 25), .rejected(.missingPosition, line: 26)])
  }

  /// The runs are read in one call: a TCX point with the last point's markup and the points
  /// after it across the same gap, and a KML track's values; the first point that differs, and
  /// whatever follows a gap unlike the last, is left to the scanner.
  @Test func runsOfPlainRecordsAreReadInOneCall() {
    func take<Mapper: XMLDocumentMapper>(_ mapper: inout Mapper, _ text: String, at start: Int) -> (Int?, Int) {
      var sink = FeedRecordCollector()
      let bytes = Array((text + String(repeating: " ", count: 24)).utf8)
      let cursor = bytes.withUnsafeBufferPointer {
        mapper.readPlainRecord($0.baseAddress!, at: start, bound: $0.count, line: 1, into: &sink)
      }
      return (cursor?.index, sink.records.count)
    }
    let points = [Self.point(0), Self.point(1), Self.point(2), Self.point(3, indent: "\n   ")]
    let tcx = points.joined(separator: "\n")
    var builder = TCXTrackBuilder()
    let first = points[0].utf8.count
    #expect(take(&builder, tcx, at: 0) == (first, 1))
    let third = first + 1 + points[1].utf8.count + 1 + points[2].utf8.count
    #expect(take(&builder, tcx, at: first + 1) == (third, 2))
    let values = ["<when>2025-01-01T07:00:00Z</when>", "<gx:coord>13.25 45.5</gx:coord>"]
    let declined = "\n  <gx:coord >13.25 45.5</gx:coord >"
    let kml = (values + values).joined(separator: "\n    ") + declined
    var kmlBuilder = KMLTrackBuilder()
    #expect(take(&kmlBuilder, kml, at: 0) == (kml.utf8.count - declined.utf8.count, 2))
  }
}
