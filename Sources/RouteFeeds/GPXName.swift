/// The element and attribute names the GPX reader acts on, as packed keys.
///
/// The scanner packs the first eight bytes of a local name (the part after any `prefix:`)
/// little-endian into a `UInt64` while it reads the name, so recognising an element is one
/// integer comparison instead of a string compare. Names longer than eight bytes get key 0,
/// which matches nothing here (no GPX name the reader needs is that long).
enum GPXName {
  static let gpx: UInt64 = 0x78_7067
  static let trk: UInt64 = 0x6b_7274
  static let trkseg: UInt64 = 0x6765_736b_7274
  static let trkpt: UInt64 = 0x74_706b_7274
  static let rte: UInt64 = 0x65_7472
  static let rtept: UInt64 = 0x74_7065_7472
  static let wpt: UInt64 = 0x74_7077
  static let time: UInt64 = 0x656d_6974
  static let ele: UInt64 = 0x65_6c65
  static let hdop: UInt64 = 0x706f_6468
  static let speed: UInt64 = 0x64_6565_7073
  static let course: UInt64 = 0x6573_7275_6f63
  static let fix: UInt64 = 0x78_6966
  static let lat: UInt64 = 0x74_616c
  static let lon: UInt64 = 0x6e_6f6c

  /// Where the hash of a qualified name starts.
  static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325

  /// Adds one byte to a name's hash: rotate and xor, two cycles a byte, where a multiplying
  /// hash would cost four on the scanner's hottest loop. Closing tags are matched on this hash
  /// together with the local name's length and first eight bytes, so two different names that
  /// an accident of this weak mix confuses would have to agree on all three; and the cost of
  /// such an accident is only a mismatched tag going unreported.
  @inline(__always) static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    ((hash << 7) | (hash >> 57)) ^ UInt64(byte)
  }

  /// The key the scanner would compute for `name` (tests and messages; not for hot paths).
  static func key(_ name: String) -> UInt64 {
    let bytes = Array(name.utf8)
    guard bytes.count <= 8 else { return 0 }
    var key: UInt64 = 0
    for (index, byte) in bytes.enumerated() { key |= UInt64(byte) << (8 * UInt64(index)) }
    return key
  }

  /// A name for an error message, from its packed first eight bytes and its length: bytes that
  /// are not printable ASCII show as `?`, and a longer name ends in `…`.
  static func display(prefix: UInt64, length: Int) -> String {
    var text = ""
    for index in 0..<min(length, 8) {
      let byte = UInt8(truncatingIfNeeded: prefix >> (8 * UInt64(index)))
      text.unicodeScalars.append(byte >= 0x21 && byte < 0x7F ? Unicode.Scalar(byte) : "?")
    }
    return length > 8 ? text + "…" : text
  }
}
