import RouteFeeds
import RouteIngest
import RouteMileage
import Testing

/// Stop fixes (`RouteSampleFilter`, Stops) give one figure on every path: a file read whole, a
/// live feed judged fix by fix, and the retained rows measured again as the store does.
@Suite("Stops on every path")
struct StopIngestTests {
  /// 1 Hz: 60 s north at 10 m/s, 400 s standing with 1 m of jitter, 60 s north again.
  static let samples: [RouteSample] = {
    let metersPerDegree = 111_195.079_734_63
    var samples: [RouteSample] = []
    for second in 0..<520 {
      let north: Double
      var east = 0.0
      switch second {
      case ..<61: north = Double(second) * 10
      case ..<461:
        north = 600
        east = second.isMultiple(of: 2) ? 1 : -1
      default: north = 600 + Double(second - 460) * 10
      }
      samples.append(
        RouteSample(
          timestamp: 1_764_403_200 + Double(second), latitude: 51.5 + north / metersPerDegree,
          longitude: -0.1 + east / (metersPerDegree * 0.622_514_636_637_619_9), horizontalAccuracy: 5))
    }
    return samples
  }()

  @Test func aLiveFeedAFileAndTheStoredRowsGiveTheSameRoute() throws {
    var live = ShiftIngest(settings: IngestSettings(), retained: KeepRetainedSamples(), order: .arrival)
    var readings: [RouteDistance] = []
    for (index, sample) in Self.samples.enumerated() {
      live.position(sample, session: 0, line: index + 2)
      if index.isMultiple(of: 97) { readings.append(live.measurement(format: .csv).distance) }
    }
    let whole = live.measurement(format: .csv).distance
    #expect(whole.stops.count == 1)
    #expect(whole.stops[0].duration == 401)
    #expect(whole.gaps.isEmpty)
    #expect(whole.segments.count == 1)
    // Stop fixes at +180 s, +300 s and +420 s (each the last within 120 s of the one before).
    #expect(live.report.retained == 61 + 3 + 59)
    #expect(readings.map(\.meters) == readings.map(\.meters).sorted())

    var csv = "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n"
    for sample in Self.samples.reversed() {
      csv += "\(CivilTime.iso8601(sample.timestamp)),\(sample.latitude),\(sample.longitude),5,a\n"
    }
    var source = MemoryByteSource(csv)
    let file = FeedIngest.measure(&source).distance
    #expect(file.meters == whole.meters)
    #expect(file.stops == whole.stops)
    #expect(file.segments == whole.segments)

    // The store keeps the retained rows, stop fixes included: measured again, the same route.
    let stored = RouteMileageCalculator().distance(of: live.retainedSink.samples)
    #expect(stored.meters == whole.meters)
    #expect(stored.segments == whole.segments)
    #expect(stored.gaps.isEmpty)
  }

  @Test func aStopFixIsCountedAsRetainedNotAsNegligibleMovement() {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: DiscardRetainedSamples(), order: .arrival)
    for (index, sample) in Self.samples.enumerated() { ingest.position(sample, session: 0, line: index + 2) }
    #expect(ingest.report.records == 520)
    #expect(ingest.report.rejected == [FeedReason("negligibleMovement"): 520 - 123])
    #expect(ingest.report.isBalanced)
  }
}
