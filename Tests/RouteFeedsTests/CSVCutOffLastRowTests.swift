import RouteMileage
import Testing

@testable import RouteFeeds

/// A CSV whose last line has no line end: whole when its row is as long as the row before it,
/// cut off when a column is missing or its last number has fewer decimals (`CSVRowShape`).
@Suite struct CSVCutOffLastRowTests {
  static let cutDetail =
    "its last line has no line end and is shorter than the row before it (a missing column or a number with fewer decimals), so the file looks cut off there"

  /// `rows` fixes a minute apart heading east, four decimals, each line ended.
  static func drive(rows: Int, header: String = "timestamp,latitude,longitude\n") -> String {
    var text = header
    for row in 0..<rows {
      let longitude = -0.1300 + Double(row) * 0.0030
      text += "2025-11-29T08:\(row < 10 ? "0" : "")\(row):00Z,51.5380,\(format(longitude))\n"
    }
    return text
  }

  static func format(_ value: Double) -> String {
    let scaled = Int((abs(value) * 10_000).rounded())
    let fraction = String(scaled % 10_000)
    return (value < 0 ? "-" : "") + "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
  }

  @Test func aLastRowCutInsideItsLongitudeIsNotMeasured() {
    let whole = Self.drive(rows: 20)
    // `…,51.5380,-0.0730` cut to `…,51.5380,-0.07`: readable, but two decimals short.
    let cut = String(whole.dropLast(3))
    #expect(cut.hasSuffix(",51.5380,-0.07"))
    let wholeFirst19 = CSVTestSupport.measure(Self.drive(rows: 19))
    for chunk in [1, 7, 64, 1 << 20] {
      let measured = CSVTestSupport.measure(Array(cut.utf8), chunkSize: chunk)
      #expect(measured.report.failure == .truncated(line: 21, detail: Self.cutDetail))
      #expect(measured.distance.cutOff == RecordingCutOff(line: 21))
      #expect(measured.distance.isPartial)
      #expect(measured.report.retained == 19)
      #expect(measured.report.errorReasons == [.csvCutOffRow: 1])
      #expect(measured.distance.meters == wholeFirst19.distance.meters)
    }
  }

  @Test func aLastRowMissingColumnsIsCutOff() {
    let whole = Self.drive(rows: 20)
    let cut = String(whole.dropLast(12))  // `…,51.5`: the longitude column is missing
    let measured = CSVTestSupport.measure(cut)
    #expect(measured.report.failure == .truncated(line: 21, detail: Self.cutDetail))
    #expect(measured.report.retained == 19)
  }

  @Test func aWholeLastRowWithoutALineEndStaysWhole() {
    let whole = Self.drive(rows: 20)
    for chunk in [1, 5, 1 << 20] {
      let measured = CSVTestSupport.measure(Array(whole.dropLast().utf8), chunkSize: chunk)
      #expect(measured.report.failure == nil)
      #expect(measured.report.retained == 20)
      #expect(measured.distance.meters == CSVTestSupport.measure(whole).distance.meters)
    }
    // More decimals than the row before, a trailing space, or a text last column: whole.
    #expect(CSVTestSupport.measure(whole + "2025-11-29T08:20:00Z,51.5380,-0.07301").report.failure == nil)
    let named = "timestamp,latitude,longitude,name\n2025-11-29T08:00:00Z,51.5380,-0.1300,Depot\n"
    #expect(CSVTestSupport.measure(named + "2025-11-29T08:01:00Z,51.5380,-0.1270,De").report.failure == nil)
    #expect(CSVTestSupport.measure(named + "2025-11-29T08:01:00Z,51.5380,-0.1270,Depot ").report.retained == 2)
  }

  @Test func theFirstDataRowIsJudgedAgainstTheHeader() {
    let header = "timestamp,latitude,longitude,horizontal_accuracy\n"
    let cut = CSVTestSupport.measure(header + "2025-11-29T08:00:00Z,51.5380,-0.13")
    #expect(cut.report.failure?.line == 2)
    #expect(cut.report.retained == 0)
    #expect(CSVTestSupport.measure(header + "2025-11-29T08:00:00Z,51.5380,-0.13,5").report.failure == nil)
  }

  @Test func aPhoneExportCutInItsLastRowIsCutOff() {
    let phone = PhoneExportCSVTests.phone
    // Cut inside the course column of the last row: the session column is missing.
    let trimmed = String(phone.drop(while: { _ in false }).dropLast(1))  // the final line end
    let cut = String(trimmed.dropLast(5))
    #expect(cut.hasSuffix(",11.60,6"))
    let measured = CSVTestSupport.measure(cut)
    #expect(measured.report.failure?.line == 11)
    #expect(measured.report.retained == 9)
    #expect(CSVTestSupport.measure(trimmed).report.failure == nil)
  }

  @Test func headerlessColumnsCutInTheLastRowAreCutOff() throws {
    let mapping = try CSVColumnMapping(parsing: "header=no,timestamp=1,latitude=2,longitude=3")
    let body = String(Self.drive(rows: 5).drop(while: { $0 != "\n" }).dropFirst())
    let cut = CSVTestSupport.measure(String(body.dropLast(3)), mapping: mapping)
    #expect(cut.report.failure == .truncated(line: 5, detail: Self.cutDetail))
    #expect(cut.report.retained == 4)
    #expect(CSVTestSupport.measure(String(body.dropLast()), mapping: mapping).report.failure == nil)
  }
}
