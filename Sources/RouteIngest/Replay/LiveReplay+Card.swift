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
      "\(card?.stateLine ?? ShiftCardWords.inProgress) · \(DurationWords.clock(working))"
        + (card?.parkedLine.map { " · " + $0 } ?? ""),
      RouteQuality(cadence.shownRoute, locale: locale).line,
      latest.isMeasured
        ? ShiftCardWords.segments(latest.contributingSegmentCount, gaps: latest.gapCount, locale: locale)
        : "",
      ShiftCardWords.samples(
        captured: report.retained - lostSamples, rejected: report.rejectedCount, batches: batches,
        discarded: discardedBatches,
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
        ShiftCardWords.captureInterrupted(
          at: DurationWords.clock(at - startTime), lost: lostSamples,
          resumesAt: DurationWords.clock(resumes - startTime),
          resumed: clock >= resumes, locale: locale))
    }
    if stoppedByUser {
      let kept = storePath == nil ? nil : shift.map { "\($0)" }
      lines.append(ShiftCardWords.stoppedWithCtrlC(at: DurationWords.clock(clock - startTime), kept: kept))
    }
    return lines
  }

  /// The card's delivery lines as drawn: counts, the status line, one line per open delivery
  /// (clocks read now), the remainder, the reason for no step, and reminders with the note.
  /// A fixed number of lines while the shift runs, so the redrawn card does not jump.
  func deliveryCardLines(_ card: ShiftCard?, finished: Bool) -> [String] {
    guard let card else { return [] }
    var lines = [card.deliveryCountsLine ?? "", finished ? "" : card.deliveryStatusLine ?? card.stepRefusalLine ?? ""]
    if finished { return lines }
    let open = card.deliveryLines.map { $0.text(at: clock) }
    lines += open + Array(repeating: "", count: ShiftCard.maximumDeliveryLines - open.count)
    lines.append(card.moreDeliveriesLine ?? "")
    lines += card.reminderLines
    if !card.reminderLines.isEmpty { lines.append(ShiftCardWords.reminderNote) }
    return lines
  }
}
