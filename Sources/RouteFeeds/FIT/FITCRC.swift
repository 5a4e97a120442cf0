/// The CRC-16 every FIT file carries: over its header (bytes 0–11, in a 14-byte header's last two
/// bytes) and over the whole file (header and data, in the two bytes after the data).
///
/// It is the FIT SDK's nibble-table form of CRC-16/ARC (polynomial 0xA001 reflected, initial 0):
/// each byte is folded in four bits at a time through a 16-entry table, so the table costs 32
/// bytes rather than 512.
///
/// - Complexity: O(*n*) in the bytes folded in, two table look-ups per byte.
struct FITCRC: Hashable, Sendable {
  private static let table: [UInt16] = [
    0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
    0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
  ]

  private(set) var value: UInt16 = 0

  mutating func update(_ byte: UInt8) {
    var crc = value
    var entry = Self.table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ entry ^ Self.table[Int(byte & 0xF)]
    entry = Self.table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    value = crc ^ entry ^ Self.table[Int(byte >> 4)]
  }

  mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    for byte in bytes { update(byte) }
  }
}
