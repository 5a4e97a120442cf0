import Foundation
import Testing

@testable import RouteSynthesis

@Suite("Deterministic random numbers and trigonometry")
struct SynthesisMathTests {
  @Test("sinCos agrees with libm to a few ulps over the range the motion model uses")
  func sinCosMatchesLibm() {
    var random = SynthesisRandom(seed: 11)
    for _ in 0..<20_000 {
      let x = random.uniform(-40, 40)
      let (s, c) = SynthesisMath.sinCos(x)
      #expect(abs(s - Foundation.sin(x)) <= 4e-16 * max(1, abs(x)))
      #expect(abs(c - Foundation.cos(x)) <= 4e-16 * max(1, abs(x)))
    }
    #expect(SynthesisMath.sinCos(0) == (0, 1))
  }

  @Test("the same seed gives the same stream; another seed another")
  func seededStreams() {
    var a = SynthesisRandom(seed: 42)
    var b = SynthesisRandom(seed: 42)
    var c = SynthesisRandom(seed: 43)
    let first = (0..<64).map { _ in a.next() }
    #expect(first == (0..<64).map { _ in b.next() })
    #expect(first != (0..<64).map { _ in c.next() })
  }

  @Test("draws stay in their ranges; normal() has unit spread")
  func drawRanges() {
    var random = SynthesisRandom(seed: 7)
    var sum = 0.0
    var squares = 0.0
    let n = 100_000
    for _ in 0..<n {
      let u = random.unit()
      #expect(u >= 0 && u < 1)
      let k = random.integer(3...9)
      #expect((3...9).contains(k))
      let z = random.normal()
      #expect(abs(z) <= 3.47)
      sum += z
      squares += z * z
    }
    #expect(abs(sum / Double(n)) < 0.02)
    #expect(abs(squares / Double(n) - 1) < 0.02)
  }
}
