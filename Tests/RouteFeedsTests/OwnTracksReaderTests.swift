import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// OwnTracks Recorder `.rec`: real files pinned to the metre, what each kind of line becomes,
/// sessions per tracker, detection, chunk invariance and hostile input.
@Suite struct OwnTracksReaderTests: FormatReaderSuite {
  static let format = FeedFormat.owntracks

  static func measure(_ text: String, filter: Bool = true) -> FeedMeasurement {
    var source = MemoryByteSource(text)
    return FeedIngest.measure(&source, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
  }

  /// One location line as the Recorder writes it.
  static func location(
    _ stored: String, tst: String, lat: Double, lon: Double, acc: Int = 5, tid: String = "RO", column: String = "*"
  )
    -> String
  {
    "\(stored)\t\(column)                 \t{\"_type\":\"location\",\"tid\":\"\(tid)\",\"acc\":\(acc),\"tst\":\(tst),\"lat\":\(lat),\"lon\":\(lon),\"vel\":36}\n"
  }

  // MARK: Real files

  struct Expected: Sendable {
    var retained: Int
    var rejected: [String: Int]
    var meters: Double?
    var segments: Int
  }

  @Test func theDawarichFileIsPinnedToTheMetre() throws {
    // 13 lines out of order: 9 locations (one an exact duplicate line, one another position at
    // the same tst), a transition with column *, and lwt, waypoints and event columns.
    try Self.pin(
      "realdata/owntracks/dawarich_2024-03.rec", records: 9,
      ignored: ["otherMessageType": 1, "otherRecorderColumn": 3],
      filtered: Expected(retained: 7, rejected: ["duplicate": 1, "outOfOrder": 1], meters: 130.396, segments: 1),
      unfiltered: Expected(retained: 9, rejected: [:], meters: 130.396, segments: 1))
  }

  @Test func theRecorderDemoIsPinned() throws {
    // 23 locations (15 coarse significant-change fixes of 1709–5000 m), 2 lwt lines with a
    // string tst; every step is over 120 s, so nothing is continuous.
    try Self.pin(
      "realdata/owntracks/owntracks-recorder_demo-iphone.rec", records: 23, ignored: ["otherRecorderColumn": 2],
      filtered: Expected(retained: 8, rejected: ["accuracy": 15], meters: nil, segments: 0),
      unfiltered: Expected(retained: 23, rejected: [:], meters: nil, segments: 0))
  }

  static func pin(_ fixture: String, records: Int, ignored: [String: Int], filtered: Expected, unfiltered: Expected)
    throws
  {
    let bytes = try Fixtures.bytes(fixture)
    for (filter, expected) in [(true, filtered), (false, unfiltered)] {
      var source = MemoryByteSource(bytes)
      let measured = FeedIngest.measure(&source, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
      let report = measured.report
      let label = "filter \(filter)"
      #expect(measured.format == .owntracks, "\(label)")
      #expect(report.failure == nil, "\(label)")
      #expect(report.records == records, "\(label)")
      #expect(report.retained == expected.retained, "\(label)")
      #expect(
        Dictionary(uniqueKeysWithValues: report.rejected.map { ($0.key.rawValue, $0.value) }) == expected.rejected,
        "\(label)")
      #expect(
        Dictionary(uniqueKeysWithValues: report.ignored.map { ($0.key.rawValue, $0.value) }) == ignored, "\(label)")
      #expect(report.errors == 0 && report.isBalanced, "\(label)")
      #expect(report.sessions == 1, "\(label)")
      #expect(measured.distance.contributingSegmentCount == expected.segments, "\(label)")
      if let meters = expected.meters {
        #expect(abs(measured.distance.meters - meters) < 0.5, "\(label): \(measured.distance.meters) m")
      } else {
        #expect(!measured.distance.isMeasured, "\(label)")
      }
      for chunkSize in [1, 7, 4096] {
        var chunked = MemoryByteSource(bytes, chunkSize: chunkSize)
        #expect(
          FeedIngest.measure(&chunked, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil)) == measured
        )
      }
    }
  }

  // MARK: Lines

  @Test func everyKindOfLineIsAccountedForWithItsLine() {
    let text =
      Self.location("2024-03-01T18:00:00Z", tst: "1709316000", lat: 52.5, lon: 13.4)
      + "2024-03-01T18:00:01Z\t*\t{\"_type\":\"location\",\"tst\":\"1709316010\",\"lat\":52.5001,\"lon\":13.4,\"acc\":\"7\"}\r\n"
      + "\n"
      + "2024-03-01T18:00:02Z\t-                 \t{\"_type\":\"lwt\",\"tst\":\"1709316000\"}\n"
      + "2024-03-01T18:00:03Z  *  {\"_type\":\"transition\",\"tst\":1709316020,\"lat\":1,\"lon\":2}\n"
      + "2024-03-01T18:00:04Z\t*\t{\"_type\":\"location\",\"lat\":52.5,\"lon\":13.4}\n"
      + "2024-03-01T18:00:05Z\t*\t{\"_type\":\"location\",\"tst\":\"soon\",\"lat\":52.5,\"lon\":13.4}\n"
      + "2024-03-01T18:00:06Z\t*\t{\"_type\":\"location\",\"tst\":1709316030,\"lat\":\"north\",\"lon\":13.4}\n"
      + "2024-03-01T18:00:07Z\t*\t{\"_type\":\"location\",\"tst\":1709316030,\"lat\":52.5,\n"
      + "2024-03-01T18:00:08Z\t*\t{\"tst\":1709316030,\"lat\":52.5,\"lon\":13.4}\n"
      + "2024-03-01T18:00:09Z {\"_type\":\"location\"}\n"
      + "2024-03-01T18:00:10Z\t*\t[1,2]\n"
      + "2024-03-01T18:00:11Z\t*\t{\"_type\":\"location\",\"tst\":1709316040.5,\"lat\":52.5002,\"lon\":13.4,\"cog\":-1,\"vel\":-1,\"alt\":30}\n"
    let read = Self.read(text)
    #expect(read.error == nil)
    #expect(
      read.records == [
        .position(
          RouteSample(timestamp: 1_709_316_000, latitude: 52.5, longitude: 13.4, horizontalAccuracy: 5, speed: 10),
          session: 0,
          line: 1),
        .position(
          RouteSample(timestamp: 1_709_316_010, latitude: 52.5001, longitude: 13.4, horizontalAccuracy: 7), session: 1,
          line: 2),
        .ignored(.blankLine, line: 3),
        .ignored(.recorderOtherColumn, line: 4),
        .ignored(.recorderOtherType, line: 5),
        .rejected(.missingTime, line: 6),
        .unreadable(.badTime, line: 7),
        .unreadable(.badNumber, line: 8),
        .unreadable(.recorderBadJSON, line: 9),
        .unreadable(.recorderMissingType, line: 10),
        .unreadable(.notARecorderLine, line: 11),
        .unreadable(.notARecorderLine, line: 12),
        .position(
          RouteSample(timestamp: 1_709_316_040.5, latitude: 52.5002, longitude: 13.4, altitude: 30), session: 1,
          line: 13),
      ])
    for chunkSize in [1, 2, 3, 7, 64] {
      #expect(Self.read(text, chunkSize: chunkSize).records == read.records, "chunks of \(chunkSize)")
    }
  }

  /// A string `tst` reads as the number it holds: the same figure as the numeric form.
  @Test func aStringTimestampMeasuresLikeANumber() {
    var numeric = ""
    var quoted = ""
    for second in 0..<30 {
      let t = 1_709_316_000 + second * 5
      numeric += Self.location("2024-03-01T18:10:00Z", tst: "\(t)", lat: 52.5 + Double(second) * 0.0004, lon: 13.4)
      quoted += Self.location("2024-03-01T18:10:00Z", tst: "\"\(t)\"", lat: 52.5 + Double(second) * 0.0004, lon: 13.4)
    }
    for filter in [true, false] {
      let expected = Self.measure(numeric, filter: filter)
      #expect(abs(expected.distance.meters - 1289.6) < 1, "\(expected.distance.meters)")
      #expect(Self.measure(quoted, filter: filter) == expected)
    }
  }

  /// Lines stored out of order (the Recorder appends as messages arrive) measure as sorted ones.
  @Test func outOfOrderLinesMeasureLikeSortedOnes() {
    let lines = (0..<40).map { second in
      Self.location(
        "2024-03-01T18:10:00Z", tst: "\(1_709_316_000 + second * 5)", lat: 52.5 + Double(second) * 0.0003, lon: 13.4)
    }
    var shuffled = lines
    var random = SeededRandom(seed: 16)
    shuffled.shuffle(using: &random)
    for filter in [true, false] {
      let sorted = Self.measure(lines.joined(), filter: filter)
      let unsorted = Self.measure(shuffled.joined(), filter: filter)
      #expect(unsorted.distance == sorted.distance, "filter \(filter)")
      #expect(abs(sorted.distance.meters - 1301.0) < 1, "\(sorted.distance.meters)")
    }
  }

  /// The same `tst` twice: an exact duplicate is measured once; the filter rejects it.
  @Test func duplicateTimestamps() {
    let one = Self.location("2024-03-01T18:00:00Z", tst: "1709316000", lat: 52.5, lon: 13.4)
    let two = Self.location("2024-03-01T18:00:05Z", tst: "1709316005", lat: 52.5004, lon: 13.4)
    let three = Self.location("2024-03-01T18:00:10Z", tst: "1709316010", lat: 52.5008, lon: 13.4)
    let plain = Self.measure(one + two + three)
    let doubled = Self.measure(one + two + two + three)
    #expect(doubled.distance.meters == plain.distance.meters)
    #expect(doubled.report.rejected == [FeedReason("duplicate"): 1])
    #expect(
      Self.measure(one + two + two + three, filter: false).distance.meters
        == Self.measure(one + two + three, filter: false).distance.meters)
  }

  /// Each tracker is its own capture session: two devices never zigzag into each other. Joined
  /// files (one device's month, then another's) measure as the sum of each; interleaved devices
  /// break each other's continuity (positions are continuous only within one session), so the
  /// 490 km between them is never counted.
  @Test func trackersAreSessions() {
    var mixed = ""
    var first = ""
    var second = ""
    for step in 0..<20 {
      let t = 1_709_316_000 + step * 5
      let a = Self.location(
        "2024-03-01T18:00:00Z", tst: "\(t)", lat: 52.5 + Double(step) * 0.0003, lon: 13.4, tid: "AA")
      let b = Self.location(
        "2024-03-01T18:00:00Z", tst: "\(t + 1)", lat: 48.1 + Double(step) * 0.0003, lon: 11.5, tid: "BB")
      mixed += a + b
      first += a
      second += b
    }
    for filter in [true, false] {
      let interleaved = Self.measure(mixed, filter: filter)
      #expect(interleaved.report.sessions == 2)
      #expect(interleaved.distance.meters == 0, "filter \(filter): \(interleaved.distance.meters)")
      let joined = Self.measure(
        first + second.replacingOccurrences(of: "\"tst\":17093", with: "\"tst\":17094"), filter: filter)
      #expect(joined.report.sessions == 2)
      let sum =
        Self.measure(first, filter: filter).distance.meters + Self.measure(second, filter: filter).distance.meters
      #expect(abs(joined.distance.meters - sum) < 0.001, "filter \(filter): \(joined.distance.meters) vs \(sum)")
      #expect(abs(sum - 1267.6) < 1, "\(sum)")
    }
  }

  // MARK: Detection

  @Test func detectedFromTheFirstLine() throws {
    let detect = detectedFormat
    #expect(detect("2024-03-01T09:03:09Z\t*                 \t{\"_type\":\"location\"}\n") == .owntracks)
    #expect(detect("\n\n2015-08-24T05:55:14Z  -  {\"tst\":\"1\",\"_type\":\"lwt\"}") == .owntracks)
    #expect(detect("2024-03-01T09:03:09Z,52.1,13.2\n") == .csv)
    #expect(detect("2024-03-01T09:03:09Z\t52.1\t13.2\n") == .csv)
    #expect(detect("time\tcolumn\t{json}\n") == .csv)
    #expect(detect("2024-03-01 09:03:09\t*\t{") == .csv, "a space inside the time splits it")
    for name in ["dawarich_2024-03.rec", "owntracks-recorder_demo-iphone.rec"] {
      let bytes = try Fixtures.bytes("realdata/owntracks/\(name)")
      #expect(bytes.withUnsafeBufferPointer { FeedFormat.detect(prefix: $0) } == .owntracks, "\(name)")
    }
    #expect(FeedFormat(rawValue: "owntracks") == .owntracks)
  }

  // MARK: Hostile input

  @Test func hostileLinesAreCountedNeverCrash() {
    let good = Self.location("2024-03-01T18:00:00Z", tst: "1709316000", lat: 52.5, lon: 13.4)
    let deep =
      "2024-03-01T18:00:00Z\t*\t" + String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)
      + "\n"
    let long =
      "2024-03-01T18:00:00Z\t*\t{\"_type\":\"card\",\"face\":\""
      + String(repeating: "A", count: OwnTracksReader.maximumLineLength) + "\"}\n"
    let binary = "2024-03-01T18:00:00Z\t*\t{\"_type\":\"loc\u{0}ation\",\u{1}\u{7F}}\n"
    let huge = "2024-03-01T18:00:00Z\t*\t{\"_type\":\"location\",\"tst\":\"1e999\",\"lat\":52.5,\"lon\":13.4}\n"
    let strange =
      "2024-03-01T18:00:00Z\t*\t{\"_type\":\"location\",\"tst\":1709316000,\"lat\":91e300,\"lon\":13.4,\"acc\":\"x\",\"tid\":\""
      + String(repeating: "t", count: 300) + "\"}\n"
    let text = good + deep + long + binary + huge + strange + good
    let read = Self.read(text)
    #expect(read.error == nil)
    #expect(
      read.records.dropFirst().dropLast() == [
        .unreadable(.recorderBadJSON, line: 2), .unreadable(.lineTooLong, line: 3),
        .unreadable(.recorderBadJSON, line: 4),
        .unreadable(.badTime, line: 5), .unreadable(.csvBadSession, line: 6),
      ])
    #expect(Self.read(text, chunkSize: 4093).records == read.records)
    let measured = Self.measure(text)
    #expect(measured.report.isBalanced)
    #expect(measured.report.errors == 5)
    #expect(measured.report.errorLines == [2, 3, 4, 5, 6])
  }

  @Test func aCutOffLastLineIsTruncation() {
    let good = Self.location("2024-03-01T18:00:00Z", tst: "1709316000", lat: 52.5, lon: 13.4)
    let cut = String(good.prefix(60))
    let read = Self.read(good + cut)
    #expect(
      read.error
        == .truncated(
          line: 2, detail: "its last line has no line end and cannot be read, so the file looks cut off there"))
    #expect(read.records.count == 2)
    // A whole last line without its line end is read.
    let whole = Self.read(good + String(good.dropLast()))
    #expect(whole.error == nil)
    #expect(whole.records.count == 2)
    // An over-long unterminated last line is counted, not kept.
    let long = Self.read(
      good + "2024-03-01T18:00:00Z\t*\t{" + String(repeating: " ", count: OwnTracksReader.maximumLineLength))
    #expect(long.records.last == .unreadable(.lineTooLong, line: 2))
  }
}
