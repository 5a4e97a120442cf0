import Foundation
import Testing

@testable import RouteSynthesis

/// The committed SampleRoutes files are exactly what the generator makes from its fixed seed,
/// and hold what SampleRoutes/README.md says they hold.
@Suite("SampleRoutes regenerate byte for byte")
struct SampleRoutesTests {
  static let routes = SampleRouteCatalog.routes()

  @Test("each committed file equals a fresh generation", arguments: routes.map(\.fileName))
  func committedFileMatches(fileName: String) throws {
    let route = try #require(Self.routes.first { $0.fileName == fileName })
    let url = SynthesisTestSupport.packageRoot.appendingPathComponent("SampleRoutes").appendingPathComponent(fileName)
    let committed = try [UInt8](Data(contentsOf: url))
    let fresh = route.bytes()
    #expect(committed.count == fresh.count)
    // Compared as a Bool so a failure prints a sentence, not two megabyte arrays.
    let identical = committed == fresh
    #expect(identical, "\(fileName) differs: run `swift run -c release GenerateSampleRoutes SampleRoutes`")
    let again = route.bytes() == fresh
    #expect(again)
    if let name = route.timelineFileName, let timeline = route.timelineBytes() {
      let sidecar = SynthesisTestSupport.packageRoot.appendingPathComponent("SampleRoutes").appendingPathComponent(name)
      let committedTimeline = try [UInt8](Data(contentsOf: sidecar))
      #expect(committedTimeline == timeline, "\(name) differs from a fresh generation")
    }
  }

  @Test("the folder stays small")
  func folderSize() {
    let total = Self.routes.map { $0.bytes().count }.reduce(0, +)
    // Raised from 5,000,000 for the seventh file (a three-hour shift with its timeline); the
    // eighth (stacked deliveries) is a fix every 10 s to stay under it.
    #expect(total < 5_300_000)
    #expect(Self.routes.allSatisfy { $0.bytes().count < 2_500_000 })
  }

  /// One file's ground truth. A fault count left out of a row is zero: most files are clean of
  /// most faults, and a row then names only what its drive really holds.
  struct Expected: Sendable, CustomTestStringConvertible {
    var file: String
    var records: Int
    var positions: Int
    var sessions: Int
    var gaps: Int = 0  // capture gaps
    var relaunches: Int = 0
    var pausedParks: Int = 0
    var noFix: Int = 0
    var wildJumps: Int = 0
    var spikes: Int = 0
    var duplicates: Int = 0
    var late: Int = 0
    var corrupted: Int = 0
    var midnight: Int = 0
    /// Whole metres: driven, while capturing.
    var driven: Int
    var captured: Int
    var testDescription: String { file }
  }

  /// The twelve-hour shift with gaps, written both as GPX and as NMEA: one drive, one truth.
  static func twelveHourShift(_ file: String) -> Expected {
    Expected(
      file: file, records: 7_982, positions: 7_970, sessions: 5, gaps: 2, relaunches: 1, pausedParks: 1, noFix: 12,
      wildJumps: 3, spikes: 17, driven: 326_488, captured: 305_385)
  }

  /// The ground truth SampleRoutes/README.md quotes.
  static let expected: [Expected] = [
    Expected(
      file: "clean-2h-drive.gpx", records: 7_201, positions: 7_201, sessions: 1, driven: 58_395, captured: 58_395),
    twelveHourShift("shift-12h-gaps.gpx"),
    twelveHourShift("shift-12h-gaps.nmea"),
    Expected(
      file: "legacy-no-session.csv", records: 4_441, positions: 4_441, sessions: 2, gaps: 1, driven: 44_384,
      captured: 38_907),
    Expected(
      file: "fix-loss-midnight.nmea", records: 3_301, positions: 3_116, sessions: 1, noFix: 185, corrupted: 1,
      midnight: 1,
      driven: 27_734, captured: 27_734),
    Expected(
      file: "messy-feed.csv", records: 4_067, positions: 4_067, sessions: 2, relaunches: 1, wildJumps: 6, spikes: 26,
      duplicates: 16, late: 14, driven: 36_037, captured: 34_790),
    Expected(
      file: "shift-timeline.csv", records: 2_161, positions: 2_161, sessions: 1, driven: 69_121, captured: 69_121),
    Expected(file: "shift-deliveries.csv", records: 901, positions: 901, sessions: 1, driven: 72_606, captured: 72_606),
  ]

  @Test("each file's ground truth is what the README says", arguments: expected)
  func groundTruth(_ expected: Expected) throws {
    let route = try #require(Self.routes.first { $0.fileName == expected.file })
    let facts = route.drive.facts()
    #expect(facts.records == expected.records)
    #expect(facts.positions == expected.positions)
    #expect(facts.sessions == expected.sessions)
    #expect(facts.captureGaps == expected.gaps)
    #expect(facts.relaunches == expected.relaunches)
    #expect(facts.pausedParks == expected.pausedParks)
    #expect(facts.noFixEpochs == expected.noFix)
    #expect(facts.wildJumps == expected.wildJumps)
    #expect(facts.accuracySpikes == expected.spikes)
    #expect(facts.duplicates == expected.duplicates)
    #expect(facts.lateArrivals == expected.late)
    #expect(facts.corruptedSentences == expected.corrupted)
    #expect(facts.midnightCrossings == expected.midnight)
    #expect(Int(facts.drivenMeters.rounded()) == expected.driven)
    #expect(Int(facts.capturedMeters.rounded()) == expected.captured)
  }
}
