/// How the XML scanner names elements and attributes without storing them.
///
/// The scanner packs the first eight bytes of a local name (the part after any `prefix:`)
/// little-endian into a `UInt64` while it reads the name, so recognising an element is one
/// integer comparison instead of a string compare. A format recognises a longer name by its
/// first eight bytes and its length (see `TCXName`); `key(_:)` gives 0 for one.
enum XMLName {
  /// Where the hash of a qualified name starts.
  static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325

  /// Letters, `_`, `:` and every non-ASCII byte (XML's name-start characters, leniently).
  @inline(__always) static func isStart(_ byte: UInt8) -> Bool {
    byte >= 0x41 || byte == .asciiColon
  }

  /// Name-start bytes plus digits, `-` and `.`.
  @inline(__always) static func isByte(_ byte: UInt8) -> Bool {
    byte >= 0x41 || (byte &- .asciiMinus < 14 && byte != .asciiSlash)
  }

  /// Adds one byte to a name's hash: rotate and xor, two cycles a byte, where a multiplying
  /// hash would cost four on the scanner's hottest loop. Closing tags are matched on this hash
  /// together with the local name's length and first eight bytes, so two different names that
  /// an accident of this weak mix confuses would have to agree on all three; and the cost of
  /// such an accident is only a mismatched tag going unreported.
  @inline(__always) static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    ((hash << 7) | (hash >> 57)) ^ UInt64(byte)
  }

  /// Adds one more byte of a local name to its packed form: the first eight bytes go into
  /// `prefix`, and every byte counts in `length`.
  @inline(__always) static func pack(_ byte: UInt8, into prefix: inout UInt64, length: inout Int) {
    if length < 8 { prefix |= UInt64(byte) << (UInt64(length) &* 8) }
    length &+= 1
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
