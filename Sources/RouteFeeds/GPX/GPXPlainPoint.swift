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
    static let spaceLat: UInt64 = 0x3d_7461_6c20  // " lat="
    static let spaceLon: UInt64 = 0x3d_6e6f_6c20  // " lon="
    static let ele: UInt64 = 0x3e_656c_653c  // "<ele>"
    static let time: UInt64 = 0x3e65_6d69_743c  // "<time>"
    static let hdop: UInt64 = 0x3e70_6f64_683c  // "<hdop>"
    static let speed: UInt64 = 0x3e_6465_6570_733c  // "<speed>"
    static let course: UInt64 = 0x3e65_7372_756f_633c  // "<course>"
    static let fix: UInt64 = 0x3e_7869_663c  // "<fix>"
    static let eleEnd: UInt64 = 0x3e65_6c65_2f3c  // "</ele>"
    static let timeEnd: UInt64 = 0x3e_656d_6974_2f3c  // "</time>"
    static let hdopEnd: UInt64 = 0x3e_706f_6468_2f3c  // "</hdop>"
    static let speedEnd: UInt64 = 0x3e64_6565_7073_2f3c  // "</speed>"
    static let fixEnd: UInt64 = 0x3e78_6966_2f3c  // "</fix>"
  }

  static var plainRecordParent: GPXRole? { .segment }

  /// Reads the plain `trkpt` whose `<` is at `start` and hands it to `sink` as `close` would,
  /// then the plain points that follow it, each after nothing but whitespace (writers put a
  /// segment's points one after another, so the scanner is not gone back to between them); the
  /// cursor past the last one's end tag, or nil, having changed nothing, when the first is not
  /// plain. The run stops before the first thing that is not a plain point, which the scanner
  /// then reads from its whitespace on.
  ///
  /// - Complexity: O(*n*) in the points' length.
  @inline(__always)
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? {
    var c = XMLPlainCursor(base, at: start, bound: bound)
    var read = false
    // One call site, so the point's reader is inlined here.
    while true {
      var next = c
      if read { guard next.skipWhitespace(), next.byte == .asciiLess else { break } }
      guard readPlainPoint(&next, line: line &+ next.lines, into: &sink) else { break }
      read = true
      c = next
    }
    return read ? c : nil
  }

  /// Reads the plain `trkpt` whose `<` is at the cursor, on `line`, and hands it to `sink` as
  /// `close` would: true with the cursor past its end tag (and the lines inside counted), or
  /// false, having changed nothing (not the cursor, not the day cache), when it is not plain.
  ///
  /// Coordinates and numeric fields that are plain numbers are read where they lie as the
  /// cursor reaches them, a `Z` time on the cached day too; any other value is found first and
  /// read as the general scanner's `close` reads it, so each value is the same either way.
  ///
  /// - Complexity: O(*n*) in the point's length.
  @inline(__always)
  mutating func readPlainPoint(_ cursor: inout XMLPlainCursor, line: Int, into sink: inout some FeedSink) -> Bool {
    var c = cursor
    let base = c.base
    let bound = c.bound
    guard c.match(PlainTag.trkptStart, 6) else { return false }
    var latitude: Double?
    var longitude: Double?
    // The shape nearly every writer uses, ` lat="…" lon="…">` with plain numbers, read straight
    // through; anything else from the tag's name on by the loop below.
    let afterName = c.index
    if c.match(PlainTag.spaceLat, 5), let lat = c.quotedPlainNumber(), c.match(PlainTag.spaceLon, 5),
      let lon = c.quotedPlainNumber(), c.index < bound, c.byte == .asciiGreater
    {
      c.index &+= 1
      latitude = lat
      longitude = lon
    } else {
      c.index = afterName
      var coordinates: UInt8 = 0
      while true {
        let before = c.index
        guard c.skipSeparator() else { return false }
        if c.byte == .asciiGreater {
          c.index &+= 1
          break
        }
        // An attribute needs whitespace before it.
        guard c.index > before else { return false }
        let isLatitude: Bool
        if c.match(PlainTag.lat, 4) {
          isLatitude = true
        } else if c.match(PlainTag.lon, 4) {
          isLatitude = false
        } else {
          return false
        }
        let bit: UInt8 = isLatitude ? 1 : 2
        guard coordinates & bit == 0 else { return false }
        coordinates |= bit
        let value: Double?
        if let number = c.quotedPlainNumber() {
          value = number
        } else {
          guard let range = c.quotedValue(), range.count <= XMLValueBuffer.capacity else { return false }
          value = XMLFieldParser.number(base, range, bound: bound)
        }
        if isLatitude { latitude = value } else { longitude = value }
      }
      guard coordinates == 3 else { return false }
    }

    var fields: FieldMask = 0
    var time = Time.missing
    // A time not read in place: read once the point is known to be plain (it may change the day cache).
    var timeText: Range<Int>?
    var elevation: Double?
    var hdop: Double?
    var speed: Double?
    var course: Double?
    var fix = 0..<0
    while true {
      guard c.skipWhitespace(), c.byte == .asciiLess, c.index &+ 8 <= bound else { return false }
      let tag = c.index
      let word = c.word(tag)
      if word == PlainTag.trkptEnd {
        c.index &+= 8
        break
      }
      let role: GPXRole
      let length: Int
      // The end tag as one packed word, when it fits in eight bytes (all but `</course>`).
      let endTag: UInt64
      if word & 0xff_ffff_ffff == PlainTag.ele {
        role = .elevation
        length = 3
        endTag = PlainTag.eleEnd
      } else if word & 0xffff_ffff_ffff == PlainTag.time {
        role = .time
        length = 4
        endTag = PlainTag.timeEnd
      } else if word & 0xffff_ffff_ffff == PlainTag.hdop {
        role = .hdop
        length = 4
        endTag = PlainTag.hdopEnd
      } else if word & 0xff_ffff_ffff_ffff == PlainTag.speed {
        role = .speed
        length = 5
        endTag = PlainTag.speedEnd
      } else if word == PlainTag.course {
        role = .course
        length = 6
        endTag = 0
      } else if word & 0xff_ffff_ffff == PlainTag.fix {
        role = .fix
        length = 3
        endTag = PlainTag.fixEnd
      } else {
        guard
          c.skipElement(
            record: GPXName.trkpt, recordLength: 5, prefixed: false, depth: 4,
            isRead: { Self.fieldRole($1 <= 8 ? $0 : 0) != nil })
        else { return false }
        continue
      }
      let bit = Self.fieldBit(role)
      guard fields & bit == 0 else { return false }
      fields |= bit
      let valueStart = tag &+ length &+ 2
      c.index = valueStart
      if role == .time {
        if let seconds = c.cachedZuluText(&timestamps) {
          time = .seconds(seconds)
        } else {
          guard c.passText(ampersand: true), c.index &- valueStart <= XMLValueBuffer.capacity else { return false }
          timeText = valueStart..<c.index
        }
      } else if role == .fix {
        guard c.passText(ampersand: true), c.index &- valueStart <= XMLValueBuffer.capacity else { return false }
        fix = valueStart..<c.index
      } else {
        let value: Double?
        if let number = c.plainNumberText() {
          value = number
        } else {
          guard c.passText(ampersand: true), c.index &- valueStart <= XMLValueBuffer.capacity else { return false }
          value = XMLFieldParser.number(base, valueStart..<c.index, bound: bound)
        }
        switch role {
        case .elevation: elevation = value
        case .hdop: hdop = value
        case .speed: speed = value
        default: course = value
        }
      }
      // `match` also declines within eight bytes of the chunk's end, where `matchEndTag` reads it.
      guard (length < 6 && c.match(endTag, length &+ 3)) || c.matchEndTag(name: tag &+ 1, length: length) else {
        return false
      }
    }

    // The point is plain: from here on, what the general scanner does at its end tag.
    if let timeText { time = XMLFieldParser.time(base, timeText, bound: bound, cache: &timestamps) }
    let noFix =
      fields & Self.fieldBit(.fix) != 0
      && Self.isNoFix(UnsafeBufferPointer(start: base + fix.lowerBound, count: fix.count))
    cursor = c
    Self.deliver(
      line: line, session: segment, latitude: latitude, longitude: longitude, time: time, elevation: elevation,
      hdop: hdop, speed: speed, course: course, noFix: noFix, into: &sink)
    return true
  }
}
