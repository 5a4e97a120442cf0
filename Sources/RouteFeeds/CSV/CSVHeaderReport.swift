import RouteMileage

/// The words of a header that cannot be mapped: which columns were found and the `--columns`
/// mapping to pass.
///
/// Header names are not coordinates and are printed, but a first line that is really data
/// would print positions, so any cell that looks like a value (see `looksLikeValue`) is shown
/// only by its number. Control bytes become `?`, and names are shortened.
enum CSVHeaderReport {
  static let maximumListed = 24
  static let maximumNameLength = 32

  /// Whether a cell looks like a value rather than a name: it starts like a number (a digit,
  /// sign or dot), or has at least three digits and more digits than letters (`N31.7695`).
  static func looksLikeValue(_ cell: String) -> Bool {
    guard let first = cell.unicodeScalars.first else { return false }
    if ("0"..."9").contains(first) || first == "-" || first == "+" || first == "." { return true }
    var digits = 0
    var letters = 0
    for scalar in cell.unicodeScalars {
      if ("0"..."9").contains(scalar) {
        digits += 1
      } else if scalar.properties.isAlphabetic {
        letters += 1
      }
    }
    return digits >= 3 && digits > letters
  }

  /// A name fit to print: trimmed, control bytes as `?`, at most `maximumNameLength` characters.
  static func display(_ cell: String) -> String {
    var text = ""
    var count = 0
    for scalar in cell.unicodeScalars {
      if count == maximumNameLength {
        text += "…"
        break
      }
      text.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
      count += 1
    }
    return text
  }

  /// `INDEX, RCR, DATE, …`, values shown as `#3 (a value)`, empty names as `#4 (empty)`.
  static func list(_ cells: [String]) -> String {
    var parts: [String] = []
    for (index, cell) in cells.prefix(maximumListed).enumerated() {
      if cell.isEmpty {
        parts.append("#\(index + 1) (empty)")
      } else if looksLikeValue(cell) {
        parts.append("#\(index + 1) (a value)")
      } else {
        parts.append(display(cell))
      }
    }
    if cells.count > maximumListed { parts.append("… \(cells.count - maximumListed) more") }
    return parts.joined(separator: ", ")
  }

  /// The column a `--columns` name refers to: equal ignoring case and surrounding spaces, or
  /// equal once both are normalized (`Lcl_Date` for `Lcl Date`).
  static func index(of name: String, in cells: [String]) -> Int? {
    let wanted = name.csvTrimmed().lowercased()
    if let index = cells.firstIndex(where: { $0.csvTrimmed().lowercased() == wanted }) { return index }
    let normalized = CSVHeaderNames.normalize(name)
    return cells.firstIndex { CSVHeaderNames.normalize($0) == normalized }
  }

  /// How a column is written in a suggested mapping: its name, or its number when the name
  /// cannot be written there (it has a comma or `=`, or looks like a value).
  static func reference(_ index: Int, _ cells: [String]) -> String {
    let name = cells[index].csvTrimmed()
    if name.isEmpty || name.contains(",") || name.contains("=") || looksLikeValue(name)
      || name.count > maximumNameLength
      || name.unicodeScalars.contains(where: { $0.value < 0x20 })
    {
      return String(index + 1)
    }
    return name
  }

  /// The error for a header without a timestamp, latitude or longitude column.
  static func unmapped(layout: CSVLayout, cells: [String], line: Int) -> FeedError {
    let nonEmpty = cells.filter { !$0.isEmpty }
    if nonEmpty.contains(where: { $0.unicodeScalars.contains { $0.value < 0x09 || (0x0E..<0x20).contains($0.value) } })
    {
      return .unmappedColumns(
        line: line,
        detail:
          "the first line holds binary bytes, so this does not look like a CSV file; if it is GPX or NMEA, pass --input-format gpx or --input-format nmea"
      )
    }
    let valueLike = nonEmpty.filter(looksLikeValue).count
    if !nonEmpty.isEmpty, valueLike * 2 >= nonEmpty.count {
      return .unmappedColumns(
        line: line,
        detail:
          "the first line holds values, not column names (\(list(cells))); if the file has no header line, pass --columns header=no,timestamp=1,latitude=2,longitude=3 with the right column numbers"
      )
    }
    var missing: [String] = []
    if !layout.hasTime { missing.append("timestamp") }
    if layout.latitude < 0 { missing.append("latitude") }
    if layout.longitude < 0 { missing.append("longitude") }
    var example: [String] = []
    if layout.timestamp >= 0 {
      example.append("timestamp=\(reference(layout.timestamp, cells))")
    } else if layout.date >= 0, layout.time >= 0 {
      example.append("date=\(reference(layout.date, cells)),time=\(reference(layout.time, cells))")
    } else {
      example.append("timestamp=<column>")
    }
    example.append(layout.latitude >= 0 ? "latitude=\(reference(layout.latitude, cells))" : "latitude=<column>")
    example.append(layout.longitude >= 0 ? "longitude=\(reference(layout.longitude, cells))" : "longitude=<column>")
    let what = "\(joinedWithOr(missing)) column"
    return .unmappedColumns(
      line: line,
      detail:
        "found no \(what) among the \(MileageLocale.english.counted(cells.count, "column")) of the header (\(list(cells))); name them with --columns, for example --columns '\(example.joined(separator: ","))', where a column is a header name or a 1-based number (date and time columns, epoch milliseconds and hemisphere columns are described in docs/formats/csv.md)"
    )
  }

  static func joinedWithOr(_ words: [String]) -> String {
    switch words.count {
    case 0: ""
    case 1: words[0]
    case 2: "\(words[0]) or \(words[1])"
    default: words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
  }
}
