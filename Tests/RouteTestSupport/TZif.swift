/// Writes small compiled time zone files (TZif version 2, RFC 8536) for tests, so no test reads
/// the machine's time zone database.
public enum TZif {
  /// One local time type: its offset east of UTC in seconds, whether it is daylight time, its
  /// abbreviation.
  public struct TimeType {
    public var offset: Int32
    public var isDaylight: Bool
    public var abbreviation: String
    public init(_ offset: Int32, _ isDaylight: Bool, _ abbreviation: String) {
      self.offset = offset
      self.isDaylight = isDaylight
      self.abbreviation = abbreviation
    }
  }

  /// A version 2 file: an empty version 1 block, then `transitions` (UTC seconds, each with the
  /// index of its type in `types`) with 64-bit times, then `footer` (a POSIX TZ string).
  public static func file(types: [TimeType], transitions: [(at: Int64, type: UInt8)], footer: String) -> [UInt8] {
    var characters: [UInt8] = []
    var indices: [UInt8] = []
    for type in types {
      indices.append(UInt8(characters.count))
      characters += Array(type.abbreviation.utf8) + [0]
    }
    func header(timeCount: Int, typeCount: Int, characterCount: Int) -> [UInt8] {
      var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
      for count in [0, 0, 0, timeCount, typeCount, characterCount] { bytes += bigEndian(UInt64(count), size: 4) }
      return bytes
    }
    // Version 1 block: no transitions, one type.
    var bytes = header(timeCount: 0, typeCount: 1, characterCount: 4)
    bytes += bigEndian(UInt64(UInt32(bitPattern: types[0].offset)), size: 4) + [types[0].isDaylight ? 1 : 0, 0]
    bytes += Array("UTC".utf8) + [0]
    // Version 2 block.
    bytes += header(timeCount: transitions.count, typeCount: types.count, characterCount: characters.count)
    for transition in transitions { bytes += bigEndian(UInt64(bitPattern: transition.at), size: 8) }
    bytes += transitions.map(\.type)
    for (index, type) in types.enumerated() {
      bytes += bigEndian(UInt64(UInt32(bitPattern: type.offset)), size: 4) + [type.isDaylight ? 1 : 0, indices[index]]
    }
    bytes += characters
    bytes += Array("\n\(footer)\n".utf8)
    return bytes
  }

  /// Europe/London's rules with its 2024 and 2025 transitions written out (a "fat" file would
  /// hold every year; a "slim" one leaves the rest to the footer).
  public static let london: [UInt8] = file(
    types: [TimeType(0, false, "GMT"), TimeType(3600, true, "BST")],
    transitions: [
      (1_711_846_800, 1),  // 2024-03-31T01:00:00Z
      (1_729_990_800, 0),  // 2024-10-27T01:00:00Z
      (1_743_296_400, 1),  // 2025-03-30T01:00:00Z
      (1_761_440_400, 0),  // 2025-10-26T01:00:00Z
    ],
    footer: "GMT0BST,M3.5.0/1,M10.5.0")

  static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
  }
}
