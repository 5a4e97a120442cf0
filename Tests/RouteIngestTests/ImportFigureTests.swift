import Foundation
import RouteFeeds
import RouteMileage
import RouteStore
import RouteTestSupport
import Testing

@testable import RouteIngest

/// `import` prints the figure the ingest computed while it wrote the rows, instead of reading
/// the rows back and measuring them again: that is only right if the two are the same figure
/// bit for bit. These tests import many files every way an import can go (filter on and off, in
/// order and shuffled, cut off mid-row, with a window, several capture sessions, small batches,
/// overlapping recordings, a track chosen) and compare what the import reports with the one-pass
/// measurement of the stored rows, field by field and in its printed form (`-0.0`, NaN and every
/// last bit show there). With a timeline the two differ (positions inside a pause are counted by
/// the ingest and never stored), so that import still reads its rows back.
@Suite("import reports the figure of its stored rows")
struct ImportFigureTests {
  /// The stored shift's one-pass figure, with the two things `import` adds to any figure: where
  /// a cut-off feed stopped, and how many positions had no time.
  static func reread(_ imported: ImportedFeed, in store: RouteStore, settings: IngestSettings) throws -> RouteDistance {
    let shift = try #require(imported.shift)
    var distance = try store.measure(shift: shift, maximumSampleInterval: settings.maximumSampleInterval)
    let measurement = try #require(imported.input.measurement)
    if let failure = measurement.report.failure {
      distance.cutOff = RecordingCutOff(line: failure.line, byteOffset: failure.byteOffset)
    }
    distance.positionsWithoutTime = measurement.report.rejected[.missingTime] ?? 0
    return distance
  }

  /// Imports `text` (written to a file named `name`) into a fresh store and checks the figure
  /// `import` reports against the stored rows' own.
  static func check(
    _ text: String, name: String = "drive.csv", reading: FeedReading = FeedReading(), batchSize: Int = 4_096,
    timeline: String? = nil, _ label: String
  ) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-figure-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    var reading = reading
    if let timeline {
      let timelinePath = folder.appendingPathComponent("drive.timeline.jsonl").path
      try Data(timeline.utf8).write(to: URL(fileURLWithPath: timelinePath))
      reading.timelineSource = .file(timelinePath)
    }
    let storePath = folder.appendingPathComponent("store.sqlite").path
    let store = try RouteStore(path: storePath)
    let imported = try FeedImport.importFeed(
      path, into: store, storePath: storePath, reading: reading, batchSize: batchSize)
    let reported = try #require(imported.input.measurement?.distance, "\(label): nothing measured")
    let stored = try reread(imported, in: store, settings: reading.settings)
    #expect(reported == stored, "\(label)")
    #expect("\(reported)" == "\(stored)", "\(label)")
    #expect(reported.meters.bitPattern == stored.meters.bitPattern, "\(label)")
    #expect(reported.floorMeters.bitPattern == stored.floorMeters.bitPattern, "\(label)")
  }

  static func shuffled(_ rows: [TimeOrderTests.Row], seed: UInt64) -> [TimeOrderTests.Row] {
    var random = SeededRandom(seed: seed)
    return random.permuted(rows)
  }

  @Test("CSV drives, filter on and off, in order and shuffled, whole and cut off, small and large batches")
  func csvDrives() throws {
    for seed in UInt64(1)...4 {
      let rows = TimeOrderTests.drive(seed: seed, count: 300 + Int(seed) * 40)
      let orders = [("in order", rows), ("shuffled", Self.shuffled(rows, seed: seed))]
      for (order, rows) in orders {
        let whole = TimeOrderTests.csv(rows)
        // Cut off inside its last row: a truncated shift with the rows before it.
        let cut = String(whole.dropLast(9))
        for (cutting, text) in [("whole", whole), ("cut off", cut)] {
          for filter in [true, false] {
            let settings = filter ? IngestSettings() : IngestSettings(filter: nil)
            for batchSize in [7, 4_096] {
              try Self.check(
                text, reading: FeedReading(settings: settings), batchSize: batchSize,
                "seed \(seed), \(order), \(cutting), filter \(filter), batch \(batchSize)")
            }
          }
        }
      }
    }
  }

  @Test("A window: positions outside it and the gaps at its edges are the stored rows' too")
  func windowed() throws {
    let rows = TimeOrderTests.drive(seed: 11, count: 400)
    let first = rows.map(\.time).min() ?? 0
    let last = rows.map(\.time).max() ?? 0
    let windows = [ShiftWindow(start: first - 120, end: last + 120), ShiftWindow(start: first + 200, end: last - 200)]
    #expect(windows.compactMap(\.self).count == 2)
    for window in windows.compactMap(\.self) {
      for filter in [true, false] {
        var settings = filter ? IngestSettings() : IngestSettings(filter: nil)
        settings.window = window
        try Self.check(
          TimeOrderTests.csv(Self.shuffled(rows, seed: 3)), reading: FeedReading(settings: settings),
          "window \(window), filter \(filter)")
      }
    }
  }

  @Test("A phone export with positions without a time and unreadable rows")
  func damagedRows() throws {
    var text = TimeOrderTests.csv(TimeOrderTests.drive(seed: 21, count: 250))
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[40] = ",45.5,13.25,5,a"  // no time
    lines[90] = "garbage,row"
    lines[91] = lines[91].replacingOccurrences(of: ",", with: ";")
    text = lines.joined(separator: "\n")
    try Self.check(text, "damaged rows")
    try Self.check(text, reading: FeedReading(settings: IngestSettings(filter: nil)), "damaged rows, no filter")
  }

  /// Two GPX tracks recorded at the same time are two routes; the shift keeps the one chosen
  /// (`--track`), or the first.
  @Test("Overlapping GPX tracks, measured apart, one chosen")
  func overlappingTracks() throws {
    func track(offset: Double, step: Double, east: Bool) -> String {
      var text = "<trk><trkseg>\n"
      for index in 0..<80 {
        let distance = Double(index) * step
        let latitude = east ? 51.5 : 51.5 + distance / 111_195.0
        let longitude = east ? -0.1 + distance / 69_000.0 : -0.1
        let time = CivilTime.iso8601(1_764_403_200 + offset + Double(index) * 20)
        text += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(time)</time></trkpt>\n"
      }
      return text + "</trkseg></trk>\n"
    }
    let gpx =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\">\n"
      + track(offset: 0, step: 55, east: false) + track(offset: 10, step: 50, east: true) + "</gpx>\n"
    for choice in [nil, FeedRecording.track(1), .track(2)] {
      for filter in [true, false] {
        var settings = filter ? IngestSettings() : IngestSettings(filter: nil)
        settings.recordingChoice = choice
        try Self.check(
          gpx, name: "two.gpx", reading: FeedReading(settings: settings), "tracks, choice \(String(describing: choice))"
        )
      }
    }
  }

  /// With a timeline the ingest counts the positions inside a pause, which the store never
  /// holds: the import reads its rows back, and reports their figure.
  @Test("With a timeline, the stored rows' figure")
  func withATimeline() throws {
    let rows = TimeOrderTests.drive(seed: 31, count: 400)
    let first = rows.map(\.time).min() ?? 0
    let last = rows.map(\.time).max() ?? 0
    let timeline = [
      (first - 60, "start"), (first + 200, "pause"), (first + 400, "resume"), (last + 60, "end"),
    ].map { "{\"at\": \"\(CivilTime.iso8601($0.0))\", \"event\": \"\($0.1)\"}\n" }.joined()
    try Self.check(TimeOrderTests.csv(rows), timeline: timeline, "timeline")
  }
}
