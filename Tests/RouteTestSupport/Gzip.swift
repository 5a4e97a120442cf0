/// Gzip-compresses bytes in memory through the system zlib, so tests make `.gz` inputs from the
/// fixtures they already have instead of keeping compressed copies.
public enum Gzip {
  /// One gzip member holding `bytes` (deflate level `level`, 1–9).
  public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    // 15 + 16: a 32 KiB window with a gzip header and trailer.
    Deflate.oneShot(bytes, level: level, windowBits: 15 + 16)
  }
}
