import RouteMileage

/// The row almost every CSV feed is made of, read in one pass: a zoned ISO 8601 time, plain
/// decimal numbers (`-48.8840207`, `7.7`, an empty cell for an absent reading) and a session
/// value, unquoted, with nothing around them. Each number is read as its delimiter is found,
/// rather than splitting the record into fields first and parsing each field afterwards.
///
/// It stands in front of `CSVFastPaths.scanUnquoted` plus `CSVReader.decodeRow` and gives
/// exactly their result for every row it accepts: the same day-cached time, the same integer
/// mantissa divided by the same power of ten as `ByteNumberParser.plainDecimal`, the same scales,
/// the same session ordinal. Any other row (a quote, a space, a sign, an exponent, a unit, more
/// than 15 digits, a zone-less time, a missing or extra field, a record the chunk cuts) is
/// declined before anything is recorded, and the general path reads it.
struct CSVPlainRow {
  /// What each column holds, four bits a column (`Role`), column 0 in the lowest bits.
  let roles: UInt64
  /// The header's column count: a plain row has exactly this many fields.
  let columns: Int
  let delimiter: UInt8
  let accuracyScale: Double
  let speedScale: Double
  let altitudeScale: Double
  /// Whether the columns are exactly time, latitude, longitude, accuracy, speed, course,
  /// session, in that order (the canonical layout and the phone export's): such rows are read
  /// by `decodeCanonicalRow`, straight through, before this plan's column loop.
  let isCanonicalOrder: Bool

  /// Delimiters no plain number or ISO 8601 time can contain: comma, semicolon, tab, bar.
  static let delimiters: [UInt8] = [.asciiComma, .asciiSemicolon, .asciiTab, 0x7C]

  /// The bytes of a time the day cache reads (`ISO8601DayCache.timestamp`) that are all digits
  /// or `-`, `T`, space, `:`; the time's delimiter comes after them.
  static let timestampHead = 19

  /// Consecutive declined rows after which a chunk stops trying this path.
  static let declinesBeforeGivingUp = 8

  enum Role: UInt64 {
    case skip = 0
    case timestamp, latitude, longitude, accuracy, speed, course, altitude, session
  }

  /// The plan for `layout`, or nil when its rows can need more than this path reads: a status or
  /// hemisphere column, an arrival time, a decimal comma, a dash cam's markers, no time column,
  /// an epoch time format, more than 16 columns, or two roles in one column.
  ///
  /// - Complexity: O(*c*) in the column count.
  init?(_ layout: CSVLayout) {
    guard !layout.isDashcam, !layout.decimalComma, layout.status < 0, layout.secondStatus < 0,
      layout.latitudeHemisphere < 0, layout.longitudeHemisphere < 0, layout.receivedAt < 0,
      layout.timestamp >= 0, layout.latitude >= 0, layout.longitude >= 0,
      layout.timestampFormat == .auto || layout.timestampFormat == .iso8601,
      layout.names.count <= 16, layout.fieldLimit <= layout.names.count,
      Self.delimiters.contains(layout.delimiter)
    else { return nil }
    var roles: UInt64 = 0
    var taken: UInt32 = 0
    let assignments: [(Int, Role)] = [
      (layout.timestamp, .timestamp), (layout.latitude, .latitude), (layout.longitude, .longitude),
      (layout.horizontalAccuracy, .accuracy), (layout.speed, .speed), (layout.course, .course),
      (layout.altitude, .altitude), (layout.session, .session),
    ]
    for (column, role) in assignments where column >= 0 {
      guard column < layout.names.count, taken & (1 << column) == 0 else { return nil }
      taken |= 1 << column
      roles |= role.rawValue << UInt64(4 * column)
    }
    self.roles = roles
    columns = layout.names.count
    delimiter = layout.delimiter
    accuracyScale = layout.accuracyScale
    speedScale = layout.speedScale
    altitudeScale = layout.altitudeScale
    isCanonicalOrder = columns == 7 && roles == Self.canonicalRoles
  }

  /// The roles of the canonical order, four bits a column, column 0 lowest.
  static let canonicalRoles: UInt64 = [Role.timestamp, .latitude, .longitude, .accuracy, .speed, .course, .session]
    .enumerated().reduce(0) { roles, column in roles | column.element.rawValue << UInt64(4 * column.offset) }
}

extension CSVReader {
  /// Reads the plain row starting at `start` (see `CSVPlainRow`) and hands its position to
  /// `sink`; returns the index of its line feed, or nil, having recorded nothing, when the row
  /// is not plain or its line feed is not before `bound`.
  ///
  /// - Complexity: O(*n*) in the row length.
  @inline(__always)
  mutating func decodePlainRow(
    _ bytes: UnsafePointer<UInt8>, start: Int, bound: Int, plan: CSVPlainRow, line rowLine: Int,
    into sink: inout some FeedSink
  ) -> Int? {
    // A comment line is the general path's to count.
    guard start < bound, bytes[start] != .asciiHash else { return nil }
    var index = start
    var timestamp = 0.0
    var latitude = 0.0
    var longitude = 0.0
    var accuracy: Double?
    var speed: Double?
    var course: Double?
    var altitude: Double?
    var sessionStart = 0
    var sessionEnd = -1
    var roles = plan.roles
    let delimiter = plan.delimiter
    let last = plan.columns - 1
    for column in 0...last {
      let role = CSVPlainRow.Role(rawValue: roles & 0xF) ?? .skip
      roles >>= 4
      let cellStart = index
      switch role {
      case .timestamp, .session, .skip:
        // The commonest times, on a day already seen, read in place; the byte after them must be
        // the delimiter (checked below), as the cell would end there.
        if role == .timestamp, index + 24 <= bound, let (seconds, end) = timestampCache.cachedDayZulu(bytes, at: index)
        {
          timestamp = seconds
          index = end
          break
        }
        // A time the day cache reads has no delimiter, quote or line end in its head: look
        // past it (a shorter cell then holds one of them, which the day cache refuses).
        let from = role == .timestamp ? index + CSVPlainRow.timestampHead : index
        guard let end = Self.plainCellEnd(bytes, from: from, bound: bound, delimiter: delimiter) else { return nil }
        index = end
        if role == .skip { break }
        // Nothing to trim: `decodeRow`'s cells would be these bytes.
        guard end > cellStart else {
          if role == .timestamp { return nil }
          break
        }
        guard bytes[cellStart] > .asciiSpace, bytes[end - 1] > .asciiSpace else { return nil }
        if role == .session {
          (sessionStart, sessionEnd) = (cellStart, end)
        } else {
          guard bytes[cellStart] != .asciiHash,
            let seconds = timestampCache.timestamp(
              UnsafeBufferPointer(start: bytes + cellStart, count: end - cellStart))
          else { return nil }
          timestamp = seconds
        }
      case .latitude, .longitude, .accuracy, .speed, .course, .altitude:
        guard index < bound else { return nil }
        let first = bytes[index]
        if first == delimiter || first == .asciiNewline || first == .asciiReturn {
          // An empty cell: an absent reading, but never an absent coordinate.
          guard role != .latitude, role != .longitude else { return nil }
          break
        }
        guard let value = ByteNumberParser.plainNumber(bytes, &index, bound: bound) else { return nil }
        switch role {
        case .latitude: latitude = value
        case .longitude: longitude = value
        case .accuracy: accuracy = value * plan.accuracyScale
        case .speed: speed = value * plan.speedScale
        case .course: course = value * 1
        default: altitude = value * plan.altitudeScale
        }
      }
      // The byte after the cell: the delimiter, or the line end after the last column.
      guard index < bound else { return nil }
      let byte = bytes[index]
      if column < last {
        guard byte == delimiter else { return nil }
        index += 1
      } else if byte == .asciiReturn {
        guard index + 1 < bound, bytes[index + 1] == .asciiNewline else { return nil }
        index += 1
      } else {
        guard byte == .asciiNewline else { return nil }
      }
    }
    var session: Int?
    if sessionEnd > sessionStart {
      guard
        let ordinal = sessionOrdinal(UnsafeBufferPointer(start: bytes + sessionStart, count: sessionEnd - sessionStart))
      else { return nil }
      session = ordinal
    }
    hasReadTime = true
    let sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy,
      speed: speed, course: course, altitude: altitude, receivedAt: nil)
    sink.position(sample, session: session, line: rowLine)
    return index
  }

  /// The index of the first delimiter, line feed or carriage return from `index`, eight bytes at
  /// a time; nil at a quote or when none comes before `bound`.
  ///
  /// - Complexity: O(*n*) in the cell length.
  @inline(__always)
  static func plainCellEnd(_ bytes: UnsafePointer<UInt8>, from start: Int, bound: Int, delimiter: UInt8) -> Int? {
    var index = start
    #if _endian(little)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
      let delimiterPattern = UInt64(delimiter) &* ones
      let newlinePattern = UInt64(UInt8.asciiNewline) &* ones
      let returnPattern = UInt64(UInt8.asciiReturn) &* ones
      let quotePattern = UInt64(UInt8.asciiQuote) &* ones
      @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & low7) &+ low7) | word | low7)
      }
      let raw = UnsafeRawPointer(bytes)
      while index + 8 <= bound {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let special =
          zeroBytes(word ^ delimiterPattern) | zeroBytes(word ^ newlinePattern)
          | zeroBytes(word ^ returnPattern) | zeroBytes(word ^ quotePattern)
        if special != 0 {
          let position = index + special.trailingZeroBitCount >> 3
          return bytes[position] == .asciiQuote ? nil : position
        }
        index += 8
      }
    #endif
    while index < bound {
      let byte = bytes[index]
      if byte == delimiter || byte == .asciiNewline || byte == .asciiReturn { return index }
      if byte == .asciiQuote { return nil }
      index += 1
    }
    return nil
  }
}
