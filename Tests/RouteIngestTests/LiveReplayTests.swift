import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import RouteTestSupport
import Testing

/// The live-shift engine behind `replay`, driven directly: a seed replays the same faults.
@Suite("LiveReplay")
struct LiveReplayTests {
  /// What the observer saw.
  final class Seen {
    var discards: [(seconds: Double, samples: Int)] = []
    var updates = 0
  }

  static func replay(discarding fraction: Double, seed: UInt64) throws -> (seen: Seen, outcome: LiveReplay.Outcome) {
    let path = BuiltProduct.packageRoot.appendingPathComponent("SampleRoutes/shift-12h-gaps.gpx").path
    var settings = LiveReplay.Settings()
    settings.speed = nil
    settings.discardFraction = fraction
    settings.seed = seed
    let seen = Seen()
    var replay = LiveReplay(
      feedPath: path, source: try FileByteSource(path: path), reading: FeedReading(), locale: .english,
      settings: settings, store: try RouteStore.inMemory(), storePath: nil
    ) { event, replay in
      switch event {
      case .discard(let samples): seen.discards.append((replay.shiftSeconds(replay.clock), samples))
      case .update: seen.updates += 1
      case .interrupt: break
      }
    }
    return (seen, try replay.run())
  }

  /// Pinned: the batches `--discard-batches 0.2 --seed 42` rolls back, drawn from `SplitMix64`
  /// as the replay's own generator drew them before it was the package's one generator.
  @Test func aSeedRollsBackTheSameBatches() throws {
    let (seen, outcome) = try Self.replay(discarding: 0.2, seed: 42)
    #expect(seen.discards.count == 1051)
    #expect(seen.discards.prefix(5).map(\.seconds) == [10, 25, 85, 95, 110])
    #expect(seen.discards.prefix(5).map(\.samples) == [1, 1, 1, 1, 1])
    guard case .ended(_, let live, let final, let reason, _) = outcome else {
      Issue.record("the replay did not end a shift")
      return
    }
    #expect(reason == nil)
    #expect(live.meters == final.meters)
    #expect(final.meters == 304055.510882304)
    let again = try Self.replay(discarding: 0.2, seed: 42)
    #expect(again.seen.discards.map(\.seconds) == seen.discards.map(\.seconds))
  }
}
