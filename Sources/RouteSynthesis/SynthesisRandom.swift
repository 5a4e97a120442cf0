import RouteMileage

/// xoshiro256**: the random stream every synthetic drive draws from.
///
/// Every draw is defined here in integer and IEEE-754 arithmetic only (no libm, no
/// `Int.random(in:)`), so a seed gives the same drive, bit for bit, on every platform and every
/// Swift release.
///
/// - Complexity: O(1) per draw; 32 bytes of state.
public struct SynthesisRandom: RandomNumberGenerator, Sendable, Hashable {
  @usableFromInline var s0: UInt64
  @usableFromInline var s1: UInt64
  @usableFromInline var s2: UInt64
  @usableFromInline var s3: UInt64

  public init(seed: UInt64) {
    var mixer = SplitMix64(seed: seed)
    s0 = mixer.next()
    s1 = mixer.next()
    s2 = mixer.next()
    s3 = mixer.next()
  }

  @inlinable
  public mutating func next() -> UInt64 {
    let result = (s1 &* 5).rotatedLeft(by: 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3.rotatedLeft(by: 45)
    return result
  }

  /// Uniform in [0, 1), with 53 random bits.
  @inlinable
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// Uniform in [lower, upper).
  @inlinable
  public mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * unit()
  }

  /// True with probability `probability`.
  @inlinable
  public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  /// Uniform over `range`, by a 128-bit multiply (Lemire's method without the rejection step:
  /// the bias is below 2⁻³² for any range used here).
  @inlinable
  public mutating func integer(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next().multipliedFullWidth(by: span).high)
  }

  /// Approximately standard normal: the Irwin–Hall sum of four uniforms, rescaled to unit
  /// variance. Bounded by ±3.46, which suits noise models (no absurd outliers), and needs no
  /// logarithm, so it is bit-identical everywhere.
  @inlinable
  public mutating func normal() -> Double {
    let sum = unit() + unit() + unit() + unit()
    return (sum - 2) * 1.7320508075688772
  }
}

extension UInt64 {
  @inlinable func rotatedLeft(by amount: UInt64) -> UInt64 {
    (self << amount) | (self >> (64 - amount))
  }
}
