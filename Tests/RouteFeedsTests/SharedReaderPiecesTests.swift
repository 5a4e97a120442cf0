import RouteMileage
import Testing

@testable import RouteFeeds

/// The pieces several readers share (one implementation each): the format-to-reader dispatch,
/// the kept start of a cut line, fixed-width digit fields, NMEA fix details.
@Suite struct SharedReaderPiecesTests {
  /// Names the reader type `FeedFormat.withReader` hands over.
  struct ReaderName: FeedReaderWork {
    func run<Reader: FeedReader>(_ reader: Reader) -> String { String(describing: Reader.self) }
  }

  @Test func eachFormatIsReadByItsOwnReader() {
    let expected: [FeedFormat: String] = [
      .gpx: "GPXReader", .nmea: "NMEAReader", .csv: "CSVReader", .fit: "FITReader", .tcx: "TCXReader",
      .kml: "KMLReader", .takeout: "TakeoutReader", .geojson: "GeoJSONReader", .owntracks: "OwnTracksReader",
    ]
    var work = ReaderName()
    for format in FeedFormat.allCases {
      #expect(format.withReader(options: FeedOptions(), &work) == expected[format], "\(format)")
    }
  }

  @Test func aCopiedAnyFeedReaderReadsOnIndependently() throws {
    let head = Array("timestamp,latitude,longitude,capture_session_id\n2025-11-29T08:00:00Z,45.5,13.25,a\n".utf8)
    let tail = Array("2025-11-29T08:00:05Z,45.5003,13.2502,a\n".utf8)
    var first = AnyFeedReader(format: .csv, options: FeedOptions())
    var firstRecords = FeedRecordCollector()
    try head.withUnsafeBufferPointer { (bytes) throws(FeedError) in try first.read(bytes, into: &firstRecords) }
    var second = first
    var secondRecords = FeedRecordCollector()
    try tail.withUnsafeBufferPointer { (bytes) throws(FeedError) in try second.read(bytes, into: &secondRecords) }
    try second.finish(into: &secondRecords)
    try first.finish(into: &firstRecords)
    #expect(firstRecords.records.map(\.line) == [2], "the copy's row is not read into the original")
    #expect(secondRecords.records.map(\.line) == [3], "the copy goes on from the row the original had reached")
  }

  @Test func partialLineKeepsACutLineAndSkipsAnOverLongOne() {
    var partial = PartialLine(maximumLength: 8, keepsCapacity: true)
    var sink = FeedRecordCollector()
    func end(_ text: String) -> Int? {
      Array(text.utf8).withUnsafeBufferPointer { partial.endLine(with: $0, into: &sink) }
    }
    func keep(_ text: String) { Array(text.utf8).withUnsafeBufferPointer { partial.keep($0) } }

    #expect(end("line one") == 1, "eight bytes: at the limit")
    keep("abc")
    #expect(!partial.isEmpty && partial.capacity >= 8)
    var whole = Array("de".utf8).withUnsafeBufferPointer { partial.take(appending: $0) }
    #expect(whole == Array("abcde".utf8) && partial.isEmpty)
    partial.giveBack(&whole)
    #expect(end("") == 2)
    keep("123456")
    keep("789")
    #expect(partial.skipping && partial.isEmpty, "nine bytes of one line are over the limit: nothing is kept")
    #expect(end("x") == nil)
    #expect(!partial.skipping)
    #expect(end("123456789") == nil, "too long without being cut")
    #expect(end("next") == 5)
    keep("123456789")
    #expect(partial.endFeedSkipping(into: &sink) && !partial.endFeedSkipping(into: &sink))
    #expect(
      sink.records == [
        .unreadable(.lineTooLong, line: 3), .unreadable(.lineTooLong, line: 4), .unreadable(.lineTooLong, line: 6),
      ])
  }

  @Test func twoDigitFields() {
    let text = Array("0759x1".utf8)
    text.withUnsafeBufferPointer { bytes in
      #expect(bytes.twoDigits(at: 0) == 7)
      #expect(bytes.twoDigits(at: 2) == 59)
      #expect(bytes.twoDigits(at: 3) == nil)
      #expect(bytes.twoDigits(at: 4) == nil)
    }
  }

  @Test func leadingDigitsStopAtTheLimitOrTheFirstOtherByte() {
    Array("123456789".utf8).withUnsafeBufferPointer { bytes in
      var index = 0
      #expect(CSVValues.leadingDigits(bytes, from: &index, atMost: 8) == (12_345_678, 8))
      #expect(index == 8)
    }
    Array("+05:30".utf8).withUnsafeBufferPointer { bytes in
      var index = 1
      #expect(CSVValues.leadingDigits(bytes, from: &index, atMost: 8) == (5, 2))
      #expect(index == 3)
      index = 0
      #expect(CSVValues.leadingDigits(bytes, from: &index, atMost: 2) == (0, 0))
      #expect(index == 0)
    }
  }

  @Test func fixDetailsKeepTheFirstValueOfEachField() {
    var epoch = NMEAFixDetails()
    epoch.fillGaps(from: NMEAFixDetails(speed: 3, course: nil, altitude: 410, hdop: nil, date: 20_421))
    epoch.fillGaps(from: NMEAFixDetails(speed: 9, course: 90, altitude: 999, hdop: 1.2, date: 1))
    #expect(epoch.speed == 3 && epoch.course == 90 && epoch.altitude == 410)
    #expect(epoch.hdop == 1.2 && epoch.date == 20_421)
  }
}
