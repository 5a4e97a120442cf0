import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore

/// Shows a replay as it goes and how it ended: the card redrawn in place on a terminal, or one
/// JSON line per update (fields in docs/replay.md); the end's two figures; the exit status.
final class ReplayDisplay {
  let console: Console
  let locale: MileageLocale
  let json: Bool
  /// Lines of the card last drawn, overwritten by the next.
  var drawnLines = 0

  init(console: Console, locale: MileageLocale, json: Bool) {
    self.console = console
    self.locale = locale
    self.json = json
  }

  func show(_ event: LiveReplay.Event, _ replay: LiveReplay) {
    switch event {
    case .update: draw(replay)
    case .discard(let samples): emit("discard", replay) { $0.set("samples", samples) }
    case .interrupt(let lost, let resumes):
      emit("interrupt", replay) { json in
        json.set("lostSamples", lost)
        json.set("captureResumesAt", resumes)
      }
    }
  }

  func emit(_ type: String, _ replay: LiveReplay, extra: (inout JSONObject) -> Void) {
    guard json else { return }
    var json = JSONObject()
    json.set("type", type)
    json.set("shiftSeconds", replay.shiftSeconds(replay.clock))
    extra(&json)
    console.out(json.text + "\n")
    console.flush()
  }

  func draw(_ replay: LiveReplay) {
    guard json else {
      let lines = replay.cardLines()
      var text = ""
      if drawnLines > 0 { text += "\u{1B}[\(drawnLines)F" }
      for line in lines { text += "\u{1B}[2K" + line + "\n" }
      drawnLines = lines.count
      console.out(text)
      console.flush()
      return
    }
    let report = replay.measurement.report
    let shown = replay.cadence.shownRoute
    let latest = replay.cadence.latestRoute
    let quality = RouteQuality(shown, locale: locale)
    let card = replay.cadence.card
    let clock = replay.clock
    let working = replay.timeline.workingDuration(asOf: clock)
    var json = JSONObject()
    json.set("type", "update")
    json.set("shiftSeconds", replay.shiftSeconds(clock))
    json.set("clock", DurationWords.clock(clock - replay.startTime))
    json.set("feedTime", CivilTime.iso8601(clock))
    json.set("state", ShiftCardWords.stateWord(replay.timeline.state(at: clock)))
    json.set("stateLine", card?.stateLine)
    json.set("workingSeconds", working)
    json.set("line", quality.line)
    json.set("routeLine", card?.routeLine ?? quality.line)
    json.set("parkedLine", card?.parkedLine)
    json.set("controls", strings: card?.controls.map(\.rawValue) ?? [])
    if replay.recordsDeliveries {
      json.set("deliveryCountsLine", card?.deliveryCountsLine)
      json.set("deliveryStatusLine", card?.deliveryStatusLine)
      json.set("deliveryLines", strings: card?.deliveryLines.map { $0.text(at: clock) } ?? [])
      json.set("moreDeliveriesLine", card?.moreDeliveriesLine)
      json.set("stepRefusalLine", card?.stepRefusalLine)
      json.set("reminderLines", strings: card?.reminderLines ?? [])
    }
    json.set("pushed", replay.pushed)
    json.set("meters", shown.isMeasured ? shown.meters : nil)
    json.set("liveMeters", latest.isMeasured ? latest.meters : nil)
    json.set("isMeasured", latest.isMeasured)
    json.set("isPartial", latest.isPartial)
    json.set("segmentCount", latest.contributingSegmentCount)
    json.set("gapCount", latest.gapCount)
    json.set("captured", report.retained - replay.lostSamples)
    json.set("stored", replay.storedSamples)
    json.set("rejected", report.rejectedCount)
    json.set("unreadable", report.errors)
    json.set("batches", replay.batches)
    json.set("discardedBatches", replay.discardedBatches)
    json.set("freshMeasurements", replay.live?.counters.freshMeasurements ?? 0)
    json.set("captureInterrupted", replay.interruptedAt != nil)
    json.set("stoppedByUser", replay.stoppedByUser)
    console.out(json.text + "\n")
    console.flush()
  }

  /// Prints how the replay ended and returns the exit status: 1 when the feed could not be
  /// read to its end, 130 after Ctrl-C, 64 when `--interrupt-at` fell after the feed's end.
  func finish(_ outcome: LiveReplay.Outcome, _ replay: LiveReplay, feedPath: String) -> Int32 {
    guard case .ended(let shift, let liveDistance, let final, let reason, let live) = outcome else {
      if case .nothingToReplay(let measurement) = outcome { finishWithoutRoute(measurement) }
      return failed(replay, feedPath) ? ExitCode.failure : ExitCode.success
    }
    let clock = replay.clock
    let identical = reason == nil
    let liveLine = RouteQuality(liveDistance, locale: locale).line
    let finalLine = RouteQuality(final, locale: locale).line
    if json {
      var json = JSONObject()
      json.set("type", "end")
      json.set("shiftSeconds", replay.shiftSeconds(clock))
      json.set("interrupted", replay.stoppedByUser)
      json.set("captureInterrupted", replay.interruptedAt != nil)
      json.set("liveLine", liveLine)
      json.set("finalLine", finalLine)
      json.set("liveMeters", liveDistance.meters)
      json.set("finalMeters", final.meters)
      json.set("liveFloorMeters", liveDistance.floorMeters)
      json.set("finalFloorMeters", final.floorMeters)
      json.set("identical", identical)
      json.set("reason", reason)
      json.set("shift", Int(shift.rawValue))
      json.set("batches", replay.batches)
      json.set("discardedBatches", replay.discardedBatches)
      json.set("storedSamples", replay.storedSamples)
      json.set("lostSamples", replay.lostSamples)
      json.set("notCaptured", replay.notCaptured)
      var counters = JSONObject()
      counters.set("probes", live.probes)
      counters.set("unchanged", live.unchanged)
      counters.set("extensions", live.extensions)
      counters.set("freshMeasurements", live.freshMeasurements)
      counters.set("rowsFetched", live.rowsFetched)
      json.set("refreshes", counters)
      console.out(json.text + "\n")
    } else {
      console.out("\nShift ended after \(DurationWords.clock(clock - replay.startTime)).\n")
      for line in replay.interruptionLines() { console.out("  \(line).\n") }
      console.out("  Last live figure:  \(liveLine)\n")
      console.out("  Final figure:      \(finalLine)  (measured from the stored rows in one pass)\n")
      if let liveFloor = RouteQuality(liveDistance, locale: locale).floorSentence,
        let finalFloor = RouteQuality(final, locale: locale).floorSentence
      {
        console.out("  Live floor:        \(liveFloor)\n")
        console.out("  Final floor:       \(finalFloor)\n")
      }
      console.out(identical ? "  The two figures are identical.\n" : "  They differ: \(reason ?? "")\n")
    }
    console.flush()
    if failed(replay, feedPath) { return ExitCode.failure }
    if replay.stoppedByUser { return ExitCode.interrupted }
    if let at = replay.settings.interruptAt, !replay.interruptDone {
      console.err(
        "routemiles: --interrupt-at \(at) is after the feed's last position (the shift ended after \(DurationWords.clock(clock - replay.startTime))); no interruption was played\n"
      )
      return ExitCode.usage
    }
    return ExitCode.success
  }

  /// Says why reading the feed stopped partway, if it did.
  func failed(_ replay: LiveReplay, _ feedPath: String) -> Bool {
    guard let failure = replay.readFailure else { return false }
    console.err("routemiles: \(FeedReading.describe(failure, in: feedPath))\n")
    return true
  }

  func finishWithoutRoute(_ measurement: FeedMeasurement) {
    let line = RouteQuality(measurement.distance, locale: locale).line
    if json {
      var json = JSONObject()
      json.set("type", "end")
      json.set("shiftSeconds", 0)
      json.set("liveLine", line)
      json.set("finalLine", line)
      json.set("liveFloorMeters", measurement.distance.floorMeters)
      json.set("finalFloorMeters", measurement.distance.floorMeters)
      json.set("identical", true)
      json.set("reason", nil as String?)
      console.out(json.text + "\n")
    } else {
      console.out("No timed position in the feed: nothing to replay.\n  \(line)\n")
    }
  }
}
