import RouteFeeds
import RouteMileage
import RouteSynthesis

/// Scenario `truth`: the recorded figure and the floor against the distance truly driven.
///
/// Generates drives with RouteSynthesis across receiver profiles, measures each through the
/// ingest (filter on, as `measure` does), and divides each figure by the true path length
/// inside the measurement's own contributing segments (`SyntheticDrive.drivenMeters(inside:)`),
/// the strictest truth a floor can be held to (capture sessions hold at least as much).
enum TruthBenchmark {
  static let name = "truth"

  struct Outcome {
    var recorded: [Double] = []
    var floor: [Double] = []
    var floorAboveTruth = 0
    var recordedMeters = 0.0
    var floorMeters = 0.0
    var truthMeters = 0.0
  }

  /// Measures one drive; nil when nothing was measured.
  static func measure(_ drive: SyntheticDrive, profile: ReceiverProfile) -> (distance: RouteDistance, truth: Double)? {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: DiscardRetainedSamples())
    var line = 0
    for fix in drive where fix.hasFix {
      line += 1
      ingest.position(profile.sample(fix), session: drive.configuration.legacyRows ? nil : fix.session, line: line)
    }
    let distance = ingest.measurement(format: .csv).distance
    guard distance.isMeasured else { return nil }
    let truth = drive.drivenMeters(inside: distance.segments.map { $0.start...$0.end })
    guard truth > 0 else { return nil }
    return (distance, truth)
  }

  static func run(quick: Bool, report: inout BenchmarkReport) {
    let perProfile = quick ? 25 : 40
    let duration = quick ? 1_200 : 3_600
    let profiles = ReceiverProfile.allCases
    report.say(
      "\n== truth (\(perProfile * profiles.count) drives of \(duration / 60) min, filter on; figure ÷ distance truly driven inside the measured segments)")
    report.say("  profile                   drives   recorded min / median / max    floor min / median / max     floor > truth")
    var all = Outcome()
    var timeSpent = 0.0
    for (index, profile) in profiles.enumerated() {
      var outcome = Outcome()
      timeSpent += time {
        for n in 0..<perProfile {
          let seed = UInt64(10_000 * (index + 1) + n)
          let drive = SyntheticDrive(profile.configuration(seed: seed, duration: duration))
          guard let (distance, truth) = measure(drive, profile: profile) else { continue }
          outcome.recorded.append(distance.meters / truth)
          outcome.floor.append(distance.floorMeters / truth)
          if distance.floorMeters > truth { outcome.floorAboveTruth += 1 }
          outcome.recordedMeters += distance.meters
          outcome.floorMeters += distance.floorMeters
          outcome.truthMeters += truth
        }
      }
      report.say("  \(profile.rawValue.padding(24))  \(pad("\(outcome.recorded.count)", 6))   \(spread(outcome.recorded))    \(spread(outcome.floor))   \(outcome.floorAboveTruth)")
      all.recorded += outcome.recorded
      all.floor += outcome.floor
      all.floorAboveTruth += outcome.floorAboveTruth
      all.recordedMeters += outcome.recordedMeters
      all.floorMeters += outcome.floorMeters
      all.truthMeters += outcome.truthMeters
    }
    report.say("  \("all".padding(24))  \(pad("\(all.recorded.count)", 6))   \(spread(all.recorded))    \(spread(all.floor))   \(all.floorAboveTruth)")
    let jitter = all.recordedMeters - all.truthMeters
    let bound = all.recordedMeters - all.floorMeters
    report.say(
      "  over all drives: recorded \(Format.fixed(all.recordedMeters / 1000, 1)) km, truly driven \(Format.fixed(all.truthMeters / 1000, 1)) km, floor \(Format.fixed(all.floorMeters / 1000, 1)) km;"
        + " jitter \(Format.fixed(jitter / all.recordedMeters * 100, 1)) % of the recorded figure (recorded − floor bounds it by \(Format.fixed(bound / all.recordedMeters * 100, 1)) %) — \(Format.fixed(timeSpent, 1)) s")
    let floors = all.floor.sorted()
    report.record(name, "floor median ratio", quantile(floors, 0.5), higherIsBetter: true, scaleFree: true)
    report.record(name, "floor min ratio", floors.first ?? 0, higherIsBetter: true, scaleFree: true)
    report.record(name, "drives with floor above truth", Double(all.floorAboveTruth), higherIsBetter: false)
    report.target(name, "at least 200 drives (\(floors.count))", met: floors.count >= 200)
    report.target(name, "no drive with the floor above the truth (\(all.floorAboveTruth))", met: all.floorAboveTruth == 0)
    report.target(name, "floor median ≥ 0.95 of truth (\(Format.fixed(quantile(floors, 0.5), 3)))", met: quantile(floors, 0.5) >= 0.95)
    report.target(name, "floor minimum ≥ 0.90 of truth (\(Format.fixed(floors.first ?? 0, 3)))", met: (floors.first ?? 0) >= 0.90)
  }

  static func spread(_ ratios: [Double]) -> String {
    let sorted = ratios.sorted()
    guard let first = sorted.first, let last = sorted.last else { return pad("—", 26) }
    return "\(Format.fixed(first, 3)) / \(Format.fixed(quantile(sorted, 0.5), 3)) / \(Format.fixed(last, 3))"
  }
}
