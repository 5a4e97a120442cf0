import RouteMileage
import RouteTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seeded properties over hundreds of generated routes: the guarantees that make the figure
/// trustworthy whatever order the store returns rows in and however a live shift is extended.
@Suite("Properties over seeded random routes")
struct PropertyTests {
  static let routeCount = 400

  /// Hands `body` each of `routeCount` routes drawn from one generator seeded with `seed`, with
  /// its one-pass distance over the rows in stored order, and the generator itself: a body that
  /// draws from it too (to permute, say) sees the same routes it always has. `body` returns false
  /// after a failure to stop there, so one broken guarantee does not print hundreds of failures.
  static func forEachMeasuredRoute(
    seed: UInt64, longitudeRange: ClosedRange<Double> = -180...180,
    _ body: (GeneratedRoute, RouteDistance, inout SeededRandom) -> Bool
  ) {
    var rng = SeededRandom(seed: seed)
    for _ in 0..<routeCount {
      let route = GeneratedRoute.random(&rng, longitudeRange: longitudeRange)
      guard body(route, route.calculator.distance(of: route.rows, covering: route.window), &rng) else { return }
    }
  }

  // MARK: 1. Any permutation gives a bit-identical RouteDistance

  @Test func anyPermutationOfTheStoredRowsGivesABitIdenticalDistance() {
    var nonTrivial = 0
    var stopped = false
    Self.forEachMeasuredRoute(seed: 0x5045_524D) { route, reference, rng in
      if reference.isMeasured, reference.positionsNotAfterPrevious > 0 { nonTrivial += 1 }
      let orders = [
        Array(route.rows.reversed()), rng.permuted(route.rows), rng.permuted(route.rows),
        route.rows.sorted(by: RouteMileageCalculator.walkOrder),
      ]
      for rows in orders {
        let d = route.calculator.distance(of: rows, covering: route.window)
        #expect(d == reference)
        #expect(d.meters.bitPattern == reference.meters.bitPattern)
        #expect(d.bitFingerprint == reference.bitFingerprint)
        if d.bitFingerprint != reference.bitFingerprint {
          stopped = true
          return false
        }
      }
      return true
    }
    if stopped { return }
    // The generator really produced measured routes with repeated timestamps to collapse.
    #expect(nonTrivial > 50)
  }

  @Test func permutationsOfRowsSharingATimestampGiveOneAnswer() {
    // Many rows at the same instants, in different places and sessions: the worst case for
    // order dependence.
    var rng = SeededRandom(seed: 0x7469_6573)
    for _ in 0..<100 {
      var rows: [RoutePosition] = []
      for second in 0..<8 {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          let session: CaptureSessionID? =
            rng.chance(0.3) ? nil : CaptureSessionID(Int64.random(in: 1...2, using: &rng))
          rows.append(
            RoutePosition(
              timestamp: Fixture.t0 + Double(second) * 10,
              latitude: 40 + Double(Int.random(in: 0...3, using: &rng)) * 1e-4,
              longitude: -3 + Double(Int.random(in: 0...3, using: &rng)) * 1e-4, captureSession: session))
        }
      }
      let reference = Fixture.measure(rows)
      for _ in 0..<5 {
        #expect(Fixture.measure(rng.permuted(rows)).bitFingerprint == reference.bitFingerprint)
      }
    }
  }

  // MARK: 2. Chunk-by-chunk extension equals the one-pass result

  @Test func extendingChunkByChunkEqualsOnePass() {
    var rng = SeededRandom(seed: 0x4348_554E)
    for _ in 0..<Self.routeCount {
      let route = GeneratedRoute.random(&rng)
      // In-order data: the order a capture stream (or the store's rows after the last one
      // measured) delivers.
      let rows = route.rows.sorted(by: RouteMileageCalculator.walkOrder)
      let onePass = route.calculator.distance(of: rows, covering: route.window)
      var walk = RouteMileageAccumulator(maximumSampleInterval: route.maximumSampleInterval, window: route.window)
      var index = 0
      var readings = 0
      while index < rows.count {
        let end = min(rows.count, index + Int.random(in: 1...max(1, rows.count / 3), using: &rng))
        if rng.chance(0.5) {
          walk.append(contentsOf: rows[index..<end])
        } else {
          for row in rows[index..<end] { walk.append(row) }
        }
        // Reading between chunks changes nothing, and every reading is the one-pass figure of
        // what has been appended so far.
        if rng.chance(0.6) {
          let partial = walk.distance
          readings += 1
          let prefix = route.calculator.distance(of: rows[0..<end], covering: route.window)
          #expect(partial.bitFingerprint == prefix.bitFingerprint)
        }
        index = end
      }
      #expect(walk.distance == onePass)
      #expect(walk.distance.meters.bitPattern == onePass.meters.bitPattern)
      #expect(walk.distance.bitFingerprint == onePass.bitFingerprint)
      #expect(walk.positionsOffered == rows.count)
      if walk.distance.bitFingerprint != onePass.bitFingerprint { return }
    }
  }

  @Test func aCopiedWalkExtendsIndependently() {
    // The accumulator is a value: a copy taken mid-shift is unaffected by later extension.
    let rows = Fixture.drive(count: 100, session: 1)
    var walk = RouteMileageAccumulator()
    walk.append(contentsOf: rows[0..<50])
    let snapshot = walk
    walk.append(contentsOf: rows[50...])
    #expect(snapshot.distance == Fixture.measure(Array(rows[0..<50])))
    #expect(walk.distance == Fixture.measure(rows))
  }

  // MARK: 3. No straight line across a gap

  @Test func segmentsMeasureExactlyTheirOwnPositions() {
    var gapsSeen = 0
    Self.forEachMeasuredRoute(seed: 0x5345_474D) { route, d, _ in
      #expect(d.meters.bitPattern == d.segments.reduce(0.0) { $0 + $1.meters }.bitPattern)
      gapsSeen += d.innerGaps.count
      for segment in d.segments {
        let own = route.rows.filter { $0.timestamp >= segment.start && $0.timestamp <= segment.end }
        let alone = route.calculator.distance(of: own)
        #expect(alone.segments == [segment])
        #expect(alone.gaps.isEmpty)
        #expect(alone.meters.bitPattern == segment.meters.bitPattern)
      }
      // Structure: every stretch (contributing or a lone position) is separated by one gap.
      let stretches = d.segments.count + d.isolatedPositionCount
      #expect(d.innerGaps.count == max(0, stretches - 1))
      #expect(d.usablePositionCount == d.segments.reduce(0) { $0 + $1.positionCount } + d.isolatedPositionCount)
      #expect(d.gaps.map(\.start) == d.gaps.map(\.start).sorted())
      return true
    }
    #expect(gapsSeen > 300)
  }

  @Test func movingEverythingAfterAGapFarAwayLeavesEverySegmentsMetresUnchanged() {
    var translations = 0
    Self.forEachMeasuredRoute(seed: 0x4641_5241, longitudeRange: -100...100) { route, d, _ in
      for gap in d.innerGaps {
        // 60° of longitude: thousands of kilometres, so a line measured across the gap could
        // not hide. A turn about the polar axis keeps every distance after the gap the same.
        let moved = route.rows.map { row -> RoutePosition in
          guard row.isUsable, row.timestamp >= gap.end else { return row }
          var copy = row
          copy.longitude += 60
          return copy
        }
        translations += 1
        let e = route.calculator.distance(of: moved, covering: route.window)
        #expect(e.gaps == d.gaps)
        #expect(e.segments.count == d.segments.count)
        #expect(e.meters.bitPattern == e.segments.reduce(0.0) { $0 + $1.meters }.bitPattern)
        for (before, after) in zip(d.segments, e.segments) {
          #expect(after.start == before.start && after.end == before.end)
          #expect(after.positionCount == before.positionCount)
          if before.end <= gap.start {
            #expect(after == before)
          } else {
            let own = moved.filter { $0.timestamp >= after.start && $0.timestamp <= after.end }
            #expect(route.calculator.distance(of: own).segments == [after])
            #expect(abs(after.meters - before.meters) <= 1e-6 + before.meters * 1e-9)
          }
        }
        #expect(abs(e.meters - d.meters) <= 1e-6 + d.meters * 1e-9)
      }
      return true
    }
    #expect(translations > 300)
  }

  @Test func deletingTheRowsOnEitherSideOfAGapLeavesTheOtherSidesSegmentsIdentical() {
    Self.forEachMeasuredRoute(seed: 0x4445_4C45) { route, d, _ in
      for gap in d.innerGaps {
        let before = route.rows.filter { !($0.timestamp >= gap.end) }
        let after = route.rows.filter { !($0.timestamp <= gap.start) }
        let dBefore = route.calculator.distance(of: before, covering: route.window)
        let dAfter = route.calculator.distance(of: after, covering: route.window)
        #expect(dBefore.segments == d.segments.filter { $0.end <= gap.start })
        #expect(dAfter.segments == d.segments.filter { $0.start >= gap.end })
        #expect(dBefore.innerGaps == d.innerGaps.filter { $0.end <= gap.start })
        #expect(dAfter.innerGaps == d.innerGaps.filter { $0.start >= gap.end })
      }
      return true
    }
  }

  // MARK: Filter, then accumulate

  struct Arrivals {
    var samples: [RouteSample]
    var filter: RouteSampleFilter
  }

  /// A capture stream as a phone delivers it: sessions (minted by the filter, as the ingest stage
  /// does), legacy rows, parked stretches, wild fixes, bad accuracy, stale and late fixes.
  static func randomArrivals(_ rng: inout SeededRandom) -> Arrivals {
    var filter = RouteSampleFilter()
    if rng.chance(0.2) { filter.maximumSampleInterval = 60 }
    if rng.chance(0.2) { filter.speedRejectionsBeforeReanchoring = Int.random(in: 0...5, using: &rng) }
    let sessions = (0..<3).map { _ in filter.mintCaptureSession() }
    var session: CaptureSessionID? = rng.chance(0.2) ? nil : sessions[0]
    var time = Fixture.t0
    var north = 0.0
    var east = 0.0
    var samples: [RouteSample] = []
    for _ in 0..<Int.random(in: 0...150, using: &rng) {
      if rng.chance(0.05) { session = rng.chance(0.3) ? nil : sessions.randomElement(using: &rng) }
      let step =
        rng.chance(0.05) ? Double.random(in: 60...400, using: &rng) : Double(Int.random(in: 0...6, using: &rng))
      time += step
      let speed = rng.chance(0.2) ? Double.random(in: 0...1, using: &rng) : Double.random(in: 0...40, using: &rng)
      let heading = Double.random(in: 0..<(2 * Double.pi), using: &rng)
      north += speed * step * cos(heading)
      east += speed * step * sin(heading)
      var sample = Fixture.sample(at: time - Fixture.t0, north: north, east: east, session: session)
      if rng.chance(0.04) {
        sample = Fixture.sample(at: time - Fixture.t0, north: north + 5_000, east: east, session: session)
      }
      if rng.chance(0.05) { sample.timestamp -= Double.random(in: 1...30, using: &rng) }
      if rng.chance(0.7) {
        sample.horizontalAccuracy =
          rng.chance(0.85)
          ? Double.random(in: 3...100, using: &rng)
          : [Double.random(in: 100...300, using: &rng), -1, .nan, 100, 100.01].randomElement(using: &rng)
      }
      if rng.chance(0.5) { sample.receivedAt = sample.timestamp + Double.random(in: -1...14, using: &rng) }
      if rng.chance(0.02) { (sample.latitude, sample.longitude) = (0, 0) }
      if rng.chance(0.02) { sample.latitude = .nan }
      samples.append(sample)
    }
    return Arrivals(samples: samples, filter: filter)
  }

  @Test func filterCountsAlwaysAddUp() {
    var rng = SeededRandom(seed: 0x434F_554E)
    var reanchors = 0
    for _ in 0..<Self.routeCount {
      var arrivals = Self.randomArrivals(&rng)
      var tally: [RouteSampleFilter.Reason: Int] = [:]
      var retained = 0
      for sample in arrivals.samples {
        let decision = arrivals.filter.consider(sample)
        if arrivals.filter.keptThroughStop != nil {
          // A fix dropped earlier as negligible movement, retained after all as a stop fix.
          retained += 1
          tally[.negligibleMovement, default: 0] -= 1
        }
        switch decision {
        case .retained: retained += 1
        case .rejected(let reason): tally[reason, default: 0] += 1
        }
      }
      let counts = arrivals.filter.counts
      #expect(counts.retained + counts.rejected == arrivals.samples.count)
      #expect(counts.retained == retained)
      #expect(counts.rejectedByReason.reduce(0) { $0 + $1.count } == counts.rejected)
      for reason in RouteSampleFilter.Reason.allCases {
        #expect(counts[reason] == tally[reason, default: 0])
      }
      #expect(counts.reanchored <= counts.retained)
      reanchors += counts.reanchored
    }
    #expect(reanchors > 0)
  }

  @Test func filterThenAccumulateIsDeterministicAndHonest() {
    var rng = SeededRandom(seed: 0x4649_4C54)
    for _ in 0..<Self.routeCount {
      let arrivals = Self.randomArrivals(&rng)
      var first = arrivals.filter
      var second = arrivals.filter
      let decisions = arrivals.samples.map { first.consider($0) }
      #expect(arrivals.samples.map { second.consider($0) } == decisions)
      #expect(first.counts == second.counts)

      let kept = decisions.compactMap { if case .retained(let s) = $0 { return s } else { return nil } }
      // Retained samples stream in time order, so a live walk and the stored one-pass agree.
      #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
      var walk = RouteMileageAccumulator(maximumSampleInterval: arrivals.filter.maximumSampleInterval)
      for sample in kept { walk.append(sample) }
      let calculator = RouteMileageCalculator(maximumSampleInterval: arrivals.filter.maximumSampleInterval)
      let stored = calculator.distance(of: rng.permuted(kept))
      #expect(walk.distance.bitFingerprint == stored.bitFingerprint)
      #expect(walk.distance.positionsNotAfterPrevious == 0)
      #expect(walk.distance.unusablePositionCount == 0)

      for sample in kept {
        #expect(sample.position.isUsable)
        #expect(!(sample.latitude == 0 && sample.longitude == 0))
        if let accuracy = sample.horizontalAccuracy { #expect(accuracy >= 0 && accuracy <= 100) }
        if let received = sample.receivedAt { #expect(received - sample.timestamp <= 10) }
      }
      // Every leg the calculator can measure (same session, within the interval) is one the
      // filter allowed: at most 70 m/s and at least 5 m.
      for (a, b) in zip(kept, kept.dropFirst()) where a.captureSession == b.captureSession {
        let seconds = b.timestamp - a.timestamp
        guard seconds <= arrivals.filter.maximumSampleInterval else { continue }
        let meters = GeographicDistance.meters(from: a.position, to: b.position)
        #expect(meters / seconds <= 70, "\(meters) m in \(seconds) s")
        #expect(meters >= 5)
      }
    }
  }
}
