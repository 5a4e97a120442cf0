/// SplitMix64: a tiny, seeded, platform-independent generator, so every "random" test sees the
/// same drives, permutations and garbage on every run and every machine. The one copy the test
/// targets share.
public struct SeededRandom: RandomNumberGenerator {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A double in [0, 1) from the top 53 bits.
  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// An integer in 0..<`bound`.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// A Fisher–Yates shuffle driven by this generator.
  public mutating func permuted<T>(_ values: [T]) -> [T] {
    var copy = values
    copy.shuffle(using: &self)
    return copy
  }
}
