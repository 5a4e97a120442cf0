import RouteMileage
import Testing

@testable import RouteFeeds

/// GPX's plain-point fast path reads a run of points one after another, the usual
/// ` lat="…" lon="…">` head straight through, and plain numbers and `Z` times where they lie.
/// Every shape it declines — at the head, in a value, between two points of a run — must give
/// the records, lines and errors the general scanner alone gives (a read one byte a chunk),
/// wherever the chunks are cut (`XMLPlainRecordTests.expectFastPathAgrees`).
@Suite struct GPXPlainPointTests {
  static func point(_ second: Int, head: String = " lat=\"45.5\" lon=\"13.25\"", body: String? = nil) -> String {
    let time = "2025-01-01T07:00:\(second < 10 ? "0" : "")\(second)Z"
    return "<trkpt\(head)>" + (body ?? "<ele>1.5</ele><time>\(time)</time><hdop>1.2</hdop>") + "</trkpt>"
  }

  static func seconds(_ values: [Int]) -> [Double] {
    values.map { XMLPlainRecordTests.t("2025-01-01T07:00:\($0 < 10 ? "0" : "")\($0)Z") }
  }

  /// Points whose heads the straight-through read declines: the general attribute loop or the
  /// general scanner reads them, with the same coordinates.
  @Test func pointHeadsOfEveryShapeGiveTheGeneralScannersRecords() throws {
    let heads = [
      " lon=\"13.25\" lat=\"45.5\"",  // 0: the other order
      " lat='45.5' lon='13.25'",  // 1: single quotes
      "  lat=\"45.5\"\tlon=\"13.25\"",  // 2: two spaces, a tab
      " lat=\"45.5\"\n  lon=\"13.25\"\n",  // 3: line breaks (lines count)
      " lat=\"45.5\" lon=\"13.25\" src=\"x\"",  // 4: another attribute after them
      " src=\"x\" lat=\"45.5\" lon=\"13.25\"",  // 5: another attribute before them
      " lat=\"4&#53;.5\" lon=\"13.25\"",  // 6: a reference
      " lat=\"+45.5\" lon=\"13.25\"",  // 7: not a plain number
      " lat=\"4.55e1\" lon=\"13.25\"",  // 8: an exponent
      " lat=\"45.50000000000000001\" lon=\"13.25\"",  // 9: more than fifteen digits
      " lat=\"\" lon=\"13.25\"",  // 10: empty
      " lat=\" 45.5 \" lon=\"13.25\"",  // 11: spaces inside the quotes
      " lat=\"45.5\" lon=\"13.25\" ",  // 12: a space before `>`
      " lat=\"45.5\"lon=\"13.25\"",  // 13: no space between them (malformed; last)
    ]
    var points = heads.enumerated().map { Self.point($0.offset, head: $0.element) }
    // A prefixed point: never the fast path's.
    points.insert("<g:trkpt lat=\"45.5\" lon=\"13.25\"><g:time>2025-01-01T07:00:20Z</g:time></g:trkpt>", at: 13)
    let read = XMLPlainRecordTests.expectFastPathAgrees(XMLPlainRecordTests.gpx(points), .gpx)
    let positions = positionsWithSessions(read.records)
    #expect(Self.seconds([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 20]) == XMLPlainRecordTests.times(read.records))
    #expect(positions.allSatisfy { $0.sample.latitude == 45.5 && $0.sample.longitude == 13.25 })
    #expect(read.records[10] == .unreadable(.badNumber, line: 16))
    #expect(read.records.map(\.line) == [4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    guard case .malformed(let line, let detail) = read.error else {
      Issue.record("expected the missing whitespace to be malformed, got \(String(describing: read.error))")
      return
    }
    #expect(line == 20 && detail.contains("not separated by whitespace"))
  }

  /// Values the in-place reads decline: found as text and read as the general scanner reads
  /// them (numbers trimmed, times of another day or shape through the day cache).
  @Test func valuesOfEveryShapeGiveTheGeneralScannersRecords() throws {
    let bodies = [
      "<ele> 12.5 </ele><time>2025-01-01T07:00:00Z</time>",
      "<ele>1e3</ele><time>2025-01-01T07:00:01Z</time>",
      "<hdop>&#49;.5</hdop><time>2025-01-01T07:00:02Z</time>",
      "<ele><![CDATA[7.5]]></ele><time>2025-01-01T07:00:03Z</time>",
      "<time>2025-01-02T07:00:04Z</time>",
      "<time>2025-01-01T07:00:05.250Z</time>",
      "<time>2025-01-01T09:00:06+02:00</time>",
      "<time>\n2025-01-01T07:00:07Z\n</time>",
      "<time>2025-01-01T07:00:08Z<!-- c --></time>",
      "<time>2025-01-01 07:00:09Z</time>",
      "<speed>3.5</speed><course>90.5</course><fix>3d</fix><time>2025-01-01T07:00:10Z</time>",
      "<ele>12345678901234567</ele><time>2025-01-01T07:00:11Z</time>",
      "<time>2025-01-01T07:00:12Z</time><ele>-</ele>",
    ]
    let points = bodies.enumerated().map { Self.point($0.offset, body: $0.element) }
    let read = XMLPlainRecordTests.expectFastPathAgrees(XMLPlainRecordTests.gpx(points), .gpx)
    #expect(read.error == nil)
    let samples = positionsWithSessions(read.records).map(\.sample)
    #expect(samples.count == bodies.count)
    #expect(
      samples.map(\.altitude) == [12.5, 1000, nil, 7.5, nil, nil, nil, nil, nil, nil, nil, 12_345_678_901_234_568, nil])
    #expect(samples[2].horizontalAccuracy == 1.5 * AccuracyEstimate.metersPerHDOP)
    #expect(samples[10].speed == 3.5 && samples[10].course == 90.5)
    let expected =
      Self.seconds([0, 1, 2, 3]) + [XMLPlainRecordTests.t("2025-01-02T07:00:04Z")]
      + [XMLPlainRecordTests.t("2025-01-01T07:00:05Z") + 0.25] + Self.seconds([6, 7, 8, 9, 10, 11, 12])
    #expect(samples.map(\.timestamp) == expected)
    #expect(read.records.map(\.line) == [4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18])
  }

  /// A run of plain points, and what breaks it: other separators, a comment, a processing
  /// instruction, a new segment, an element that is not a point, a point that is not plain.
  @Test func runsOfPointsGiveTheGeneralScannersRecords() throws {
    let p = (0..<14).map { Self.point($0) }
    let text =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n<trk><trkseg>\n" + p[0] + p[1] + "\r\n" + p[2]
      + "\r" + p[3] + "\t \n\n" + p[4] + "<!-- c -->" + p[5] + "\n<?pi x?>\n" + p[6] + "</trkseg>\n<trkseg>" + p[7]
      + "<extensions><x>1</x></extensions>" + p[8] + "\n"
      + Self.point(9, head: " lat=\"45.5\" lon=\"13.25\"", body: "<time>2025-01-01T07:00:09Z</time><!-- d -->") + p[10]
      + " " + p[11] + "<![CDATA[ ]]>" + p[12] + "\n" + p[13] + "\n</trkseg></trk></gpx>\n"
    let read = XMLPlainRecordTests.expectFastPathAgrees(text, .gpx)
    #expect(read.error == nil)
    #expect(XMLPlainRecordTests.times(read.records) == Self.seconds(Array(0..<14)))
    #expect(
      positionsWithSessions(read.records).map(\.session) == Array(repeating: 0, count: 7)
        + Array(repeating: 1, count: 7))
    let lines = read.records.compactMap { record -> Int? in
      if case .position = record { return record.line }
      return nil
    }
    #expect(lines == [4, 4, 5, 6, 8, 8, 10, 11, 11, 12, 12, 12, 12, 13])
  }

  /// A run that breaks off in the middle of a point: the point is counted as the general
  /// scanner counts it, and every point before it stands.
  @Test func aRunCutOffInsideAPointKeepsThePointsBeforeIt() {
    let text = XMLPlainRecordTests.gpx(
      [Self.point(0), Self.point(1), "<trkpt lat=\"45.5\" lon=\"13.25\"><ele>1"], closed: false)
    let read = XMLPlainRecordTests.expectFastPathAgrees(text, .gpx)
    #expect(XMLPlainRecordTests.times(read.records) == Self.seconds([0, 1]))
    #expect(read.records.last == .unreadable(.unfinishedPoint, line: 6))
    guard case .truncated(let line, _) = read.error else {
      Issue.record("expected a truncated document, got \(String(describing: read.error))")
      return
    }
    #expect(line == 6)
  }
}
