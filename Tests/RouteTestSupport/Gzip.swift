import CZlib

/// Gzip-compresses bytes in memory through the system zlib, so tests make `.gz` inputs from the
/// fixtures they already have instead of keeping compressed copies.
public enum Gzip {
  /// One gzip member holding `bytes` (deflate level `level`, 1–9).
  public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    var stream = z_stream()
    // 15 + 16: a 32 KiB window with a gzip header and trailer.
    let status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
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
