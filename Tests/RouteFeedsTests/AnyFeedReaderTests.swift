import RouteFeeds
import RouteMileage
import Testing

/// `AnyFeedReader`: the reader a format needs behind one type (replay picks the format at run
/// time). It must tell its sink exactly what the concrete reader tells it, in any chunking, and
/// `FeedRecord` must replay those records unchanged.
@Suite struct AnyFeedReaderTests {
  static let csv = """
    timestamp,latitude,longitude,horizontal_accuracy,capture_session_id
    2025-11-29T08:00:00Z,45.5,13.25,5,a
    2025-11-29T08:00:05Z,45.5003,13.2502,5,a
    not a time,45.5006,13.2504,5,a
    2025-11-29T08:00:15Z,45.5009,13.2506,5,b

    """
  static let gpx = """
    <?xml version="1.0"?>
    <gpx version="1.1" creator="t"><wpt lat="1" lon="2"/><trk><trkseg>
    <trkpt lat="45.5" lon="13.25"><time>2025-11-29T08:00:00Z</time></trkpt>
    <trkpt lat="45.5003" lon="13.2502"><time>2025-11-29T08:00:05Z</time><hdop>1.5</hdop></trkpt>
    </trkseg><trkseg>
    <trkpt lat="45.5006" lon="x"><time>2025-11-29T08:00:10Z</time></trkpt>
    <trkpt lat="45.5009" lon="13.2506"><time>2025-11-29T08:00:15Z</time></trkpt>
    </trkseg></trk></gpx>

    """
  static let kml = """
    <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Placemark><gx:Track>
    <when>2025-11-29T08:00:00Z</when><when>2025-11-29T08:00:05Z</when>
    <gx:coord>13.25 45.5 0</gx:coord><gx:coord>13.2502 45.5003 0</gx:coord>
    </gx:Track></Placemark></Document></kml>

    """

  /// Everything `reader` tells a sink, `chunkSize` bytes at a time, and the error it stopped at.
  static func records<Reader: FeedReader>(_ reader: Reader, _ text: String, chunkSize: Int) -> FeedTestRead {
    readChunked(reader, Array(text.utf8), chunkSize: chunkSize)
  }

  @Test(arguments: [1, 7, 64, 1 << 20])
  func tellsTheSinkWhatTheConcreteReaderTellsIt(chunkSize: Int) {
    let options = FeedOptions()
    let cases: [(FeedFormat, String, FeedTestRead)] = [
      (.csv, Self.csv, Self.records(CSVReader(options: options), Self.csv, chunkSize: chunkSize)),
      (.gpx, Self.gpx, Self.records(GPXReader(options: options), Self.gpx, chunkSize: chunkSize)),
      (.kml, Self.kml, Self.records(KMLReader(options: options), Self.kml, chunkSize: chunkSize)),
    ]
    for (format, text, concrete) in cases {
      let any = Self.records(AnyFeedReader(format: format, options: options), text, chunkSize: chunkSize)
      #expect(any.0 == concrete.0, "\(format) at \(chunkSize)")
      #expect(any.1 == nil && concrete.1 == nil, "\(format)")
    }
  }

  @Test func whatTheReadersSayAboutTheseDocuments() {
    let csv = Self.records(AnyFeedReader(format: .csv, options: FeedOptions()), Self.csv, chunkSize: 16).0
    #expect(csv.filter { if case .position = $0 { true } else { false } }.count == 3)
    #expect(csv.contains(.unreadable(.badTime, line: 4)))
    let gpx = Self.records(AnyFeedReader(format: .gpx, options: FeedOptions()), Self.gpx, chunkSize: 16).0
    #expect(gpx.first == .rejected(.waypoint, line: 2))
    #expect(gpx.contains(.unreadable(.badNumber, line: 6)))
    let sessions = gpx.compactMap { record -> Int? in
      if case .position(_, let session, _) = record { return session }
      return nil
    }
    #expect(sessions == [0, 0, 1], "each trkseg is the next session")
    let kml = Self.records(AnyFeedReader(format: .kml, options: FeedOptions()), Self.kml, chunkSize: 16).0
    #expect(kml.count == 2)
  }

  @Test func recordsReplayUnchanged() {
    let (records, _) = Self.records(AnyFeedReader(format: .gpx, options: FeedOptions()), Self.gpx, chunkSize: 5)
    var replayed = FeedRecordCollector()
    for record in records { record.deliver(to: &replayed) }
    #expect(replayed.records == records)
    #expect(!records.isEmpty && records.allSatisfy { $0.line >= 2 })
  }
}
