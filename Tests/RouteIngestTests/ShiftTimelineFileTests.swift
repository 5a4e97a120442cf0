import RouteFeeds
import RouteIngest
import RouteMileage
import Testing

/// Timeline files (JSON Lines) and their sidecar names; the content hash import uses.
@Suite("Timeline files")
struct ShiftTimelineFileTests {
  static func parse(_ text: String) throws(ShiftTimelineFile.Failure) -> ShiftTimeline {
    try ShiftTimelineFile.parse(Array(text.utf8), path: "day.timeline.jsonl")
  }

  @Test func readsOneEventALineWithBlankLinesAndExtraMembers() throws {
    let timeline = try Self.parse(
      """
      {"at": "2025-11-04T08:00:00Z", "event": "start"}

      {"event": "pause", "at": "2025-11-04T10:00:00Z", "note": "ignored"}\r
      {"at": "2025-11-04T10:20:00Z", "event": "resume"}
      {"at": "2025-11-04T11:00:00Z", "event": "park"}
      {"at": "2025-11-04T11:10:00Z", "event": "drive"}
      {"at": "2025-11-04T12:00:00Z", "event": "end"}
      """)
    let start = try #require(ISO8601Parser.timestamp("2025-11-04T08:00:00Z"))
    #expect(timeline.events.map(\.kind) == [.start, .pause, .resume, .park, .drive, .end])
    #expect(timeline.window == ShiftWindow(start: start, end: start + 4 * 3600))
    #expect(timeline.workingDuration(asOf: start + 4 * 3600) == 13_200)
    #expect(
      ShiftTimelineFile.text(timeline).split(separator: "\n").first
        == #"{"at": "2025-11-04T08:00:00Z", "event": "start"}"#)
    #expect(try Self.parse(ShiftTimelineFile.text(timeline)) == timeline)
  }

  @Test(arguments: [
    (
      "{\"at\": \"2025-11-04T08:00:00Z\", \"event\": \"start\"}\nnot json\n", 2,
      "line 2 is not one JSON object: invalid JSON: expected a value at byte offset 0"
    ),
    ("[1, 2]\n", 1, "must be a JSON object"),
    ("{\"event\": \"start\"}\n", 1, "no \"at\" time"),
    ("{\"at\": \"08:00\", \"event\": \"start\"}\n", 1, "ISO 8601"),
    ("{\"at\": \"2025-11-04T08:00:00Z\"}\n", 1, "no \"event\""),
    (
      "{\"at\": \"2025-11-04T08:00:00Z\", \"event\": \"start\"}\n{\"at\": \"2024-03-10 08:55\", \"event\": \"end\"}\n",
      2,
      "line 2: \"at\" time '2024-03-10 08:55' has no zone; write it in UTC with Z (2025-11-04T08:00:00Z) or with its offset (2025-11-04T09:00:00+01:00)"
    ),
    ("{\"at\": \"2025-11-04T08:00:00Z\", \"event\": \"lunch\"}\n", 1, "unknown event 'lunch'"),
  ])
  func malformedLinesNameFileLineAndRule(text: String, line: Int, words: String) {
    do {
      _ = try Self.parse(text)
      Issue.record("accepted a malformed timeline")
    } catch {
      #expect(error.line == line)
      #expect(error.description.hasPrefix("day.timeline.jsonl:\(line): "))
      #expect(error.description.contains(words), "\(error)")
    }
  }

  @Test func aRefusedEventNamesItsLineAndTheLineItCollidesWith() {
    do {
      _ = try Self.parse(
        """
        {"at": "2025-11-04T08:00:00Z", "event": "start"}
        {"at": "2025-11-04T10:00:00Z", "event": "pause"}
        {"at": "2025-11-04T10:05:00Z", "event": "park"}
        """)
      Issue.record("accepted park while paused")
    } catch {
      #expect(error.line == 3)
      #expect(
        error.description
          == "day.timeline.jsonl:3: the event on line 3 is refused: park while the shift is paused: a paused shift is never parked (it collides with the pause) at 2025-11-04T10:00:00Z on line 2"
      )
    }
  }

  @Test func anEmptyFileIsRefused() {
    #expect(throws: ShiftTimelineFile.Failure(path: "day.timeline.jsonl", line: nil, rule: .empty)) {
      _ = try Self.parse("\n\n")
    }
  }

  @Test(arguments: [
    ("drive.csv", "drive.timeline.jsonl"), ("data/drive.gpx", "data/drive.timeline.jsonl"),
    ("a.b/drive", "a.b/drive.timeline.jsonl"), ("dir/.hidden", "dir/.hidden.timeline.jsonl"),
    // A gzipped feed's sidecar is named from the feed inside.
    ("x/drive.gpx.gz", "x/drive.timeline.jsonl"), ("drive.CSV.GZ", "drive.timeline.jsonl"),
    ("x/drive.gz", "x/drive.timeline.jsonl"),
    ("x/.gz", "x/.gz.timeline.jsonl"),
  ])
  func sidecarNames(feed: String, sidecar: String) {
    #expect(ShiftTimelineFile.sidecarPath(forFeed: feed) == sidecar)
  }

  @Test func contentHashIsSHA256InAnyChunking() {
    var empty = ContentHash()
    empty.update([])
    #expect(empty.finalize() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    var abc = ContentHash()
    abc.update(Array("abc".utf8))
    #expect(abc.finalize() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    var whole = ContentHash()
    whole.update(long)
    #expect(whole.finalize() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    var pieces = ContentHash()
    for byte in long { pieces.update([byte]) }
    #expect(pieces.finalize() == whole.finalize())
    var million = ContentHash()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { million.update(chunk) }
    #expect(million.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
