import RouteMileage
import RouteTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The floor (`RouteDistance.floorMeters`): exact figures on hand-made routes, and the walk's
/// guarantees (chunking, permutation, calculator = accumulator). Ground truth over generated
/// drives is in RouteSynthesisTests (FloorTruthTests).
@Suite("The floor")
struct RouteFloorTests {
  /// A straight drive north, 10 m a second, each fix with `accuracy`.
  static func line(count: Int, accuracy: Double?, session: Int64? = 1) -> [RoutePosition] {
    Fixture.drive(count: count, speed: 10, session: session).map {
      var p = $0
      p.horizontalAccuracy = accuracy
      return p
    }
  }

  /// The WGS84 length between two positions (Vincenty), the floor's "driven".
  static func wgs84(_ a: RoutePosition, _ b: RoutePosition) -> Double {
    WGS84Geodesic.meters(a.latitude, a.longitude, b.latitude, b.longitude)
  }

  /// Whether `floor` is the WGS84 chord less `radii`, to within the bound's own charges (σ:
  /// about 10⁻⁴ of the length at 51.5° of latitude with chords of 10–30 m), and never above it.
  static func isChord(_ floor: Double, from a: RoutePosition, to b: RoutePosition, less radii: Double) -> Bool {
    let chord = wgs84(a, b) - radii
    return floor <= chord && floor > chord - 2e-4 * chord
  }

  @Test("a straight line: the WGS84 chord less one radius at each end, to the last corroborated fix")
  func straightLine() {
    // 101 fixes 10 m apart on the sphere, accuracy 5 m: radius 1.35 × 5 = 6.75 m. The last fix
    // has no successor to corroborate it, so the chain closes at the 100th: 990 m on the sphere,
    // 990.56 m on the ellipsoid (its meridian radius at 51.5° is 6,374.6 km), − 6.75 − 6.75.
    let line = Self.line(count: 101, accuracy: 5)
    let d = Fixture.measure(line)
    #expect(d.meters.rounded() == 1_000)
    #expect(Self.isChord(d.floorMeters, from: line[0], to: line[99], less: 13.5))
    #expect(d.segments.count == 1)
    #expect(d.segments[0].floorMeters == d.floorMeters)
  }

  @Test("walks over the same positions are equal and hash alike; a restart forgets the ring")
  func walkEquality() {
    let line = Self.line(count: 12, accuracy: 5)
    var a = RouteFloorWalk()
    var b = RouteFloorWalk()
    a.start(line[0])
    b.start(line[0])
    for position in line.dropFirst() {
      a.extend(position)
      b.extend(position)
    }
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    // One anchor in the ring with another accuracy: its reach differs, so the walks do.
    var c = RouteFloorWalk()
    c.start(line[0])
    for (index, position) in line.enumerated().dropFirst() {
      var moved = position
      if index == 9 { moved.horizontalAccuracy = 6 }
      c.extend(moved)
    }
    #expect(c != a)
    // Started again, a used walk equals a new one: every slot of its ring is empty again.
    a.start(line[3])
    var fresh = RouteFloorWalk()
    fresh.start(line[3])
    #expect(a == fresh)
    #expect(a.hashValue == fresh.hashValue)
  }

  @Test("accuracy below 5 m counts as 5 m; no accuracy is taken as 15 m")
  func radii() {
    let line = Self.line(count: 101, accuracy: 2)
    let small = Fixture.measure(line)
    #expect(Self.isChord(small.floorMeters, from: line[0], to: line[99], less: 13.5))
    // No accuracy: radius 1.35 × 15 = 20.25 m. A fix within the last one's radius is skipped, so
    // every third is walked; the last corroborated is at 960 m.
    let none = Fixture.measure(Self.line(count: 101, accuracy: nil))
    #expect(Self.isChord(none.floorMeters, from: line[0], to: line[96], less: 40.5))
    #expect(none.positionsWithoutAccuracy == 101)
    #expect(RouteFloorAssumption.standard.radius(accuracy: -1) == 20.25)
    #expect(RouteFloorAssumption.standard.radius(accuracy: 40) == 54)
  }

  @Test("an accuracy counts only when finite and not negative; the largest finite one counts")
  func radiusEdges() {
    let standard = RouteFloorAssumption.standard
    for unusable in [Double.nan, .infinity, -.infinity, -1e-300, -.greatestFiniteMagnitude] {
      #expect(standard.radius(accuracy: unusable) == 20.25)
    }
    #expect(standard.radius(accuracy: 0) == 6.75)
    #expect(standard.radius(accuracy: -0.0) == 6.75)
    #expect(standard.radius(accuracy: 1e-300) == 6.75)
    #expect(standard.radius(accuracy: .greatestFiniteMagnitude) == 1.35 * .greatestFiniteMagnitude)
  }

  @Test("jitter around one spot proves nothing, though the recorded figure grows")
  func standingJitter() {
    var positions: [RoutePosition] = []
    for i in 0..<200 {
      var p = Fixture.position(at: Double(i) * 10, north: Double(i % 2) * 6, east: Double(i % 3) * 5, session: 1)
      p.horizontalAccuracy = 8
      positions.append(p)
    }
    let d = Fixture.measure(positions)
    #expect(d.meters > 1_000)
    #expect(d.floorMeters == 0)
    // Every step but those of 11.7 m (east 10, north 6) is slower than 1 m/s: 133 of 199.
    #expect(d.creepingSeconds == 1_330)
  }

  @Test("a wild fix the filter let through never reaches the floor")
  func wildFix() {
    // Standing 60 s (so a 1 km jump passes a 70 m/s rule), one fix 1 km east, then driving on.
    var positions: [RoutePosition] = []
    for i in 0..<20 { positions.append(Fixture.position(at: Double(i), north: Double(i) * 10, session: 1)) }
    positions.append(Fixture.position(at: 80, north: 190, east: 1_000, session: 1))
    for i in 0..<20 { positions.append(Fixture.position(at: 81 + Double(i), north: 190 + Double(i) * 10, session: 1)) }
    positions = positions.map {
      var p = $0
      p.horizontalAccuracy = 5
      return p
    }
    let d = Fixture.measure(positions)
    #expect(d.meters > 2_300)
    // Truly driven: 380 m. Without the corroboration rule the floor would count ~2 km.
    #expect(d.floorMeters <= 380)
    #expect(d.floorMeters > 300)
  }

  @Test("a corner costs about 1.4 radii, not a whole chord")
  func corner() {
    var positions: [RoutePosition] = []
    for i in 0...50 { positions.append(Fixture.position(at: Double(i), north: Double(i) * 10, session: 1)) }
    for i in 1...50 {
      positions.append(Fixture.position(at: 50 + Double(i), north: 500, east: Double(i) * 10, session: 1))
    }
    positions = positions.map {
      var p = $0
      p.horizontalAccuracy = 10
      return p
    }
    let d = Fixture.measure(positions)
    // Truly 1,000 m; radius 15 m: ends 2 × 15, the corner √2 × 15, and the last 20 m (every
    // other fix is within the radius of the one before and skipped; the last is uncorroborated).
    #expect(d.floorMeters < 1_000)
    #expect(d.floorMeters > 1_000 - 20 - 30 - 22 - 2)
  }

  @Test("segments have floors of their own, summed; nothing is proven across a gap")
  func segments() {
    let first = Self.line(count: 51, accuracy: 5, session: 1)
    let second = Self.line(count: 51, accuracy: 5, session: 2).map {
      var p = $0
      p.timestamp += 1_000
      return p
    }
    let d = Fixture.measure(first + second)
    #expect(d.segments.count == 2)
    #expect(d.segments.allSatisfy { Self.isChord($0.floorMeters, from: first[0], to: first[49], less: 13.5) })
    #expect(d.floorMeters == d.segments[0].floorMeters + d.segments[1].floorMeters)
  }

  /// A noisy winding route with accuracies, stops and a gap, for the invariance checks.
  static func noisyRoute(seed: UInt64) -> [RoutePosition] {
    var rng = SeededRandom(seed: seed)
    var positions: [RoutePosition] = []
    var north = 0.0
    var east = 0.0
    var heading = 0.0
    var time = 0.0
    for i in 0..<1_500 {
      let standing = (i / 100) % 4 == 3
      if !standing {
        if rng.chance(0.02) { heading += Double.pi / 2 * (rng.chance(0.5) ? 1 : -1) }
        north += cos(heading) * 12
        east += sin(heading) * 12
      }
      time += rng.chance(0.01) ? 200 : 1
      let accuracy = rng.chance(0.05) ? nil : Double.random(in: 3...40, using: &rng)
      var p = Fixture.position(
        at: time, north: north + Double.random(in: -4...4, using: &rng),
        east: east + Double.random(in: -4...4, using: &rng), session: rng.chance(0.001) ? 2 : 1)
      p.horizontalAccuracy = accuracy
      positions.append(p)
    }
    return positions
  }

  /// `positions` appended to a fresh walk in one call: the live figure the chunked and permuted
  /// readings are held to.
  static func walkedInOneAppend(_ positions: [RoutePosition]) -> RouteDistance {
    var walk = RouteMileageAccumulator()
    walk.append(contentsOf: positions)
    return walk.distance
  }

  @Test("any chunking of the walk, read in between or not, gives a bit-identical floor")
  func chunkInvariance() {
    for seed in 1...10 as ClosedRange<UInt64> {
      let positions = Self.noisyRoute(seed: seed)
      let whole = Self.walkedInOneAppend(positions)
      var rng = SeededRandom(seed: seed &+ 99)
      var chunked = RouteMileageAccumulator()
      var index = 0
      var readings: [Double] = []
      while index < positions.count {
        let end = min(positions.count, index + Int.random(in: 1...40, using: &rng))
        chunked.append(contentsOf: positions[index..<end])
        readings.append(chunked.distance.floorMeters)
        index = end
      }
      #expect(chunked.distance.floorMeters.bitPattern == whole.floorMeters.bitPattern)
      #expect(chunked.distance == whole)
      #expect(whole.floorMeters > 0)
      // A live reading never goes down as the route grows.
      #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
    }
  }

  @Test("any permutation of the rows gives a bit-identical floor; the calculator is the walk")
  func permutationAndCalculator() {
    for seed in 20...25 as ClosedRange<UInt64> {
      let positions = Self.noisyRoute(seed: seed)
      let reference = Fixture.measure(positions)
      #expect(reference.floorMeters.bitPattern == Self.walkedInOneAppend(positions).floorMeters.bitPattern)
      var rng = SeededRandom(seed: seed)
      for _ in 0..<3 {
        let d = Fixture.measure(rng.permuted(positions))
        #expect(d.floorMeters.bitPattern == reference.floorMeters.bitPattern)
      }
      // Duplicated rows differing only in accuracy: the order of the copies does not matter.
      var copies = positions
      for i in stride(from: 0, to: positions.count, by: 7) {
        var copy = positions[i]
        copy.horizontalAccuracy = (copy.horizontalAccuracy ?? 10) + 3
        copies.append(copy)
      }
      let once = Fixture.measure(copies)
      #expect(Fixture.measure(rng.permuted(copies)).floorMeters.bitPattern == once.floorMeters.bitPattern)
      #expect(once.meters.bitPattern == reference.meters.bitPattern)
    }
  }

  @Test("the floor never exceeds the recorded figure on these routes")
  func belowRecorded() {
    for seed in 30...40 as ClosedRange<UInt64> {
      let d = Fixture.measure(Self.noisyRoute(seed: seed))
      #expect(d.floorMeters <= d.meters)
      #expect(d.floorMeters > 0.5 * d.meters)
    }
  }
}

@Suite("The floor in words")
struct RouteFloorWordingTests {
  static func distance(
    meters: Double, floor: Double, positions: Int = 100, withoutAccuracy: Int = 0, poor: Int = 0,
    creeping: Double = 0, creepingMeters: Double = 0
  ) -> RouteDistance {
    RouteDistance(
      meters: meters,
      segments: [RouteSegment(start: 0, end: 1_000, positionCount: positions, meters: meters, floorMeters: floor)],
      usablePositionCount: positions, floorMeters: floor, positionsWithoutAccuracy: withoutAccuracy,
      positionsWithPoorAccuracy: poor, creepingSeconds: creeping, creepingMeters: creepingMeters)
  }

  @Test("a floor close to the recorded figure: one sentence, with its assumption")
  func close() {
    let quality = RouteQuality(Self.distance(meters: 20_000, floor: 19_200))
    #expect(
      quality.floorSentence
        == "At least 11.9 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid)."
    )
    #expect(
      quality.jitterSentence
        == "At most 0.5 mi of the recorded figure can be jitter: the recorded figure less what the positions prove.")
    let crawling = RouteQuality(Self.distance(meters: 20_000, floor: 19_200, creeping: 300, creepingMeters: 400))
    #expect(
      crawling.jitterSentence
        == "About 0.2 mi of the recorded figure was gathered while standing or crawling and is likely jitter; at most 0.5 mi can be: the recorded figure less what the positions prove."
    )
  }

  @Test("under 90 % of the recorded figure, the words say why")
  func farBelow() {
    let poor = RouteQuality(Self.distance(meters: 20_000, floor: 16_000, poor: 40))
    #expect(
      poor.floorSentence
        == "At least 9.9 mi of it is proven by the positions (each taken to lie within 1.35 × its reported accuracy; lengths on the WGS84 ellipsoid); the rest may be jitter, because 40 of 100 positions report an accuracy worse than 20 m."
    )
    let standing = RouteQuality(Self.distance(meters: 20_000, floor: 16_000, creeping: 500))
    #expect(
      standing.floorSentence?.hasSuffix(
        "the rest may be jitter, because positions crept a few metres at a time (standing or crawling) for 8 of the 17 minutes measured."
      )
        == true)
    let unknown = RouteQuality(Self.distance(meters: 20_000, floor: 0, withoutAccuracy: 100, creeping: 400))
    #expect(
      unknown.floorSentence
        == "The positions prove no distance beyond their own error (each taken to lie within 1.35 × its reported accuracy, or 15.0 m where it reports none; lengths on the WGS84 ellipsoid); all of it may be jitter, because most positions report no accuracy and positions crept a few metres at a time (standing or crawling) for 7 of the 17 minutes measured."
    )
  }

  @Test("nothing measured: no floor sentence; the words never claim more than a floor")
  func wording() {
    #expect(RouteQuality(RouteDistance()).floorSentence == nil)
    #expect(RouteQuality(RouteDistance()).jitterSentence == nil)
    for floor in [0.0, 5_000, 19_999] {
      let quality = RouteQuality(Self.distance(meters: 20_000, floor: floor, poor: 50, creeping: 900))
      for sentence in [quality.floorSentence, quality.jitterSentence].compactMap({ $0 }) {
        let lower = sentence.lowercased()
        for word in ["total", "complete", "actual", "tax", "deductible", "%"] {
          #expect(!lower.contains(word), "\(sentence)")
        }
      }
    }
  }
}
