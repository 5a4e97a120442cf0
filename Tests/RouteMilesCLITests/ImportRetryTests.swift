import Foundation
import RouteMileage
import RouteStore
import Testing

/// `import` when nothing could be kept, and the retry of an interrupted import.
@Suite("routemiles import: failed and interrupted imports, and their retries")
struct ImportRetryTests {
  /// GGA sentences only: times of day, no date.
  static func ggaOnly(_ count: Int) -> String {
    (0..<count).map { index in
      let body =
        "GPGGA,1000\(String(format: "%02d", index)).00,47\(String(format: "%.4f", 22.0 + Double(index) * 0.01)),N,00833.0000,E,1,08,0.9,10.0,M,0.0,M,,"
      return "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
    }.joined()
  }

  @Test func anImportThatKeepsNothingStoresNothingAndTheCorrectedRetryLands() throws {
    try CLITestSupport.withFeed(Self.ggaOnly(30), named: "gga.nmea") { directory, feed in
      let store = directory.appendingPathComponent("s.sqlite").path
      let failed = CLITestSupport.run(["import", "--store", store, feed])
      #expect(failed.status == 1)
      #expect(failed.output.hasPrefix("\(feed): not imported; nothing was stored\n"))
      #expect(failed.error.contains("pass --date YYYY-MM-DD"))
      #expect(try RouteStore(path: store).shifts().isEmpty)

      let empty = try CLITestSupport.write("", to: "empty.csv", in: directory)
      let none = CLITestSupport.run(["import", "--store", store, empty])
      #expect(none.status == 1)
      #expect(none.output.hasPrefix("\(empty): not imported; nothing was stored\n"))
      #expect(try RouteStore(path: store).shifts().isEmpty)

      // The advised retry is not a duplicate of anything.
      let retry = CLITestSupport.run(["import", "--store", store, "--date", "2024-05-01", feed])
      #expect(retry.status == 0, "\(retry.error)")
      #expect(retry.output.hasPrefix("\(feed) → shift 1\n"))
      #expect(try RouteStore(path: store).shifts().map(\.sampleCount) == [30])
    }
  }

  /// A store holding `feed` imported whole as shift 1 and, as shift 2, an interrupted import of
  /// it that committed its first `kept` rows: what Ctrl-C leaves.
  static func storeWithInterruptedImport(_ feed: String, kept: Int, in directory: URL) throws -> (
    path: String, whole: Int
  ) {
    let reference = CLITestSupport.importedStore(feed, named: "reference.sqlite", in: directory)
    var samples: [RouteSample] = []
    try RouteStore(path: reference).forEachSample(of: ShiftID(1)) { samples.append($0) }
    let path = directory.appendingPathComponent("s.sqlite").path
    let store = try RouteStore(path: path)
    let interrupted = try store.createShift(
      start: samples[0].timestamp, end: nil, source: feed, importedAt: 0, status: .importing)
    try store.appendSamples(samples.prefix(kept), to: interrupted)
    return (path, samples.count)
  }

  @Test func theRetryOfAnInterruptedImportReplacesItInsteadOfCountingTheDriveTwice() throws {
    try CLITestSupport.withFeed(IntegrityCommandTests.csv(rows: 3_000), named: "drive.csv") { directory, feed in
      let (store, whole) = try Self.storeWithInterruptedImport(feed, kept: 1_000, in: directory)
      #expect(try RouteStore(path: store).shifts().map(\.status) == [.importing])

      let retry = CLITestSupport.run(["import", "--store", store, feed])
      #expect(retry.status == 0, "\(retry.error)")
      #expect(retry.output.hasPrefix("\(feed) → shift 2 (replaces interrupted shift 1)\n"))
      let shifts = try RouteStore(path: store).shifts()
      #expect(shifts.map(\.id) == [ShiftID(2)])
      #expect(shifts.map(\.sampleCount) == [whole])
      let batch = CLITestSupport.run(["batch", "--store", store])
      #expect(batch.status == 0)
      #expect(batch.output.contains("1 shift: 1 measured (0 partial), 0 unmeasurable, 0 failed"))

      // Done again, it is a duplicate of the finished shift, and nothing is left beside it.
      let again = CLITestSupport.run(["import", "--store", store, "--json", feed])
      #expect(again.output == "{\"source\":\"\(feed)\",\"skipped\":true,\"duplicateOf\":2}\n")
    }
  }

  @Test func aDuplicateRetryRemovesTheInterruptedCopyAndADifferentOneIsKeptAndNamed() throws {
    try CLITestSupport.withFeed(IntegrityCommandTests.csv(rows: 3_000), named: "drive.csv") { directory, feed in
      let (store, _) = try Self.storeWithInterruptedImport(feed, kept: 500, in: directory)
      // Shift 2: the whole file, imported beside the interrupted copy on purpose.
      #expect(CLITestSupport.run(["import", "--store", store, "--allow-duplicate", feed]).status == 0)
      #expect(try RouteStore(path: store).shifts().map(\.status) == [.importing, .complete])
      let duplicate = CLITestSupport.run(["import", "--store", store, feed])
      #expect(duplicate.status == 0)
      #expect(
        duplicate.output
          == "\(feed): already stored as shift 2 (same content); skipped. Use --allow-duplicate to import it again.\n")
      #expect(
        duplicate.error == "routemiles: \(feed): removed interrupted shift 1, an unfinished import of the same file\n")
      #expect(try RouteStore(path: store).shifts().map(\.id) == [ShiftID(2)])

      // Another file at the same path: its interrupted shift is not a copy of this one.
      let other = try RouteStore(path: store)
      let foreign = try other.createShift(start: 0, end: nil, source: feed, importedAt: 0, status: .importing)
      try other.appendSamples(
        [RouteSample(timestamp: 100, latitude: 10, longitude: 10, horizontalAccuracy: 5)], to: foreign)
      // --allow-duplicate keeps every copy and compares none.
      let kept = CLITestSupport.run(["import", "--store", store, "--allow-duplicate", feed])
      #expect(kept.status == 0)
      #expect(kept.error == "")
      #expect(try RouteStore(path: store).shifts().map(\.id) == [ShiftID(2), ShiftID(3), ShiftID(4)])
      let plain = CLITestSupport.run(["import", "--store", store, feed])
      #expect(plain.status == 0)
      #expect(
        plain.error
          == "routemiles: \(feed): shift 3, an interrupted import of this path, holds rows this import does not, so it was kept; if it is the same drive, delete it with `routemiles shifts --store \(store) --delete 3`\n"
      )
      #expect(try RouteStore(path: store).shifts().map(\.id).contains(ShiftID(3)))
    }
  }
}
