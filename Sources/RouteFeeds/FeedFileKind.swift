/// What a file that is not a feed's text is, named from its first bytes, so the user is told
/// "a gzip-compressed file" rather than a riddle about line endings.
///
/// Why before format detection: GPX, NMEA 0183 and CSV are all text (ASCII or UTF-8). A
/// compressed archive, UTF-16 text or binary data would otherwise be guessed as CSV and fail on
/// whatever its bytes happen to resemble.
public enum FeedFileKind: String, Sendable, Hashable, CaseIterable {
  case gzip, zip, bzip2, xz, zstd, utf16, utf32, binary
  /// No bytes at all (a 0-byte file, `/dev/null`, an empty pipe).
  case empty
  /// A zip archive inside gzip (a `.kmz.gz`): gzip is opened, the zip inside it is not.
  case gzippedZip

  /// The file's kind, or nil when it looks like text (any feed format, or damaged text that the
  /// readers will account for line by line).
  ///
  /// - Compressed formats by their magic numbers: gzip `1F 8B`, zip `PK 03 04` (also the empty
  ///   and spanned archive markers), bzip2 `BZh1`…`BZh9` followed by its block magic, xz
  ///   `FD 37 7A 58 5A 00`, zstd `28 B5 2F FD`.
  /// - UTF-32 and UTF-16 by a byte-order mark, or (UTF-16 without one) by a NUL in every other
  ///   byte of at least 8 character pairs in a row at the start.
  /// - Binary: see `isBinary` (its first line is noise).
  ///
  /// - Complexity: O(*n*) in the prefix length (callers pass at most a few kilobytes).
  public static func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> FeedFileKind? {
    func starts(with magic: [UInt8]) -> Bool {
      prefix.count >= magic.count && Swift.zip(prefix, magic).allSatisfy { $0 == $1 }
    }
    if starts(with: [0x1F, 0x8B]) { return .gzip }
    if starts(with: [0x50, 0x4B, 0x03, 0x04]) || starts(with: [0x50, 0x4B, 0x05, 0x06])
      || starts(with: [0x50, 0x4B, 0x07, 0x08])
    {
      return .zip
    }
    if prefix.count >= 10, starts(with: [0x42, 0x5A, 0x68]), (0x31...0x39).contains(prefix[3]),
      Array(prefix[4..<10]) == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
        || Array(prefix[4..<10]) == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]
    {
      return .bzip2
    }
    if starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
    if starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
    if starts(with: [0xFF, 0xFE, 0x00, 0x00]) || starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32 }
    if starts(with: [0xFF, 0xFE]) || starts(with: [0xFE, 0xFF]) { return .utf16 }
    if looksLikeUTF16WithoutMark(prefix) { return .utf16 }
    return isBinary(prefix) ? .binary : nil
  }

  /// Binary judged on the first line only (at least its first 16 bytes, at most 512): a text
  /// feed's first line is a header, an XML declaration or a sentence, while a binary file's is
  /// noise. Judging only the start keeps a text feed with a damaged stretch further on (a
  /// logger's garbage burst, which the readers count line by line) from being refused whole.
  /// Binary: more than 1 in 10 of those bytes are control bytes (other than tab, line feed, form
  /// feed, carriage return and NUL) or bytes of no valid UTF-8 sequence, or more than half are
  /// NUL. NUL padding alone (the Columbus V-900 pads its cells with NULs) is not binary.
  static func isBinary(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
    var end = min(prefix.count, 512)
    if let lineEnd = prefix[..<end].firstIndex(of: 0x0A) { end = max(lineEnd, min(16, end)) }
    guard end >= 16 else { return false }
    var suspicious = 0
    var nuls = 0
    var index = 0
    while index < end {
      let byte = prefix[index]
      if byte < 0x80 {
        if byte == 0 {
          nuls += 1
        } else if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D) || byte == 0x7F {
          suspicious += 1
        }
        index += 1
        continue
      }
      // A UTF-8 sequence: a lead byte and its continuation bytes, or one suspicious byte.
      let length = byte >= 0xF0 && byte < 0xF5 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
      if length > 0, index + length <= prefix.count,
        (1..<length).allSatisfy({ prefix[index + $0] & 0xC0 == 0x80 }), byte < 0xF5
      {
        index += length
      } else {
        suspicious += 1
        index += 1
      }
    }
    return suspicious * 10 > end || nuls * 2 > end
  }

  /// ASCII text written as UTF-16 (either byte order) with no byte-order mark: the first 8 or
  /// more pairs each hold one NUL and one printable or line-end byte, on the same side.
  static func looksLikeUTF16WithoutMark(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
    let pairs = min(prefix.count / 2, 64)
    guard pairs >= 8 else { return false }
    func isText(_ byte: UInt8) -> Bool { (0x20..<0x7F).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    var littleEndian = true
    var bigEndian = true
    for pair in 0..<pairs {
      let first = prefix[pair * 2]
      let second = prefix[pair * 2 + 1]
      littleEndian = littleEndian && isText(first) && second == 0
      bigEndian = bigEndian && first == 0 && isText(second)
      if !littleEndian && !bigEndian { return false }
    }
    return true
  }

  /// How the file is named in a message: "a gzip-compressed file".
  public var name: String {
    switch self {
    case .gzip: "a gzip-compressed file"
    case .zip: "a zip archive"
    case .bzip2: "a bzip2-compressed file"
    case .xz: "an xz-compressed file"
    case .zstd: "a zstd-compressed file"
    case .utf16: "UTF-16 text"
    case .utf32: "UTF-32 text"
    case .binary: "a binary file"
    case .empty: "an empty file"
    case .gzippedZip: "a zip archive compressed with gzip (a .kmz.gz)"
    }
  }

  /// The kind in a few words, where a summary would name a feed's format: "Read 0 records
  /// (binary file)".
  public var label: String {
    switch self {
    case .gzip: "gzip, twice"
    case .zip: "zip archive"
    case .bzip2: "bzip2"
    case .xz: "xz"
    case .zstd: "zstd"
    case .utf16: "UTF-16 text"
    case .utf32: "UTF-32 text"
    case .binary: "binary file"
    case .empty: "empty file"
    case .gzippedZip: "zip inside gzip"
    }
  }

  /// What to do about it.
  public var advice: String {
    switch self {
    // gzip is decompressed before this check, so only a file gzipped twice gets here.
    case .gzip:
      "it was compressed twice and routemiles decompresses one layer; decompress it once first (gunzip -k FILE)"
    // A zip starting with a local header is opened (KMZ); only other zips (empty, spanned, or
    // zipped inside gzip) get here.
    case .zip: "routemiles reads a zip only as KMZ (a .kml inside); extract the feed files first (unzip FILE)"
    case .bzip2: "routemiles cannot read compressed files yet; decompress it first (bunzip2 -k FILE)"
    case .xz: "routemiles cannot read compressed files yet; decompress it first (unxz -k FILE)"
    case .zstd: "routemiles cannot read compressed files yet; decompress it first (unzstd FILE)"
    case .utf16, .utf32:
      "routemiles reads UTF-8 (or ASCII) text; convert it first (iconv -f \(self == .utf16 ? "UTF-16" : "UTF-32") -t UTF-8 FILE)"
    case .binary: "nothing in it can be read as GPX, NMEA 0183 or CSV text, and it is not a FIT file"
    case .empty: "it holds no bytes, so nothing was recorded in it (or it was not copied or downloaded whole)"
    case .gzippedZip: "routemiles opens one layer; decompress it first (gunzip -k FILE) and read the .kmz it gives"
    }
  }
}
