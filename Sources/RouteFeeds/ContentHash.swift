/// SHA-256 (FIPS 180-4) of a feed's bytes, so an import can tell that a file's content is
/// already stored (`import` skips it unless `--allow-duplicate`).
///
/// Streaming: `update` takes the bytes in chunks of any size. Whole 64-byte blocks are
/// compressed straight from the caller's buffer; only a block a chunk boundary splits is copied,
/// into a fixed 64-byte buffer held inline (no heap allocation after `init`). No Foundation, no
/// CryptoKit.
///
/// - Complexity: O(*n*) in the bytes hashed (about 49 instructions a byte on x86-64); O(1)
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

  static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// Compresses `blocks` consecutive 64-byte blocks starting at `start` (any alignment) into
  /// the words. The message schedule lives in one 64-word stack buffer reused for every block;
  /// the rounds are unrolled eight at a time with the working words renamed instead of moved.
  ///
  /// - Complexity: O(`blocks`); no heap allocation.
  mutating func compress(_ start: UnsafeRawPointer, blocks: Int) {
    Self.roundConstants.withUnsafeBufferPointer { constants in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
        guard let k = constants.baseAddress, let w = schedule.baseAddress else { return }
        var block = start
        for _ in 0..<blocks {
          for t in 0..<16 {
            w[t] = block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self).bigEndian
          }
          for t in 16..<64 {
            let early = w[t &- 15]
            let late = w[t &- 2]
            let s0 = rotr(early, 7) ^ rotr(early, 18) ^ (early &>> 3)
            let s1 = rotr(late, 17) ^ rotr(late, 19) ^ (late &>> 10)
            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
          }
          var (a, b, c, d, e, f, g, h) = (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h)
          // b ^ c of the first round; each round hands on its a ^ b, the next round's b ^ c.
          var bc = b ^ c
          var t = 0
          while t < 64 {
            round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
            round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1], &bc)
            round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2], &bc)
            round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3], &bc)
            round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4], &bc)
            round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5], &bc)
            round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6], &bc)
            round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7], &bc)
            t &+= 8
          }
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
  }
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
  let sum1 = rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)
  let choose = g ^ (e & (f ^ g))
  let t1 = h &+ sum1 &+ choose &+ constantPlusWord
  let sum0 = rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)
  let ab = a ^ b
  let majority = (ab & bc) ^ b
  bc = ab
  d &+= t1
  h = t1 &+ sum0 &+ majority
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
