import RouteMileage

/// Many short delivery shifts, for batch measurement: shift `i` is always the same drive.
///
/// Each shift has its own seed (derived from the batch seed and its index), a duration drawn
/// from `durations`, a start one day after the previous shift's, a reception chosen among open
/// sky, suburban and urban, the everyday fault rates, and sometimes a capture gap (30 %), a
/// relaunch (15 %) or a park with capture paused (20 %). Shifts are made on demand: the
/// collection stores nothing but its parameters.
///
///     let batch = SyntheticShiftBatch(seed: 1, count: 1_000)
///     for (index, shift) in batch.enumerated() { … write shift to "shift-\(index).csv" … }
///
/// - Complexity: O(1) to make a shift; generating it is O(its seconds).
public struct SyntheticShiftBatch: RandomAccessCollection, Sendable, Hashable {
  public let seed: UInt64
  public let shiftCount: Int
  /// Seconds.
  public let durations: ClosedRange<Int>
  /// Seconds since 1970 (UTC) of the first shift's start.
  public let firstStart: Int64

  public init(seed: UInt64, count: Int, durations: ClosedRange<Int> = 1_800...5_400, firstStart: Int64 = 1_762_243_200)
  {
    self.seed = seed
    shiftCount = Swift.max(0, count)
    self.durations = durations
    self.firstStart = firstStart
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { shiftCount }

  public subscript(index: Int) -> SyntheticDrive {
    precondition(index >= 0 && index < shiftCount, "Shift index out of range")
    let shiftSeed = SplitMix64.derive(seed, UInt64(index))
    var rng = SynthesisRandom(seed: shiftSeed ^ 0x5348_4946_5453)
    let duration = rng.integer(durations)
    let receptions: [Reception] = [.openSky, .suburban, .urban]
    var events: [DriveEvent] = []
    if rng.chance(0.3) {
      events.append(.captureGap(at: rng.integer(duration / 5...duration * 4 / 5), duration: rng.integer(150...900)))
    }
    if rng.chance(0.15) {
      events.append(.relaunch(at: rng.integer(duration / 5...duration * 4 / 5), interruption: rng.integer(130...300)))
    }
    if rng.chance(0.2) {
      events.append(
        .park(at: rng.integer(duration / 5...duration * 4 / 5), duration: rng.integer(300...1200), capturePaused: true))
    }
    let configuration = DriveConfiguration(
      seed: shiftSeed, start: firstStart + Int64(index) * 86_400 + Int64(rng.integer(0...36_000)),
      duration: duration, reception: receptions[rng.integer(0...2)], faults: .everyday, events: events)
    return SyntheticDrive(configuration)
  }
}
