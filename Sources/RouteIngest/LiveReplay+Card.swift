import RouteMileage
import ShiftWork

/// The live card's lines as `replay` shows them, from the engine's state.
extension LiveReplay {
  /// The card's lines as a terminal shows them: state and working time, the figure, segments
  /// and gaps, the samples, interruptions, deliveries, and the controls (blank once ended).
  public func cardLines() -> [String] {
    let report = measurement.report
    let latest = cadence.latestRoute
    let card = cadence.card
    let working = timeline.workingDuration(asOf: clock)
    let finished = timeline.state(at: clock) == .ended
    var lines = [
      "\(card?.stateLine ?? ShiftCard.inProgressLine) · \(DurationWords.clock(working))"
        + (card?.parkedLine.map { " · " + $0 } ?? ""),
      RouteQuality(cadence.shownRoute, locale: locale).line,
      latest.isMeasured
        ? "\(locale.counted(latest.contributingSegmentCount, "segment")) · \(locale.counted(latest.gapCount, "gap"))"
        : "",
      Self.samplesLine(
        captured: report.retained - lostSamples, rejected: report.rejectedCount, batches: batches, discarded: discardedBatches,
        locale: locale),
    ]
    lines.append(contentsOf: interruptionLines())
    if recordsDeliveries {
      lines.append(contentsOf: deliveryCardLines(card, finished: finished))
    }
    // The controls while the shift runs; the line is left blank once it has ended.
    lines.append(finished ? "" : (card?.controls ?? []).map { "[\($0.rawValue)]" }.joined(separator: " "))
    return lines
  }

  /// What the card says about interruptions: capture killed by `--interrupt-at` (when, what
  /// was lost, when it resumed) and a replay stopped with Ctrl-C.
  public func interruptionLines() -> [String] {
    var lines: [String] = []
    if let at = interruptedAt {
      let resumes = at + settings.relaunchAfter
      lines.append(
        "Capture interrupted at \(DurationWords.clock(at - startTime)) · \(locale.counted(lostSamples, "unsaved sample")) lost · "
          + (clock >= resumes
            ? "resumed at \(DurationWords.clock(resumes - startTime)) as a new capture session"
            : "resumes at \(DurationWords.clock(resumes - startTime))"))
    }
    if stoppedByUser {
      lines.append(
        "Replay stopped with Ctrl-C at \(DurationWords.clock(clock - startTime)): "
          + (storePath != nil && shift != nil
            ? "\(shift!) is kept in the store as interrupted, its figure partial"
            : "the shift ended there"))
    }
    return lines
  }

  /// The card's line of counts: `Samples: 1,204 captured · 3 rejected · 1 batch (1 discarded)`.
  public static func samplesLine(captured: Int, rejected: Int, batches: Int, discarded: Int, locale: MileageLocale) -> String {
    let count = locale.formattedCount
    return "Samples: \(count(captured)) captured · \(count(rejected)) rejected · \(locale.counted(batches, "batch"))"
      + (discarded > 0 ? " (\(count(discarded)) discarded)" : "")
  }

  /// The card's delivery lines as drawn: counts, the status line, one line per open delivery
  /// (clocks read now), the remainder, the reason for no step, and reminders with the note.
  /// A fixed number of lines while the shift runs, so the redrawn card does not jump.
  public func deliveryCardLines(_ card: ShiftCard?, finished: Bool) -> [String] {
    guard let card else { return [] }
    var lines = [card.deliveryCountsLine ?? "", finished ? "" : card.deliveryStatusLine ?? card.stepRefusalLine ?? ""]
    if finished { return lines }
    let open = card.deliveryLines.map { $0.text(at: clock) }
    lines += open + Array(repeating: "", count: ShiftCard.maximumDeliveryLines - open.count)
    lines.append(card.moreDeliveriesLine ?? "")
    lines += card.reminderLines
    if !card.reminderLines.isEmpty { lines.append(ShiftCard.reminderNote) }
    return lines
  }

  /// The replay's word for a state: `inProgress` (running), `paused`, `parked`, `ended`.
  public static func stateWord(_ state: ShiftTimeline.State) -> String {
    switch state {
    case .running, .notStarted: "inProgress"
    case .paused: "paused"
    case .parked: "parked"
    case .ended: "ended"
    }
  }
}
