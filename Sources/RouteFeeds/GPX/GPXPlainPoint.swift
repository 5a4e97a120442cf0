/// GPX's plain track point, read in one go from its `<` to past its `</trkpt>` (see
/// `XMLPlainCursor`): `<trkpt lat="…" lon="…">` (either order, either quote) with `ele`,
/// `time`, `hdop`, `speed`, `course` and `fix` children and whitespace or other elements of the
/// plain shape (`<sat>`, `<name>`, …, skipped) between them. Writers put nearly every point in
/// this shape; the general scanner reads it one name byte, one stack entry and one mapper call
/// at a time.
///
/// Anything else declines the point before anything is recorded: another attribute, spaces
/// around `=`, a point without `lat` or `lon`, a repeated field, a prefixed child (`<gpx:ele>`),
/// a child with attributes or an empty-element tag, a reference, comment or CDATA anywhere in
/// the point, a carriage return in an attribute value, a value longer than `XMLValueBuffer.capacity`, a point the
/// chunk cuts. The general scanner then reads the same bytes, so the records, lines and errors
/// are the same whichever path reads a point.
extension GPXTrackBuilder {
  /// The packed tags the fast path matches (little-endian, as `XMLName.key` packs).
  enum PlainTag {
    static let trkptStart: UInt64 = 0x7470_6b72_743c  // "<trkpt"
    static let trkptEnd: UInt64 = 0x3e74_706b_7274_2f3c  // "</trkpt>"
    static let lat: UInt64 = 0x3d74_616c  // "lat="
    static let lon: UInt64 = 0x3d6e_6f6c  // "lon="
    static let ele: UInt64 = 0x3e_656c_653c  // "<ele>"
    static let time: UInt64 = 0x3e65_6d69_743c  // "<time>"
    static let hdop: UInt64 = 0x3e70_6f64_683c  // "<hdop>"
    static let speed: UInt64 = 0x3e_6465_6570_733c  // "<speed>"
    static let course: UInt64 = 0x3e65_7372_756f_633c  // "<course>"
    static let fix: UInt64 = 0x3e_7869_663c  // "<fix>"
  }

  static var plainRecordParent: GPXRole? { .segment }

  /// Reads the plain `trkpt` whose `<` is at `start` and hands it to `sink` as `close` would;
  /// the cursor past its end tag, or nil, having changed nothing, when the point is not plain.
  ///
  /// - Complexity: O(*n*) in the point's length.
  @inline(__always)
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? {
    var c = XMLPlainCursor(base, at: start, bound: bound)
    guard c.match(PlainTag.trkptStart, 6) else { return nil }
    var latitude = 0..<0
    var longitude = 0..<0
    var coordinates: UInt8 = 0
    while true {
      let before = c.index
      guard c.skipWhitespace() else { return nil }
      if c.byte == .asciiGreater {
        c.index &+= 1
        break
      }
      // An attribute needs whitespace before it.
      guard c.index > before else { return nil }
      let isLatitude: Bool
      if c.match(PlainTag.lat, 4) {
        isLatitude = true
      } else if c.match(PlainTag.lon, 4) {
        isLatitude = false
      } else {
        return nil
      }
      let bit: UInt8 = isLatitude ? 1 : 2
      guard coordinates & bit == 0, let value = c.quotedValue(), value.count <= XMLValueBuffer.capacity else {
        return nil
      }
      coordinates |= bit
      if isLatitude { latitude = value } else { longitude = value }
    }
    guard coordinates == 3 else { return nil }

    var fields: FieldMask = 0
    var time = 0..<0
    var elevation = 0..<0
    var hdop = 0..<0
    var speed = 0..<0
    var course = 0..<0
    var fix = 0..<0
    while true {
      guard c.skipWhitespace(), c.byte == .asciiLess, c.index &+ 8 <= bound else { return nil }
      let tag = c.index
      let word = c.word(tag)
      if word == PlainTag.trkptEnd {
        c.index &+= 8
        break
      }
      let role: GPXRole
      let length: Int
      if word & 0xff_ffff_ffff == PlainTag.ele {
        role = .elevation
        length = 3
      } else if word & 0xffff_ffff_ffff == PlainTag.time {
        role = .time
        length = 4
      } else if word & 0xffff_ffff_ffff == PlainTag.hdop {
        role = .hdop
        length = 4
      } else if word & 0xff_ffff_ffff_ffff == PlainTag.speed {
        role = .speed
        length = 5
      } else if word == PlainTag.course {
        role = .course
        length = 6
      } else if word & 0xff_ffff_ffff == PlainTag.fix {
        role = .fix
        length = 3
      } else {
        guard
          c.skipElement(
            record: GPXName.trkpt, recordLength: 5, prefixed: false, depth: 4,
            isRead: { Self.fieldRole($1 <= 8 ? $0 : 0) != nil })
        else { return nil }
        continue
      }
      let bit = Self.fieldBit(role)
      guard fields & bit == 0 else { return nil }
      fields |= bit
      c.index = tag &+ length &+ 2
      guard c.passText(ampersand: true) else { return nil }
      let value = tag &+ length &+ 2..<c.index
      guard value.count <= XMLValueBuffer.capacity, c.matchEndTag(name: tag &+ 1, length: length) else { return nil }
      switch role {
      case .time: time = value
      case .elevation: elevation = value
      case .hdop: hdop = value
      case .speed: speed = value
      case .course: course = value
      default: fix = value
      }
    }

    // The point is plain: from here on, what the general scanner does at its end tag.
    // A constant, so the nested function captures a value rather than a boxed variable.
    let present = fields
    @inline(__always) func number(_ range: Range<Int>, _ role: GPXRole) -> Double? {
      guard present & Self.fieldBit(role) != 0 else { return nil }
      return XMLFieldParser.number(base, range, bound: bound)
    }
    let timeValue =
      fields & Self.fieldBit(.time) == 0
      ? Time.missing
      : XMLFieldParser.time(base, time, bound: bound, cache: &timestamps)
    let noFix =
      fields & Self.fieldBit(.fix) != 0
      && Self.isNoFix(UnsafeBufferPointer(start: base + fix.lowerBound, count: fix.count))
    finishPlainPoint(
      line: line,
      latitude: XMLFieldParser.number(base, latitude, bound: bound),
      longitude: XMLFieldParser.number(base, longitude, bound: bound),
      time: timeValue, elevation: number(elevation, .elevation), hdop: number(hdop, .hdop),
      speed: number(speed, .speed), course: number(course, .course), noFix: noFix, fields: fields, into: &sink)
    return c
  }
}
