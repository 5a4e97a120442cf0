/// KML's plain track values, read in one go from the `<` to past the end tag (see
/// `XMLPlainCursor`): `<when>…</when>` and `<gx:coord>…</gx:coord>` (or `<coord>`, KML 2.3's
/// name) directly in a `gx:Track`, the elements every position of a track is made of. The
/// general scanner reads each one name byte, one stack entry and one mapper call at a time.
///
/// Anything else declines the value before anything is recorded: another prefix, an attribute,
/// an empty-element tag, a reference, comment or CDATA in the value, a value
/// longer than `XMLValueBuffer.capacity`, a value the chunk cuts. The general scanner then reads
/// the same bytes, so the records, lines and errors are the same whichever path reads a value.
extension KMLTrackBuilder {
  /// The packed tags the fast path matches (little-endian, as `XMLName.key` packs).
  enum PlainTag {
    static let when: UInt64 = 0x3e6e_6568_773c  // "<when>"
    static let gxCoord: (UInt64, UInt64) = (0x726f_6f63_3a78_673c, 0x3e64)  // "<gx:coor", "d>"
    static let coord: UInt64 = 0x3e_6472_6f6f_633c  // "<coord>"
  }

  static var plainRecordParent: KMLRole? { .track }

  /// Reads the plain `when` or `gx:coord` whose `<` is at `start` and pairs it as `close`
  /// would, then the plain values after it while the whitespace between them is the same
  /// (`XMLPlainGap`): the cursor past the last one's end tag, or nil, having changed nothing,
  /// when the first is not plain.
  ///
  /// - Complexity: O(*n*) in the values' length.
  @inline(__always)
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? {
    var c = XMLPlainCursor(base, at: start, bound: bound)
    guard let first = readPlainValue(&c) else { return nil }
    // A `when` read with nothing waiting is held here rather than queued, so the `gx:coord`
    // after it pairs with it directly; whatever comes next, it is queued first.
    var held: KMLTrackPairing.When?
    record(first, line: line, held: &held, into: &sink)
    while true {
      var next = c
      guard gap.pass(&next), let value = readPlainValue(&next) else { break }
      record(value, line: line &+ next.lines, held: &held, into: &sink)
      c = next
    }
    if let held { pairing.add(held, session: track, into: &sink) }
    return c
  }

  /// A value the fast path read.
  enum PlainValue {
    case when(XMLFieldParser.Time)
    case coord(KMLTrackPairing.Place)
  }

  /// Pairs a value the fast path read, its start tag on `line`, as `role(ofChild:…)` and
  /// `close` pair it; `held` is a `when` read before it and not yet queued.
  @inline(__always)
  mutating func record(
    _ value: PlainValue, line: Int, held: inout KMLTrackPairing.When?, into sink: inout some FeedSink
  ) {
    valueLine = line
    switch value {
    case .when(let time):
      let when = KMLTrackPairing.When(time: time, line: line)
      if let waiting = held { pairing.add(waiting, session: track, into: &sink) }
      if pairing.isIdle {
        held = when
      } else {
        held = nil
        pairing.add(when, session: track, into: &sink)
      }
    case .coord(let place):
      let coord = KMLTrackPairing.Coord(place: place, line: line)
      if let waiting = held {
        held = nil
        pairing.pair(waiting, coord, session: track, into: &sink)
      } else {
        pairing.add(coord, session: track, into: &sink)
      }
    }
  }

  /// Reads the plain value whose `<` is at `c.index`: the cursor past its end tag, or nil when
  /// it is not plain.
  ///
  /// A value that is exactly a `Z` time on the cached day, or two or three plain numbers with
  /// one space or comma between them, is read as it is passed: the bytes up to the `<` that
  /// ends it are the value `passText` would find, and they are read as `XMLFieldParser.time`
  /// and `place(_:_:bound:)` read them. Any other value is found first, then read.
  ///
  /// - Complexity: O(*n*) in the element's length.
  @inline(__always)
  mutating func readPlainValue(_ c: inout XMLPlainCursor) -> PlainValue? {
    let base = c.base
    let bound = c.bound
    let start = c.index
    let isWhen: Bool
    let length: Int
    if c.match(PlainTag.when, 6) {
      isWhen = true
      length = 4
    } else if c.match(PlainTag.gxCoord.0, 8) {
      guard c.match(PlainTag.gxCoord.1, 2) else { return nil }
      isWhen = false
      length = 8
    } else if c.match(PlainTag.coord, 7) {
      isWhen = false
      length = 5
    } else {
      return nil
    }
    let valueStart = c.index
    if isWhen {
      if valueStart &+ 24 <= bound, let (seconds, end) = timestamps.cachedDayZulu(base, at: valueStart),
        base[end] == .asciiLess
      {
        c.index = end
        return c.matchEndTag(name: start &+ 1, length: length) ? .when(.seconds(seconds)) : nil
      }
    } else {
      var end = valueStart
      if let place = Self.plainPlace(base, &end, bound: bound) {
        c.index = end
        return c.matchEndTag(name: start &+ 1, length: length) ? .coord(place) : nil
      }
    }
    guard c.passText(ampersand: true) else { return nil }
    let value = valueStart..<c.index
    guard value.count <= XMLValueBuffer.capacity, c.matchEndTag(name: start &+ 1, length: length) else {
      return nil
    }
    if isWhen { return .when(XMLFieldParser.time(base, value, bound: bound, cache: &timestamps)) }
    return .coord(Self.place(base, value, bound: bound))
  }

  /// Two or three plain numbers (`ByteNumberParser.plainNumber`) at `index`, one space or comma
  /// between them, followed by `<`: the place `place(_:_:bound:)` reads for those bytes, and
  /// `index` at the `<`; nil, `index` anywhere, for anything else.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func plainPlace(_ base: UnsafePointer<UInt8>, _ index: inout Int, bound: Int) -> KMLTrackPairing.Place? {
    guard index < bound, let longitude = ByteNumberParser.plainNumber(base, &index, bound: bound),
      index &+ 1 < bound, base[index] == .asciiSpace || base[index] == .asciiComma
    else { return nil }
    index &+= 1
    guard let latitude = ByteNumberParser.plainNumber(base, &index, bound: bound), index < bound else { return nil }
    if base[index] == .asciiLess { return .point(latitude: latitude, longitude: longitude, altitude: nil) }
    guard index &+ 1 < bound, base[index] == .asciiSpace || base[index] == .asciiComma else { return nil }
    index &+= 1
    guard let altitude = ByteNumberParser.plainNumber(base, &index, bound: bound), index < bound,
      base[index] == .asciiLess
    else { return nil }
    return .point(latitude: latitude, longitude: longitude, altitude: altitude)
  }
}
