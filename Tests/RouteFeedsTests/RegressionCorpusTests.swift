import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// Replays every file of the regression corpus (`Tests/Fuzz/RegressionCorpus/{gpx,nmea,csv,columns,tcx,kml,fit,gzip,kmz,owntracks,geojson,json,takeout}/`:
/// minimised fuzzer crashers and other inputs the fuzzers found interesting) through the same
/// invariant checks the libFuzzer harnesses run (`FeedInvariants`), on every `swift test`.
/// (It lives beside the harnesses, outside this target's folder, so SwiftPM does not treat the
/// files as unhandled resources.)
@Suite struct RegressionCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/RegressionCorpus")

  struct Entry: CustomTestStringConvertible, Sendable {
    var harness: String
    var name: String
    var testDescription: String { "\(harness)/\(name)" }
  }

  static let entries: [Entry] = FeedInvariants.Harness.allCases.flatMap { harness in
    let directory = folder.appendingPathComponent(harness.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { Entry(harness: harness.rawValue, name: $0) }
  }

  @Test func everyHarnessHasACorpus() {
    for harness in FeedInvariants.Harness.allCases {
      let count = Self.entries.filter { $0.harness == harness.rawValue }.count
      #expect(count >= 10, "\(harness.rawValue): \(count) files")
    }
  }

  @Test(arguments: entries)
  func replay(_ entry: Entry) throws {
    let harness = try #require(FeedInvariants.Harness(rawValue: entry.harness))
    let url = Self.folder.appendingPathComponent(entry.harness).appendingPathComponent(entry.name)
    let bytes = Array(try Data(contentsOf: url))
    #expect(bytes.count < 64 << 10, "corpus files stay small")
    let problems = FeedInvariants.violations(of: bytes, harness: harness)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The checks themselves: a doctored measurement is caught, and so is a chunked read that
  /// differs from the whole one.
  @Test func theChecksCatchABrokenMeasurement() {
    var source = MemoryByteSource("timestamp,lat,lon\n2025-11-29T08:00:00Z,37.7749,-122.4194\n")
    let good = FeedIngest.measure(&source)
    #expect(FeedInvariants.check(good, label: "good").isEmpty)
    var unbalanced = good
    unbalanced.report.records += 1
    #expect(FeedInvariants.check(unbalanced, label: "x").first?.contains("unbalanced") == true)
    var negative = good
    negative.distance.meters = -1
    #expect(FeedInvariants.check(negative, label: "x").contains("x: metres are -1.0"))
    var infinite = good
    infinite.distance.meters = .infinity
    #expect(!FeedInvariants.check(infinite, label: "x").isEmpty)
    #expect(MeasurementDifference.difference(good, unbalanced) == "records 1 vs 2")
  }
}
