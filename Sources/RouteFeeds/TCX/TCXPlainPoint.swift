/// TCX's plain track point, read in one go from its `<` to past its `</Trackpoint>` (see
/// `XMLPlainCursor`): `<Trackpoint>` with `Time`, `Position` (`LatitudeDegrees`,
/// `LongitudeDegrees`) and `AltitudeMeters`, and whitespace or other elements of the plain shape
/// (`DistanceMeters`, `HeartRateBpm` with its `Value`, `Extensions` with prefixed children, …,
/// skipped) between them, as Garmin and the apps that copy it write every point.
///
/// Anything else declines the point before anything is recorded: an attribute, a repeated
/// field or `Position`, a prefixed field, a child with attributes or an empty-element tag, a
/// reference, comment or CDATA anywhere in the point, a value longer than
/// `XMLValueBuffer.capacity`, a point the chunk cuts. The general scanner then reads the same
/// bytes, so the records, lines and errors are the same whichever path reads a point.
///
/// A point read element by element leaves its markup behind (`TCXPointShape`); the points
/// after it with the same markup are checked against it a word at a time, in one call while
/// the whitespace between them is the same too (`XMLPlainGap`).
extension TCXTrackBuilder {
  /// The packed tags the fast path matches (little-endian, as `XMLName.key` packs), a word at a time.
  enum PlainTag {
    static let trackpoint: (UInt64, UInt64) = (0x6f70_6b63_6172_543c, 0x3e74_6e69)  // "<Trackpo", "int>"
    static let trackpointEnd: (UInt64, UInt64) = (0x706b_6361_7254_2f3c, 0x3e_746e_696f)  // "</Trackp", "oint>"
    static let time: UInt64 = 0x3e65_6d69_543c  // "<Time>"
    static let position: (UInt64, UInt64) = (0x6f69_7469_736f_503c, 0x3e6e)  // "<Positio", "n>"
    static let positionEnd: (UInt64, UInt64) = (0x6974_6973_6f50_2f3c, 0x3e_6e6f)  // "</Positi", "on>"
    static let latitude: (UInt64, UInt64) = (0x6475_7469_7461_4c3c, 0x7365_6572_6765_4465)  // "<Latitud", "eDegrees"
    // "<Longitu", "deDegree", "s>"
    static let longitude: (UInt64, UInt64, UInt64) = (0x7574_6967_6e6f_4c3c, 0x6565_7267_6544_6564, 0x3e73)
    static let altitude: (UInt64, UInt64) = (0x6475_7469_746c_413c, 0x3e73_7265_7465_4d65)  // "<Altitud", "eMeters>"
  }

  static var plainRecordParent: TCXRole? { .track }

  /// Reads the plain `Trackpoint` whose `<` is at `start` and hands it to `sink` as `close`
  /// would; the cursor past its end tag, or nil, having changed nothing, when the point is not
  /// plain.
  ///
  /// - Complexity: O(*n*) in the point's length.
  @inline(__always)
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? {
    if !shape.isEmpty {
      var c = XMLPlainCursor(base, at: start, bound: bound)
      var values = TCXPlainValues()
      if shape.match(&c, cache: &timestamps, values: &values) {
        shape.matched()
        finishShaped(base, bound: bound, line: line, values, into: &sink)
        // The points after it, while the whitespace between them and their markup are the same.
        while true {
          var next = c
          guard gap.pass(&next) else { break }
          let pointLine = line &+ next.lines
          guard shape.match(&next, cache: &timestamps, values: &values) else { break }
          finishShaped(base, bound: bound, line: pointLine, values, into: &sink)
          c = next
        }
        return c
      }
    }
    var values = (0..<0, 0..<0, 0..<0, 0..<0)
    var c = XMLPlainCursor(base, at: start, bound: bound)
    guard let read = readPlainPoint(&c, values: &values) else { return nil }
    if shape.missed() {
      shape.build(
        base, start..<c.index, values: values, fields: read.fields, hasPosition: read.hasPosition)
    }
    finishPlain(base, bound: bound, line: line, read.hasPosition, read.fields, values, into: &sink)
    return c
  }

  /// Reads the plain point at `c` element by element: its value fields (a bit per role) and
  /// whether it has a `Position`, the values' ranges in `values` (by role index), and the
  /// cursor past its end tag; nil when the point is not plain.
  ///
  /// - Complexity: O(*n*) in the point's length.
  @inline(__always)
  func readPlainPoint(
    _ c: inout XMLPlainCursor, values: inout (Range<Int>, Range<Int>, Range<Int>, Range<Int>)
  ) -> (fields: UInt8, hasPosition: Bool)? {
    let bound = c.bound
    guard c.match(PlainTag.trackpoint.0, 8), c.match(PlainTag.trackpoint.1, 4) else { return nil }
    var fields: UInt8 = 0
    var hasPosition = false
    var inPosition = false
    while true {
      guard c.skipWhitespace(), c.byte == .asciiLess, c.index &+ 8 <= bound else { return nil }
      let tag = c.index
      let role: TCXRole
      let length: Int
      if inPosition {
        if c.match(PlainTag.positionEnd.0, 8) {
          guard c.match(PlainTag.positionEnd.1, 3) else { return nil }
          inPosition = false
          continue
        }
        if c.match(PlainTag.latitude.0, 8) {
          guard c.match(PlainTag.latitude.1, 8), c.match(0x3e, 1) else { return nil }
          role = .latitude
          length = 15
        } else if c.match(PlainTag.longitude.0, 8) {
          guard c.match(PlainTag.longitude.1, 8), c.match(PlainTag.longitude.2, 2) else { return nil }
          role = .longitude
          length = 16
        } else {
          guard
            c.skipElement(
              record: TCXName.trackpoint, recordLength: 10, prefixed: false, depth: 4,
              isRead: { Self.pointChild(prefix: $0, length: $1, in: .position) != nil })
          else { return nil }
          continue
        }
      } else {
        if c.match(PlainTag.trackpointEnd.0, 8) {
          guard c.match(PlainTag.trackpointEnd.1, 5) else { return nil }
          break
        }
        if c.match(PlainTag.time, 6) {
          role = .time
          length = 4
        } else if c.match(PlainTag.position.0, 8) {
          guard !hasPosition, c.match(PlainTag.position.1, 2) else { return nil }
          hasPosition = true
          inPosition = true
          continue
        } else if c.match(PlainTag.altitude.0, 8) {
          guard c.match(PlainTag.altitude.1, 8) else { return nil }
          role = .altitude
          length = 14
        } else {
          guard
            c.skipElement(
              record: TCXName.trackpoint, recordLength: 10, prefixed: false, depth: 4,
              isRead: { Self.pointChild(prefix: $0, length: $1, in: .point) != nil })
          else { return nil }
          continue
        }
      }
      let bit: UInt8 = 1 << (role.rawValue - TCXRole.time.rawValue)
      guard fields & bit == 0 else { return nil }
      fields |= bit
      let valueStart = c.index
      guard c.passText(ampersand: true) else { return nil }
      let value = valueStart..<c.index
      guard value.count <= XMLValueBuffer.capacity, c.matchEndTag(name: tag &+ 1, length: length) else { return nil }
      switch role {
      case .time: values.0 = value
      case .latitude: values.1 = value
      case .longitude: values.2 = value
      default: values.3 = value
      }
    }
    return (fields, hasPosition)
  }

  /// Finishes a point matched against the shape: `finishPlain`, with the values read as they
  /// were passed taken as they are.
  @inline(__always)
  mutating func finishShaped(
    _ base: UnsafePointer<UInt8>, bound: Int, line: Int, _ values: TCXPlainValues, into sink: inout some FeedSink
  ) {
    let fields = shape.fields
    @inline(__always) func number(_ bit: UInt8, _ read: Double, _ range: Range<Int>) -> Double? {
      if fields & bit == 0 { return nil }
      return values.read & bit != 0 ? read : XMLFieldParser.number(base, range, bound: bound)
    }
    let time: Time =
      fields & 1 == 0
      ? .missing
      : values.read & 1 != 0
        ? .seconds(values.time) : XMLFieldParser.time(base, values.ranges.0, bound: bound, cache: &timestamps)
    finishPlainPoint(
      line: line, hasPosition: shape.hasPosition, latitude: number(2, values.numbers.0, values.ranges.1),
      longitude: number(4, values.numbers.1, values.ranges.2), altitude: number(8, values.numbers.2, values.ranges.3),
      time: time, into: &sink)
  }

  /// Finishes a plain point: from here on, what the general scanner does at its end tags.
  @inline(__always)
  mutating func finishPlain(
    _ base: UnsafePointer<UInt8>, bound: Int, line: Int, _ hasPosition: Bool, _ fields: UInt8,
    _ values: (Range<Int>, Range<Int>, Range<Int>, Range<Int>), into sink: inout some FeedSink
  ) {
    let time =
      fields & 1 == 0
      ? Time.missing
      : XMLFieldParser.time(base, values.0, bound: bound, cache: &timestamps)
    let latitude = fields & 2 == 0 ? nil : XMLFieldParser.number(base, values.1, bound: bound)
    let longitude = fields & 4 == 0 ? nil : XMLFieldParser.number(base, values.2, bound: bound)
    let altitude = fields & 8 == 0 ? nil : XMLFieldParser.number(base, values.3, bound: bound)
    finishPlainPoint(
      line: line, hasPosition: hasPosition, latitude: latitude, longitude: longitude, altitude: altitude,
      time: time, into: &sink)
  }
}
