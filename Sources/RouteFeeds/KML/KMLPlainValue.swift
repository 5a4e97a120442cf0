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
  /// would; the cursor past its end tag, or nil, having changed nothing, when it is not plain.
  ///
  /// - Complexity: O(*n*) in the element's length.
  @inline(__always)
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? {
    var c = XMLPlainCursor(base, at: start, bound: bound)
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
    guard c.passText(ampersand: true) else { return nil }
    let value = valueStart..<c.index
    guard value.count <= XMLValueBuffer.capacity, c.matchEndTag(name: start &+ 1, length: length) else { return nil }
    if isWhen {
      plainWhen(XMLFieldParser.time(base, value, bound: bound, cache: &timestamps), line: line, into: &sink)
    } else {
      plainCoord(Self.place(base, value, bound: bound), line: line, into: &sink)
    }
    return c
  }
}
