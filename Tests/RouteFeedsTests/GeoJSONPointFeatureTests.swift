import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds

/// Point features read straight from their bytes (`GeoJSONPointFeature`): every feature it
/// accepts gives exactly what the token-by-token path gives, every feature it declines reads as
/// before, whatever the chunks, the member order, the whitespace or the damage.
@Suite struct GeoJSONPointFeatureTests {
  /// What one read gave, and how many features took the byte path.
  struct Outcome {
    var read: FeedTestRead
    var fromBytes: Int
  }

  static func read(_ bytes: [UInt8], chunkSize: Int = .max, fromBytes: Bool = true) -> Outcome {
    var reader = GeoJSONReader(options: FeedOptions())
    reader.readsPointFeaturesFromBytes = fromBytes
    var count = 0
    let read = readChunked(reader, bytes, chunkSize: chunkSize) { count = $0.pointFeaturesReadFromBytes }
    return Outcome(read: read, fromBytes: count)
  }

  static func collection(_ features: [String]) -> [UInt8] {
    Array(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8)
  }

  /// The shape `FeedWriter.writeGeoJSON` writes (properties first).
  static let written =
    #"{"type":"Feature","properties":{"time":"2025-11-04T16:00:01Z","accuracy":7.7,"speed":2.45,"bearing":310.6},"#
    + #""geometry":{"type":"Point","coordinates":[-123.4064803,-48.8840171,46.1]}}"#
  /// GPSLogger's: keys sorted, geometry first, the geometry's type after its coordinates, an offset time.
  static let gpsLogger =
    #"{"geometry":{"coordinates":[105.8019,21.0294],"type":"Point"},"properties":{"accuracy":"12.5","#
    + #""provider":"gps","time":"2025-11-04T23:00:03.250+07:00","time_long":1762272003250},"type":"Feature"}"#
  /// Whitespace of every kind, lines inside the feature.
  static let pretty =
    "{\r\n  \"type\" : \"Feature\" ,\n\t\"properties\" : {\n    \"time\" : \"2025-11-04T16:00:04Z\"\n  },\n"
    + "  \"geometry\" : {\n    \"type\" : \"Point\",\n    \"coordinates\" : [\n  -123.41 ,\n -48.89 \n ]\n  }\n}"

  /// A two-point LineString with its times.
  static let line =
    #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[1.001,2.001]]},"#
    + #""properties":{"coordTimes":["2025-11-04T16:00:27Z","2025-11-04T16:00:28Z"]}}"#

  /// A Point feature with these properties and coordinates.
  static func point(_ properties: String, _ coordinates: String = "1,2") -> String {
    feature(#""properties":{"# + properties + #"},"geometry":{"type":"Point","coordinates":["# + coordinates + "]}")
  }

  /// A feature with these members after its `type`.
  static func feature(_ members: String) -> String { #"{"type":"Feature","# + members + "}" }

  /// Each feature, and whether the byte path reads it.
  static let variants: [(String, Bool)] = [
    (written, true),
    (gpsLogger, true),
    (pretty, true),
    // Extra members at every level, and a feature without properties (no time).
    (
      #"{"id":7,"type":"Feature","geometry":{"type":"Point","coordinates":[1,2],"name":"x"},"#
        + #""properties":{"a":true,"b":null,"c":"\"q\" \\ \u00e9"}}"#, true
    ),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#, true),
    (#"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#, true),
    // Numbers: exponents, negative zero, long mantissas (strtod), extra members, no altitude.
    (point(#""time":"2025-11-04T16:00:05Z""#, "-0,-0.0,1e2,4"), true),
    (point(#""time":"2025-11-04T16:00:06Z""#, "1.25E+1,-4.5e-1,-0.000001e3"), true),
    (point(#""time":"2025-11-04T16:00:07Z""#, "12.345678901234567890,0.10000000000000000555111512312,1e999"), true),
    // Times: numbers (ms and s), null, true, a repeated key (the last), all three keys.
    (point(#""time_long":1762272008000"#), true),
    (point(#""timestamp":1762272009.5"#), true),
    (#"{"type":"Feature","properties":{"time":null},"geometry":{"type":"Point","coordinates":[1,2]}}"#, true),
    (#"{"type":"Feature","properties":{"time":true},"geometry":{"type":"Point","coordinates":[1,2]}}"#, true),
    (point(#""time":"2025-11-04T16:00:10Z","time":"2025-11-04T16:00:11Z""#), true),
    (point(#""time":null,"timestamp":"2025-11-04T16:00:12-01:30","time_long":1"#), true),
    // Accuracy: the first wins, a string, null does not count, every key.
    (point(#""acc":null,"hAcc":"3.5","accuracy":9,"time":"2025-11-04T16:00:13Z""#), true),
    (point(#""hAccuracy":4,"horizontalAccuracy":5,"time":"2025-11-04T16:00:14Z""#), true),
    (point(#""accuracy":"n/a","time":"2025-11-04T16:00:15Z""#), true),
    // Waypoint properties: named (held), empty, escaped, not a string.
    (point(#""name":"Depot","time":"2025-11-04T16:00:16Z""#), true),
    (point(#""title":"","desc":5,"icon":null,"time":"2025-11-04T16:00:17Z""#), true),
    (point(#""sym":"\n","time":"2025-11-04T16:00:18Z""#), true),
    // Numbers at the edges of the two-load reading: seven digits each side, eight (read in
    // full), zeros, exponents after a fraction or an integer; skipped and accuracy numbers alike.
    (point(#""time":"2025-11-04T16:00:26Z""#, "-1234567.1234567,7654321.7654321,0.5"), true),
    (point(#""time":"2025-11-04T16:00:27Z""#, "12345678.5,1.12345678,-0.00000001"), true),
    (point(#""time":"2025-11-04T16:00:28Z""#, "0.1234567,-0.7654321,10,9999999"), true),
    (point(#""time":"2025-11-04T16:00:29Z""#, "1.5e3,2.25E-2,3.0e+1"), true),
    (point(#""time":"2025-11-04T16:00:30Z""#, "15e1 , 2E0\t,\n-7"), true),
    (point(#""accuracy":12.3456789,"speed":-0.0000001,"bearing":1e5,"time":"2025-11-04T16:00:31Z""#), true),
    (point(#""speed":0,"accuracy":-0.5,"bearing":1234567.1234567,"time":"2025-11-04T16:00:32Z""#), true),
    // Times read in place on the cached day, and those that are not: milliseconds, a space,
    // another day, one fraction digit, an hour out of range, a byte after the `Z`, an offset.
    (point(#""time":"2025-11-04T16:00:33.250Z""#), true),
    (point(#""time":"2025-11-04 16:00:34Z""#), true),
    (point(#""time":"2025-11-05T00:00:01.999Z""#), true),
    (point(#""time":"2025-11-04T16:00:35.5Z""#), true),
    (point(#""time":"2025-11-04T16:00:36.2500Z""#), true),
    (point(#""time":"2025-11-04T16:00:37+00:00""#), true),
    (point(#""time":"2025-11-04T24:00:00Z""#), false),
    (point(#""time":"2025-11-04T16:00:38Zx""#), false),
    (point(#""time":"2025-11-04T16:00:39.250Z ""#), false),

    // Declined: read token by token, with the same result.
    (point(#""ti\u006de":"2025-11-04T16:00:19Z""#), false),
    (point(#""time":"2025-11-04T16:00:20""#), false),
    (#"{"type":"Feature","properties":{"time":"yesterday"},"geometry":{"type":"Point","coordinates":[1,2]}}"#, false),
    (point(#""time":"2025-11-04T16:00:21\u005a""#), false),
    (point(#""time":["2025-11-04T16:00:22Z"]"#), false),
    (point(#""nested":{"time":"2025-11-04T16:00:23Z"}"#), false),
    (point(#""coordTimes":["2025-11-04T16:00:24Z"]"#), false),
    (point(#""coordinateProperties":{"times":["2025-11-04T16:00:25Z"]}"#), false),
    (#"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[1,2]}}"#, false),
    (#"{"type":"Feature","bbox":[1,2,1,2],"geometry":{"type":"Point","coordinates":[1,2]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,"2"]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1e999,2]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":5}}"#, false),
    (#"{"type":"Feature","geometry":{"coordinates":[1,2]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Poi\u006et","coordinates":[1,2]}}"#, false),
    (feature(#""geometry":{"type":"LineString","coordinates":[1,2]},"properties":{"coordTimes":[1762272026]}"#), false),
    (Self.line, false),
    (#"{"type":"Feature","geometry":{"type":"Point","type":"Point","coordinates":[1,2]}}"#, false),
    (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2],"coordinates":[3,4]}}"#, false),
    (feature(#""geometry":{"type":"Point","coordinates":[1,2]},"geometry":{"coordinates":[5,6]}"#), false),
    (#"{"type":"Feature","geometry":null}"#, false),
    (#"{}"#, false),
  ]

  /// The feature alone, and between two written ones: the same records and errors whether
  /// read from bytes or token by token, whole and in chunks of 1 to 40 bytes; and the byte
  /// path takes exactly the features it should.
  @Test(arguments: variants.indices)
  func aFeatureReadsAlikeOnBothPathsInEveryChunking(_ index: Int) {
    let (feature, readFromBytes) = Self.variants[index]
    for features in [[feature], [Self.written, feature, Self.gpsLogger]] {
      let bytes = Self.collection(features)
      let expected = Self.read(bytes, fromBytes: false)
      #expect(expected.read.error == nil, "\(feature)")
      #expect(expected.fromBytes == 0)
      let whole = Self.read(bytes)
      #expect(whole.read.records == expected.read.records, "\(feature)")
      #expect(whole.read.error == expected.read.error, "\(feature)")
      let others = features.count - 1
      #expect(whole.fromBytes == others + (readFromBytes ? 1 : 0), "\(feature)")
      for size in 1...40 {
        let chunked = Self.read(bytes, chunkSize: size)
        #expect(chunked.read.records == expected.read.records, "\(feature) in chunks of \(size)")
        #expect(chunked.read.error == expected.read.error, "\(feature) in chunks of \(size)")
      }
    }
  }

  /// Every variant in one collection, cut after every byte: the same records and the same
  /// error (line and offset) on both paths.
  @Test func aCollectionCutAnywhereReadsAlikeOnBothPaths() {
    let bytes = Self.collection(Self.variants.map(\.0))
    #expect(Self.read(bytes).fromBytes == Self.variants.filter(\.1).count)
    for end in 0..<bytes.count {
      let cut = Array(bytes[..<end])
      let expected = Self.read(cut, fromBytes: false)
      let fast = Self.read(cut)
      #expect(fast.read.records == expected.read.records, "cut at \(end)")
      #expect(fast.read.error == expected.read.error, "cut at \(end)")
    }
  }

  /// Broken JSON inside a feature of the common shape: declined, and the tokenizer reports it
  /// at the same line and offset.
  @Test(arguments: [
    feature(#""properties":{"time":"2025-11-04T16:00:00Z",},"geometry":{"type":"Point","coordinates":[1,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2,]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[01,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1.,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2.5.5]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,+2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[-,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1.2e,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1234567.,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[-01.5,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[00,2]}"#),
    feature(#""properties":{"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1.5-2,2]}"#),
    feature(
      #""properties":{"speed":01,"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2]}"#),
    feature(
      #""properties":{"speed":1.5.5,"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2]}"#),
    feature(
      #""properties":{"accuracy":2.5+1,"time":"2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2]}"#),
    #"{"type":"Feature","properties":{"time":nul},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","properties":{"time":nullx},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","properties":{"time" "2025-11-04T16:00:00Z"},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","properties":{"name":"a\qb"},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    "{\"type\":\"Feature\",\"properties\":{\"name\":\"a\u{01}b\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}",
    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}"#,
    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}}"#,
    #"{"type":"Feature" "geometry":{"type":"Point","coordinates":[1,2]}}"#,
  ])
  func brokenJSONFailsAlikeOnBothPaths(_ feature: String) {
    let bytes = Self.collection([Self.written, feature, Self.written])
    let expected = Self.read(bytes, fromBytes: false)
    #expect(expected.read.error != nil, "\(feature)")
    for size in [.max, 1, 7, 64] {
      let fast = Self.read(bytes, chunkSize: size)
      #expect(fast.read.records == expected.read.records, "\(feature) in chunks of \(size)")
      #expect(fast.read.error == expected.read.error, "\(feature) in chunks of \(size)")
    }
  }

  /// Thousands of numbers of every short shape (one to nine digits each side of the point, signs,
  /// integers), as coordinates, accuracies and skipped properties, in Zulu times with and
  /// without milliseconds: the same doubles to the bit on both paths, every feature read from
  /// its bytes.
  @Test func shortNumbersAndTimesReadToTheBitOnBothPaths() {
    var generator = SeededRandom(seed: 26)
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(generator.below(10))) })
    }
    func number() -> String {
      let integer = generator.below(9) + 1
      var text = digits(integer)
      // No leading zero before another digit.
      if integer > 1, text.first == "0" { text = "1" + text.dropFirst() }
      let fraction = generator.below(10)
      if fraction > 0 { text += "." + digits(fraction) }
      return generator.below(2) == 0 ? "-" + text : text
    }
    var features: [String] = []
    for second in 0..<2_000 {
      let clock = "16:\(String(100 + second / 60).dropFirst()):\(String(100 + second % 60).dropFirst())"
      let time = second % 3 == 0 ? "2025-11-04T\(clock).\(digits(3))Z" : "2025-11-04T\(clock)Z"
      features.append(
        Self.point(
          #""time":""# + time + #"","accuracy":"# + number() + #","speed":"# + number(),
          [number(), number(), number()].joined(separator: ",")))
    }
    let bytes = Self.collection(features)
    let expected = Self.read(bytes, fromBytes: false)
    let fast = Self.read(bytes)
    #expect(fast.fromBytes == features.count)
    #expect(expected.read.error == nil)
    #expect(fast.read.records.count == features.count)
    #expect(fast.read.records == expected.read.records)
  }

  /// Bytes that are not UTF-8 in a string whose value is skipped.
  @Test func invalidUTF8InASkippedStringFailsAlikeOnBothPaths() {
    let noted = #"{"type":"Feature","properties":{"note":"a~b"},"geometry":{"type":"Point","coordinates":[1,2]}}"#
    let bytes = Self.collection([Self.written, noted, Self.written]).map { $0 == UInt8(ascii: "~") ? 0xC3 : $0 }
    let expected = Self.read(bytes, fromBytes: false)
    #expect(expected.read.error != nil)
    for size in [.max, 1, 7, 64] {
      let fast = Self.read(bytes, chunkSize: size)
      #expect(fast.read.records == expected.read.records, "chunks of \(size)")
      #expect(fast.read.error == expected.read.error, "chunks of \(size)")
    }
  }

  /// The values themselves: the written shape's position, to the bit, with its line.
  @Test func theWrittenShapeGivesItsPositionLineAndSession() throws {
    let bytes = Self.collection([Self.written, Self.pretty])
    let read = Self.read(bytes)
    #expect(read.fromBytes == 2)
    #expect(read.read.error == nil)
    let expected: [FeedRecord] = [
      .position(
        RouteSample(
          timestamp: ISO8601Parser.timestamp("2025-11-04T16:00:01Z")!, latitude: -48.8840171, longitude: -123.4064803,
          horizontalAccuracy: 7.7, altitude: 46.1),
        session: 0, line: 2),
      .position(
        RouteSample(
          timestamp: ISO8601Parser.timestamp("2025-11-04T16:00:04Z")!, latitude: -48.89, longitude: -123.41,
          horizontalAccuracy: nil, altitude: nil),
        session: 0, line: 10),
    ]
    #expect(read.read.records == expected)
  }

  /// A line after named Points makes them waypoints, and every Point after it one too, on
  /// both paths (the rule lives in the delivery both paths share).
  @Test func waypointsBesideALineAreRejectedOnBothPaths() {
    let named = Self.point(#""name":"Stop","time":"2025-11-04T16:00:00Z""#)
    let bytes = Self.collection([named, Self.written, Self.line, Self.written])
    let expected = Self.read(bytes, fromBytes: false)
    let fast = Self.read(bytes)
    #expect(fast.fromBytes == 3)
    #expect(fast.read.records == expected.read.records)
    let waypoints = fast.read.records.filter {
      if case .rejected(let reason, _) = $0 { return reason == .waypoint }
      return false
    }
    #expect(waypoints.count == 3)
  }

  /// Features the byte path must decline, each between byte-read ones that carry no accuracy
  /// and one no time: a name with an escape, a LineString-free `geometries`, a nested skipped
  /// value, and skipped numbers of every shape `skipShortDecimal` leaves to `skipNumber` (eight
  /// digits, an exponent, a leading zero, a fraction of eight digits). The declined feature's
  /// time and accuracy must not reach the byte-read Points after it, and the records, sessions
  /// and lines are the token path's.
  @Test func declinedFeaturesReadAsTheTokenPathBetweenByteReadPoints() {
    let declined = [
      Self.feature(
        #""geometry":{"type":"Point","coordinates":[1,2]},"properties":{"ti\u006De":"2025-11-04T16:00:05Z","acc":3.5}"#
      ),
      Self.point(#""time":"2025-11-04T16:00:06Z","accuracy":4.5,"nested":{"a":1}"#),
      Self.feature(
        #""properties":{"time":"2025-11-04T16:00:07Z"},"geometry":{"type":"GeometryCollection","geometries":[]}"#),
    ]
    let skippedNumbers = [
      "12345678", "1.5e3", "-2E-1", "0.25", "-0", "1.23456789", "12345678.5", "0", "-7.0000001",
    ]
    var features: [String] = []
    for feature in declined {
      features += [feature, Self.point(#""speed":1.5"#), Self.point(#""time":"2025-11-04T16:00:08Z""#)]
    }
    for (offset, number) in skippedNumbers.enumerated() {
      features.append(
        Self.point(#""speed":"# + number + #","time":"2025-11-04T16:00:\#(10 + offset)Z","bearing":"# + number))
    }
    let bytes = Self.collection(features)
    let expected = Self.read(bytes, fromBytes: false)
    #expect(expected.read.error == nil)
    let fast = Self.read(bytes)
    // Two byte-read Points after each declined feature, and every skipped-number Point.
    #expect(fast.fromBytes == 2 * declined.count + skippedNumbers.count)
    #expect(fast.read.records == expected.read.records)
    #expect(fast.read.error == expected.read.error)
    let positions = fast.read.records.compactMap { record -> RouteSample? in
      if case .position(let sample, _, _) = record { return sample }
      return nil
    }
    // The two declined Points with a readable time, three timed byte-read Points, nine with
    // skipped numbers; only the two declined ones have an accuracy.
    #expect(positions.count == 2 + declined.count + skippedNumbers.count)
    #expect(positions.filter { $0.horizontalAccuracy != nil }.count == 2)
    for size in [1, 7, 33] {
      let chunked = Self.read(bytes, chunkSize: size)
      #expect(chunked.read.records == expected.read.records, "chunks of \(size)")
    }
  }
}
