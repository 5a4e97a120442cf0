import CZlib

/// One-shot deflate through the system zlib: the one body behind `Gzip.compress` (gzip header
/// and trailer) and `Zip.deflateRaw` (raw deflate, as zip stores it), which differ only in the
/// window-bits argument that picks the wrapper.
enum Deflate {
  /// `bytes` deflated at `level` (1–9) in a single `deflate(Z_FINISH)` call into a buffer of
  /// zlib's bound for that input, so one call always finishes. O(n) time and memory.
  /// - Parameter windowBits: zlib's `windowBits`: 15 + 16 for gzip, -15 for raw deflate.
  static func oneShot(_ bytes: [UInt8], level: Int32, windowBits: Int32) -> [UInt8] {
    var stream = z_stream()
    let status = deflateInit2_(
      &stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "deflateInit2 failed: \(status)")
    defer { deflateEnd(&stream) }
    var input = bytes
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
    let written = input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = source.baseAddress
        stream.avail_in = UInt32(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = UInt32(target.count)
        let result = deflate(&stream, Z_FINISH)
        precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
        return target.count - Int(stream.avail_out)
      }
    }
    return Array(output[0..<written])
  }
}
