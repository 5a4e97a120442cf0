/// The GPS receiver: what accuracy it reports and how far its fixes stray from the truth.
///
/// The reported accuracy wanders around the reception's typical value (with degraded spells).
/// The position error is a slowly wandering bias (a first-order autoregressive process with a
/// time constant of about two minutes and a spread of 0.4 × the accuracy per axis) plus a little
/// white noise (0.03 × the accuracy), so a standing vehicle's fixes drift a few metres back and
/// forth, as real ones do, rather than jumping around independently.
///
/// - Complexity: O(1) per second.
struct ReceiverModel: Sendable {
  private var rng: SynthesisRandom
  private let reception: Reception
  private var level: Double
  /// The level the position error follows: the reported accuracy, smoothed over about 20 s,
  /// so a degraded spell scatters fixes gradually rather than in one leap.
  private var errorScale: Double
  private var degradedSecondsLeft = 0
  private var degradedLevel = 0.0
  private var biasEast = 0.0
  private var biasNorth = 0.0
  private var biasUp = 0.0

  private static let persistence = 0.9917
  private static let innovation = (1 - persistence * persistence).squareRoot()

  init(seed: UInt64, reception: Reception) {
    rng = SynthesisRandom(seed: seed)
    self.reception = reception
    level = reception.typicalAccuracy
    errorScale = level
    biasEast = rng.normal()
    biasNorth = rng.normal()
    biasUp = rng.normal()
  }

  mutating func tick() {
    if degradedSecondsLeft > 0 {
      degradedSecondsLeft -= 1
    } else if rng.chance(reception.degradedSpellChance) {
      degradedSecondsLeft = rng.integer(10...60)
      degradedLevel = rng.uniform(reception.degradedAccuracy.lowerBound, reception.degradedAccuracy.upperBound)
    }
    let degraded = degradedSecondsLeft > 0
    let target = degraded ? degradedLevel : reception.typicalAccuracy
    level += (target - level) * (degraded ? 0.3 : 0.05) + rng.normal() * 0.25
    // After a degraded spell the level decays back into the ordinary range by at least 0.5 m/s.
    let upper =
      degraded
      ? max(reception.accuracyRange.upperBound, reception.degradedAccuracy.upperBound)
      : max(reception.accuracyRange.upperBound, level - 0.5)
    level = min(upper, max(reception.accuracyRange.lowerBound, level))
    errorScale += (level - errorScale) * 0.05
    biasEast = Self.persistence * biasEast + Self.innovation * rng.normal()
    biasNorth = Self.persistence * biasNorth + Self.innovation * rng.normal()
    biasUp = Self.persistence * biasUp + Self.innovation * rng.normal()
  }

  /// Metres, to 0.1 m, as a phone reports it.
  var accuracy: Double { (level * 10).rounded() / 10 }

  /// A little independent noise of spread `scale` (for reported speed, course, satellites).
  mutating func wobble(_ scale: Double) -> Double { rng.normal() * scale }

  /// The error of a fix taken now, in metres east, north and up.
  mutating func error() -> (east: Double, north: Double, up: Double) {
    let spread = 0.4 * errorScale
    let white = 0.03 * errorScale
    return (
      biasEast * spread + rng.normal() * white,
      biasNorth * spread + rng.normal() * white,
      biasUp * spread * 1.5 + rng.normal() * white
    )
  }
}
