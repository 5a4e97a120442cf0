import RouteMileage

extension CSVReader {
  /// Turns one data row into a position, a `noFix` rejection or an unreadable count.
  ///
  /// Order: dash cam marker, status (a no-fix row is rejected before its numbers are read, so a
  /// `nan` longitude beside status V is a rejection, not an error), time, latitude, longitude,
  /// then the optional fields. Accuracy and arrival time feed the capture filter, so a value
  /// there that cannot be read makes the row unreadable; speed, course and altitude are only
  /// carried along, so an unreadable one is dropped and the position kept.
  ///
  /// - Complexity: O(*n*) in the row length; allocates only when the session value changes to
  ///   one not seen before.
  @inline(__always)
  mutating func decodeRow(
    _ bytes: UnsafePointer<UInt8>, _ fields: UnsafePointer<Int>, _ fieldCount: Int,
    _ recordStart: Int, _ recordEnd: Int, line rowLine: Int, layout: CSVLayout, into sink: inout some FeedSink
  ) throws(FeedError) {
    @inline(__always) func cell(_ column: Int) -> UnsafeBufferPointer<UInt8> {
      guard column >= 0, column < fieldCount else { return UnsafeBufferPointer(start: nil, count: 0) }
      let start = fields[2 * column]
      let value = UnsafeBufferPointer(start: bytes + start, count: fields[2 * column + 1] - start)
      // Most cells have nothing to trim: every byte trimming removes is at most 0x20.
      if let first = value.first, first > .asciiSpace, value[value.count - 1] > .asciiSpace { return value }
      return value.trimmingASCIIWhitespace()
    }
    let record = UnsafeBufferPointer(start: bytes + recordStart, count: recordEnd - recordStart)
    // A lone CR is not a line end, so it joins two lines into one record with more fields than
    // the header: the second line's values would sit in columns nobody reads. Only such wide
    // rows are scanned, so ordinary rows pay one comparison.
    if fieldCount > max(layout.names.count, layout.fieldLimit), CSVValues.hasLoneCarriageReturn(record) {
      sink.unreadable(.csvLoneCarriageReturn, line: rowLine)
      return
    }

    if layout.isDashcam, fieldCount == 1, CSVValues.isDashcamMarker(cell(0)) {
      dashcamRecording += 1
      return
    }
    if layout.status >= 0, CSVValues.isNoFix(cell(layout.status)) {
      sink.rejected(.noFix, line: rowLine)
      return
    }
    if layout.secondStatus >= 0, CSVValues.isNoFix(cell(layout.secondStatus)) {
      sink.rejected(.noFix, line: rowLine)
      return
    }

    // Time.
    var timestamp: Double
    if layout.timestamp >= 0 {
      let value = cell(layout.timestamp)
      if layout.timestampFormat == .auto || layout.timestampFormat == .iso8601,
        let seconds = timestampCache.timestamp(value)
      {
        timestamp = seconds
      } else {
        switch CSVValues.timestamp(value, format: layout.timestampFormat, dateOrder: layout.dateOrder) {
        case .value(let seconds) where seconds.isFinite:
          // A date and time with no zone (not an epoch number) is local time or UTC.
          let zoneLess =
            layout.timestampFormat != .epochSeconds && layout.timestampFormat != .epochMilliseconds
            && !ISO8601Parser.hasZone(value) && ByteNumberParser.double(value) == nil
          timestamp = zoneLess ? timestampCache.zoneLess(seconds) : seconds
        case .ambiguousDate:
          guard hasReadTime else { throw ambiguousDate(column: layout.timestamp, layout: layout, line: rowLine) }
          return unreadable(.badTime, value, record, layout, rowLine, &sink)
        default: return unreadable(.badTime, value, record, layout, rowLine, &sink)
        }
      }
    } else {
      let dateValue = cell(layout.date)
      let days: Int
      switch CSVValues.date(dateValue, order: layout.dateOrder) {
      case .days(let value): days = value
      case .ambiguous:
        guard hasReadTime else { throw ambiguousDate(column: layout.date, layout: layout, line: rowLine) }
        return unreadable(.badTime, dateValue, record, layout, rowLine, &sink)
      case .invalid: return unreadable(.badTime, dateValue, record, layout, rowLine, &sink)
      }
      let timeValue = cell(layout.time)
      guard let time = CSVValues.timeOfDay(timeValue) else {
        return unreadable(.badTime, timeValue, record, layout, rowLine, &sink)
      }
      var offset = time.offset ?? 0
      if layout.utcOffset >= 0 {
        let offsetValue = cell(layout.utcOffset)
        guard let columnOffset = CSVValues.utcOffset(offsetValue) else {
          return unreadable(.badTime, offsetValue, record, layout, rowLine, &sink)
        }
        offset = columnOffset
      }
      timestamp = Double(days) * 86_400 + time.seconds - offset
      if time.offset == nil, layout.utcOffset < 0 { timestamp = timestampCache.zoneLess(timestamp) }
    }

    hasReadTime = true

    // Position.
    let latitudeValue = cell(layout.latitude)
    guard
      var latitude = CSVValues.coordinate(
        latitudeValue, positive: 0x4E, negative: 0x53, decimalComma: layout.decimalComma)
    else { return unreadable(.badNumber, latitudeValue, record, layout, rowLine, &sink) }
    if layout.latitudeHemisphere >= 0 {
      let value = cell(layout.latitudeHemisphere)
      guard latitude >= 0, let sign = CSVValues.hemisphereSign(value, positive: "north", negative: "south") else {
        return unreadable(.badNumber, value, record, layout, rowLine, &sink)
      }
      latitude *= sign
    }
    let longitudeValue = cell(layout.longitude)
    guard
      var longitude = CSVValues.coordinate(
        longitudeValue, positive: 0x45, negative: 0x57, decimalComma: layout.decimalComma)
    else { return unreadable(.badNumber, longitudeValue, record, layout, rowLine, &sink) }
    if layout.longitudeHemisphere >= 0 {
      let value = cell(layout.longitudeHemisphere)
      guard longitude >= 0, let sign = CSVValues.hemisphereSign(value, positive: "east", negative: "west") else {
        return unreadable(.badNumber, value, record, layout, rowLine, &sink)
      }
      longitude *= sign
    }

    // Fields the capture filter reads: unreadable means the row is.
    var accuracy: Double?
    if layout.horizontalAccuracy >= 0 {
      let value = cell(layout.horizontalAccuracy)
      if !value.isEmpty {
        guard
          let metres = CSVValues.measure(
            value, .distance, scale: layout.accuracyScale, decimalComma: layout.decimalComma)
        else { return unreadable(.badNumber, value, record, layout, rowLine, &sink) }
        accuracy = metres
      }
    }
    var receivedAt: Double?
    if layout.receivedAt >= 0 {
      let value = cell(layout.receivedAt)
      if !value.isEmpty {
        guard
          case .value(let seconds) = CSVValues.timestamp(
            value, format: layout.receivedAtFormat, dateOrder: layout.dateOrder),
          seconds.isFinite
        else { return unreadable(.badTime, value, record, layout, rowLine, &sink) }
        receivedAt = seconds
      }
    }

    // Fields carried along: unreadable means absent.
    var speed: Double?
    if layout.speed >= 0 {
      speed = CSVValues.measure(cell(layout.speed), .speed, scale: layout.speedScale, decimalComma: layout.decimalComma)
    }
    var course: Double?
    if layout.course >= 0 {
      course = CSVValues.measure(cell(layout.course), .angle, scale: 1, decimalComma: layout.decimalComma)
    }
    var altitude: Double?
    if layout.altitude >= 0 {
      altitude = CSVValues.measure(
        cell(layout.altitude), .distance, scale: layout.altitudeScale, decimalComma: layout.decimalComma)
    }

    // Session.
    var session: Int?
    if layout.isDashcam {
      session = dashcamRecording
    } else if layout.session >= 0 {
      let value = cell(layout.session)
      if !value.isEmpty {
        guard let ordinal = sessionOrdinal(value) else {
          return unreadable(.csvBadSession, value, record, layout, rowLine, &sink)
        }
        session = ordinal
      }
    }

    let sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy,
      speed: speed, course: course, altitude: altitude, receivedAt: receivedAt)
    sink.position(sample, session: session, line: rowLine)
  }

  /// The ordinal of a session value, in order of first appearance (`FirstSeenOrdinals`); nil
  /// when it is too long.
  @inline(__always)
  mutating func sessionOrdinal(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
    // Consecutive rows almost always share a session (often a 36-byte UUID): compare the bytes
    // eight at a time against the last one before building a key.
    let same = sessionOrdinals.lastKey?.withUnsafeBufferPointer { previous in
      guard previous.count == value.count else { return false }
      guard let left = previous.baseAddress, let right = value.baseAddress else { return true }
      let count = value.count
      var index = 0
      while index + 8 <= count {
        if UnsafeRawPointer(left + index).loadUnaligned(as: UInt64.self)
          != UnsafeRawPointer(right + index).loadUnaligned(as: UInt64.self)
        {
          return false
        }
        index += 8
      }
      while index < count, left[index] == right[index] { index += 1 }
      return index == count
    }
    if same == true { return sessionOrdinals.lastOrdinal }
    guard value.count <= Self.maximumSessionLength else { return nil }
    // The last session changes: the copy `decodeCanonicalRow` compares is stale.
    lastShortSessionLength = 0
    return sessionOrdinals.ordinal(of: Array(value)).ordinal
  }

  /// Counts a row that could not be read — unless it holds no value at all (a line of
  /// delimiters), which is skipped like a blank line. `binary` when the failing cell (or, if it
  /// is empty, the row) holds control bytes.
  func unreadable(
    _ reason: FeedReason, _ value: UnsafeBufferPointer<UInt8>, _ record: UnsafeBufferPointer<UInt8>,
    _ layout: CSVLayout, _ line: Int, _ sink: inout some FeedSink
  ) {
    if value.isEmpty, CSVValues.isBlank(record, delimiter: layout.delimiter) { return }
    let binary = CSVValues.looksBinary(value.isEmpty ? record.trimmingASCIIWhitespace() : value)
    let joined = !binary && CSVValues.hasLoneCarriageReturn(record)
    sink.unreadable(binary ? .binary : joined ? .csvLoneCarriageReturn : reason, line: line)
  }

  /// The error for a date whose day/month order cannot be told, when it is the first time
  /// the file gives (after a readable one, an ambiguous date is one bad row, `badTime`).
  func ambiguousDate(column: Int, layout: CSVLayout, line: Int) -> FeedError {
    let name = column < layout.names.count ? "'\(CSVHeaderReport.display(layout.names[column]))'" : "\(column + 1)"
    return .unmappedColumns(
      line: line,
      detail:
        "column \(name) holds dates with the year last (like 11/05/2025), which could be day-first or month-first; pass --columns date_format=dmy (day first) or date_format=mdy (month first)"
    )
  }
}
