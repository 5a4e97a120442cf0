/// SHA-256 (FIPS 180-4) of a feed's bytes, so an import can tell that a file's content is
/// already stored (`import` skips it unless `--allow-duplicate`).
///
/// Streaming: `update` takes the bytes in chunks of any size. No Foundation, no CryptoKit.
///
/// - Complexity: O(*n*) in the bytes hashed; O(1) memory.
public struct ContentHash: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  private var block = [UInt8](repeating: 0, count: 64)
  private var blockCount = 0
  private var totalBytes: UInt64 = 0

  public init() {}

  public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
    totalBytes &+= UInt64(bytes.count)
    var index = 0
    if blockCount > 0 {
      while blockCount < 64, index < bytes.count {
        block[blockCount] = bytes[index]
        blockCount += 1
        index += 1
      }
      if blockCount == 64 {
        block.withUnsafeBufferPointer { compress($0, 0) }
        blockCount = 0
      }
    }
    while bytes.count - index >= 64 {
      compress(bytes, index)
      index += 64
    }
    while index < bytes.count {
      block[blockCount] = bytes[index]
      blockCount += 1
      index += 1
    }
  }

  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { update($0) }
  }

  /// The digest as 64 lower-case hex digits.
  public func finalize() -> String {
    var copy = self
    let bitLength = totalBytes &* 8
    var padding: [UInt8] = [0x80]
    let used = (blockCount + 1) % 64
    padding += [UInt8](repeating: 0, count: (used <= 56 ? 56 - used : 120 - used))
    for shift in stride(from: 56, through: 0, by: -8) {
      padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    let total = copy.totalBytes
    copy.update(padding)
    copy.totalBytes = total
    let words = [
      copy.state.0, copy.state.1, copy.state.2, copy.state.3, copy.state.4, copy.state.5, copy.state.6, copy.state.7,
    ]
    let digits = Array("0123456789abcdef")
    var text = ""
    for word in words {
      for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
    }
    return text
  }

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  private mutating func compress(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) {
    @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
    state = Self.k.withUnsafeBufferPointer { k in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        for t in 0..<16 {
          let i = offset + t * 4
          w[t] = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
        for t in 16..<64 {
          let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
          let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
          w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
          let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
          let ch = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
          let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
          let maj = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = s0 &+ maj
          h = g
          g = f
          f = e
          e = d &+ temp1
          d = c
          c = b
          b = a
          a = temp1 &+ temp2
        }
        return (
          state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
      }
    }
  }
}

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
