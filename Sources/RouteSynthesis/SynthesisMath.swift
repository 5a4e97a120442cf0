import RouteMileage

/// The little trigonometry the motion model needs, in `+ − × ÷` only.
///
/// libm's `sin` and `cos` may differ in the last bit between platforms and releases, and one
/// differing bit in a heading can move a later coordinate across a rounding boundary of the
/// 7-decimal output. These kernels use only correctly rounded IEEE-754 operations (Swift never
/// fuses them), so the committed SampleRoutes regenerate byte for byte on Linux and macOS alike.
/// Accuracy is a few ulps over the range used (|x| below a few thousand radians).
///
/// - Complexity: O(1).
public enum SynthesisMath {
  @usableFromInline static let halfPiHigh: Double = 1.570_796_326_734_125_614_17
  @usableFromInline static let halfPiLow: Double = 6.077_100_506_506_192_249_32e-11
  @usableFromInline static let twoOverPi: Double = 0.636_619_772_367_581_382_43

  /// Sine and cosine of `x` radians.
  @inlinable
  public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    let k = (x * twoOverPi).rounded(.toNearestOrEven)
    let r = (x - k * halfPiHigh) - k * halfPiLow
    let r2 = r * r
    // Taylor kernels on |r| ≤ π/4; the first omitted terms are below 5e-17.
    let s =
      r
      * (1 + r2
        * (-1.0 / 6 + r2
          * (1.0 / 120 + r2
            * (-1.0 / 5040 + r2
              * (1.0 / 362_880
                + r2 * (-1.0 / 39_916_800 + r2 * (1.0 / 6_227_020_800 + r2 * (-1.0 / 1_307_674_368_000))))))))
    let c =
      1 + r2
      * (-0.5 + r2
        * (1.0 / 24 + r2
          * (-1.0 / 720 + r2
            * (1.0 / 40320 + r2
              * (-1.0 / 3_628_800
                + r2 * (1.0 / 479_001_600 + r2 * (-1.0 / 87_178_291_200 + r2 * (1.0 / 20_922_789_888_000))))))))
    switch Int64(k) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
  }

  @inlinable public static func sin(_ x: Double) -> Double { sinCos(x).sin }
  @inlinable public static func cos(_ x: Double) -> Double { sinCos(x).cos }
}
