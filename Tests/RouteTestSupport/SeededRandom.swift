import RouteMileage

/// SplitMix64: a tiny, seeded, platform-independent generator, so every "random" test sees the
/// same drives, permutations and garbage on every run and every machine. It is RouteMileage's
/// `SplitMix64` (one implementation of the generator in the package), with the draws the tests
/// use added here.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
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
