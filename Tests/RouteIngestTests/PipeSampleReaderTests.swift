import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// `pipe`'s sample reader, moved from the CLI onto the JSON tokenizer: the same reasons, order
/// and session minting as the DOM-based reader it replaced (kept here as the reference).
@Suite struct PipeSampleReaderTests {
  /// The reader `pipe` had before (PipeCommand.measure(samples:) over `JSONValue`s), verbatim
  /// in behaviour: the oracle the streaming reader must match.
  enum Reference {
    static func sessionKey(_ value: JSONValue?) -> String? {
      switch value {
      case .string(let key)?: key
      case .number(let number)?:
        number.isFinite
          ? (number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)") : "null"
      default: nil
      }
    }

    static func time(_ value: JSONValue) -> Double? {
      switch value {
      case .number(let seconds): CivilTime.supportedTimestamps.contains(seconds) ? seconds : nil
      case .string(let text): ISO8601Parser.timestamp(text)
      default: nil
      }
    }

    static func measure(samples: [JSONValue], settings: IngestSettings) -> (FeedMeasurement, String?) {
      var ingest = ShiftIngest(settings: settings, retained: DiscardRetainedSamples(), order: .timeSorted)
      var keys = Set<String>()
      for sample in samples {
        if let key = sessionKey(sample["session"]) { keys.insert(key) }
      }
      var sessions: [String: Int] = [:]
      for (ordinal, key) in keys.sorted().enumerated() {
        sessions[key] = ordinal
        ingest.registerSession(ordinal)
      }
      for (index, sample) in samples.enumerated() {
        let line = index + 1
        guard case .object = sample else {
          ingest.unreadable(.badNumber, line: line)
          continue
        }
        guard let t = sample["t"], let timestamp = time(t) else {
          ingest.unreadable(.badTime, line: line)
          continue
        }
        guard case .number(let latitude)? = sample["lat"], case .number(let longitude)? = sample["lon"] else {
          ingest.unreadable(.badNumber, line: line)
          continue
        }
        var accuracy: Double?
        switch sample["acc"] {
        case .number(let value)?: accuracy = value
        case nil, .null?: accuracy = nil
        default:
          ingest.unreadable(.badNumber, line: line)
          continue
        }
        var session: Int?
        switch sample["session"] {
        case nil, .null?: session = nil
        case .string?, .number?: session = sessionKey(sample["session"]).flatMap { sessions[$0] }
        default:
          ingest.unreadable(.badNumber, line: line)
          continue
        }
        ingest.position(
          RouteSample(timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy),
          session: session, line: line)
      }
      do {
        try ingest.finish()
        return (ingest.measurement(format: .csv), nil)
      } catch {
        return (ingest.measurement(format: .csv), "\(error)")
      }
    }
  }

  static func compare(_ record: String, filter: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    let bytes = Array(record.utf8)
    let settings = IngestSettings(filter: filter ? RouteSampleFilter() : nil)
    let dom = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
    guard case .array(let samples)? = dom["samples"] else {
      Issue.record("no samples array", sourceLocation: sourceLocation)
      return
    }
    let expected = Reference.measure(samples: samples, settings: settings)
    let (measurement, failure) = bytes.withUnsafeBufferPointer {
      PipeSampleReader.measure(record: $0, settings: settings)
    }
    #expect(measurement == expected.0, sourceLocation: sourceLocation)
    #expect(failure.map { "\($0)" } == expected.1, sourceLocation: sourceLocation)
  }

  @Test func everyKindOfSampleIsCountedAsBefore() throws {
    let record = """
      {"id": 1, "samples": [
        {"t": "2025-11-29T08:00:00Z", "lat": 37.7749, "lon": -122.4194, "acc": 5, "session": "a"},
        {"t": 1764403260, "lat": 37.7759, "lon": -122.4194, "acc": null, "session": 7},
        {"t": "2025-11-29T08:02:00Z", "lat": 37.7769, "lon": -122.4194, "session": "7"},
        {"t": "nope", "lat": 1, "lon": 2}, {"lat": 1, "lon": 2}, {"t": 1e300, "lat": 1, "lon": 2},
        {"t": "2025-11-29T08:03:00Z", "lat": "1", "lon": 2}, {"t": "2025-11-29T08:03:00Z", "lat": 1},
        {"t": "2025-11-29T08:03:00Z", "lat": 1, "lon": 2, "acc": "5"},
        {"t": "2025-11-29T08:03:00Z", "lat": 1, "lon": 2, "session": true},
        {"t": "2025-11-29T08:03:00Z", "lat": 1, "lon": 2, "session": {"x": [1, 2]}},
        5, null, "x", [1, 2, {"t": 3}], [],
        {"t": "bad", "t": "2025-11-29T08:04:00Z", "lat": 0, "lat": 37.7779, "lon": -122.4194, "session": 3, "session": null},
        {"t": "2025-11-29T08:05:00Z", "lat": 37.7789, "lon": -122.4194, "session": "b", "session": "a", "extra": [[{}]]},
        {"t": "2025-11-29T08:06:00Z", "lat": 37.7799, "lon": -122.4194, "session": 2.5}
      ], "shiftStart": null}
      """
    try Self.compare(record)
    try Self.compare(record, filter: true)
    let (measurement, _) = Array(record.utf8).withUnsafeBufferPointer {
      PipeSampleReader.measure(record: $0, settings: IngestSettings(filter: nil))
    }
    #expect(measurement.report.records == 19)
    #expect(measurement.report.retained == 6)
    #expect(measurement.report.errorReasons == [.badTime: 3, .badNumber: 10])
  }

  /// The last "samples" member is the one read, as the DOM keeps the last.
  @Test func aRepeatedSamplesMemberKeepsTheLast() throws {
    let record =
      #"{"samples": [{"t": 1, "lat": 1, "lon": 1, "session": "z"}], "id": 2, "samples": [{"t": 1764403200, "lat": 37.7749, "lon": -122.4194}, {"t": 1764403260, "lat": 37.7759, "lon": -122.4194}]}"#
    try Self.compare(record)
    // Agreeing with the reference shows only that both follow the DOM; the count pins the last.
    let (measurement, _) = Array(record.utf8).withUnsafeBufferPointer {
      PipeSampleReader.measure(record: $0, settings: IngestSettings(filter: nil))
    }
    #expect(measurement.report.records == 2)
  }

  /// Random records (types, duplicates, sessions, order) read alike by both.
  @Test func randomRecordsReadAlike() throws {
    var random = SeededRandom(seed: 2025)
    func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
    for _ in 0..<200 {
      var samples: [String] = []
      for index in 0..<Int(random.next() % 12) {
        var members: [String] = []
        for _ in 0..<Int(random.next() % 7) {
          let key = pick(["t", "lat", "lon", "acc", "session", "other"])
          let value: String
          switch key {
          case "t":
            value = pick([
              "\(1_764_403_200 + index * 30)", "\"2025-11-29T08:0\(index % 10):00Z\"", "null", "\"x\"", "1e300", "[]",
            ])
          case "lat": value = pick(["37.77\(index)", "\"1\"", "null", "-91", "{}"])
          case "lon": value = pick(["-122.41\(index)", "true", "null", "200.5"])
          case "acc": value = pick(["5", "null", "\"5\"", "-1", "[1]"])
          case "session": value = pick(["\"a\"", "\"b\"", "1", "1.0", "\"1\"", "2.5", "null", "false", "{\"s\": 1}"])
          default: value = pick(["1", "[[1], {\"t\": 2}]", "\"t\""])
          }
          members.append("\"\(key)\": \(value)")
        }
        samples.append(
          pick([
            "{" + members.joined(separator: ", ") + "}", "{" + members.joined(separator: ",") + "}", "7",
            "[{\"t\": 1}]",
          ]))
      }
      let record = "{\"id\": 1, \"samples\": [" + samples.joined(separator: ", ") + "]}"
      try Self.compare(record, filter: random.next() % 2 == 0)
    }
  }
}
