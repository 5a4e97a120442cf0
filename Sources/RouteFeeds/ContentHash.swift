/// SHA-256 (FIPS 180-4) of a feed's bytes, so an import can tell that a file's content is
/// already stored (`import` skips it unless `--allow-duplicate`).
///
/// Streaming: `update` takes the bytes in chunks of any size. Whole 64-byte blocks are
/// compressed straight from the caller's buffer; only a block a chunk boundary splits is copied,
/// into a fixed 64-byte buffer held inline (no heap allocation after `init`). No Foundation, no
/// CryptoKit.
///
/// - Complexity: O(*n*) in the bytes hashed (about 44 instructions a byte on x86-64); O(1)
///   memory.
public struct ContentHash: Sendable {
  private var state = SHA256Words(
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
  /// The bytes of a block not yet complete (the first `pendingCount` of them).
  private var pending = SHA256Block()
  private var pendingCount = 0
  private var totalBytes: UInt64 = 0

  public init() {}

  public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    update(UnsafeRawPointer(base), count: bytes.count)
  }

  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { update($0) }
  }

  /// Hashes `count` bytes from `start`: first completes a pending block, then compresses every
  /// whole block in place, then keeps the tail (fewer than 64 bytes) for the next call.
  mutating func update(_ start: UnsafeRawPointer, count: Int) {
    totalBytes &+= UInt64(count)
    var next = start
    var remaining = count
    if pendingCount > 0 {
      let taken = min(64 - pendingCount, remaining)
      let offset = pendingCount
      withUnsafeMutableBytes(of: &pending) { block in
        block.baseAddress?.advanced(by: offset).copyMemory(from: next, byteCount: taken)
      }
      pendingCount += taken
      next += taken
      remaining -= taken
      guard pendingCount == 64 else { return }
      pendingCount = 0
      let block = pending
      withUnsafeBytes(of: block) { block in
        if let base = block.baseAddress { state.compress(base, blocks: 1) }
      }
    }
    let whole = remaining / 64
    if whole > 0 {
      state.compress(next, blocks: whole)
      next += whole * 64
      remaining -= whole * 64
    }
    if remaining > 0 {
      withUnsafeMutableBytes(of: &pending) { block in
        block.baseAddress?.copyMemory(from: next, byteCount: remaining)
      }
      pendingCount = remaining
    }
  }

  /// The digest as 64 lower-case hex digits.
  public func finalize() -> String {
    var copy = self
    let bitLength = totalBytes &* 8
    var padding: [UInt8] = [0x80]
    let used = (pendingCount + 1) % 64
    padding += [UInt8](repeating: 0, count: (used <= 56 ? 56 - used : 120 - used))
    for shift in stride(from: 56, through: 0, by: -8) {
      padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    copy.update(padding)
    let words = [
      copy.state.a, copy.state.b, copy.state.c, copy.state.d, copy.state.e, copy.state.f, copy.state.g, copy.state.h,
    ]
    let digits = Array("0123456789abcdef")
    var text = ""
    for word in words {
      for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
    }
    return text
  }
}

/// One 64-byte message block, held inline.
private struct SHA256Block: Sendable {
  var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// The eight working words of SHA-256 and its compression function.
private struct SHA256Words: Sendable {
  var a, b, c, d, e, f, g, h: UInt32

  init(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: UInt32
  ) {
    (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h) = (a, b, c, d, e, f, g, h)
  }

  /// Compresses `blocks` consecutive 64-byte blocks starting at `start` (any alignment) into
  /// the words. The 64 rounds are written out with their constants inline, and the message
  /// schedule is a window of the last 16 words, each replaced just before the round that uses it,
  /// so no schedule array is filled first and the working words are renamed instead of moved.
  ///
  /// - Complexity: O(`blocks`); no heap allocation.
  mutating func compress(_ start: UnsafeRawPointer, blocks: Int) {
    var block = start
    for _ in 0..<blocks {
      var w0 = block.loadUnaligned(fromByteOffset: 0, as: UInt32.self).bigEndian
      var w1 = block.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian
      var w2 = block.loadUnaligned(fromByteOffset: 8, as: UInt32.self).bigEndian
      var w3 = block.loadUnaligned(fromByteOffset: 12, as: UInt32.self).bigEndian
      var w4 = block.loadUnaligned(fromByteOffset: 16, as: UInt32.self).bigEndian
      var w5 = block.loadUnaligned(fromByteOffset: 20, as: UInt32.self).bigEndian
      var w6 = block.loadUnaligned(fromByteOffset: 24, as: UInt32.self).bigEndian
      var w7 = block.loadUnaligned(fromByteOffset: 28, as: UInt32.self).bigEndian
      var w8 = block.loadUnaligned(fromByteOffset: 32, as: UInt32.self).bigEndian
      var w9 = block.loadUnaligned(fromByteOffset: 36, as: UInt32.self).bigEndian
      var w10 = block.loadUnaligned(fromByteOffset: 40, as: UInt32.self).bigEndian
      var w11 = block.loadUnaligned(fromByteOffset: 44, as: UInt32.self).bigEndian
      var w12 = block.loadUnaligned(fromByteOffset: 48, as: UInt32.self).bigEndian
      var w13 = block.loadUnaligned(fromByteOffset: 52, as: UInt32.self).bigEndian
      var w14 = block.loadUnaligned(fromByteOffset: 56, as: UInt32.self).bigEndian
      var w15 = block.loadUnaligned(fromByteOffset: 60, as: UInt32.self).bigEndian
      var (a, b, c, d, e, f, g, h) = (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h)
      // b ^ c of the first round; each round hands on its a ^ b, the next round's b ^ c.
      var bc = b ^ c
      round(a, b, c, &d, e, f, g, &h, 0x428a_2f98 &+ w0, &bc)
      round(h, a, b, &c, d, e, f, &g, 0x7137_4491 &+ w1, &bc)
      round(g, h, a, &b, c, d, e, &f, 0xb5c0_fbcf &+ w2, &bc)
      round(f, g, h, &a, b, c, d, &e, 0xe9b5_dba5 &+ w3, &bc)
      round(e, f, g, &h, a, b, c, &d, 0x3956_c25b &+ w4, &bc)
      round(d, e, f, &g, h, a, b, &c, 0x59f1_11f1 &+ w5, &bc)
      round(c, d, e, &f, g, h, a, &b, 0x923f_82a4 &+ w6, &bc)
      round(b, c, d, &e, f, g, h, &a, 0xab1c_5ed5 &+ w7, &bc)
      round(a, b, c, &d, e, f, g, &h, 0xd807_aa98 &+ w8, &bc)
      round(h, a, b, &c, d, e, f, &g, 0x1283_5b01 &+ w9, &bc)
      round(g, h, a, &b, c, d, e, &f, 0x2431_85be &+ w10, &bc)
      round(f, g, h, &a, b, c, d, &e, 0x550c_7dc3 &+ w11, &bc)
      round(e, f, g, &h, a, b, c, &d, 0x72be_5d74 &+ w12, &bc)
      round(d, e, f, &g, h, a, b, &c, 0x80de_b1fe &+ w13, &bc)
      round(c, d, e, &f, g, h, a, &b, 0x9bdc_06a7 &+ w14, &bc)
      round(b, c, d, &e, f, g, h, &a, 0xc19b_f174 &+ w15, &bc)
      w0 = schedule(w0, w1, w9, w14)
      round(a, b, c, &d, e, f, g, &h, 0xe49b_69c1 &+ w0, &bc)
      w1 = schedule(w1, w2, w10, w15)
      round(h, a, b, &c, d, e, f, &g, 0xefbe_4786 &+ w1, &bc)
      w2 = schedule(w2, w3, w11, w0)
      round(g, h, a, &b, c, d, e, &f, 0x0fc1_9dc6 &+ w2, &bc)
      w3 = schedule(w3, w4, w12, w1)
      round(f, g, h, &a, b, c, d, &e, 0x240c_a1cc &+ w3, &bc)
      w4 = schedule(w4, w5, w13, w2)
      round(e, f, g, &h, a, b, c, &d, 0x2de9_2c6f &+ w4, &bc)
      w5 = schedule(w5, w6, w14, w3)
      round(d, e, f, &g, h, a, b, &c, 0x4a74_84aa &+ w5, &bc)
      w6 = schedule(w6, w7, w15, w4)
      round(c, d, e, &f, g, h, a, &b, 0x5cb0_a9dc &+ w6, &bc)
      w7 = schedule(w7, w8, w0, w5)
      round(b, c, d, &e, f, g, h, &a, 0x76f9_88da &+ w7, &bc)
      w8 = schedule(w8, w9, w1, w6)
      round(a, b, c, &d, e, f, g, &h, 0x983e_5152 &+ w8, &bc)
      w9 = schedule(w9, w10, w2, w7)
      round(h, a, b, &c, d, e, f, &g, 0xa831_c66d &+ w9, &bc)
      w10 = schedule(w10, w11, w3, w8)
      round(g, h, a, &b, c, d, e, &f, 0xb003_27c8 &+ w10, &bc)
      w11 = schedule(w11, w12, w4, w9)
      round(f, g, h, &a, b, c, d, &e, 0xbf59_7fc7 &+ w11, &bc)
      w12 = schedule(w12, w13, w5, w10)
      round(e, f, g, &h, a, b, c, &d, 0xc6e0_0bf3 &+ w12, &bc)
      w13 = schedule(w13, w14, w6, w11)
      round(d, e, f, &g, h, a, b, &c, 0xd5a7_9147 &+ w13, &bc)
      w14 = schedule(w14, w15, w7, w12)
      round(c, d, e, &f, g, h, a, &b, 0x06ca_6351 &+ w14, &bc)
      w15 = schedule(w15, w0, w8, w13)
      round(b, c, d, &e, f, g, h, &a, 0x1429_2967 &+ w15, &bc)
      w0 = schedule(w0, w1, w9, w14)
      round(a, b, c, &d, e, f, g, &h, 0x27b7_0a85 &+ w0, &bc)
      w1 = schedule(w1, w2, w10, w15)
      round(h, a, b, &c, d, e, f, &g, 0x2e1b_2138 &+ w1, &bc)
      w2 = schedule(w2, w3, w11, w0)
      round(g, h, a, &b, c, d, e, &f, 0x4d2c_6dfc &+ w2, &bc)
      w3 = schedule(w3, w4, w12, w1)
      round(f, g, h, &a, b, c, d, &e, 0x5338_0d13 &+ w3, &bc)
      w4 = schedule(w4, w5, w13, w2)
      round(e, f, g, &h, a, b, c, &d, 0x650a_7354 &+ w4, &bc)
      w5 = schedule(w5, w6, w14, w3)
      round(d, e, f, &g, h, a, b, &c, 0x766a_0abb &+ w5, &bc)
      w6 = schedule(w6, w7, w15, w4)
      round(c, d, e, &f, g, h, a, &b, 0x81c2_c92e &+ w6, &bc)
      w7 = schedule(w7, w8, w0, w5)
      round(b, c, d, &e, f, g, h, &a, 0x9272_2c85 &+ w7, &bc)
      w8 = schedule(w8, w9, w1, w6)
      round(a, b, c, &d, e, f, g, &h, 0xa2bf_e8a1 &+ w8, &bc)
      w9 = schedule(w9, w10, w2, w7)
      round(h, a, b, &c, d, e, f, &g, 0xa81a_664b &+ w9, &bc)
      w10 = schedule(w10, w11, w3, w8)
      round(g, h, a, &b, c, d, e, &f, 0xc24b_8b70 &+ w10, &bc)
      w11 = schedule(w11, w12, w4, w9)
      round(f, g, h, &a, b, c, d, &e, 0xc76c_51a3 &+ w11, &bc)
      w12 = schedule(w12, w13, w5, w10)
      round(e, f, g, &h, a, b, c, &d, 0xd192_e819 &+ w12, &bc)
      w13 = schedule(w13, w14, w6, w11)
      round(d, e, f, &g, h, a, b, &c, 0xd699_0624 &+ w13, &bc)
      w14 = schedule(w14, w15, w7, w12)
      round(c, d, e, &f, g, h, a, &b, 0xf40e_3585 &+ w14, &bc)
      w15 = schedule(w15, w0, w8, w13)
      round(b, c, d, &e, f, g, h, &a, 0x106a_a070 &+ w15, &bc)
      w0 = schedule(w0, w1, w9, w14)
      round(a, b, c, &d, e, f, g, &h, 0x19a4_c116 &+ w0, &bc)
      w1 = schedule(w1, w2, w10, w15)
      round(h, a, b, &c, d, e, f, &g, 0x1e37_6c08 &+ w1, &bc)
      w2 = schedule(w2, w3, w11, w0)
      round(g, h, a, &b, c, d, e, &f, 0x2748_774c &+ w2, &bc)
      w3 = schedule(w3, w4, w12, w1)
      round(f, g, h, &a, b, c, d, &e, 0x34b0_bcb5 &+ w3, &bc)
      w4 = schedule(w4, w5, w13, w2)
      round(e, f, g, &h, a, b, c, &d, 0x391c_0cb3 &+ w4, &bc)
      w5 = schedule(w5, w6, w14, w3)
      round(d, e, f, &g, h, a, b, &c, 0x4ed8_aa4a &+ w5, &bc)
      w6 = schedule(w6, w7, w15, w4)
      round(c, d, e, &f, g, h, a, &b, 0x5b9c_ca4f &+ w6, &bc)
      w7 = schedule(w7, w8, w0, w5)
      round(b, c, d, &e, f, g, h, &a, 0x682e_6ff3 &+ w7, &bc)
      w8 = schedule(w8, w9, w1, w6)
      round(a, b, c, &d, e, f, g, &h, 0x748f_82ee &+ w8, &bc)
      w9 = schedule(w9, w10, w2, w7)
      round(h, a, b, &c, d, e, f, &g, 0x78a5_636f &+ w9, &bc)
      w10 = schedule(w10, w11, w3, w8)
      round(g, h, a, &b, c, d, e, &f, 0x84c8_7814 &+ w10, &bc)
      w11 = schedule(w11, w12, w4, w9)
      round(f, g, h, &a, b, c, d, &e, 0x8cc7_0208 &+ w11, &bc)
      w12 = schedule(w12, w13, w5, w10)
      round(e, f, g, &h, a, b, c, &d, 0x90be_fffa &+ w12, &bc)
      w13 = schedule(w13, w14, w6, w11)
      round(d, e, f, &g, h, a, b, &c, 0xa450_6ceb &+ w13, &bc)
      w14 = schedule(w14, w15, w7, w12)
      round(c, d, e, &f, g, h, a, &b, 0xbef9_a3f7 &+ w14, &bc)
      w15 = schedule(w15, w0, w8, w13)
      round(b, c, d, &e, f, g, h, &a, 0xc671_78f2 &+ w15, &bc)
      self.a &+= a
      self.b &+= b
      self.c &+= c
      self.d &+= d
      self.e &+= e
      self.f &+= f
      self.g &+= g
      self.h &+= h
      block += 64
    }
  }
}

/// The next schedule word from the window of the last 16: `w16` (the word 16 back) plus
/// σ0 of the word 15 back, the word 7 back and σ1 of the word 2 back. σ0 and σ1 chain their two
/// rotations through an xor, as Σ0 and Σ1 do.
@inline(__always)
private func schedule(_ w16: UInt32, _ w15: UInt32, _ w7: UInt32, _ w2: UInt32) -> UInt32 {
  let s0 = rotr(rotr(w15, 11) ^ w15, 7) ^ (w15 &>> 3)
  let s1 = rotr(rotr(w2, 2) ^ w2, 17) ^ (w2 &>> 10)
  return w16 &+ s0 &+ w7 &+ s1
}

/// One round: `d` becomes the next `e`, `h` the next `a`; the caller renames the rest.
///
/// Σ1 and Σ0 are written as three rotations chained through xors (equal to the standard's
/// three rotations xored: `ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)` is
/// `ror(ror(ror(e, 14) ^ e, 5) ^ e, 6)`), which needs one register instead of three. Maj is
/// `((a ^ b) & (b ^ c)) ^ b`, and `a ^ b` is the next round's `b ^ c`, passed on in `bc`.
@inline(__always)
private func round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
  _ h: inout UInt32, _ constantPlusWord: UInt32, _ bc: inout UInt32
) {
  h &+= constantPlusWord &+ (g ^ (e & (f ^ g)))
  h &+= rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)
  d &+= h
  let ab = a ^ b
  h &+= ((ab & bc) ^ b) &+ rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)
  bc = ab
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

/// A byte source that hashes what it hands out, so an import learns its feed's content hash in
/// the same single read that measures it (no second pass over a large file).
public struct HashingByteSource<Base: ByteSource>: ByteSource {
  public var base: Base
  public private(set) var hash = ContentHash()

  public init(_ base: Base) { self.base = base }

  public mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
    let count = try base.read(into: buffer)
    hash.update(UnsafeBufferPointer(rebasing: buffer[0..<count]))
    return count
  }
}
