import CZlib

/// Inflates one gzip file (every member of it, one after another) through the system zlib.
///
/// A class because zlib keeps a pointer back to its `z_stream` and refuses a stream that has
/// moved: the stream lives at one heap address from `inflateInit2` to `inflateEnd`.
///
/// Members are concatenated, as `gunzip` does. Zero bytes after the last member (tape or block
/// padding) are skipped; any other bytes after a member that do not start another member are an
/// error, and so is data that zlib finds damaged (a bad block, a wrong CRC-32 or length) or that
/// ends before the member's trailer. Every error names the compressed byte offset where zlib
/// stopped. Output produced before an error is handed out first; the error comes on the next
/// read, and on every read after it.
///
/// Memory: zlib's 32 KiB window and state plus one input buffer (64 KiB, or the first chunk's
/// size), whatever the file's size.
final class GzipInflater {
  private let stream: UnsafeMutablePointer<z_stream>
  private let input: UnsafeMutableBufferPointer<UInt8>
  /// Valid bytes at the start of `input`.
  private var inputCount = 0
  /// Compressed bytes before the current contents of `input`.
  private var consumedBefore = 0
  private var inputEnded = false
  /// A member's trailer was read; the next bytes decide whether another member follows.
  private var betweenMembers = false
  /// Zero bytes were skipped after a member: only more zeros may follow.
  private var inPadding = false
  private var finished = false
  private var pendingError: FeedError?

  /// - Parameter first: the compressed bytes already read (starting with the gzip magic).
  init(first: UnsafeBufferPointer<UInt8>) throws(FeedError) {
    input = .allocate(capacity: max(1 << 16, first.count))
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // 15 + 16: a 32 KiB window, gzip header and trailer (not zlib's or raw deflate).
    let status = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      input.deallocate()
      throw .badCompression(byteOffset: 0, detail: "zlib could not start (status \(status))")
    }
    if let base = first.baseAddress, first.count > 0 {
      input.baseAddress!.update(from: base, count: first.count)
    }
    inputCount = first.count
    stream.pointee.next_in = input.baseAddress
    stream.pointee.avail_in = UInt32(first.count)
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    input.deallocate()
  }

  /// The compressed offset zlib has reached.
  private var offset: Int { consumedBefore + inputCount - Int(stream.pointee.avail_in) }

  /// Fills `output` with decompressed bytes, reading compressed ones from `base` as needed;
  /// 0 at the end of the last member.
  ///
  /// - Complexity: O(*n*) in the bytes produced and consumed.
  func read<Base: ByteSource>(into output: UnsafeMutableBufferPointer<UInt8>, from base: inout Base) throws(FeedError)
    -> Int
  {
    // An error is sticky: every read after it repeats it, so a caller that stopped early
    // (detection's prefix) meets it again on its next read.
    if let error = pendingError { throw error }
    guard !finished, let outputBase = output.baseAddress, output.count > 0 else { return 0 }
    var produced = 0
    do throws(FeedError) {
      while produced < output.count {
        if stream.pointee.avail_in == 0 && !inputEnded { try refill(from: &base) }
        if betweenMembers {
          guard try startNextMember() else { break }
          continue
        }
        stream.pointee.next_out = outputBase + produced
        stream.pointee.avail_out = UInt32(min(output.count - produced, Int(UInt32.max)))
        let before = stream.pointee.avail_out
        let status = inflate(stream, Z_NO_FLUSH)
        produced += Int(before - stream.pointee.avail_out)
        switch status {
        case Z_OK:
          continue
        case Z_STREAM_END:
          betweenMembers = true
        case Z_BUF_ERROR:
          // No progress possible: out of input (refilled above unless the file ended).
          if stream.pointee.avail_in == 0 && inputEnded {
            throw .badCompression(
              byteOffset: offset, detail: "the file ends inside the compressed data (it was cut off)")
          }
        default:
          throw .badCompression(byteOffset: offset, detail: zlibMessage(status))
        }
      }
    } catch {
      pendingError = error
      guard produced > 0 else { throw error }
    }
    return produced
  }

  /// After a member's trailer: skips zero padding, starts the next member at a gzip magic, or
  /// ends. Returns false at the end of the input.
  private func startNextMember() throws(FeedError) -> Bool {
    while stream.pointee.avail_in > 0 {
      let byte = stream.pointee.next_in.pointee
      if byte == 0 {
        inPadding = true
        stream.pointee.next_in += 1
        stream.pointee.avail_in -= 1
        continue
      }
      guard !inPadding, byte == 0x1F else {
        throw .badCompression(
          byteOffset: offset,
          detail: "bytes after the end of the gzip data are neither another gzip member nor zero padding")
      }
      inflateReset(stream)
      betweenMembers = false
      return true
    }
    if inputEnded {
      finished = true
      return false
    }
    return true
  }

  private func refill<Base: ByteSource>(from base: inout Base) throws(FeedError) {
    consumedBefore += inputCount
    inputCount = try base.read(into: input)
    if inputCount == 0 { inputEnded = true }
    stream.pointee.next_in = input.baseAddress
    stream.pointee.avail_in = UInt32(inputCount)
  }

  private func zlibMessage(_ status: Int32) -> String {
    if let message = stream.pointee.msg { return String(cString: message) }
    switch status {
    case Z_DATA_ERROR: return "the data is not valid deflate data"
    case Z_NEED_DICT: return "the data needs a preset dictionary, which gzip never uses"
    case Z_MEM_ERROR: return "zlib ran out of memory"
    default: return "zlib status \(status)"
    }
  }
}
