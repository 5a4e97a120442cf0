import Foundation
import RouteFeeds
import RouteMileage
import RouteStore
import RouteTestSupport
import Testing

/// Schema version 2: timelines and content hashes, and the migration from version 1.
@Suite("RouteStore: timelines (schema version 2)")
struct RouteStoreTimelineTests {
  typealias E = ShiftTimeline.Event
  /// A store written by main's build at 74b801e (schema version 1): shift 1 without a window,
  /// shift 2 with --shift-start 07:59 / --shift-end 08:30, 98 legacy rows each.
  static let version1 = "store/version1.sqlite"

  static func copyOfVersion1(to path: String) throws {
    try FileManager.default.copyItem(atPath: try Fixtures.path(Self.version1), toPath: path)
  }

  /// The fixture is the file its manifest row describes (Tests/Fixtures/MANIFEST.tsv).
  @Test func theVersion1FixtureMatchesItsManifestRow() throws {
    let manifest = String(decoding: try Fixtures.bytes("MANIFEST.tsv"), as: UTF8.self)
    let row = try #require(manifest.split(separator: "\n").first { $0.hasPrefix(Self.version1 + "\t") })
    var hash = ContentHash()
    hash.update(try Fixtures.bytes(Self.version1))
    #expect(row.split(separator: "\t").last.map(String.init) == hash.finalize())
  }

  @Test func aVersion1StoreIsMigratedAndKeepsEveryShiftAndFigure() throws {
    try withTemporaryStorePath { path in
      try Self.copyOfVersion1(to: path)
      // Read as it is first (read-only never migrates): figures of the version-1 build.
      let before = try RouteStore(path: path, access: .readOnly)
      #expect(before.openedSchemaVersion == 1)
      let oldShifts = try before.shifts()
      let oldFigures = try oldShifts.map { try before.measure($0) }
      #expect(oldShifts.count == 2)
      #expect(oldShifts.allSatisfy { $0.timeline == nil && $0.contentHash == nil })

      let store = try RouteStore(path: path)
      #expect(store.openedSchemaVersion == RouteStore.schemaVersion)
      #expect(try store.database.userVersion() == RouteStore.schemaVersion)
      #expect(try store.integrityCheck())
      let shifts = try store.shifts()
      #expect(shifts.map(\.id) == oldShifts.map(\.id))
      #expect(shifts.map(\.sampleCount) == [98, 98])
      #expect(try shifts.map { try store.measure($0) } == oldFigures)
      #expect(shifts.map(\.hasEnded) == [false, true], "no window is never ended")
      // Version 2's columns, added to the old table; the old shifts were read to their end.
      let columns = try store.database.texts("SELECT name FROM pragma_table_info('shifts')")
      #expect(columns.contains("content_hash") && columns.contains("stopped_reading"))
      #expect(shifts.allSatisfy { $0.stoppedReading == nil && !$0.isTruncated && $0.cutOff == nil })

      // Version 2 works on the migrated file.
      let timeline = try ShiftTimeline([E(.start, at: 1_762_243_200), E(.end, at: 1_762_243_200 + 3600)])
      try store.setTimeline(timeline, of: ShiftID(1))
      try store.setContentHash("abc", of: ShiftID(1))
      let updated = try #require(try store.shift(ShiftID(1)))
      #expect(updated.timeline == timeline)
      #expect(updated.window == timeline.window)
      #expect(updated.hasEnded)
      #expect(try store.completeShift(withContentHash: "abc") == ShiftID(1))
    }
  }

  @Test func aShiftIsMeasuredWithItsStoredTimeline() throws {
    let store = try RouteStore.inMemory()
    let t0 = 1_700_000_000.0
    let timeline = try ShiftTimeline([
      E(.start, at: t0), E(.pause, at: t0 + 100), E(.resume, at: t0 + 200), E(.end, at: t0 + 300),
    ])
    var writer = try store.beginImport(
      source: "a.csv", timeline: timeline, window: nil, contentHash: "h1", importedAt: t0)
    let samples = (0...60).map { i in
      RouteSample(
        timestamp: t0 + Double(i) * 5, latitude: 51.5 + Double(i) * 0.0001, longitude: -0.12,
        captureSession: CaptureSessionID(i * 5 <= 100 ? 1 : 2))
    }
    for sample in samples where !(sample.timestamp > t0 + 100 && sample.timestamp < t0 + 200) { writer.retain(sample) }
    try writer.finish()
    let record = try #require(try store.shift(writer.shift))
    #expect(record.timeline == timeline)
    #expect(record.start == t0)
    #expect(record.end == t0 + 300)
    #expect(record.contentHash == "h1")
    let distance = try store.measure(record)
    #expect(distance.gaps.map(\.kind) == [.pause])
    #expect(
      distance == RouteMileageCalculator().distance(of: samples.map(\.position), timeline: timeline).withoutPauseCounts)
    #expect(try store.completeShift(withContentHash: "h1") == writer.shift)
    #expect(try store.completeShift(withContentHash: "h2") == nil)
  }

  @Test func anInterruptedImportIsNotADuplicate() throws {
    let store = try RouteStore.inMemory()
    let writer = try store.beginImport(source: "a.csv", timeline: nil, window: nil, contentHash: "h", importedAt: 0)
    #expect(try store.completeShift(withContentHash: "h") == nil)
    var finished = writer
    try finished.finish()
    #expect(try store.completeShift(withContentHash: "h") == writer.shift)
  }

  @Test func deletingAShiftDeletesItsTimeline() throws {
    let store = try RouteStore.inMemory()
    let shift = try store.createShift(start: 0, end: nil, source: "x", importedAt: 0, status: .complete)
    try store.setTimeline(try ShiftTimeline([E(.start, at: 0), E(.end, at: 10)]), of: shift)
    try store.deleteShift(shift)
    #expect(try store.database.integer("SELECT count(*) FROM shift_events") == 0)
  }
}

extension RouteDistance {
  /// The same figure without the positions the store never held (inside a pause).
  fileprivate var withoutPauseCounts: RouteDistance {
    var copy = self
    copy.positionsInsidePause = 0
    copy.positionsWhileParked = 0
    return copy
  }
}
