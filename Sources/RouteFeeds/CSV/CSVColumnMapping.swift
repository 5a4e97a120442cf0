/// An explicit assignment of CSV columns to sample fields, for layouts the header matcher does
/// not recognise, files without a header line, and the few settings a header cannot carry.
///
/// Written on the command line as `--columns SPEC`, where SPEC is a comma-separated list of
/// `key=value` entries (spaces around keys and values are ignored, keys are case-insensitive):
///
///     --columns 'timestamp=GPS Time,latitude=3,longitude=4'
///     --columns 'header=no,timestamp=1,timestamp_format=epoch-ms,latitude=2,longitude=3'
///     --columns 'date=Datum,time=Zeit,date_format=dmy,latitude=Breite,longitude=Länge'
///
/// Field keys take a *column*: a header name (matched case-insensitively after trimming) or a
/// 1-based column number (a key whose value is all digits is a number, even if a header happens
/// to be named `3`). A header name holding `,` or `=` must be given by number.
/// - `timestamp` — ISO 8601 (`2025-11-29T08:00:00Z`, offsets, fractions), a date and time in one
///   cell (`2005/05/01 10:12:47`), or epoch seconds / milliseconds (see `timestamp_format`);
/// - `date` and `time` — separate date and time-of-day columns, read as UTC unless `utc_offset`
///   names a column with the offset of local time (`+02:00`, `-0600`, `Z`);
///   `time` without `date` means the same as `timestamp`;
/// - `latitude`, `longitude` — decimal degrees, optionally with a hemisphere letter in the cell
///   (`31.769598N`, `W0.1275`);
/// - `latitude_hemisphere`, `longitude_hemisphere` — columns holding `N`/`S` and `E`/`W`;
/// - `horizontal_accuracy` (metres), `speed` (m/s), `course` (degrees), `altitude` (metres) —
///   a unit in the cell (`374.812 m`, `0.865 km/h`, `12 ft`) is converted;
/// - `capture_session_id` — each distinct value is one capture session, an empty cell a legacy row;
/// - `received_at` — when the fix reached the recorder, same forms as `timestamp`;
/// - `status` — a fix-status column: `V`, `0`, `no fix`, `invalid`, `none`, … reject the row as
///   no fix.
/// The header aliases work as keys too (`lat=2`, `lon=3`, `session=5`, `ns=4`, `ew=6`).
///
/// Option keys:
/// - `header=yes|no` — `no`: the first line is data, and every column must be a number;
/// - `delimiter=comma|semicolon|tab|pipe` — overrides detection from the first line;
/// - `timestamp_format=auto|iso8601|epoch-s|epoch-ms` — `auto` (default) reads a plain number
///   as epoch seconds below 1e11 and as milliseconds at or above it (1e14: microseconds, 1e17:
///   nanoseconds), anything else as a date and time;
/// - `date_format=ymd|dmy|mdy` — the order of a date whose year is not first (`29.11.2025`,
///   `11/29/2025`, `291125`); needed for slash- and dash-separated year-last dates, which are
///   ambiguous.
///
/// Fields not named here are still matched from the header by name, so a mapping only needs the
/// columns the matcher missed.
public struct CSVColumnMapping: Sendable, Hashable, CustomStringConvertible {
  /// A sample field a column can feed.
  public enum Field: String, Sendable, Hashable, CaseIterable {
    case timestamp, date, time
    case utcOffset = "utc_offset"
    case latitude, longitude
    case latitudeHemisphere = "latitude_hemisphere"
    case longitudeHemisphere = "longitude_hemisphere"
    case horizontalAccuracy = "horizontal_accuracy"
    case speed, course, altitude
    case captureSessionID = "capture_session_id"
    case receivedAt = "received_at"
    case status
  }

  /// Where a field's values are: a header name or a 1-based column number.
  public enum Column: Sendable, Hashable, CustomStringConvertible {
    case name(String)
    case number(Int)

    public var description: String {
      switch self {
      case .name(let name): name
      case .number(let number): String(number)
      }
    }
  }

  /// How a `timestamp` (or `received_at`) cell is read.
  public enum TimestampFormat: String, Sendable, Hashable, CaseIterable {
    /// A plain number is epoch time with its unit told by magnitude; anything else is a date and
    /// time.
    case auto
    /// A date and time only (ISO 8601, or a date and a time of day separated by a space).
    case iso8601
    /// Seconds since 1970-01-01T00:00:00Z.
    case epochSeconds = "epoch-s"
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case epochMilliseconds = "epoch-ms"
  }

  /// The order of day, month and year in a date whose year is not written first.
  public enum DateOrder: String, Sendable, Hashable, CaseIterable {
    case ymd, dmy, mdy
  }

  /// The byte between fields.
  public enum Delimiter: String, Sendable, Hashable, CaseIterable {
    case comma, semicolon, tab, pipe

    var byte: UInt8 {
      switch self {
      case .comma: .asciiComma
      case .semicolon: .asciiSemicolon
      case .tab: .asciiTab
      case .pipe: 0x7C
      }
    }
  }

  /// Field → column, as given.
  public var columns: [Field: Column]
  /// False when the first line is data (then every column is a number).
  public var hasHeader: Bool
  /// Nil to detect comma, semicolon or tab from the first line.
  public var delimiter: Delimiter?
  public var timestampFormat: TimestampFormat
  /// Nil: year-first dates, dotted day-first dates (`29.11.2025`) and six-digit `YYMMDD`; an
  /// ambiguous date stops the read and asks for this.
  public var dateOrder: DateOrder?
  /// Unit factors to SI (m, m/s) a key carried (`speed_knots=5`, `alt_ft=Höhe`); a field not
  /// here takes the unit its mapped header name says (`speed=Speed (knots)`), else none.
  public var scales: [Field: Double] = [:]

  public init(
    columns: [Field: Column] = [:], hasHeader: Bool = true, delimiter: Delimiter? = nil,
    timestampFormat: TimestampFormat = .auto, dateOrder: DateOrder? = nil
  ) {
    self.columns = columns
    self.hasHeader = hasHeader
    self.delimiter = delimiter
    self.timestampFormat = timestampFormat
    self.dateOrder = dateOrder
  }

  /// Parses the `--columns` syntax described on the type.
  ///
  /// - Throws: `FeedError.unmappedColumns` with line 0 (the problem is on the command line, not
  ///   in the feed) and a detail naming the entry that is wrong and what would be right.
  /// - Complexity: O(*n*) in the length of `spec`.
  public init(parsing spec: String) throws(FeedError) {
    self.init()
    var seen: Set<String> = []
    let entries = spec.split(separator: ",", omittingEmptySubsequences: false)
    for rawEntry in entries {
      let entry = rawEntry.csvTrimmed()
      if entry.isEmpty {
        if entries.count == 1 { throw Self.problem("the mapping is empty; \(Self.syntaxHint)") }
        throw Self.problem("an entry is empty (two commas in a row?); \(Self.syntaxHint)")
      }
      guard let equals = entry.firstIndex(of: "=") else {
        throw Self.problem("'\(entry)' is not key=value; \(Self.syntaxHint)")
      }
      let key = entry[..<equals].csvTrimmed().lowercased()
      let value = entry[entry.index(after: equals)...].csvTrimmed()
      guard !key.isEmpty else { throw Self.problem("'\(entry)' has no key before '='; \(Self.syntaxHint)") }
      guard !value.isEmpty else { throw Self.problem("'\(key)=' needs a value") }
      try apply(key: key, value: value, seen: &seen)
    }
    if !hasHeader {
      for (field, column) in columns {
        if case .name(let name) = column {
          throw Self.problem(
            "with header=no there are no header names: give \(field.rawValue) a column number, not '\(name)'")
        }
      }
    }
  }

  private mutating func apply(key: String, value: String, seen: inout Set<String>) throws(FeedError) {
    let lowered = value.lowercased()
    switch key {
    case "header":
      try once("header", &seen)
      switch lowered {
      case "yes", "true", "1": hasHeader = true
      case "no", "none", "false", "0": hasHeader = false
      default: throw Self.problem("header=\(value): use header=yes or header=no")
      }
    case "delimiter", "separator", "sep":
      try once("delimiter", &seen)
      switch lowered {
      case "comma", ",": delimiter = .comma
      case "semicolon", ";": delimiter = .semicolon
      case "tab", "\\t", "\t": delimiter = .tab
      case "pipe", "|": delimiter = .pipe
      default: throw Self.problem("delimiter=\(value): use comma, semicolon, tab or pipe")
      }
    case "timestamp_format", "time_format", "timestamp_unit":
      try once("timestamp_format", &seen)
      switch lowered {
      case "auto": timestampFormat = .auto
      case "iso8601", "iso", "iso-8601": timestampFormat = .iso8601
      case "epoch-s", "epoch", "epoch_s", "s", "seconds", "unix": timestampFormat = .epochSeconds
      case "epoch-ms", "epoch_ms", "ms", "milliseconds": timestampFormat = .epochMilliseconds
      default: throw Self.problem("timestamp_format=\(value): use auto, iso8601, epoch-s or epoch-ms")
      }
    case "date_format", "date_order":
      try once("date_format", &seen)
      guard let order = DateOrder(rawValue: lowered) else {
        throw Self.problem("date_format=\(value): use ymd, dmy or mdy")
      }
      dateOrder = order
    default:
      guard let field = CSVHeaderNames.mappingField(forKey: key) else {
        let fields = Field.allCases.map(\.rawValue).joined(separator: ", ")
        throw Self.problem(
          "'\(key)' is not a field or option; fields are \(fields); options are header, delimiter, timestamp_format, date_format"
        )
      }
      try once(field.rawValue, &seen)
      if let scale = CSVHeaderNames.meaning(of: key)?.scale, scale != 1 { scales[field] = scale }
      if value.allSatisfy(\.isASCIIDigitCharacter) {
        guard let number = Int(value), number >= 1, number <= CSVHeaderNames.maximumColumns else {
          throw Self.problem(
            "\(field.rawValue)=\(value): columns are numbered from 1 to \(CSVHeaderNames.maximumColumns)")
        }
        columns[field] = .number(number)
      } else {
        columns[field] = .name(value)
      }
    }
  }

  private func once(_ key: String, _ seen: inout Set<String>) throws(FeedError) {
    guard seen.insert(key).inserted else { throw Self.problem("\(key) is given twice") }
  }

  static let syntaxHint =
    "write field=column pairs separated by commas, e.g. --columns timestamp=time,latitude=3,longitude=4"

  static func problem(_ detail: String) -> FeedError {
    .unmappedColumns(line: 0, detail: "--columns: \(detail)")
  }

  /// The mapping in the `--columns` syntax, fields in a fixed order (so equal mappings print
  /// alike).
  public var description: String {
    var entries: [String] = []
    if !hasHeader { entries.append("header=no") }
    if let delimiter { entries.append("delimiter=\(delimiter.rawValue)") }
    for field in Field.allCases {
      if let column = columns[field] { entries.append("\(field.rawValue)=\(column)") }
    }
    if timestampFormat != .auto { entries.append("timestamp_format=\(timestampFormat.rawValue)") }
    if let dateOrder { entries.append("date_format=\(dateOrder.rawValue)") }
    return entries.joined(separator: ",")
  }
}

extension Character {
  var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs (no Foundation in this module).
  func csvTrimmed() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
