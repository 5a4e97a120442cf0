import RouteMileage
import Testing

@testable import RouteFeeds

/// The scanner passes character data eight bytes at a time where eight are left in the chunk,
/// and a byte at a time where they are not: every cut of a document, at every byte, must give
/// what the whole document gives (records, lines, errors), and closing tags must still be told
/// apart from their start tags wherever two names differ.
@Suite struct XMLWordScanTests {
  static func read(_ text: String, _ format: FeedFormat, chunkSize: Int = .max) -> FeedTestRead {
    readChunked(AnyFeedReader(format: format, options: FeedOptions()), Array(text.utf8), chunkSize: chunkSize)
  }

  static func t(_ text: String) -> Double { ISO8601Parser.timestamp(text)! }

  /// Expects the same records and error from every chunk size 1…`longest` and from a 4 KB and
  /// a whole read, so every tag, name and run of text is cut at every one of its bytes.
  static func expectEveryCutAgrees(
    _ text: String, _ format: FeedFormat, longest: Int = 40, sourceLocation: SourceLocation = #_sourceLocation
  ) -> FeedTestRead {
    let whole = read(text, format)
    for size in Array(1...longest) + [4096] {
      let chunked = read(text, format, chunkSize: size)
      #expect(chunked.records == whole.records, "chunk size \(size)", sourceLocation: sourceLocation)
      #expect(chunked.error == whole.error, "chunk size \(size)", sourceLocation: sourceLocation)
    }
    return whole
  }

  /// GPX with attributes either way round, with spaces and single quotes; a self-closing point
  /// without a time; CDATA and references in a time; a comment inside a value; prefixed names
  /// longer than sixteen bytes; CRLF and lone CR line ends inside long runs of indentation.
  static let gpx = [
    "<?xml version=\"1.0\"?>\r\n<gpx xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:some-long-prefix=\"urn:x\">\n",
    "  <trk>\n    <trkseg>\r\n                    <trkpt lat=\"45.5\" lon=\"13.25\"><time>2025-01-01T07:00:00Z</time></trkpt>\n",
    "<trkpt lon='13.2501'   lat = '45.5001' ><ele>1.5</ele><time><![CDATA[2025-01-01T07:00:01Z]]></time></trkpt>\r",
    "                        <trkpt lat=\"&#52;5.5002\" lon=\"13.2502\"><time>2025-01-01T07:00:02&#x5A;</time></trkpt>\r\n",
    "<trkpt lat=\"45.5003\" lon=\"13.2503\"><time>2025-01-01T07:00<!-- split -->:03Z</time>",
    "<some-long-prefix:extensionsAndMore><some-long-prefix:speedInMetresPerSecond>4</some-long-prefix:speedInMetresPerSecond></some-long-prefix:extensionsAndMore></trkpt>\n",
    "<trkpt lat=\"45.5004\" lon=\"13.2504\"/>\n",
    "      </trkseg>\n  </trk>\n</gpx>\n",
  ].joined()

  @Test func gpxGivesTheSameRecordsWhereverAChunkEnds() throws {
    let read = Self.expectEveryCutAgrees(Self.gpx, .gpx)
    #expect(read.error == nil)
    let times = read.records.compactMap { record -> Double? in
      if case .position(let sample, _, _) = record { return sample.timestamp }
      return nil
    }
    #expect(times == (0...3).map { Self.t("2025-01-01T07:00:0\($0)Z") })
    #expect(read.records.map(\.line) == [5, 6, 7, 8, 9])
    #expect(read.records.last == .rejected(.missingTime, line: 9))
  }

  /// TCX: long names (`LatitudeDegrees`, 15 bytes; `LongitudeDegrees`, 16), deep indentation,
  /// a self-closing `Position`, an entity in a number.
  static let tcx = [
    "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">\n",
    "  <Activities>\n    <Activity Sport=\"Other\">\n      <Lap StartTime=\"2025-01-01T07:00:00Z\">\n        <Track>\n",
    "          <Trackpoint>\n            <Time>2025-01-01T07:00:00Z</Time>\n            <Position>\n",
    "              <LatitudeDegrees>45.5</LatitudeDegrees>\n              <LongitudeDegrees>13.25</LongitudeDegrees>\n",
    "            </Position>\n            <AltitudeMeters>12.5</AltitudeMeters>\n          </Trackpoint>\n",
    "          <Trackpoint><Time>2025-01-01T07:00:01Z</Time><Position><LatitudeDegrees>4&#53;.5001</LatitudeDegrees>",
    "<LongitudeDegrees><![CDATA[13.2501]]></LongitudeDegrees></Position></Trackpoint>\n",
    "          <Trackpoint><Time>2025-01-01T07:00:02Z</Time><Position/></Trackpoint>\n",
    "        </Track>\n      </Lap>\n    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n",
  ].joined()

  @Test func tcxGivesTheSameRecordsWhereverAChunkEnds() {
    let read = Self.expectEveryCutAgrees(Self.tcx, .tcx)
    #expect(read.error == nil)
    #expect(
      read.records == [
        .position(
          RouteSample(timestamp: Self.t("2025-01-01T07:00:00Z"), latitude: 45.5, longitude: 13.25, altitude: 12.5),
          session: 0,
          line: 7),
        .position(
          RouteSample(timestamp: Self.t("2025-01-01T07:00:01Z"), latitude: 45.5001, longitude: 13.2501), session: 0,
          line: 15),
        .unreadable(.badNumber, line: 16),
      ])
  }

  /// KML: `gx:` prefixes (the local name after the colon), `when` and `gx:coord` both ways
  /// round, a self-closing empty `gx:coord`.
  static let kml = [
    "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\n",
    "<Document><Placemark><gx:MultiTrack><gx:Track>\n",
    "          <when>2025-01-01T07:00:00Z</when>\n          <gx:coord>13.25 45.5 12.5</gx:coord>\n",
    "          <gx:coord>13.2501 45.5001 12.5</gx:coord>\n          <when>2025-01-01T07:00:01&#90;</when>\n",
    "          <when>2025-01-01T07:00:02Z</when><gx:coord/>\n",
    "</gx:Track></gx:MultiTrack></Placemark></Document></kml>\n",
  ].joined()

  @Test func kmlGivesTheSameRecordsWhereverAChunkEnds() {
    let read = Self.expectEveryCutAgrees(Self.kml, .kml)
    #expect(read.error == nil)
    let positions = read.records.compactMap { record -> RouteSample? in
      if case .position(let sample, _, _) = record { return sample }
      return nil
    }
    #expect(positions.map(\.timestamp) == [Self.t("2025-01-01T07:00:00Z"), Self.t("2025-01-01T07:00:01Z")])
    #expect(positions.map(\.latitude) == [45.5, 45.5001])
    #expect(read.records.map(\.line) == [5, 6, 8])
    #expect(read.records.last == .rejected(.missingPosition, line: 8))
  }

  /// Closing tags that differ from their start tag only past the first eight bytes, only in a
  /// namespace prefix, or only in length: each stops the read with both names and lines,
  /// wherever the chunks end.
  @Test(arguments: [
    ("<LatitudeDegrees>45.5</LatitudeDegreez>", "LatitudeDegreez", "Latitude"),
    ("<LatitudeDegrees>45.5</LatitudeDegrees2>", "LatitudeDegrees2", "Latitude"),
    (
      "<LongitudeDegreesAndSomeMoreOfIt>1</LongitudeDegreesAndSomeMoreOfIs>", "LongitudeDegreesAndSomeMoreOfIs",
      "Longitud"
    ),
    ("<a:Extensions>1</b:Extensions>", "b:Extensions", "Extensio"),
    ("<Extension>1</Extensions>", "Extensions", "Extensio"),
  ])
  func aClosingTagDifferingAnywhereIsReported(_ pair: (element: String, closing: String, opened: String)) {
    let text =
      "<TrainingCenterDatabase><Activities><Activity><Lap>\n<Track><Trackpoint>\n\(pair.element)\n</Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>\n"
    let whole = Self.expectEveryCutAgrees(text, .tcx, longest: 24)
    guard case .malformed(let line, let detail) = whole.error else {
      Issue.record("expected a malformed document, got \(String(describing: whole.error))")
      return
    }
    #expect(line == 3)
    #expect(detail.contains("does not match <\(pair.opened)") && detail.contains("opened on line 3"))
  }

  @Test func notableBytesFlagsExactlyTheFirstByteThatMatters() {
    for text in [
      "        ", "12345678", "-48.884\"", "13.2'5 x", "a\"b'c<d&", "abc<defg", "ab\ncdefg", "abcdef\r\n",
      "\u{7}bcdefgh", "abcdefg&", "éàü<", "\t       ",
    ] {
      var bytes = Array(text.utf8)
      bytes += Array(repeating: UInt8(ascii: "x"), count: max(0, 8 - bytes.count))
      let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
      for ampersand in [false, true] {
        let first = bytes.prefix(8).firstIndex { $0 == .asciiLess || $0 < 0x20 || (ampersand && $0 == .asciiAmpersand) }
        let flags = XMLText.notableBytes(word, ampersand: ampersand)
        #expect(
          flags == 0 ? first == nil : flags.trailingZeroBitCount >> 3 == first, "\(text.debugDescription) \(ampersand)")
      }
      for quote in [UInt8.asciiQuote, .asciiApostrophe] {
        let first = bytes.prefix(8).firstIndex {
          $0 == quote || $0 == .asciiLess || $0 == .asciiAmpersand || $0 < 0x20
        }
        let flags = XMLText.notableAttributeBytes(word, quote: quote)
        #expect(
          flags == 0 ? first == nil : flags.trailingZeroBitCount >> 3 == first, "\(text.debugDescription) \(quote)")
      }
    }
  }
}
