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

  @Test func aKeepingSinkGetsEveryRetainedSampleInItsMintedCaptureSession() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: KeepRetainedSamples(), order: .time)
    Self.deliver(to: &ingest)
    try ingest.finish()
    let kept = ingest.retainedSink.samples
    #expect(kept.map(\.timestamp) == [1_700_000_000, 1_700_000_010, 1_700_000_020, 1_700_000_030])
    #expect(kept.map(\.captureSession) == Array(repeating: CaptureSessionID(1), count: 4))
    #expect(ingest.report.firstTimestamp == 1_700_000_000)
    #expect(ingest.report.lastTimestamp == 1_700_000_040)
  }

  /// The repeat follows a retained position the stage judged in place (the time cluster already
  /// holds two), which must be compared as the reader delivered it.
  @Test func inTimeOrderAnExactRepeatIsADuplicateAndTheStreamGoesOn() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: KeepRetainedSamples(), order: .time)
    for index in 0..<3 {
      let sample = RouteSample(
        timestamp: 1_700_000_000 + Double(index) * 10, latitude: 51 + Double(index) * 0.001, longitude: 0,
        horizontalAccuracy: 5)
      ingest.position(sample, session: 1, line: index + 2)
    }
    let third = RouteSample(timestamp: 1_700_000_020, latitude: 51.002, longitude: 0, horizontalAccuracy: 5)
    ingest.position(third, session: 1, line: 5)
    try ingest.finish()
    #expect(!ingest.deliveredOutOfOrder)
    #expect(ingest.report.rejected == [.duplicate: 1])
    #expect(ingest.retainedSink.samples.count == 3)
  }

  /// An infinite timestamp after positions in order is later than all of them, yet untimed:
  /// rejected on its own, and the positions after it still stream in order.
  @Test func anInfiniteTimestampAmidPositionsInOrderCostsOnlyItself() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: KeepRetainedSamples(), order: .time)
    let start = 1_700_000_000.0
    for index in 0..<5 {
      let timestamp = index == 2 ? Double.infinity : start + Double(index) * 10
      let sample = RouteSample(
        timestamp: timestamp, latitude: 51 + Double(index) * 0.001, longitude: 0, horizontalAccuracy: 5)
      ingest.position(sample, session: 1, line: index + 2)
    }
    try ingest.finish()
    #expect(!ingest.deliveredOutOfOrder)
    #expect(ingest.retainedSink.samples.map(\.timestamp) == [start, start + 10, start + 30, start + 40])
    #expect(ingest.report.rejected.values.reduce(0, +) == 1)
    #expect(ingest.report.lastTimestamp == start + 40)
  }

  /// A position earlier than the one before it ends the in-order pass, and every later one,
  /// in order or not, is left for the sorted pass.
  @Test func positionsAfterTheFirstOutOfOrderOneAreLeftForTheSortedPass() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: KeepRetainedSamples(), order: .time)
    let start = 1_700_000_000.0
    for (line, offset) in [0.0, 10, 5, 20, 30].enumerated() {
      let sample = RouteSample(
        timestamp: start + offset, latitude: 51 + offset * 0.0001, longitude: 0, horizontalAccuracy: 5)
      ingest.position(sample, session: 1, line: line + 2)
    }
    #expect(ingest.deliveredOutOfOrder)
    #expect(ingest.retainedSink.samples.map(\.timestamp) == [start, start + 10])
  }

  @Test func untimedPositionsLeaveTheTimeSpanOut() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: DiscardRetainedSamples(), order: .time)
    ingest.position(RouteSample(timestamp: .nan, latitude: 51, longitude: 0), session: 1, line: 2)
    #expect(ingest.report.firstTimestamp == nil)
    #expect(ingest.report.lastTimestamp == nil)
    ingest.position(RouteSample(timestamp: 1_700_000_000, latitude: 51, longitude: 0), session: 1, line: 3)
    ingest.position(RouteSample(timestamp: .infinity, latitude: 51, longitude: 0), session: 1, line: 4)
    try ingest.finish()
    #expect(ingest.report.firstTimestamp == 1_700_000_000)
    #expect(ingest.report.lastTimestamp == 1_700_000_000)
  }

  /// Two tracks overlapping in time by 180 s (more than the 120 s tolerance), their positions
  /// alternating, so the recording of each position differs from the one before: each track
  /// keeps its own span and count.
  @Test func interleavedRecordingsKeepEachOnesSpanAndCount() throws {
    var ingest = ShiftIngest(settings: IngestSettings(), retained: DiscardRetainedSamples(), order: .timeSorted)
    ingest.recording(.track(1), ofSession: 1)
    ingest.recording(.track(2), ofSession: 2)
    let start = 1_700_000_000.0
    for index in 0..<6 {
      let step = Double(index)
      ingest.position(
        RouteSample(timestamp: start + 60 * step, latitude: 51 + 0.001 * step, longitude: 0), session: 1,
        line: 2 * index + 2)
      if index < 4 {
        ingest.position(
          RouteSample(timestamp: start + 30 + 60 * step, latitude: 52 + 0.001 * step, longitude: 0), session: 2,
          line: 2 * index + 3)
      }
    }
    try ingest.finish()
    let recordings = ingest.measurement(format: .gpx).recordings
    #expect(recordings.map(\.recording) == [.track(1), .track(2)])
    #expect(recordings.map(\.positions) == [6, 4])
    #expect(recordings.map(\.first) == [start, start + 30])
    #expect(recordings.map(\.last) == [start + 300, start + 210])
  }
}
