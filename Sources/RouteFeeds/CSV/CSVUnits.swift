/// The one table of units a CSV feed may state, by what they measure, with the factor to the
/// base unit (metres, metres per second, degrees).
///
/// A unit may stand in a column's name (`speed_kmh`, `Altitude (ft)`: `CSVHeaderNames`) or after
/// a number in a cell (`374.8 m`, `0.865 km/h`: `CSVValues`); both read this table, so a unit
/// one accepts the other accepts too. Names match without regard to ASCII case.
enum CSVUnits {
  typealias Table = [(name: StaticString, scale: Double)]

  static let distance: Table = [
    ("m", 1), ("meter", 1), ("meters", 1), ("metre", 1), ("metres", 1), ("ft", 0.3048), ("feet", 0.3048),
    ("km", 1000),
  ]
  /// `ms` is metres per second here (`speed_ms`), never milliseconds: a speed has no time unit.
  static let speed: Table = [
    ("m/s", 1), ("mps", 1), ("ms", 1), ("km/h", 1 / 3.6), ("kmh", 1 / 3.6), ("kph", 1 / 3.6), ("kmph", 1 / 3.6),
    ("mph", 0.44704), ("kn", 1852.0 / 3600), ("kt", 1852.0 / 3600), ("kts", 1852.0 / 3600),
    ("knots", 1852.0 / 3600), ("knot", 1852.0 / 3600),
  ]
  static let angle: Table = [("deg", 1), ("degrees", 1), ("°", 1)]

  /// A table keyed by name, for lookups of a (lower-cased) header suffix.
  static func byName(_ table: Table) -> [String: Double] {
    Dictionary(uniqueKeysWithValues: table.map { ("\($0.name)", $0.scale) })
  }
}
