import Foundation
import Testing

/// The batch table's status words and miles columns come from RouteQuality, and a stored
/// shift is labelled `store`, never `csv` (issue 17, items 2 and 4).
@Suite("batch: RouteQuality's words in the table")
struct BatchWordsTests {
  @Test func aMeasuredRouteUnderATenthOfAMileReadsUnderNotZero() throws {
    // Six fixes 10 m apart: 50 m, 0.03 mi.
    try CLITestSupport.withFeed(StoreCommandTests.drive(count: 6), named: "short.csv") { directory, feed in
      let measured = try CLITestSupport.jsonLines(CLITestSupport.run(["measure", "--json", feed]).output)[0]
      #expect(measured["summary"] as? String == "under 0.1 mi recorded")
      let table = CLITestSupport.run(["batch", feed])
      #expect(table.status == 0)
      let row = table.output.split(separator: "\n")[1]
      // The delivery columns are `-` for a shift whose timeline recorded no delivery.
      #expect(
        row.hasPrefix(
          "    <0.1       0.0         1     0          6         0           0          -          -            -                -  measured      "
        ))
    }
  }

  @Test func aStoredShiftIsLabelledStoreInTheCSVFormatColumn() throws {
    try CLITestSupport.withFeed(StoreCommandTests.drive(count: 60), named: "drive.csv") { directory, feed in
      let store = CLITestSupport.importedStore(feed, named: "shifts.sqlite", in: directory)
      let fromFile = CLITestSupport.run(["batch", "--format", "csv", feed]).output.split(separator: "\n")
      #expect(fromFile[1].split(separator: ",")[1] == "csv")
      let stored = CLITestSupport.run(["batch", "--format", "csv", "--store", store]).output.split(separator: "\n")
      #expect(stored[1].split(separator: ",")[1] == "store")
      let json = try CLITestSupport.jsonLines(
        CLITestSupport.run(["batch", "--format", "jsonl", "--store", store]).output)[0]
      #expect(json["format"] as? String == "store")
    }
  }
}
