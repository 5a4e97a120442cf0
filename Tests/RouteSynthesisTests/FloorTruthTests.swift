import RouteMileage
import Testing

@testable import RouteSynthesis

/// The floor against ground truth: seeded synthetic drives across every receiver profile,
/// measured the way `measure` does (capture filter, then the walk), against the distance the
/// vehicle truly drove inside the measured segments.
@Suite("The floor against ground truth")
struct FloorTruthTests {
  /// Filter then walk, as the ingest does (sessions re-anchored by the filter are minted past
  /// the drive's own).
  static func measure(_ drive: SyntheticDrive, profile: ReceiverProfile) -> RouteDistance {
    var filter = RouteSampleFilter(sessionMinter: CaptureSessionMinter(next: 10_000))
    var walk = RouteMileageAccumulator()
    for fix in drive where fix.hasFix {
      if case .retained(let kept) = filter.consider(profile.sample(fix)) { walk.append(kept) }
    }
    return walk.distance
  }

  @Test(
    "never above the truth, and at least 90 % of it (85 % in the urban canyon)", arguments: ReceiverProfile.allCases)
  func floorAgainstTruth(_ profile: ReceiverProfile) {
    var drives = 0
    for n in 0..<6 {
      let drive = SyntheticDrive(profile.configuration(seed: UInt64(500 + n), duration: 1_800))
      let distance = Self.measure(drive, profile: profile)
      guard distance.isMeasured else { continue }
      drives += 1
      let truth = drive.drivenMeters(inside: distance.segments.map { $0.start...$0.end })
      let captured = drive.facts().capturedMeters
      #expect(distance.floorMeters <= truth, "\(profile.rawValue) seed \(500 + n)")
      #expect(truth <= captured + 1e-6)
      let least = profile == .urbanCanyon ? 0.85 : 0.90
      #expect(
        distance.floorMeters >= least * truth, "\(profile.rawValue) seed \(500 + n): \(distance.floorMeters / truth)")
      // Each segment's floor stays under the truth inside that segment.
      for segment in distance.segments {
        #expect(segment.floorMeters <= drive.drivenMeters(inside: [segment.start...segment.end]))
      }
    }
    #expect(drives == 6)
  }

  @Test("the true distance inside spans: all of a one-session drive is its captured distance")
  func drivenInsideSpans() {
    let drive = SyntheticDrive(DriveConfiguration(seed: 8, duration: 600, faults: .none))
    let facts = drive.facts()
    let start = Double(drive.configuration.start)
    #expect(abs(drive.drivenMeters(inside: [start...(start + 600)]) - facts.capturedMeters) < 1e-6)
    let halves = drive.drivenMeters(inside: [start...(start + 300), (start + 300)...(start + 600)])
    #expect(abs(halves - facts.capturedMeters) < 1e-6)
    #expect(drive.drivenMeters(inside: [start...(start + 299), (start + 300)...(start + 600)]) <= facts.capturedMeters)
    #expect(drive.drivenMeters(inside: []) == 0)
  }
}
