import RouteFeeds
import RouteMileage

extension FeedReason {
  /// A position of another recording than the one measured, when a file's recordings overlap in
  /// time or one was chosen (see `RecordingSpans`): measured on its own, listed beside the
  /// figure, never added into it.
  public static let otherRecording = FeedReason("otherRecording")
}

/// The recordings of a file measured apart (see `RecordingSpans`): the chosen one's figure and
/// account, and every recording's summary.
struct SeparatedRecordings {
  var chosenDistance: RouteDistance
  /// The chosen recording's own account (its filter's counts, duplicates, time outliers).
  var chosenReport: IngestReport
  /// Positions of the other recordings, and their capture sessions.
  var otherPositions: Int
  var otherSessions: Int
  var summaries: [FeedRecordingSummary]
}

extension IngestReport {
  /// Takes in the account of recordings measured apart: the chosen one's retained positions and
  /// rejections, the others' positions as `otherRecording`, every recording's sessions.
  mutating func absorb(_ separated: SeparatedRecordings) {
    let chosen = separated.chosenReport
    retained += chosen.retained
    reanchored += chosen.reanchored
    for (reason, count) in chosen.rejected { rejected[reason, default: 0] += count }
    if separated.otherPositions > 0 { rejected[.otherRecording, default: 0] += separated.otherPositions }
    sessions += chosen.sessions + separated.otherSessions
    firstTimestamp = chosen.firstTimestamp
    lastTimestamp = chosen.lastTimestamp
  }
}

extension ShiftIngest {
  /// Whether the recordings are measured apart: the file holds two or more recordings that
  /// overlap in time, or one was chosen.
  var separatesRecordings: Bool {
    settings.recordingChoice != nil || spans.overlap(tolerance: settings.maximumSampleInterval)
  }

  /// True once a streamed (`.time`) read found recordings that overlap in time: the caller reads
  /// the file again, sorted, so they are measured apart.
  public var needsSeparateRecordings: Bool {
    order == .time && !deliveredOutOfOrder && separatesRecordings
  }

  /// The settings a recording measured on its own runs with.
  private var recordingSettings: IngestSettings {
    var settings = settings
    settings.recordingChoice = nil
    settings.pipelining = .off
    return settings
  }

  /// `.timeSorted` with recordings apart: each recording's positions, in time order, go through
  /// a walk of their own (duplicates, time outliers, filter, accumulator); only the chosen
  /// recording's retained samples reach the sink.
  ///
  /// - Complexity: O(*n*) over the sorted positions; memory O(recordings) walks.
  mutating func measureApart(_ cursor: inout SortedSamples) throws {
    let chosen = spans.chosen(settings.recordingChoice)
    var chosenWalk = ShiftIngest(settings: recordingSettings, retained: retainedSink, order: .time)
    var others = spans.names.map { _ in
      ShiftIngest<DiscardRetainedSamples>(settings: recordingSettings, retained: DiscardRetainedSamples(), order: .time)
    }
    var otherPositions = 0
    var sinceChunk = 0
    while let item = try cursor.next() {
      let index = spans.index(of: item.session)
      if index == chosen {
        chosenWalk.deliverInTimeOrder(item)
        sinceChunk += 1
        if sinceChunk == 1 << 16 {
          sinceChunk = 0
          try chosenWalk.retainedSink.chunkFinished()
        }
      } else {
        otherPositions += 1
        others[index].deliverInTimeOrder(item)
      }
    }
    try chosenWalk.finish()
    retainedSink = chosenWalk.retainedSink
    var summaries: [FeedRecordingSummary] = []
    var otherSessions = 0
    for index in spans.names.indices {
      let distance: RouteDistance
      if index == chosen {
        distance = chosenWalk.accumulator.distance
      } else {
        try others[index].finish()
        distance = others[index].accumulator.distance
        otherSessions += others[index].counted.sessions
      }
      summaries.append(summary(index, distance: distance, chosen: index == chosen))
    }
    separated = SeparatedRecordings(
      chosenDistance: chosen == nil ? RouteDistance() : chosenWalk.accumulator.distance,
      chosenReport: chosenWalk.report,
      otherPositions: otherPositions, otherSessions: otherSessions, summaries: summaries)
  }

  func summary(_ index: Int, distance: RouteDistance, chosen: Bool) -> FeedRecordingSummary {
    let extent = spans.extents[index]
    let positions = extent.positions
    return FeedRecordingSummary(
      recording: spans.names[index], first: positions > 0 ? extent.first : nil,
      last: positions > 0 ? extent.last : nil, positions: positions, distance: distance, isChosen: chosen)
  }

  /// With the filter off: each recording's positions measured on their own, as the calculator
  /// would; the chosen one is the figure.
  ///
  /// - Complexity: O(1) per recording after a sorted walk (`finishUnfiltered()`); O(*n* log *n*)
  ///   for an `.arrival` ingest, whose positions are held.
  func unfilteredApart(format: FeedFormat, report: IngestReport) -> FeedMeasurement {
    let chosen = spans.chosen(settings.recordingChoice)
    let walked = unfilteredSeparated ?? unfilteredHeldApart()
    var report = report
    var summaries: [FeedRecordingSummary] = []
    var chosenDistance = RouteDistance()
    for index in spans.names.indices {
      let positions = index < retainedByRecording.count ? retainedByRecording[index] : 0
      let distance = index < walked.count ? walked[index] : freshWalk().distance
      if index == chosen {
        chosenDistance = distance
      } else if positions > 0 {
        report.retained -= positions
        report.rejected[.otherRecording, default: 0] += positions
      }
      summaries.append(summary(index, distance: distance, chosen: index == chosen))
    }
    var measurement = FeedMeasurement(format: format, distance: chosenDistance, report: report, recordings: summaries)
    noteRecordingChoice(&measurement)
    return measurement
  }

  /// `.arrival` with the filter off: each recording's held positions through the calculator.
  private func unfilteredHeldApart() -> [RouteDistance] {
    var byRecording = [[RoutePosition]](repeating: [], count: spans.names.count)
    for (position, recording) in zip(unfiltered, unfilteredRecordings) { byRecording[Int(recording)].append(position) }
    return byRecording.map { positions in
      timeline.map { calculator.distance(of: positions, timeline: $0) }
        ?? calculator.distance(of: positions, covering: window)
    }
  }

  func noteRecordingChoice(_ measurement: inout FeedMeasurement) {
    measurement.recordingsOverlap = spans.overlap(tolerance: settings.maximumSampleInterval)
    measurement.recordingChosen = settings.recordingChoice != nil
  }
}
