import CZlib

/// Writes zip archives in memory through the system zlib (raw deflate), so the KMZ tests build
/// their archives from the KML fixtures they already have, and can build damaged ones on
/// purpose, instead of keeping binary copies.
public enum Zip {
  /// One entry and how it is written.
  public struct Entry: Sendable {
    public var name: String
    public var bytes: [UInt8]
    /// Deflated (method 8) or stored (method 0).
    public var deflated: Bool
    /// Sizes and CRC after the data, in a data descriptor (flag bit 3), zeros in the header.
    public var dataDescriptor: Bool
    /// Writes the sizes as 0xFFFFFFFF with a zip64 extra field holding them.
    public var zip64: Bool
    /// Extra flag bits (bit 0: encrypted) and a compression method to claim instead.
    public var extraFlags: UInt16
    public var claimedMethod: UInt16?
    /// The CRC-32 to store instead of the right one.
    public var claimedCRC: UInt32?
    /// The size and compressed size to store instead of the right ones.
    public var claimedSize: Int?
    public var claimedCompressedSize: Int?

    public init(
      _ name: String, _ bytes: [UInt8], deflated: Bool = true, dataDescriptor: Bool = false, zip64: Bool = false,
      extraFlags: UInt16 = 0, claimedMethod: UInt16? = nil, claimedCRC: UInt32? = nil, claimedSize: Int? = nil,
      claimedCompressedSize: Int? = nil
    ) {
      self.name = name
      self.bytes = bytes
      self.deflated = deflated
      self.dataDescriptor = dataDescriptor
      self.zip64 = zip64
      self.extraFlags = extraFlags
      self.claimedMethod = claimedMethod
      self.claimedCRC = claimedCRC
      self.claimedSize = claimedSize
      self.claimedCompressedSize = claimedCompressedSize
    }
  }

  /// Where the parts of one entry landed in an archive.
  public struct Layout: Sendable {
    public var headerOffset: Int
    public var dataOffset: Int
    public var dataEnd: Int
  }

  /// The archive: local headers and data, then the central directory and its end record.
  public static func archive(_ entries: [Entry]) -> [UInt8] { build(entries).bytes }

  /// The archive and where each entry's header and data are.
  public static func build(_ entries: [Entry]) -> (bytes: [UInt8], layout: [Layout]) {
    var out: [UInt8] = []
    var central: [UInt8] = []
    var layout: [Layout] = []
    for entry in entries {
      let data = entry.deflated ? deflateRaw(entry.bytes) : entry.bytes
      let crc = entry.claimedCRC ?? crc32(entry.bytes)
      let size = entry.claimedSize ?? entry.bytes.count
      let compressed = entry.claimedCompressedSize ?? data.count
      let method = entry.claimedMethod ?? (entry.deflated ? 8 : 0)
      let flags = entry.extraFlags | (entry.dataDescriptor ? 0x08 : 0)
      let name = Array(entry.name.utf8)
      var extra: [UInt8] = []
      if entry.zip64 {
        extra = le(1, 2) + le(16, 2) + le(size, 8) + le(compressed, 8)
      }
      let headerOffset = out.count
      let inHeader = entry.dataDescriptor && !entry.zip64
      out +=
        le(0x0403_4B50, 4) + le(entry.zip64 ? 45 : 20, 2) + le(Int(flags), 2) + le(Int(method), 2) + le(0, 2)
        + le(0x21, 2)
      out += le(inHeader ? 0 : Int(crc), 4)
      out += le(entry.zip64 ? 0xFFFF_FFFF : inHeader ? 0 : compressed, 4)
      out += le(entry.zip64 ? 0xFFFF_FFFF : inHeader ? 0 : size, 4)
      out += le(name.count, 2) + le(extra.count, 2) + name + extra
      let dataOffset = out.count
      out += data
      layout.append(Layout(headerOffset: headerOffset, dataOffset: dataOffset, dataEnd: out.count))
      if entry.dataDescriptor {
        out += le(0x0807_4B50, 4) + le(Int(crc), 4)
        out += entry.zip64 ? le(compressed, 8) + le(size, 8) : le(compressed, 4) + le(size, 4)
      }
      central +=
        le(0x0201_4B50, 4) + le(20, 2) + le(20, 2) + le(Int(flags), 2) + le(Int(method), 2) + le(0, 2) + le(0x21, 2)
      central += le(Int(crc), 4) + le(min(compressed, 0xFFFF_FFFF), 4) + le(min(size, 0xFFFF_FFFF), 4)
      central +=
        le(name.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(min(headerOffset, 0xFFFF_FFFF), 4)
        + name
    }
    let centralOffset = out.count
    out += central
    out += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(entries.count, 2) + le(entries.count, 2)
    out += le(central.count, 4) + le(centralOffset, 4) + le(0, 2)
    return (out, layout)
  }

  /// `value` as `width` little-endian bytes.
  static func le(_ value: Int, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// The CRC-32 zip stores (zlib's).
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
  }

  /// Raw deflate (no zlib or gzip wrapper), as zip stores it.
  public static func deflateRaw(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    // -15: a 32 KiB window, raw deflate.
    Deflate.oneShot(bytes, level: level, windowBits: -15)
  }
}
