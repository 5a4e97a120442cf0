import RouteFeeds
import RouteIngest
import RouteMileage
import Testing

/// `ShiftIngest.report` is the account as it stands, filter on or off (issue 17, item 5).
@Suite("ShiftIngest's report")
struct ShiftIngestTests {
  /// Four fixes 10 s and about 111 m apart along a meridian, then one with a 500 m accuracy.
  static func deliver<Sink: RetainedSampleSink>(to ingest: inout ShiftIngest<Sink>) {
    for index in 0..<4 {
      let sample = RouteSample(
        timestamp: 1_700_000_000 + Double(index) * 10, latitude: 51 + Double(index) * 0.001, longitude: 0,
        horizontalAccuracy: 5)
      ingest.position(sample, session: 1, line: index + 2)
    }
    let poor = RouteSample(timestamp: 1_700_000_040, latitude: 51.004, longitude: 0, horizontalAccuracy: 500)
    ingest.position(poor, session: 1, line: 6)
  }

  @Test func withTheFilterOnTheReportCountsWhatTheFilterRetainedAndRejected() {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: DiscardRetainedSamples())
    Self.deliver(to: &ingest)
    #expect(ingest.report.records == 5)
    #expect(ingest.report.retained == 4)
    #expect(ingest.report.rejected == [FeedReason("accuracy"): 1])
    #expect(ingest.report.isBalanced)
    var measured = ingest.measurement(format: .csv).report
    measured.format = nil
    #expect(measured == ingest.report)
  }

  @Test func withTheFilterOffEveryPositionIsRetained() {
    var ingest = ShiftIngest(settings: IngestSettings(filter: nil), retained: DiscardRetainedSamples())
    Self.deliver(to: &ingest)
    #expect(ingest.report.retained == 5)
    #expect(ingest.report.rejected.isEmpty)
    #expect(ingest.report.isBalanced)
  }
}
