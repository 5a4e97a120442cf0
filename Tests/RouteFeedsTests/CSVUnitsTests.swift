import Testing

@testable import RouteFeeds

/// One table of units for CSV names and cells (issue 17, item 3): whatever a column's name may
/// say, a cell may say too, with the same factor.
@Suite("CSVUnits: one table for names and cells")
struct CSVUnitsTests {
  static func cell(_ text: String, _ kind: CSVValues.UnitKind) -> Double? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer {
      CSVValues.measure(UnsafeBufferPointer($0), kind, scale: 1, decimalComma: false)
    }
  }

  @Test func everyUnitANameMayCarryACellMayCarryWithTheSameFactor() {
    for (table, kind) in [
      (CSVUnits.distance, CSVValues.UnitKind.distance), (CSVUnits.speed, .speed), (CSVUnits.angle, .angle),
    ] {
      for unit in table {
        #expect(Self.cell("10 \(unit.name)", kind) == 10 * unit.scale, "\(unit.name)")
      }
    }
    for unit in CSVUnits.speed where !"\(unit.name)".contains("/") {
      #expect(CSVHeaderNames.meaning(of: "speed_\(unit.name)")?.scale == unit.scale, "speed_\(unit.name)")
    }
    for unit in CSVUnits.distance {
      #expect(CSVHeaderNames.meaning(of: "altitude (\(unit.name))")?.scale == unit.scale, "altitude (\(unit.name))")
    }
  }

  @Test func theUnitsTheTwoTablesUsedToDisagreeOn() {
    #expect(Self.cell("10 knot", .speed) == 10 * 1852.0 / 3600)
    #expect(Self.cell("10 ms", .speed) == 10)
    #expect(Self.cell("10 furlongs", .distance) == nil)
  }
}
