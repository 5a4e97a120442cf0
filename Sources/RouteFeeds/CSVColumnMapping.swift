/// An explicit assignment of CSV columns to sample fields, for layouts the header matcher does
/// not recognise. Written on the command line as `field=column,...`, where a column is a header
/// name or a 1-based index: `--columns timestamp=GPS Time,latitude=3,longitude=4`.
public struct CSVColumnMapping: Sendable, Hashable {
  /// Field name → header name or 1-based column index, as given.
  public var assignments: [String: String]

  public init(assignments: [String: String]) {
    self.assignments = assignments
  }
}
