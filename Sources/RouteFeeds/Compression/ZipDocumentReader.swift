import CZlib

/// Streams the KML document out of a zip archive (a KMZ): the first entry whose name ends in
/// `.kml`, read through the archive's local file headers from the front, so a pipe works as well
/// as a file and nothing seeks.
///
/// Why local headers rather than the central directory: `ByteSource` reads forward only
/// (standard input, a gzip stream), and KMZ writers put the document first (the KMZ rules ask for
/// `doc.kml` as the first entry), so the document is usually the first thing read. Entries before
/// it are skipped: by their stored compressed size, or, when the size follows the data (flag
/// bit 3, a data descriptor), by inflating them to the end of their deflate data. What cannot be
/// skipped that way (a stored entry with a data descriptor) is an error naming its offset.
/// Entries after the document are passed over the same way, only to count further `.kml`
/// entries (`otherDocuments`): a KMZ with two documents is read as one, and the report says so.
///
/// The document itself may be stored or deflated (raw deflate through the system zlib), with its
/// sizes in the local header, in a zip64 extra field, or in a data descriptor after the data.
/// Checked, each an error naming the byte offset (in the file as stored): a header that is not
/// one, an encrypted entry, a compression method other than stored or deflate, data cut off,
/// data that does not match its sizes, a CRC-32 that does not match, and a decompression ratio
/// over `maximumRatio` (a zip bomb; real KML deflates about 5 to 20 times). Output produced
/// before an error is handed out first; the error comes on the next read and every read after.
///
/// An archive with no `.kml` entry is `FeedError.noFeedInArchive`, naming what it holds by file
/// extension (never by entry name: names can be place names).
///
/// A class for the same reason as `GzipInflater`: zlib's `z_stream` must not move.
///
/// Memory: one 64 KiB input buffer, zlib's 32 KiB window and state, and one entry's name and
/// extra field (at most 64 KiB each), whatever the archive's size.
final class ZipDocumentReader {
  /// Output may be at most this many times the compressed bytes read for it (after the first
  /// `ratioAllowance` bytes of output, which any ratio may reach).
  static let maximumRatio = 200
  static let ratioAllowance = 1 << 20

  private let input: UnsafeMutableBufferPointer<UInt8>
  /// The unread bytes are `input[start..<end]`.
  private var start = 0
  private var end = 0
  /// Bytes of the file before `input[0]`.
  private var consumedBefore = 0
  private var inputEnded = false
  private var stream: UnsafeMutablePointer<z_stream>?
  private var state = State.seeking
  private var pendingError: FeedError?
  /// Entries passed over before the document, counted by file extension (for the error).
  private var skipped: [String: Int] = [:]
  /// How many `.kml` entries follow the document, once the document has been read to its end
  /// and every entry after it passed up to the central directory; nil before then, and when
  /// the rest of the archive cannot be walked (cut off, garbage, an entry that cannot be
  /// skipped as a stream), since a count up to there would not be the archive's.
  private(set) var otherDocuments: Int?

  private enum State {
    case seeking
    case document(Entry)
    case finished
  }

  /// One entry's local header and what has been read of its data.
  private struct Entry {
    var headerOffset: Int
    var dataOffset: Int
    var flags: UInt16
    var method: UInt16
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    var zip64: Bool
    /// Running counts while its data is read.
    var compressedRead = 0
    var produced = 0
    var runningCRC: UInt = 0
    /// The deflate data's end was reached.
    var ended = false
    var hasDescriptor: Bool { flags & 0x08 != 0 }
  }

  /// - Parameter first: the bytes already read (starting with `PK 03 04`).
  init(first: UnsafeBufferPointer<UInt8>) {
    input = .allocate(capacity: max(1 << 16, first.count))
    if let base = first.baseAddress, first.count > 0 { input.baseAddress!.update(from: base, count: first.count) }
    end = first.count
  }

  deinit {
    if let stream {
      inflateEnd(stream)
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    input.deallocate()
  }

  /// The file offset of the next unread byte.
  private var offset: Int { consumedBefore + start }

  /// Fills `output` with the document's bytes, reading the archive from `base` as needed; 0 at
  /// the document's end.
  ///
  /// - Complexity: O(*n*) in the archive bytes read (entries before the document are inflated
  ///   only when their size is not stored ahead of them).
  func read<Base: ByteSource>(into output: UnsafeMutableBufferPointer<UInt8>, from base: inout Base) throws(FeedError)
    -> Int
  {
    if let error = pendingError { throw error }
    guard output.count > 0 else { return 0 }
    var produced = 0
    do throws(FeedError) {
      while produced < output.count {
        switch state {
        case .finished:
          return produced
        case .seeking:
          try seekDocument(from: &base)
        case .document(var entry):
          let count = try readDocument(
            &entry, into: UnsafeMutableBufferPointer(rebasing: output[produced...]), from: &base)
          produced += count
          state = .document(entry)
          if count == 0 {
            try finishDocument(entry, from: &base)
            state = .finished
            otherDocuments = countOtherDocuments(from: &base)
          }
        }
      }
    } catch {
      pendingError = error
      guard produced > 0 else { throw error }
    }
    return produced
  }

  // MARK: Input

  /// Makes at least `count` bytes available at `input[start...]` (`count` ≤ 64 KiB), or as many
  /// as are left; returns whether all `count` are there.
  private func ensure<Base: ByteSource>(_ count: Int, from base: inout Base) throws(FeedError) -> Bool {
    while end - start < count && !inputEnded {
      if start > 0 {
        let left = end - start
        if left > 0 { input.baseAddress!.update(from: input.baseAddress! + start, count: left) }
        consumedBefore += start
        start = 0
        end = left
      }
      let read = try base.read(into: UnsafeMutableBufferPointer(rebasing: input[end...]))
      if read == 0 { inputEnded = true }
      end += read
    }
    return end - start >= count
  }

  /// Reads `count` bytes (any number) into an array, or throws `cutOff`.
  private func take<Base: ByteSource>(_ count: Int, from base: inout Base, what: String) throws(FeedError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      guard try ensure(1, from: &base) else { throw cutOff(what) }
      let piece = min(count - bytes.count, end - start)
      bytes += input[start..<(start + piece)]
      start += piece
    }
    return bytes
  }

  /// Passes over `count` bytes, or throws `cutOff`.
  private func skip<Base: ByteSource>(_ count: Int, from base: inout Base, what: String) throws(FeedError) {
    var left = count
    while left > 0 {
      if start == end {
        consumedBefore += end
        start = 0
        end = 0
      }
      guard try ensure(1, from: &base) else { throw cutOff(what) }
      let piece = min(left, end - start)
      start += piece
      left -= piece
    }
  }

  /// The file ended early: the error names its end (every byte has been read by then).
  private func cutOff(_ what: String) -> FeedError {
    .badArchive(byteOffset: consumedBefore + end, detail: "the file ends inside \(what) (it was cut off)")
  }

  private func little(_ bytes: [UInt8], _ at: Int, _ width: Int) -> Int {
    var value = 0
    for index in stride(from: width - 1, through: 0, by: -1) { value = value << 8 | Int(bytes[at + index]) }
    return value
  }

  // MARK: Headers

  /// Reads local headers until the document's; skips every other entry.
  private func seekDocument<Base: ByteSource>(from base: inout Base) throws(FeedError) {
    guard let (entry, name) = try nextEntry(from: &base) else { throw noDocument() }
    let headerOffset = entry.headerOffset
    let isDocument = Self.isKML(name)
    guard entry.flags & 0x01 == 0 || !isDocument else {
      throw .badArchive(
        byteOffset: headerOffset, detail: "the KML entry is encrypted; decrypt the archive first (unzip FILE)")
    }
    guard entry.method == 0 || entry.method == 8 else {
      guard !isDocument else {
        throw .badArchive(
          byteOffset: headerOffset,
          detail:
            "the KML entry uses compression method \(entry.method); only stored (0) and deflate (8) are read; extract it first (unzip FILE)"
        )
      }
      try skipEntry(entry, name: name, from: &base)
      return
    }
    if isDocument {
      if entry.method == 0 && entry.hasDescriptor {
        throw .badArchive(
          byteOffset: headerOffset,
          detail:
            "the KML entry is stored with its size after the data, which cannot be read as a stream; extract it first (unzip FILE)"
        )
      }
      if entry.method == 0 && entry.compressedSize != entry.size {
        throw .badArchive(
          byteOffset: headerOffset,
          detail:
            "the KML entry is stored (not compressed) yet its sizes differ (\(entry.compressedSize) and \(entry.size) bytes)"
        )
      }
      if entry.method == 8 { try startInflate(headerOffset) }
      state = .document(entry)
    } else {
      try skipEntry(entry, name: name, from: &base)
    }
  }

  /// Walks the entries after the document to the central directory, passing over each as
  /// entries before it are passed over, and counts those named `*.kml`; nil when the walk
  /// cannot reach the central directory (what was read of the document stands either way).
  ///
  /// - Complexity: O(*n*) in the archive bytes after the document; memory one header.
  private func countOtherDocuments<Base: ByteSource>(from base: inout Base) -> Int? {
    var count = 0
    do throws(FeedError) {
      while let (entry, name) = try nextEntry(from: &base) {
        if Self.isKML(name) { count += 1 }
        try skipEntry(entry, name: name, from: &base)
      }
      return count
    } catch {
      return nil
    }
  }

  /// Reads the next local header and the entry's name; nil at the central directory (every
  /// entry has been seen).
  private func nextEntry<Base: ByteSource>(from base: inout Base) throws(FeedError) -> (Entry, [UInt8])? {
    let headerOffset = offset
    guard try ensure(4, from: &base) else {
      // An archive ends with its central directory; a file that ends at an entry's end was cut.
      throw cutOff(end == start ? "the zip archive, before its central directory" : "a zip header")
    }
    let signature = little(Array(input[start..<(start + 4)]), 0, 4)
    switch signature {
    case 0x0403_4B50: break
    case 0x0201_4B50, 0x0605_4B50, 0x0606_4B50: return nil
    default:
      throw .badArchive(
        byteOffset: headerOffset, detail: "expected a zip entry's local header (PK 03 04) or the central directory")
    }
    let header = try take(30, from: &base, what: "a zip entry's local header")
    let nameLength = little(header, 26, 2)
    let extraLength = little(header, 28, 2)
    let name = try take(nameLength, from: &base, what: "a zip entry's name")
    let extra = try take(extraLength, from: &base, what: "a zip entry's extra field")
    var entry = Entry(
      headerOffset: headerOffset, dataOffset: offset, flags: UInt16(little(header, 6, 2)),
      method: UInt16(little(header, 8, 2)),
      crc: UInt32(little(header, 14, 4)), compressedSize: little(header, 18, 4), size: little(header, 22, 4),
      zip64: false)
    try readZip64(extra, into: &entry)
    return (entry, name)
  }

  /// Sizes of 0xFFFFFFFF are in the zip64 extra field (id 1): the size, then the compressed size,
  /// each present only when its 32-bit field is 0xFFFFFFFF.
  private func readZip64(_ extra: [UInt8], into entry: inout Entry) throws(FeedError) {
    guard entry.size == 0xFFFF_FFFF || entry.compressedSize == 0xFFFF_FFFF else { return }
    var index = 0
    while index + 4 <= extra.count {
      let id = little(extra, index, 2)
      let length = little(extra, index + 2, 2)
      let body = index + 4
      guard body + length <= extra.count else { break }
      if id == 1 {
        var field = body
        entry.zip64 = true
        if entry.size == 0xFFFF_FFFF, field + 8 <= body + length {
          entry.size = little(extra, field, 8)
          field += 8
        }
        if entry.compressedSize == 0xFFFF_FFFF, field + 8 <= body + length {
          entry.compressedSize = little(extra, field, 8)
        }
        // Sizes past 2^62 are nonsense, and would overflow counting.
        guard entry.size >= 0, entry.size < 1 << 62, entry.compressedSize >= 0, entry.compressedSize < 1 << 62 else {
          break
        }
        if entry.size != 0xFFFF_FFFF && entry.compressedSize != 0xFFFF_FFFF { return }
        break
      }
      index = body + length
    }
    throw .badArchive(
      byteOffset: entry.headerOffset, detail: "a zip entry's sizes point to a zip64 field that is missing or damaged")
  }

  static func isKML(_ name: [UInt8]) -> Bool {
    name.count >= 4 && name.suffix(4).map(\.asciiLowercased) == Array(".kml".utf8)
  }

  /// The kind an entry is counted under: its extension (`.gpx`), `folder`, or `other`.
  static func kind(_ name: [UInt8]) -> String {
    if name.last == 0x2F { return "folder" }
    let base = name.split(separator: 0x2F, omittingEmptySubsequences: false).last ?? []
    guard let dot = base.lastIndex(of: 0x2E), dot > base.startIndex, (2...8).contains(base.endIndex - dot),
      base[(dot + 1)...].allSatisfy({ $0.isASCIIDigit || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
    else { return "other" }
    return "." + String(decoding: base[(dot + 1)...].map(\.asciiLowercased), as: UTF8.self)
  }

  private func noDocument() -> FeedError {
    .noFeedInArchive(
      holding: skipped.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map {
        "\($0.value) \($0.key)"
      })
  }

  /// Passes over an entry that is not the document.
  private func skipEntry<Base: ByteSource>(_ entry: Entry, name: [UInt8], from base: inout Base) throws(FeedError) {
    // At most 16 kinds are kept apart (a hostile archive can invent a kind per entry).
    let kind = Self.kind(name)
    skipped[skipped[kind] != nil || skipped.count < 16 ? kind : "other", default: 0] += 1
    guard entry.hasDescriptor else {
      try skip(entry.compressedSize, from: &base, what: "a zip entry's data")
      return
    }
    guard entry.method == 8, entry.flags & 0x01 == 0 else {
      throw .badArchive(
        byteOffset: entry.headerOffset,
        detail:
          "an entry before the KML document gives its size only after its data and is not deflated, so it cannot be skipped as a stream; extract the KML first (unzip FILE)"
      )
    }
    try startInflate(entry.headerOffset)
    var discard = [UInt8](repeating: 0, count: 1 << 15)
    var running = entry
    while true {
      let count = try discard.withUnsafeMutableBufferPointer { buffer throws(FeedError) in
        try readDocument(&running, into: buffer, from: &base, checksum: false)
      }
      if count == 0 { break }
    }
    _ = try readDescriptor(running, from: &base)
  }

  // MARK: Data

  private func startInflate(_ headerOffset: Int) throws(FeedError) {
    if let stream {
      inflateReset(stream)
      return
    }
    let created = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    created.initialize(to: z_stream())
    // -15: a 32 KiB window, raw deflate (zip entries have no zlib or gzip wrapper).
    let status = inflateInit2_(created, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      created.deinitialize(count: 1)
      created.deallocate()
      throw .badArchive(byteOffset: headerOffset, detail: "zlib could not start (status \(status))")
    }
    stream = created
  }

  /// Reads the entry's data into `output`; 0 at the end of its data. Known sizes bound the
  /// input; output past the declared size, or past the ratio limit, is an error.
  private func readDocument<Base: ByteSource>(
    _ entry: inout Entry, into output: UnsafeMutableBufferPointer<UInt8>, from base: inout Base, checksum: Bool = true
  ) throws(FeedError) -> Int {
    let knownSize = !entry.hasDescriptor
    var produced = 0
    if entry.method == 0 {
      while produced < output.count, entry.compressedRead < entry.compressedSize {
        if start == end {
          guard try ensure(1, from: &base) else { throw cutOff("the KML entry's data") }
        }
        let count = min(output.count - produced, end - start, entry.compressedSize - entry.compressedRead)
        output.baseAddress!.advanced(by: produced).update(from: input.baseAddress! + start, count: count)
        start += count
        produced += count
        entry.compressedRead += count
      }
    } else {
      guard let stream else { return 0 }
      while produced < output.count, !entry.ended {
        // Known sizes bound the input: deflate data must end within the stored compressed size.
        let remaining = knownSize ? entry.compressedSize - entry.compressedRead : Int.max
        var available = 0
        if remaining > 0 {
          if start == end {
            guard try ensure(1, from: &base) else { throw cutOff("the entry's compressed data") }
          }
          available = min(end - start, remaining)
        }
        stream.pointee.next_in = input.baseAddress! + start
        stream.pointee.avail_in = UInt32(min(available, Int(UInt32.max)))
        stream.pointee.next_out = output.baseAddress! + produced
        stream.pointee.avail_out = UInt32(min(output.count - produced, Int(UInt32.max)))
        let beforeIn = Int(stream.pointee.avail_in)
        let beforeOut = Int(stream.pointee.avail_out)
        let status = inflate(stream, Z_NO_FLUSH)
        let used = beforeIn - Int(stream.pointee.avail_in)
        start += used
        entry.compressedRead += used
        produced += beforeOut - Int(stream.pointee.avail_out)
        stream.pointee.avail_in = 0
        switch status {
        case Z_OK:
          continue
        case Z_BUF_ERROR:
          // No progress: only possible here once the stored compressed size is used up.
          throw .badArchive(
            byteOffset: offset,
            detail: "the entry's deflate data runs past its stored compressed size (\(entry.compressedSize) bytes)")
        case Z_STREAM_END:
          if knownSize && entry.compressedRead != entry.compressedSize {
            throw .badArchive(
              byteOffset: offset,
              detail:
                "the entry's deflate data ends after \(entry.compressedRead) bytes, but its stored compressed size is \(entry.compressedSize)"
            )
          }
          entry.ended = true
        default:
          throw .badArchive(byteOffset: offset, detail: zlibMessage(status, stream))
        }
      }
    }
    try account(&entry, output, produced, checksum: checksum)
    return produced
  }

  /// Adds `count` bytes of output to the entry's size and CRC, and checks the limits.
  private func account(_ entry: inout Entry, _ output: UnsafeMutableBufferPointer<UInt8>, _ count: Int, checksum: Bool)
    throws(FeedError)
  {
    guard count > 0 else { return }
    entry.produced += count
    if checksum { entry.runningCRC = crc32(entry.runningCRC, output.baseAddress, UInt32(count)) }
    if !entry.hasDescriptor && entry.produced > entry.size {
      throw .badArchive(byteOffset: offset, detail: "the entry holds more than its stored size of \(entry.size) bytes")
    }
    if entry.produced > Self.ratioAllowance && entry.produced > Self.maximumRatio * max(1, entry.compressedRead) {
      throw .badArchive(
        byteOffset: offset,
        detail:
          "the entry expands more than \(Self.maximumRatio) times its compressed size, as a zip bomb does; extract it first (unzip FILE) if it is genuine"
      )
    }
  }

  /// After the document's data: its size and CRC-32 against the header's or the descriptor's.
  private func finishDocument<Base: ByteSource>(_ entry: Entry, from base: inout Base) throws(FeedError) {
    var expected = (crc: entry.crc, size: entry.size)
    if entry.hasDescriptor { expected = try readDescriptor(entry, from: &base) }
    if entry.produced != expected.size {
      throw .badArchive(
        byteOffset: offset,
        detail: "the KML entry holds \(entry.produced) bytes, but its stored size is \(expected.size)")
    }
    if UInt32(truncatingIfNeeded: entry.runningCRC) != expected.crc {
      throw .badArchive(
        byteOffset: offset,
        detail:
          "the KML entry's CRC-32 does not match (stored \(hex(expected.crc)), computed \(hex(UInt32(truncatingIfNeeded: entry.runningCRC)))): the data is damaged"
      )
    }
  }

  /// The data descriptor after an entry's data: an optional `PK 07 08`, the CRC-32, then the
  /// compressed size and size (8 bytes each for a zip64 entry, 4 otherwise). Checks the
  /// compressed size against the bytes read.
  private func readDescriptor<Base: ByteSource>(_ entry: Entry, from base: inout Base) throws(FeedError) -> (
    crc: UInt32, size: Int
  ) {
    let at = offset
    guard try ensure(4, from: &base) else { throw cutOff("a zip entry's data descriptor") }
    if little(Array(input[start..<(start + 4)]), 0, 4) == 0x0807_4B50 { start += 4 }
    let width = entry.zip64 ? 8 : 4
    let fields = try take(4 + 2 * width, from: &base, what: "a zip entry's data descriptor")
    let compressed = little(fields, 4, width)
    guard compressed == entry.compressedRead else {
      throw .badArchive(
        byteOffset: at,
        detail:
          "the data descriptor gives a compressed size of \(compressed) bytes, but the deflate data took \(entry.compressedRead)"
      )
    }
    return (UInt32(little(fields, 0, 4)), little(fields, 4 + width, width))
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  private func zlibMessage(_ status: Int32, _ stream: UnsafeMutablePointer<z_stream>) -> String {
    if let message = stream.pointee.msg { return "the entry's deflate data is damaged (\(String(cString: message)))" }
    return "the entry's deflate data is damaged (zlib status \(status))"
  }
}
