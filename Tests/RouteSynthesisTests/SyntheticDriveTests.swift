import Foundation
import RouteMileage
import Testing

@testable import RouteSynthesis

@Suite("Synthetic drives")
struct SyntheticDriveTests {
  @Test("the same configuration gives identical fixes; another seed a different drive")
  func determinism() {
    let drive = SyntheticDrive(
      seed: 3, duration: 1_800,
      faults: FaultRates(accuracySpike: 0.01, wildJump: 0.005, duplicate: 0.01, lateArrival: 0.01))
    let first = Array(drive)
    #expect(first == Array(drive))
    #expect(first == Array(SyntheticDrive(drive.configuration)))
    #expect(first.map(\.sample) != Array(SyntheticDrive(seed: 4, duration: 1_800).map(\.sample)))
  }

  @Test("memory is O(1) by construction: a drive stores its configuration, the iterator a fixed state")
  func constantMemory() {
    // The drive is a value holding only its configuration; fixes are made one at a time by
    // re-simulating, and `samples` is a lazy view.
    let drive = SyntheticDrive(seed: 1, duration: 86_400)
    #expect(MemoryLayout<SyntheticDrive>.size == MemoryLayout<DriveConfiguration>.size)
    #expect(MemoryLayout<SyntheticDrive.Iterator>.size < 2_048)
    let samples: LazyMapSequence<LazyFilterSequence<SyntheticDrive>, RouteSample> = drive.samples
    var iterator = samples.makeIterator()
    #expect(iterator.next()?.timestamp == 1_762_272_000)
  }

  @Test("a 1 Hz drive: one fix a second, speeds 0–30 m/s, accuracy 3–60 m, never far from home")
  func plausibleMotion() throws {
    let drive = SyntheticDrive(
      DriveConfiguration(seed: 9, duration: 14_400, reception: .urban, faults: .none))
    var previous: SyntheticFix?
    var moving = 0
    var standing = 0
    var turnsOrCurves = 0
    var lastCourse: Double?
    let origin = try #require(drive.first(where: { _ in true }))
    for fix in drive {
      #expect(fix.hasFix)
      #expect((0...30).contains(fix.truthSpeed))
      let accuracy = try #require(fix.sample.horizontalAccuracy)
      #expect((3...60).contains(accuracy))
      if let previous {
        #expect(fix.milliseconds - previous.milliseconds == 1_000)
        // The reported fixes imply a plausible speed (noise allowed for).
        let step = GeographicDistance.meters(from: previous.sample.position, to: fix.sample.position)
        #expect(step < 36)
        let acceleration = fix.truthSpeed - previous.truthSpeed
        #expect(acceleration >= -4.001 && acceleration <= 2.9)
      }
      if fix.truthSpeed > 0 { moving += 1 } else { standing += 1 }
      if let course = fix.sample.course, let last = lastCourse, abs(course - last) > 20, abs(course - last) < 340 {
        turnsOrCurves += 1
      }
      lastCourse = fix.sample.course
      let fromStart = GeographicDistance.meters(
        fromLatitude: origin.truthLatitude, longitude: origin.truthLongitude, toLatitude: fix.truthLatitude,
        longitude: fix.truthLongitude)
      #expect(fromStart < 9_000)
      previous = fix
    }
    #expect(moving > 14_401 / 2)
    #expect(standing > 600)  // lights, stop signs, deliveries
    #expect(turnsOrCurves > 20)
  }

  @Test("a standing vehicle's fixes jitter by a few metres around one place")
  func standingJitter() {
    let drive = SyntheticDrive(
      DriveConfiguration(
        seed: 21, duration: 1_200, deliveryStops: false, events: [.park(at: 0, duration: 900, capturePaused: false)]))
    // The park: the place the vehicle stood longest.
    let standing = drive.filter { $0.truthSpeed == 0 }
    var seconds: [Double: Int] = [:]
    for fix in standing { seconds[fix.truthLatitude, default: 0] += 1 }
    let place = seconds.max { $0.value < $1.value }!.key
    let parked = standing.filter { $0.truthLatitude == place }
    #expect(parked.count >= 900)
    let centre = parked[0]
    let spread = parked.map {
      GeographicDistance.meters(
        fromLatitude: centre.truthLatitude, longitude: centre.truthLongitude, toLatitude: $0.sample.latitude,
        longitude: $0.sample.longitude)
    }
    // A few metres of wandering (suburban reception, about 8 m accuracy), never tens.
    #expect(spread.max()! < 20)
    #expect(spread.max()! > 1)
    let steps = zip(parked, parked.dropFirst()).map {
      GeographicDistance.meters(from: $0.sample.position, to: $1.sample.position)
    }
    // Second to second it creeps (under a metre or two), more in a degraded spell.
    #expect(steps.sorted()[steps.count / 2] < 1.5)
    #expect(steps.max()! < 8)
  }

  @Test("capture gaps, relaunches and paused parks start new sessions; no fix is written while capture is off")
  func sessions() throws {
    let drive = SyntheticDrive(
      DriveConfiguration(
        seed: 5, duration: 3_600, fixInterval: 2, deliveryStops: false,
        events: [
          .captureGap(at: 600, duration: 300),
          .relaunch(at: 1_500, interruption: 150),
          .park(at: 2_400, duration: 400, capturePaused: true),
        ]))
    let fixes = Array(drive)
    let start = 1_762_272_000.0
    #expect(Set(fixes.map(\.session)) == [1, 2, 3, 4])
    #expect(!fixes.contains { (600..<900).contains($0.sample.timestamp - start) })
    #expect(!fixes.contains { (1_500..<1_650).contains($0.sample.timestamp - start) })
    #expect(fixes.allSatisfy { $0.sample.captureSession == CaptureSessionID(Int64($0.session)) })
    // Within a session fixes are exactly the interval apart; between sessions further.
    for (a, b) in zip(fixes, fixes.dropFirst()) {
      if a.session == b.session {
        #expect(b.milliseconds - a.milliseconds == 2_000)
      } else {
        #expect(b.milliseconds - a.milliseconds >= 150_000)
      }
    }
    let facts = drive.facts()
    #expect(facts.sessions == 4)
    #expect(facts.captureGaps == 1 && facts.captureGapSeconds == 300)
    #expect(facts.relaunches == 1 && facts.relaunchSeconds == 150)
    #expect(facts.pausedParks == 1 && facts.pausedParkSeconds >= 399)
    #expect(facts.uncapturedMeters > 1_000)
    #expect(abs(facts.capturedMeters + facts.uncapturedMeters - facts.drivenMeters) < 1e-6)
    // Legacy rows carry no session.
    var legacy = drive.configuration
    legacy.legacyRows = true
    #expect(SyntheticDrive(legacy).allSatisfy { $0.sample.captureSession == nil })
  }

  @Test("fix loss writes no-fix epochs for its duration and keeps the session")
  func fixLoss() {
    let drive = SyntheticDrive(
      DriveConfiguration(seed: 8, duration: 600, events: [.fixLoss(at: 100, duration: 35)]))
    let fixes = Array(drive)
    let lost = fixes.filter { !$0.hasFix }
    #expect(lost.count == 35)
    #expect(lost.allSatisfy { $0.sample.latitude.isNaN && $0.satellites == 0 })
    #expect(Set(fixes.map(\.session)) == [1])
    #expect(Array(drive.samples).count == 601 - 35)
  }

  @Test("duplicates repeat the row before; late rows come after newer ones; wild jumps are kilometres off")
  func injectedFaults() {
    let drive = SyntheticDrive(
      DriveConfiguration(
        seed: 12, duration: 7_200, subsecondTimestamps: true,
        faults: FaultRates(
          wildJump: 0.003, duplicate: 0.005, lateArrival: 0.005, invalidAccuracy: 0.002, nullIsland: 0.002)))
    let fixes = Array(drive)
    let facts = drive.facts()
    var duplicates = 0
    var late = 0
    for (index, fix) in fixes.enumerated() {
      if fix.faults.contains(.duplicate) {
        duplicates += 1
        var original = fix
        original.faults.remove(.duplicate)
        #expect(fixes[index - 1] == original)
      }
      if fix.faults.contains(.lateArrival) {
        late += 1
        #expect(fixes[index - 1].milliseconds > fix.milliseconds)
      }
      if fix.faults.contains(.wildJump) {
        let off = GeographicDistance.meters(
          fromLatitude: fix.truthLatitude, longitude: fix.truthLongitude, toLatitude: fix.sample.latitude,
          longitude: fix.sample.longitude)
        #expect(off > 700 && off < 6_200)
      }
      if fix.faults.contains(.nullIsland) { #expect(fix.sample.latitude == 0 && fix.sample.longitude == 0) }
      if fix.faults.contains(.invalidAccuracy) { #expect(fix.sample.horizontalAccuracy == -1) }
    }
    #expect(duplicates > 10 && duplicates == facts.duplicates)
    #expect(late > 10 && late == facts.lateArrivals)
    #expect(facts.wildJumps > 5 && facts.nullIslands > 2 && facts.invalidAccuracies > 2)
    #expect(facts.records == fixes.count)
    #expect(facts.records == 7_201 + duplicates)
    // Times keep the session's millisecond phase.
    #expect(Set(fixes.map { $0.milliseconds % 1000 }).count == 1)
  }

  @Test("a batch of shifts is deterministic, varied, and made on demand")
  func shiftBatch() {
    let batch = SyntheticShiftBatch(seed: 77, count: 1_000)
    #expect(batch.count == 1_000)
    #expect(batch[417] == SyntheticShiftBatch(seed: 77, count: 1_000)[417])
    #expect(batch[0] != batch[1])
    let durations = Set(batch.prefix(50).map(\.configuration.duration))
    #expect(durations.count > 40)
    #expect(batch.allSatisfy { (1_800...5_400).contains($0.configuration.duration) })
    #expect(batch.contains { !$0.configuration.events.isEmpty })
    let facts = batch[3].facts()
    #expect(facts.records > 1_800)
  }
}
