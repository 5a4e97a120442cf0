/// Which column feeds which sample field, and how to read it: resolved once, from the header
/// and the explicit mapping, before the first data row.
///
/// Columns are 0-based; -1 means the file has no such column. Stored as plain properties (not
/// an array) so the row decoder reads them without bounds checks or reference counting.
struct CSVLayout: Sendable {
  var delimiter: UInt8 = .asciiComma
  var timestamp = -1
  var date = -1
  var time = -1
  var utcOffset = -1
  var latitude = -1
  var longitude = -1
  var latitudeHemisphere = -1
  var longitudeHemisphere = -1
  var horizontalAccuracy = -1
  var speed = -1
  var course = -1
  var altitude = -1
  var session = -1
  var receivedAt = -1
  var status = -1
  var secondStatus = -1

  var timestampFormat: CSVColumnMapping.TimestampFormat = .auto
  var receivedAtFormat: CSVColumnMapping.TimestampFormat = .auto
  var dateOrder: CSVColumnMapping.DateOrder?
  var accuracyScale = 1.0
  var speedScale = 1.0
  var altitudeScale = 1.0
  /// Numbers may use a decimal comma (`37,7749`): the delimiter is not a comma.
  var decimalComma = false
  /// The 70mai dash cam layout: `$V02` lines start capture sessions.
  var isDashcam = false
  /// One past the highest column used: the scanner records no field beyond it.
  var fieldLimit = 1
  /// Header names by column, for messages (empty without a header).
  var names: [String] = []

  subscript(role: CSVRole) -> Int {
    get {
      switch role {
      case .timestamp: timestamp
      case .date: date
      case .time: time
      case .utcOffset: utcOffset
      case .latitude: latitude
      case .longitude: longitude
      case .latitudeHemisphere: latitudeHemisphere
      case .longitudeHemisphere: longitudeHemisphere
      case .horizontalAccuracy: horizontalAccuracy
      case .speed: speed
      case .course: course
      case .altitude: altitude
      case .session: session
      case .receivedAt: receivedAt
      case .status: status
      case .secondStatus: secondStatus
      }
    }
    set {
      switch role {
      case .timestamp: timestamp = newValue
      case .date: date = newValue
      case .time: time = newValue
      case .utcOffset: utcOffset = newValue
      case .latitude: latitude = newValue
      case .longitude: longitude = newValue
      case .latitudeHemisphere: latitudeHemisphere = newValue
      case .longitudeHemisphere: longitudeHemisphere = newValue
      case .horizontalAccuracy: horizontalAccuracy = newValue
      case .speed: speed = newValue
      case .course: course = newValue
      case .altitude: altitude = newValue
      case .session: session = newValue
      case .receivedAt: receivedAt = newValue
      case .status: status = newValue
      case .secondStatus: secondStatus = newValue
      }
    }
  }

  var hasTime: Bool { timestamp >= 0 || (date >= 0 && time >= 0) }

  mutating func finishResolving(delimiter: UInt8) {
    self.delimiter = delimiter
    decimalComma = delimiter != .asciiComma
    fieldLimit = CSVRole.allCases.map { self[$0] }.max().map { $0 + 1 } ?? 1
    fieldLimit = max(fieldLimit, 1)
  }

  /// Settings the mapping carries whatever the columns.
  mutating func apply(options mapping: CSVColumnMapping?) {
    guard let mapping else { return }
    if mapping.timestampFormat != .auto {
      timestampFormat = mapping.timestampFormat
      receivedAtFormat = mapping.timestampFormat
    }
    dateOrder = mapping.dateOrder
  }
}

// MARK: - Resolution

extension CSVLayout {
  /// The 70mai A810 dash cam log: no header; `unix_time,status,lat,lon,…`; a `$V02` line opens
  /// each recording. Explicit column numbers in the mapping replace the defaults.
  static func dashcam(mapping: CSVColumnMapping?, line: Int) throws(FeedError) -> CSVLayout {
    var layout = CSVLayout()
    layout.timestamp = 0
    layout.status = 1
    layout.latitude = 2
    layout.longitude = 3
    layout.isDashcam = true
    layout.timestampFormat = .epochSeconds
    layout.apply(options: mapping)
    if let mapping {
      for (field, column) in mapping.columns {
        guard case .number(let number) = column else {
          throw FeedError.unmappedColumns(
            line: line,
            detail:
              "this is a 70mai dash cam log, which has no header line: give \(field.rawValue) a column number in --columns"
          )
        }
        layout[CSVRole(field)] = number - 1
      }
    }
    layout.finishResolving(delimiter: .asciiComma)
    return layout
  }

  /// Sets the unit factor of a measured column (accuracy, speed, altitude); others have none.
  mutating func applyScale(_ scale: Double, to role: CSVRole) {
    switch role {
    case .horizontalAccuracy: accuracyScale = scale
    case .speed: speedScale = scale
    case .altitude: altitudeScale = scale
    default: break
    }
  }

  /// A file without a header line: every column comes from the mapping, by number.
  static func headerless(mapping: CSVColumnMapping, delimiter: UInt8, line: Int) throws(FeedError) -> CSVLayout {
    var layout = CSVLayout()
    layout.apply(options: mapping)
    for (field, column) in mapping.columns {
      guard case .number(let number) = column else { continue }
      layout[CSVRole(field)] = number - 1
      layout.applyScale(mapping.scales[field] ?? 1, to: CSVRole(field))
    }
    if layout.date < 0, layout.timestamp < 0, layout.time >= 0 {
      layout.timestamp = layout.time
      layout.time = -1
    }
    guard layout.hasTime, layout.latitude >= 0, layout.longitude >= 0 else {
      throw FeedError.unmappedColumns(
        line: line,
        detail:
          "with header=no, --columns must give the timestamp (or date and time), latitude and longitude column numbers, e.g. --columns header=no,timestamp=1,latitude=2,longitude=3"
      )
    }
    layout.finishResolving(delimiter: delimiter)
    return layout
  }

  /// Matches a header line, with the explicit mapping taking precedence.
  ///
  /// Explicit fields are placed first. Then each remaining header name is matched: canonical
  /// names (`timestamp`, `latitude`, …) before aliases, and the left-most column among equals.
  /// If the mapping names any of timestamp, date or time, the header's time columns are not
  /// used. `time` is a time of day when there is a date column, the timestamp otherwise.
  ///
  /// - Complexity: O(*c*) in the number of columns.
  static func resolve(
    header cells: [String], mapping: CSVColumnMapping?, delimiter: UInt8, line: Int
  ) throws(FeedError) -> CSVLayout {
    var layout = CSVLayout()
    layout.names = cells
    layout.apply(options: mapping)
    var used = Set<Int>()
    var explicit = Set<CSVRole>()

    if let mapping {
      for field in CSVColumnMapping.Field.allCases {
        guard let column = mapping.columns[field] else { continue }
        let index: Int
        switch column {
        case .number(let number):
          guard number <= cells.count else {
            throw FeedError.unmappedColumns(
              line: line,
              detail:
                "--columns gives \(field.rawValue) column \(number), but the header has \(cells.count) columns: \(CSVHeaderReport.list(cells))"
            )
          }
          index = number - 1
        case .name(let name):
          guard let found = CSVHeaderReport.index(of: name, in: cells) else {
            throw FeedError.unmappedColumns(
              line: line,
              detail:
                "--columns names '\(name)' for \(field.rawValue), but the header has no such column; the columns are: \(CSVHeaderReport.list(cells))"
            )
          }
          index = found
        }
        let role = CSVRole(field)
        layout[role] = index
        // The unit: the key's (`speed_knots=5`), else the mapped header name's (`Speed (knots)`).
        var headerScale: Double?
        if let meaning = CSVHeaderNames.meaning(of: cells[index]), case .other(let named) = meaning.kind, named == role
        {
          headerScale = meaning.scale
        }
        layout.applyScale(mapping.scales[field] ?? headerScale ?? 1, to: role)
        explicit.insert(role)
        used.insert(index)
      }
    }
    let explicitTime = explicit.contains(.timestamp) || explicit.contains(.date) || explicit.contains(.time)

    // Header names: canonical names first, then aliases, left-most first.
    let meanings = cells.map { CSVHeaderNames.meaning(of: $0) }
    var timeOfDay = -1
    var timeOfDayMeaning: CSVHeaderMeaning?
    var timestampMeaning: CSVHeaderMeaning?
    var dateMeaning: CSVHeaderMeaning?
    for canonicalPass in [true, false] {
      for (index, meaning) in meanings.enumerated() {
        guard let meaning, meaning.isCanonical == canonicalPass, !used.contains(index) else { continue }
        switch meaning.kind {
        case .timestamp:
          guard !explicitTime, layout.timestamp < 0 else { continue }
          layout.timestamp = index
          timestampMeaning = meaning
        case .timeOfDayOrTimestamp:
          guard !explicitTime, timeOfDay < 0 else { continue }
          timeOfDay = index
          timeOfDayMeaning = meaning
        case .date:
          guard !explicitTime, layout.date < 0 else { continue }
          layout.date = index
          dateMeaning = meaning
        case .other(let role):
          var role = role
          if role == .status, layout.status >= 0 { role = .secondStatus }
          guard layout[role] < 0 else { continue }
          layout[role] = index
          switch role {
          case .horizontalAccuracy: layout.accuracyScale = meaning.scale
          case .speed: layout.speedScale = meaning.scale
          case .altitude: layout.altitudeScale = meaning.scale
          case .receivedAt where meaning.timestampFormat != .auto: layout.receivedAtFormat = meaning.timestampFormat
          default: break
          }
        }
        used.insert(index)
      }
    }

    // Time: an explicit mapping as given; otherwise a timestamp column, or date + time of day,
    // or a `time` column on its own as the timestamp.
    if explicitTime {
      if layout.timestamp < 0, layout.date < 0, layout.time >= 0 {
        layout.timestamp = layout.time
        layout.time = -1
      }
    } else if layout.timestamp >= 0 {
      layout.date = -1
      if let format = timestampMeaning?.timestampFormat, format != .auto, mapping?.timestampFormat ?? .auto == .auto {
        layout.timestampFormat = format
      }
    } else if layout.date >= 0, timeOfDay >= 0 {
      layout.time = timeOfDay
      let local = (dateMeaning?.isLocal ?? false) || (timeOfDayMeaning?.isLocal ?? false)
      if local, layout.utcOffset < 0 {
        let dateName = CSVHeaderReport.display(cells[layout.date])
        let timeName = CSVHeaderReport.display(cells[timeOfDay])
        throw FeedError.unmappedColumns(
          line: line,
          detail:
            "the columns '\(dateName)' and '\(timeName)' hold local time and the header has no UTC offset column; pass --columns utc_offset=<column> naming the column with the offset, or --columns 'date=\(dateName),time=\(timeName)' if the times are in fact UTC"
        )
      }
    } else if timeOfDay >= 0 {
      layout.timestamp = timeOfDay
      layout.date = -1
      if let format = timeOfDayMeaning?.timestampFormat, format != .auto, mapping?.timestampFormat ?? .auto == .auto {
        layout.timestampFormat = format
      }
    } else {
      layout.date = -1
    }
    if layout.date < 0 { layout.utcOffset = -1 }

    guard layout.hasTime, layout.latitude >= 0, layout.longitude >= 0 else {
      throw CSVHeaderReport.unmapped(layout: layout, cells: cells, line: line)
    }

    // BT747-style logger exports (i-Blue, Holux, Columbus: INDEX plus RCR or TAG) write SPEED
    // in km/h without saying so.
    let normalized = Set(cells.map(CSVHeaderNames.normalize))
    if layout.speed >= 0, !explicit.contains(.speed), layout.speedScale == 1, normalized.contains("index"),
      normalized.contains("rcr") || normalized.contains("tag"),
      CSVHeaderNames.normalize(cells[layout.speed]) == "speed"
    {
      layout.speedScale = 1 / 3.6
    }
    layout.finishResolving(delimiter: delimiter)
    return layout
  }
}
