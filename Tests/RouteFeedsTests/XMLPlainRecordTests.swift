import RouteMileage
import Testing

@testable import RouteFeeds

/// The plain-record fast paths (GPX's `trkpt`, TCX's `Trackpoint`, KML's `when` and `gx:coord`)
/// read a record whole where it lies in one chunk and decline anything unusual before recording
/// anything. A read one byte a chunk never takes them (they need eight bytes within the chunk),
/// so it is the general scanner alone: every read, cut anywhere, must give what it gives.
@Suite struct XMLPlainRecordTests {
  static func read(_ bytes: [UInt8], _ format: FeedFormat, cuts: [Int]) -> FeedTestRead {
    var reader = AnyFeedReader(format: format, options: FeedOptions())
    var sink = FeedRecordCollector()
    var failure: FeedError?
    bytes.withUnsafeBufferPointer { all in
      var offset = 0
      do throws(FeedError) {
        for end in cuts + [all.count] where end >= offset {
          try reader.read(UnsafeBufferPointer(rebasing: all[offset..<end]), into: &sink)
          offset = end
        }
        try reader.finish(into: &sink)
      } catch {
        failure = error
      }
    }
    return (sink.records, failure)
  }

  /// Expects the whole read, every read in two chunks (cut at every byte) and every read in
  /// chunks of 2…24 bytes to give what the general scanner alone gives; returns the whole read.
  static func expectFastPathAgrees(
    _ text: String, _ format: FeedFormat, sourceLocation: SourceLocation = #_sourceLocation
  ) -> FeedTestRead {
    let bytes = Array(text.utf8)
    let general = readChunked(AnyFeedReader(format: format, options: FeedOptions()), bytes, chunkSize: 1)
    let whole = read(bytes, format, cuts: [])
    #expect(whole.records == general.records, "whole", sourceLocation: sourceLocation)
    #expect(whole.error == general.error, "whole", sourceLocation: sourceLocation)
    for cut in 0...bytes.count {
      let two = read(bytes, format, cuts: [cut])
      #expect(two.records == general.records, "cut at \(cut)", sourceLocation: sourceLocation)
      #expect(two.error == general.error, "cut at \(cut)", sourceLocation: sourceLocation)
    }
    for size in 2...24 {
      let chunked = readChunked(AnyFeedReader(format: format, options: FeedOptions()), bytes, chunkSize: size)
      #expect(chunked.records == general.records, "chunk size \(size)", sourceLocation: sourceLocation)
      #expect(chunked.error == general.error, "chunk size \(size)", sourceLocation: sourceLocation)
    }
    return whole
  }

  static func t(_ text: String) -> Double { ISO8601Parser.timestamp(text)! }

  static func times(_ records: [FeedRecord]) -> [Double] {
    records.compactMap { record in
      if case .position(let sample, _, _) = record { return sample.timestamp }
      return nil
    }
  }

  static func gpx(_ points: [String], closed: Bool = true) -> String {
    "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n"
      + points.joined(separator: "\n") + (closed ? "\n</trkseg></trk></gpx>\n" : "")
  }

  /// Plain points (one line, several lines, either attribute order, single quotes, skipped
  /// children with nested and prefixed elements) between points of every shape the fast path
  /// declines: spaces around `=`, another attribute, an empty-element tag, a prefixed field, a
  /// reference in a number, comments between children, a repeated field, a point in the
  /// extensions, a carriage return, a missing `lon`.
  static let mixedGPX = gpx([
    "<trkpt lat=\"45.5\" lon=\"13.25\"><ele>1.5</ele><time>2025-01-01T07:00:00Z</time><hdop>1.2</hdop></trkpt>",
    "<trkpt lon=\"13.2501\" lat=\"45.5001\">\n  <ele>1.5</ele>\n  <time>2025-01-01T07:00:01Z</time>\n  <sat>7</sat>\n"
      + "  <speed>3.5</speed><course>90</course><fix>3d</fix>\n</trkpt>",
    "<trkpt\tlat='45.5002'\nlon='13.2502'><time>\n2025-01-01T07:00:02Z\n</time></trkpt>",
    "<trkpt lat = \"45.5003\" lon=\"13.2503\"><time>2025-01-01T07:00:03Z</time></trkpt>",
    "<trkpt lat=\"45.5004\" lon=\"13.2504\" src=\"x\"><time>2025-01-01T07:00:04Z</time></trkpt>",
    "<trkpt lat=\"45.5005\" lon=\"13.2505\"/>",
    "<trkpt lat=\"45.5006\" lon=\"13.2506\"><gpx:ele>9</gpx:ele><time>2025-01-01T07:00:06Z</time></trkpt>",
    "<trkpt lat=\"4&#53;.5007\" lon=\"13.2507\"><time>2025-01-01T07:00:07Z</time></trkpt>",
    "<trkpt lat=\"45.5008\" lon=\"13.2508\"><!-- c --><time>2025-01-01T07:00:08Z</time><!-- d --><ele>2</ele></trkpt>",
    "<trkpt lat=\"45.5009\" lon=\"13.2509\"><time>2025-01-01T07:00:09Z</time><fix>none</fix></trkpt>",
    "<trkpt lat=\"x\" lon=\"13.2510\"><time>2025-01-01T07:00:10Z</time></trkpt>",
    "<trkpt lat=\"45.5011\" lon=\"13.2511\"><time>yesterday</time></trkpt>",
    "<trkpt lat=\"45.5012\" lon=\"13.2512\"><ele>1</ele><ele>2</ele><time>2025-01-01T07:00:12Z</time></trkpt>",
    "<trkpt lat=\"45.5013\" lon=\"13.2513\"><extensions><trkpt lat=\"1\" lon=\"2\"/></extensions>"
      + "<time>2025-01-01T07:00:13Z</time></trkpt>",
    "<trkpt lat=\"45.5014\" lon=\"13.2514\">\r\n<time>2025-01-01T07:00:14Z</time></trkpt>",
    "<trkpt lat=\"45.5015\"><time>2025-01-01T07:00:15Z</time></trkpt>",
    "<trkpt lat=\"45.5016\" lon=\"13.2516\"><time>2025-01-01T07:00:16Z</time><extensions><gpxtpx:TrackPointExtension>"
      + "<gpxtpx:hr>120</gpxtpx:hr>\n</gpxtpx:TrackPointExtension></extensions></trkpt>",
    "<trkpt lat=\"45.5017\" lon=\"13.2517\"><time>2025-01-01T07:00:17Z</time><name>A &amp; B</name></trkpt>",
  ])

  @Test func gpxPointsOfEveryShapeGiveTheGeneralScannersRecords() throws {
    let read = Self.expectFastPathAgrees(Self.mixedGPX, .gpx)
    #expect(read.error == nil)
    #expect(
      Self.times(read.records)
        == [0, 1, 2, 3, 4, 6, 7, 8, 12, 13, 14, 16, 17].map {
          Self.t("2025-01-01T07:00:\($0 < 10 ? "0" : "")\($0)Z")
        })
    #expect(read.records.map(\.line) == [4, 5, 11, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 25, 26, 28, 29, 31])
    let first = try #require(positionsWithSessions(read.records).first?.sample)
    #expect(first.altitude == 1.5 && first.horizontalAccuracy == 1.2 * AccuracyEstimate.metersPerHDOP)
    #expect(read.records[5] == .rejected(.missingTime, line: 17))
    #expect(read.records[9] == .rejected(.noFix, line: 21))
    #expect(read.records[10] == .unreadable(.badNumber, line: 22))
    #expect(read.records[11] == .unreadable(.badTime, line: 23))
    #expect(read.records[13] == .ignored(.misplacedTrackPoint, line: 25))
    #expect(read.records[16] == .unreadable(.badNumber, line: 28))
  }

  /// A document that breaks inside a plain point: the error and its line, and the point cut
  /// off, are the general scanner's wherever the chunks end.
  @Test(arguments: [
    ("<trkpt lat=\"1\" lon=\"2\"><time>2025-01-01T07:00:00Z</time></trkpx>", "does not match <trkpt"),
    ("<trkpt lat=\"1\" lon=\"2\" lat=\"3\"><time>2025-01-01T07:00:00Z</time></trkpt>", "its lat attribute twice"),
    ("<trkpt lat=\"1\" lon=\"2\"><ele>1</elf><time>2025-01-01T07:00:00Z</time></trkpt>", "does not match <ele"),
    ("<trkpt lat=\"1\"lon=\"2\"><time>2025-01-01T07:00:00Z</time></trkpt>", "not separated by whitespace"),
    ("<trkpt lat=\"1\" lon=\"2\"><ele>1<</ele></trkpt>", "is not followed by a tag name"),
    ("<trkpt lat=\"1<\" lon=\"2\"></trkpt>", "inside an attribute value"),
    ("<trkpt lat=\"1\" lon=\"2\">\n<time>2025-01-01T07:00:00Z</time>\n", "is never closed"),
  ])
  func aBrokenGPXPointFailsAsTheGeneralScannerFails(_ broken: (point: String, detail: String)) {
    let truncated = broken.detail == "is never closed"
    let read = Self.expectFastPathAgrees(
      Self.gpx(
        ["<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpt>", broken.point],
        closed: !truncated),
      .gpx)
    #expect(read.records.first?.line == 4)
    #expect(read.records.last == .unreadable(.unfinishedPoint, line: 5))
    switch read.error {
    case .malformed(let line, let detail), .truncated(let line, let detail):
      #expect(line == (truncated ? 6 : 5) && detail.contains(broken.detail), "\(line) \(detail)")
    default: Issue.record("expected an error, got \(String(describing: read.error))")
    }
  }

  static func tcx(_ points: [String]) -> String {
    "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">\n"
      + "<Activities><Activity Sport=\"Other\"><Lap StartTime=\"2025-01-01T07:00:00Z\"><Track>\n"
      + points.joined(separator: "\n") + "\n</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n"
  }

  /// Garmin's points (indented, with heart rate, distance and prefixed extensions skipped),
  /// compact ones, and every shape the fast path declines: an attribute, a repeated field or
  /// `Position`, a prefixed field, an empty `Position`, a reference, a comment, a carriage
  /// return; and points without a position, a longitude or a time.
  static let garminPoint =
    "<Trackpoint>\n    <Time>2025-01-01T07:00:00Z</Time>\n    <Position>\n      <LatitudeDegrees>45.5</LatitudeDegrees>\n"
    + "      <LongitudeDegrees>13.25</LongitudeDegrees>\n    </Position>\n    <AltitudeMeters>12.5</AltitudeMeters>\n"
    + "    <DistanceMeters>0.0</DistanceMeters>\n    <HeartRateBpm>\n      <Value>95</Value>\n    </HeartRateBpm>\n"
    + "    <Extensions>\n      <ns3:TPX>\n        <ns3:Speed>3.5</ns3:Speed>\n      </ns3:TPX>\n    </Extensions>\n"
    + "  </Trackpoint>"

  static let mixedTCX = tcx([
    "  " + garminPoint,
    "<Trackpoint><AltitudeMeters>3</AltitudeMeters><Position><LongitudeDegrees>13.2501</LongitudeDegrees>"
      + "<LatitudeDegrees>45.5001</LatitudeDegrees></Position><Time>2025-01-01T07:00:01Z</Time></Trackpoint>",
    "<Trackpoint id=\"2\"><Time>2025-01-01T07:00:02Z</Time><Position><LatitudeDegrees>45.5002</LatitudeDegrees>"
      + "<LongitudeDegrees>13.2502</LongitudeDegrees></Position></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:03Z</Time><Time>2025-01-01T08:00:00Z</Time><Position><LatitudeDegrees>45.5003"
      + "</LatitudeDegrees><LongitudeDegrees>13.2503</LongitudeDegrees></Position></Trackpoint>",
    "<Trackpoint><tcx:Time>2025-01-01T07:00:04Z</tcx:Time><Position><LatitudeDegrees>45.5004</LatitudeDegrees>"
      + "<LongitudeDegrees>13.2504</LongitudeDegrees></Position></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:05Z</Time><Position/></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:06Z</Time><Position><LatitudeDegrees>4&#53;.5006</LatitudeDegrees>"
      + "<!-- c --><LongitudeDegrees>13.2506</LongitudeDegrees></Position></Trackpoint>",
    "<Trackpoint>\r\n<Time>2025-01-01T07:00:07Z</Time><Position><LatitudeDegrees>45.5007</LatitudeDegrees>"
      + "<LongitudeDegrees>13.2507</LongitudeDegrees></Position></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:08Z</Time><HeartRateBpm><Value>99</Value></HeartRateBpm></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:09Z</Time><Position><LatitudeDegrees>45.5009</LatitudeDegrees></Position>"
      + "</Trackpoint>",
    "<Trackpoint><Position><LatitudeDegrees>45.5010</LatitudeDegrees><LongitudeDegrees>13.2510</LongitudeDegrees>"
      + "</Position></Trackpoint>",
    "<Trackpoint><Time>2025-01-01T07:00:11Z</Time><Position><LatitudeDegrees>45.5011</LatitudeDegrees>"
      + "<LongitudeDegrees>13.2511</LongitudeDegrees></Position><Position><LatitudeDegrees>1</LatitudeDegrees>"
      + "</Position><Extensions><Trackpoint/></Extensions></Trackpoint>",
  ])

  @Test func tcxPointsOfEveryShapeGiveTheGeneralScannersRecords() throws {
    let read = Self.expectFastPathAgrees(Self.mixedTCX, .tcx)
    #expect(read.error == nil)
    #expect(
      Self.times(read.records)
        == ["00", "01", "02", "03", "04", "06", "07", "11"].map { Self.t("2025-01-01T07:00:\($0)Z") })
    #expect(read.records.map(\.line) == [4, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31, 32, 32])
    let first = try #require(positionsWithSessions(read.records).first?.sample)
    #expect(first.latitude == 45.5 && first.longitude == 13.25 && first.altitude == 12.5)
    #expect(read.records[5] == .unreadable(.badNumber, line: 25))
    #expect(read.records[8] == .rejected(.missingPosition, line: 29))
    #expect(read.records[9] == .unreadable(.badNumber, line: 30))
    #expect(read.records[10] == .rejected(.missingTime, line: 31))
    #expect(read.records[11] == .ignored(.misplacedTrackPoint, line: 32))
  }

  static func kml(_ values: String) -> String {
    "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n"
      + "<Document><Placemark><gx:MultiTrack><gx:Track>\n" + values
      + "\n</gx:Track></gx:MultiTrack></Placemark></Document></kml>\n"
  }

  /// Plain `when` and `gx:coord` values (KML 2.3's unprefixed `coord` too, commas, a value on
  /// three lines, an empty one) between shapes the fast path declines: another prefix, a space
  /// before `>`, an empty-element tag, a reference, CDATA, a carriage return.
  static let mixedKML = kml(
    [
      "<when>2025-01-01T07:00:00Z</when>\n<gx:coord>13.25 45.5 12.5</gx:coord>",
      "<when>2025-01-01T07:00:01Z</when><coord>13.2501,45.5001</coord>",
      "<when>\n2025-01-01T07:00:02Z\n</when>\n<gx:coord></gx:coord>",
      "<kml:when>2025-01-01T07:00:03Z</kml:when><gx:coord >13.2503 45.5003 1</gx:coord >",
      "<when>2025-01-01T07:00:04Z</when><gx:coord/>",
      "<when>2025-01-01T07:00:05&#90;</when><gx:coord><![CDATA[13.2505 45.5005 1]]></gx:coord>",
      "<when>2025-01-01T07:00:06Z</when>\r\n<gx:coord>13.2506 45.5006 1</gx:coord>",
      "<when>soon</when><gx:coord>13.2507 45.5007 1</gx:coord>",
      "<when>2025-01-01T07:00:08Z</when><gx:coord>13.2508 north 1</gx:coord>",
      "<when>2025-01-01T07:00:09Z</when>",
    ].joined(separator: "\n"))

  @Test func kmlValuesOfEveryShapeGiveTheGeneralScannersRecords() {
    let read = Self.expectFastPathAgrees(Self.mixedKML, .kml)
    #expect(read.error == nil)
    #expect(Self.times(read.records) == [0, 1, 3, 5, 6].map { Self.t("2025-01-01T07:00:0\($0)Z") })
    #expect(read.records.map(\.line) == [5, 6, 10, 11, 12, 13, 15, 16, 17, 18])
    #expect(read.records[2] == .rejected(.missingPosition, line: 10))
    #expect(read.records[4] == .rejected(.missingPosition, line: 12))
    #expect(read.records[7] == .unreadable(.badTime, line: 16))
    #expect(read.records[8] == .unreadable(.badNumber, line: 17))
    #expect(read.records[9] == .rejected(.missingPosition, line: 18))
  }

  /// The fast paths take the plain shapes themselves (not only the general scanner after them),
  /// and decline the rest having recorded nothing.
  @Test func theFastPathsTakePlainRecordsAndDeclineTheRest() {
    func take<Mapper: XMLDocumentMapper>(_: Mapper.Type, _ text: String) -> (taken: Int?, records: [FeedRecord]) {
      var mapper = Mapper()
      var sink = FeedRecordCollector()
      let bytes = Array((text + "        ").utf8)
      let cursor = bytes.withUnsafeBufferPointer {
        mapper.readPlainRecord($0.baseAddress!, at: 0, bound: $0.count, line: 1, into: &sink)
      }
      return (cursor?.index, sink.records)
    }
    for text in [
      "<trkpt lat=\"45.5\" lon=\"13.25\"><ele>1.5</ele><time>2025-01-01T07:00:00Z</time><hdop>1.2</hdop></trkpt>",
      "<trkpt lon='13.25' lat='45.5'>\n  <time>2025-01-01T07:00:00Z</time>\n  <sat>7</sat>\n</trkpt>",
    ] {
      let read = take(GPXTrackBuilder.self, text)
      #expect(read.taken == text.utf8.count && read.records.count == 1, "\(text)")
    }
    for text in [
      "<trkpt lat = \"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpt>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"/>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpx>",
      "<trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time><time>2025</time></trkpt>",
    ] {
      let read = take(GPXTrackBuilder.self, text)
      #expect(read.taken == nil && read.records.isEmpty, "\(text)")
    }
    #expect(take(TCXTrackBuilder.self, Self.garminPoint).taken == Self.garminPoint.utf8.count)
    #expect(take(TCXTrackBuilder.self, "<Trackpoint id=\"1\"></Trackpoint>").taken == nil)
    #expect(take(KMLTrackBuilder.self, "<when>2025-01-01T07:00:00Z</when>").taken == 33)
    #expect(take(KMLTrackBuilder.self, "<gx:coord>13.25 45.5 12.5</gx:coord>").taken == 36)
    #expect(take(KMLTrackBuilder.self, "<gx:coord>13.25 45.5 12.5</gx:coord >").taken == nil)
  }

  /// Plain decimals of every digit count either side of the point, signed and not, and the
  /// shapes around them (`1.`, `.5`, `-0`, leading zeros, 16 digits, whitespace, an exponent, a
  /// plus sign), read in place, give `ByteNumberParser.double`'s value for the trimmed bytes,
  /// bit for bit, with the value followed by `<` and by 0, 8 or 16 more bytes of the chunk.
  static let numberTexts: [String] = {
    var texts = [
      "1.", ".5", "-0", "-0.0", "007", "0.000000000000001", "1234567890123456", "123456789012345",
      "12345678.9", "1.23456789", "-1234567.1234567", " 1.5", "1.5 ", "1e3", "+1", "-", ".", "", "1.2.3",
      "--1", "-.5", "1..2", "\n2.5\n",
    ]
    for integer in 0...9 {
      for fraction in 0...9 {
        let digits =
          String("987654321".prefix(integer)) + (fraction > 0 ? "." + String("123456789".prefix(fraction)) : "")
        texts += [digits, "-" + digits]
      }
    }
    return texts
  }()

  @Test func numbersReadInPlaceAreTheParsersBitForBit() {
    for text in Self.numberTexts {
      for padding in [0, 8, 16] {
        let bytes = Array((text + "<" + String(repeating: "9", count: padding)).utf8)
        bytes.withUnsafeBufferPointer { all in
          let range = 0..<text.utf8.count
          let expected = ByteNumberParser.double(XMLFieldParser.trimmed(UnsafeBufferPointer(rebasing: all[range])))
          let inPlace = XMLFieldParser.number(all.baseAddress!, range, bound: all.count)
          #expect(inPlace?.bitPattern == expected?.bitPattern, "\(text) + \(padding)")
        }
      }
    }
  }

  /// A `Z` time on the cached day is read in place; another day, a zone, a fraction, whitespace
  /// or a broken time as the day cache reads the trimmed text: the same time either way, and the
  /// same cache afterwards (each text read twice in turn by both).
  @Test func timesReadInPlaceAreTheDayCachesBitForBit() {
    let texts = [
      "2025-01-01T07:00:00Z", "2025-01-01T07:00:01.250Z", "2025-01-01 07:00:02Z", "2025-01-01T07:00:03.25Z",
      "2025-01-02T07:00:00Z", "2025-01-02T23:59:60Z", "2025-01-02T24:00:00Z", "2025-01-02T07:00:00+01:00",
      " 2025-01-02T07:00:04Z", "2025-01-02T07:00:05Z ", "2025-01-02T07:00:06", "2025-01-02T07:0a:00Z", "",
      "2025-01-02T07:00:07.1234Z", "2025-01-01T07:00:08Z",
    ]
    var inPlaceCache = ISO8601DayCache()
    var trimmedCache = ISO8601DayCache()
    for text in texts + texts {
      for padding in [0, 4, 24] {
        let bytes = Array((text + "<" + String(repeating: "0", count: padding)).utf8)
        bytes.withUnsafeBufferPointer { all in
          let range = 0..<text.utf8.count
          let expected = XMLFieldParser.time(UnsafeBufferPointer(rebasing: all[range]), cache: &trimmedCache)
          let inPlace = XMLFieldParser.time(all.baseAddress!, range, bound: all.count, cache: &inPlaceCache)
          #expect("\(inPlace)" == "\(expected)", "\(text) + \(padding)")
        }
      }
    }
  }

  /// A `gx:coord` read in one pass gives the place `KMLTrackBuilder.place` reads from the same
  /// bytes: two or three numbers of every digit count, commas, and the shapes it leaves to the
  /// general reading (two separators, whitespace around, a tab, four numbers, a word).
  @Test func coordinatesReadInOnePassAreThePlacesBitForBit() {
    var texts = [
      "13.25 45.5 12.5", "13.25,45.5", "13.25,45.5,0", "13.25 45.5 ", " 13.25 45.5", "13.25  45.5", "1 2 3 4",
      "-0 0", "1\t2", "a b", "1 2,3", "1", "1 ", "", "1 2 x", "1.5e1 2", "1 -", "12345678.5 1 2",
    ]
    for (index, text) in Self.numberTexts.enumerated() {
      let next = Self.numberTexts[(index * 7 + 3) % Self.numberTexts.count]
      texts += ["\(text) \(next)", "\(next),\(text),\(next)", "\(text) \(text) \(next)"]
    }
    for text in texts {
      for padding in [0, 16] {
        let bytes = Array((text + "<" + String(repeating: "7", count: padding)).utf8)
        bytes.withUnsafeBufferPointer { all in
          let range = 0..<text.utf8.count
          let expected = KMLTrackBuilder.place(UnsafeBufferPointer(rebasing: all[range]))
          let inPlace = KMLTrackBuilder.place(all.baseAddress!, range, bound: all.count)
          #expect(Self.bits(inPlace) == Self.bits(expected), "\(text) + \(padding)")
        }
      }
    }
  }

  static func bits(_ place: KMLTrackPairing.Place) -> [UInt64] {
    switch place {
    case .point(let latitude, let longitude, let altitude):
      [latitude.bitPattern, longitude.bitPattern, altitude?.bitPattern ?? 1]
    case .empty: [2]
    case .unreadable: [3]
    }
  }

  /// Windows line ends (CR-LF) and lone carriage returns wherever a line feed stands, the
  /// documents cut at every byte: the general scanner's records, lines and errors.
  @Test(arguments: ["\r\n", "\r"])
  func carriageReturnsGiveTheGeneralScannersRecordsAndLines(_ lineEnd: String) {
    for (text, format) in [(Self.mixedGPX, FeedFormat.gpx), (Self.mixedTCX, .tcx), (Self.mixedKML, .kml)] {
      let bytes = Array(text.utf8).flatMap { $0 == .asciiNewline ? Array(lineEnd.utf8) : [$0] }
      let read = Self.expectFastPathAgrees(String(decoding: bytes, as: UTF8.self), format)
      #expect(read.error == nil && read.records.count > 8)
    }
  }

  /// The fast paths take records with CR-LF and lone CR line ends themselves, counting each as
  /// one line, and decline one whose carriage return is the chunk's last byte (its line feed
  /// may start the next chunk).
  @Test func theFastPathsTakeCarriageReturnsAsTheScannerCountsThem() {
    func take<Mapper: XMLDocumentMapper>(_: Mapper.Type, _ text: String, bound: Int? = nil) -> (Int, Int)? {
      var mapper = Mapper()
      var sink = FeedRecordCollector()
      let bytes = Array((text + "        ").utf8)
      let cursor = bytes.withUnsafeBufferPointer {
        mapper.readPlainRecord($0.baseAddress!, at: 0, bound: bound ?? $0.count, line: 1, into: &sink)
      }
      return cursor.map { ($0.index, $0.lines) }
    }
    let gpx =
      "<trkpt lat=\"45.5\"\r\nlon=\"13.25\">\r\n <ele>1.5</ele>\r <time>\r\n2025-01-01T07:00:00Z\r\n</time>\n</trkpt>"
    #expect(take(GPXTrackBuilder.self, gpx).map { [$0.0, $0.1] } == [gpx.utf8.count, 6])
    let garmin = Array(Self.garminPoint.utf8).flatMap { $0 == .asciiNewline ? [.asciiReturn, $0] : [$0] }
    #expect(
      take(TCXTrackBuilder.self, String(decoding: garmin, as: UTF8.self)).map { [$0.0, $0.1] } == [garmin.count, 16])
    let when = "<when>\r\n2025-01-01T07:00:00Z\r</when>"
    #expect(take(KMLTrackBuilder.self, when).map { [$0.0, $0.1] } == [when.utf8.count, 2])
    #expect(take(KMLTrackBuilder.self, when, bound: 29) == nil)
  }
}
