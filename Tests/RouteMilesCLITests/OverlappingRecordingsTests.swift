import Foundation
import RouteMileage
import RouteTestSupport
import Testing

/// Two recordings of overlapping time are two routes (DESIGN, "Stops and overlapping
/// recordings"): GPX tracks, Takeout devices and OwnTracks trackers, chosen with `--track` and
/// `--device`, through `measure`, `batch` and `import`.
@Suite("Overlapping recordings")
struct OverlappingRecordingsTests {
  static let start = 1_764_403_200.0
  static let metersPerDegree = 111_195.079_734_63

  /// A fix every 60 s from `start + offset`, `count` of them, `meters` apart going north (or
  /// east along latitude 51.5 when `east`).
  static func fixes(count: Int = 60, offset: Double, meters: Double, east: Bool = false) -> [(Double, Double, Double)] {
    (0..<count).map { index in
      let distance = Double(index) * meters
      let latitude = east ? 51.5 : 51.5 + distance / metersPerDegree
      let longitude = east ? -0.1 + distance / (metersPerDegree * cos(51.5 * .pi / 180)) : -0.1
      return (start + offset + Double(index) * 60, latitude, longitude)
    }
  }

  static func gpx(_ tracks: [[(Double, Double, Double)]]) -> String {
    var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\">\n"
    for track in tracks {
      text += "<trk><trkseg>\n"
      for (time, latitude, longitude) in track {
        text += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(CivilTime.iso8601(time))</time></trkpt>\n"
      }
      text += "</trkseg></trk>\n"
    }
    return text + "</gpx>\n"
  }

  /// The file: two tracks of 60 fixes at 60 s, the second 30 s after the first; 55 m
  /// and 50 m per step.
  static let twoTracks = gpx([Self.fixes(offset: 0, meters: 55), Self.fixes(offset: 30, meters: 50, east: true)])

  static func run(_ arguments: [String], file text: String, name: String) throws -> (
    CLITestSupport.ProcessResultLike, [String: Any]?
  ) {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try CLITestSupport.write(text, to: name, in: directory)
    let human = CLITestSupport.run(arguments + [path])
    let json = CLITestSupport.run(arguments + ["--json", path])
    let object = try? CLITestSupport.jsonLines(json.output).first
    return (
      CLITestSupport.ProcessResultLike(status: human.status, output: human.output, error: human.error), object ?? nil
    )
  }

  @Test func twoGPXTracksRecordedAtTheSameTimeAreTwoRoutes() throws {
    let (result, json) = try Self.run(["measure", "--explain"], file: Self.twoTracks, name: "two.gpx")
    #expect(result.status == 0)
    #expect(result.output.contains("  2.0 mi recorded\n"))
    #expect(result.output.contains("  No capture gaps detected.\n"))
    #expect(
      result.output.contains(
        "  This file holds 2 recordings that overlap in time: they are measured apart, never added into one figure. "
          + "The figure is track 1's (the one covering the most time); choose another with --track N.\n"))
    #expect(
      result.output.contains(
        "    track 1 (the figure): 2.0 mi recorded, 60 positions, 2025-11-29T08:00:00Z → 2025-11-29T08:59:00Z (59m 00s).\n"
      ))
    #expect(
      result.output.contains(
        "    track 2: 1.8 mi recorded, 60 positions, 2025-11-29T08:00:30Z → 2025-11-29T08:59:30Z (59m 00s).\n"))
    #expect(result.output.contains("Read 120 records (GPX): 60 retained, 60 rejected (other recording 60)."))
    let object = try #require(json)
    #expect((object["meters"] as? Double).map { $0.rounded() } == 3_245)
    #expect(object["recordingsOverlap"] as? Bool == true)
    let recordings = try #require(object["recordings"] as? [[String: Any]])
    #expect(recordings.map { $0["label"] as? String } == ["track 1", "track 2"])
    #expect(recordings.map { $0["track"] as? Int } == [1, 2])
    #expect(recordings.map { $0["chosen"] as? Bool } == [true, false])
    #expect(recordings.map { $0["positions"] as? Int } == [60, 60])
    #expect(recordings.map { ($0["meters"] as? Double).map { $0.rounded() } } == [3_245, 2_950])
    #expect(recordings[1]["first"] as? String == "2025-11-29T08:00:30Z")
  }

  @Test func trackChoosesTheOtherAndAMissingTrackIsAnError() throws {
    let (chosen, json) = try Self.run(["measure", "--track", "2"], file: Self.twoTracks, name: "two.gpx")
    #expect(chosen.status == 0)
    #expect(chosen.output.contains("  1.8 mi recorded\n"))
    #expect(chosen.output.contains("The figure is track 2's (as chosen); choose another with --track N."))
    #expect((json?["meters"] as? Double).map { $0.rounded() } == 2_950)

    let (missing, _) = try Self.run(["measure", "--track", "3"], file: Self.twoTracks, name: "two.gpx")
    #expect(missing.status == 1)
    #expect(missing.error.contains("two.gpx: the feed holds no track 3: its recordings are track 1, track 2"))

    let both = CLITestSupport.run(["measure", "--track", "1", "--device", "a", "x.gpx"])
    #expect(both.status == 64)
    #expect(both.error.contains("--track and --device each choose one recording: give one of them"))
    let zero = CLITestSupport.run(["measure", "--track", "0", "x.gpx"])
    #expect(zero.status == 64)
    #expect(zero.error.contains("option '--track' needs a track number (1, 2, …), not '0'"))
    let replay = CLITestSupport.run(["replay", "--track", "1", "x.gpx"])
    #expect(replay.status == 64)
    #expect(
      replay.error.contains(
        "replay plays a feed as one live device; --track and --device are for measure, batch, import and pipe"))
  }

  @Test func theRecordingCoveringTheMostTimeIsTheFigure() throws {
    let longer = Self.gpx([
      Self.fixes(offset: 0, meters: 55), Self.fixes(count: 70, offset: 30, meters: 50, east: true),
    ])
    let (result, json) = try Self.run(["measure"], file: longer, name: "longer.gpx")
    #expect(result.output.contains("The figure is track 2's (the one covering the most time)"))
    #expect((json?["meters"] as? Double).map { $0.rounded() } == 3_450)
  }

  @Test func tracksOneAfterAnotherAreOneRouteAsBefore() throws {
    // The second track starts 60 s after the first ends (and one that overlaps by 60 s, a
    // clock's step, is no overlap either): measured as one route with a session change.
    // Where they touch, the walk meets the second track's fixes between the first one's last
    // three, so two of its 55 m steps cross session changes and are not counted, as ever.
    for (offset, meters) in [(3_600.0, 3_245.0 + 2_950), (3_480, 3_245 + 2_950 - 2 * 55)] {
      let sequential = Self.gpx([Self.fixes(offset: 0, meters: 55), Self.fixes(offset: offset, meters: 50)])
      let (result, json) = try Self.run(["measure"], file: sequential, name: "day.gpx")
      #expect(result.output.contains(" mi recorded · partial route\n"))
      #expect(!result.output.contains("recordings"))
      #expect(!result.output.contains("other recording"))
      #expect((json?["recordings"] as? [Any])?.isEmpty == true)
      #expect(json?["recordingsOverlap"] as? Bool == false)
      #expect((json?["meters"] as? Double).map { $0.rounded() } == meters)
    }
  }

  static func takeout(_ devices: [(tag: Int, fixes: [(Double, Double, Double)])]) -> String {
    var records: [String] = []
    for (tag, fixes) in devices {
      for (time, latitude, longitude) in fixes {
        records.append(
          "{\"latitudeE7\": \(Int((latitude * 1e7).rounded())), \"longitudeE7\": \(Int((longitude * 1e7).rounded())), "
            + "\"accuracy\": 5, \"deviceTag\": \(tag), \"timestamp\": \"\(CivilTime.iso8601(time))\"}")
      }
    }
    return "{\"locations\": [\n" + records.joined(separator: ",\n") + "\n]}\n"
  }

  @Test func twoTakeoutDevicesAreTwoRoutesInAnyOrder() throws {
    let devices = [
      (tag: 11, fixes: Self.fixes(offset: 0, meters: 55)),
      (tag: -7, fixes: Self.fixes(offset: 30, meters: 50, east: true)),
    ]
    let (result, json) = try Self.run(["measure"], file: Self.takeout(devices), name: "Records.json")
    #expect(result.output.contains("  2.0 mi recorded\n"))
    #expect(
      result.output.contains(
        "The figure is device 11's (the one covering the most time); choose another with --device ID."))
    #expect(result.output.contains("    device -7: 1.8 mi recorded, 60 positions."))
    let meters = try #require(json?["meters"] as? Double)

    // The same records interleaved by time: the same figure.
    let interleaved = zip(devices[0].fixes, devices[1].fixes).flatMap { [(11, $0), (-7, $1)] }
    var text = "{\"locations\": [\n"
    text += interleaved.map { tag, fix in
      "{\"latitudeE7\": \(Int((fix.1 * 1e7).rounded())), \"longitudeE7\": \(Int((fix.2 * 1e7).rounded())), \"accuracy\": 5, \"deviceTag\": \(tag), \"timestamp\": \"\(CivilTime.iso8601(fix.0))\"}"
    }.joined(separator: ",\n")
    text += "\n]}\n"
    let (_, again) = try Self.run(["measure"], file: text, name: "Records.json")
    #expect(again?["meters"] as? Double == meters)

    let (chosen, chosenJSON) = try Self.run(
      ["measure", "--device", "-7"], file: Self.takeout(devices), name: "Records.json")
    #expect(chosen.output.contains("  1.8 mi recorded\n"))
    #expect((chosenJSON?["meters"] as? Double).map { $0.rounded() } == 2_950)
  }

  @Test func twoPhonesAndAnUntaggedFixAreThreeRecordings() throws {
    let result = CLITestSupport.run(["measure", try Fixtures.path("takeout/records-two-phones.json")])
    #expect(
      result.output.contains(
        "  This file holds 3 recordings, some of them overlapping in time: they are measured apart, never added into one figure. "
          + "The figure is device 1234567890's (the one covering the most time); choose another with --device ID.\n"))
    #expect(result.output.contains("    device -987654321: 1.9 mi recorded, 12 positions.\n"))
    #expect(result.output.contains("    unnamed recording: No route recorded, 1 position.\n"))
  }

  static func ownTracks(_ trackers: [(tid: String, fixes: [(Double, Double, Double)])]) -> String {
    var lines: [(Double, String)] = []
    for (tid, fixes) in trackers {
      for (time, latitude, longitude) in fixes {
        lines.append(
          (
            time,
            "\(CivilTime.iso8601(time))\t*                 \t{\"_type\":\"location\",\"tid\":\"\(tid)\",\"acc\":5,\"tst\":\(Int(time)),\"lat\":\(latitude),\"lon\":\(longitude)}\n"
          ))
      }
    }
    return lines.sorted { $0.0 < $1.0 }.map(\.1).joined()
  }

  @Test func twoOwnTracksTrackersAreTwoRoutes() throws {
    let text = Self.ownTracks([
      ("AA", Self.fixes(offset: 0, meters: 55)), ("BB", Self.fixes(offset: 30, meters: 50, east: true)),
    ])
    let (result, json) = try Self.run(["measure"], file: text, name: "phone.rec")
    #expect(result.status == 0)
    #expect(result.output.contains("  2.0 mi recorded\n"))
    #expect(result.output.contains("  No capture gaps detected.\n"))
    #expect(
      result.output.contains(
        "The figure is device AA's (the one covering the most time); choose another with --device ID."))
    #expect((json?["meters"] as? Double).map { $0.rounded() } == 3_245)
    let (chosen, _) = try Self.run(["measure", "--device", "BB"], file: text, name: "phone.rec")
    #expect(chosen.output.contains("  1.8 mi recorded\n"))
  }

  @Test func withoutTheFilterTheRecordingsAreMeasuredApartToo() throws {
    let (result, json) = try Self.run(["measure", "--no-filter"], file: Self.twoTracks, name: "two.gpx")
    #expect(result.output.contains("  2.0 mi recorded\n"))
    #expect(result.output.contains("Read 120 records (GPX): 60 retained, 60 rejected (other recording 60)."))
    #expect((json?["recordings"] as? [[String: Any]])?.count == 2)
  }

  @Test func batchAndImportFollowTheSameRule() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try CLITestSupport.write(Self.twoTracks, to: "two.gpx", in: directory)
    let batch = CLITestSupport.run(["batch", "--format", "jsonl", path])
    #expect(batch.status == 0)
    let line = try #require(try CLITestSupport.jsonLines(batch.output).first)
    #expect((line["meters"] as? Double).map { $0.rounded() } == 3_245)

    let store = directory.appendingPathComponent("shifts.sqlite").path
    let imported = CLITestSupport.run(["import", "--store", store, "--track", "2", path])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(
      imported.output.contains(
        "  Stored track 2 only (the file's recordings overlap in time); import another with --track N.\n"))
    // The other track of the same file is not a duplicate of the first import.
    let other = CLITestSupport.run(["import", "--store", store, path])
    #expect(
      other.output.contains(
        "  Stored track 1 only (the file's recordings overlap in time); import another with --track N.\n"))
    let again = CLITestSupport.run(["import", "--store", store, "--track", "1", path])
    #expect(again.output.contains("skipped"))
    let shifts = CLITestSupport.run(["batch", "--format", "jsonl", "--store", store])
    let stored = try CLITestSupport.jsonLines(shifts.output)
    // The store holds each chosen recording only: measured again, its own figure.
    #expect(stored.map { ($0["meters"] as? Double).map { $0.rounded() } } == [2_950, 3_245])
    #expect(stored.map { $0["summary"] as? String } == ["1.8 mi recorded", "2.0 mi recorded"])
  }
}

extension CLITestSupport {
  struct ProcessResultLike {
    var status: Int32
    var output: String
    var error: String
  }
}
