/// SplitMix64: turns one seed into a stream of well-mixed 64-bit words.
///
/// The package's one seeded generator: RouteSynthesis seeds its drives with it and derives
/// independent sub-seeds (one per sample file, one per shift of a batch, one per random stream of
/// a drive), so changing how many numbers one stream draws never shifts another; `replay` draws
/// its chosen faults from it, so a seed replays the same faults. Written here rather than taken
/// from the standard library, whose generators are neither seedable nor promised to stay the same
/// between releases.
///
/// - Complexity: O(1) per word.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1), from the top 53 bits.
  @inlinable
  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// A sub-seed for stream `index` of `seed`: the same pair always gives the same value.
  @inlinable
  public static func derive(_ seed: UInt64, _ index: UInt64) -> UInt64 {
    var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}
