import RouteFeeds
import RouteIngest
import RouteMileage
import ShiftWork

/// The `--json` object for one input. Its field names are pinned: other tools read them.
///
/// ```
/// {"source","format","meters","miles","floorMeters","floorMiles","segmentCount","gapCount","usablePositionCount",
///  "usesInferredContinuity","isMeasured","isPartial","summary","floorSummary","unmeasurable","details",
///  "inputRows","rejectedByReason","ingest":{…},"shift":{…}?,"window":{…}?,"deliveries":{…}?,"segments":[…],"gaps":[…],"stops":[…],"recordings":[…],"recordingsOverlap","error"}
/// ```
/// (`shift` only with a timeline, `window` only when there is one, `deliveries` only when the
/// timeline recorded deliveries; `shift.clamped` only when a shift event was clamped.)
/// Times are ISO 8601 UTC. `inputRows` and `rejectedByReason` repeat `ingest.records` and
/// `ingest.rejected` at the top level for the acceptance harness.
enum MeasurementJSON {
  /// A gap's or a stop's `start`, `end` (ISO 8601 UTC) and `seconds`, in that order.
  static func stretch(from start: Double, to end: Double, seconds: Double, into object: inout JSONObject) {
    object.set("start", CivilTime.iso8601(start))
    object.set("end", CivilTime.iso8601(end))
    object.set("seconds", seconds)
  }

  static func object(for result: InputResult, locale: MileageLocale, window: ShiftWindow?) -> JSONObject {
    var json = JSONObject()
    json.set("source", result.source)
    guard let measurement = result.measurement else {
      json.set("format", nil as String?)
      json.set("error", result.failure)
      return json
    }
    let distance = measurement.distance
    let report = measurement.report
    let quality = RouteQuality(distance, locale: locale)
    json.set("format", result.formatLabel)
    figures(distance, quality: quality, into: &json)
    json.set("details", strings: quality.detailSentences)
    json.set("inputRows", report.records)
    json.set("rejectedByReason", counts(report.rejected))
    json.set("ingest", ingest(report, distance: distance))
    if let timeline = result.timeline {
      var shiftJSON = shift(timeline, lastPosition: result.measurement?.report.lastTimestamp)
      if let clamps = result.ledger?.shiftClamps, !clamps.isEmpty { shiftJSON.set("clamped", clamps.map(clamp)) }
      json.set("shift", shiftJSON)
    }
    if let window = result.timeline?.window ?? window {
      var windowJSON = JSONObject()
      windowJSON.set("start", CivilTime.iso8601(window.start))
      windowJSON.set("end", CivilTime.iso8601(window.end))
      json.set("window", windowJSON)
    }
    if let ledger = result.ledgerWithDeliveries { json.set("deliveries", deliveries(ledger)) }
    json.set(
      "segments",
      distance.segments.map { segment in
        var object = JSONObject()
        object.set("start", CivilTime.iso8601(segment.start))
        object.set("end", CivilTime.iso8601(segment.end))
        object.set("positions", segment.positionCount)
        object.set("meters", segment.meters)
        object.set("floorMeters", segment.floorMeters)
        object.set("floorMiles", segment.floorMeters / metersPerMile)
        return object
      })
    json.set(
      "gaps",
      distance.gaps.map { gap in
        var object = JSONObject()
        object.set("kind", gap.kind.rawValue)
        stretch(from: gap.start, to: gap.end, seconds: gap.duration, into: &object)
        return object
      })
    json.set(
      "stops",
      distance.stops.map { stop in
        var object = JSONObject()
        stretch(from: stop.start, to: stop.end, seconds: stop.duration, into: &object)
        return object
      })
    json.set(
      "recordings",
      measurement.recordings.map { recording in
        var object = JSONObject()
        object.set("label", recording.recording?.description)
        switch recording.recording {
        case .track(let number)?: object.set("track", number)
        case .device(let id)?: object.set("device", id)
        case nil: break
        }
        object.set("first", recording.first.map(CivilTime.iso8601))
        object.set("last", recording.last.map(CivilTime.iso8601))
        object.set("positions", recording.positions)
        object.set("meters", recording.distance.measurement?.meters)
        object.set("summary", RouteQuality(recording.distance, locale: locale).line)
        object.set("chosen", recording.isChosen)
        return object
      })
    json.set("recordingsOverlap", measurement.recordingsOverlap)
    json.set("error", result.failure)
    return json
  }

  /// The pinned figures of a route, from `meters` to `summary`. An unmeasurable route writes
  /// `null` for `meters`, `miles`, `segmentCount` and `gapCount` (no counts rather than counts of
  /// zero, seed 004); `unmeasurable` says which kind of nothing it is.
  static func figures(_ distance: RouteDistance, quality: RouteQuality, into json: inout JSONObject) {
    json.set("meters", distance.measurement?.meters)
    json.set("miles", distance.measurement?.miles)
    json.set("floorMeters", distance.floorMeters)
    json.set("floorMiles", distance.floorMiles)
    json.set("segmentCount", distance.reportedCounts?.segments)
    json.set("gapCount", distance.reportedCounts?.gaps)
    json.set("usablePositionCount", distance.usablePositionCount)
    json.set("usesInferredContinuity", distance.usesInferredContinuity)
    json.set("isMeasured", distance.isMeasured)
    json.set("isPartial", distance.isPartial)
    json.set("summary", quality.line)
    json.set("floorSummary", quality.floorSentence)
    json.set("unmeasurable", distance.unmeasurable?.rawValue)
  }

  static func ingest(_ report: IngestReport, distance: RouteDistance) -> JSONObject {
    var json = JSONObject()
    json.set("records", report.records)
    json.set("retained", report.retained)
    json.set("rejected", counts(report.rejected))
    json.set("errors", report.errors)
    json.set("errorReasons", counts(report.errorReasons))
    json.set("errorLines", integers: report.errorLines)
    json.set("ignored", counts(report.ignored))
    json.set("notes", counts(report.notes))
    json.set("sessions", report.sessions)
    json.set("legacyPositions", report.legacyPositions)
    json.set("reanchored", report.reanchored)
    json.set("estimatedAccuracy", report.estimatedAccuracy)
    json.set("firstTime", report.firstTimestamp.map(CivilTime.iso8601))
    json.set("lastTime", report.lastTimestamp.map(CivilTime.iso8601))
    json.set("unusablePositions", distance.unusablePositionCount)
    json.set("positionsOutsideWindow", distance.positionsOutsideWindow)
    json.set("collapsedPositions", distance.positionsNotAfterPrevious)
    if distance.positionsInsidePause > 0 || distance.positionsWhileParked > 0 {
      json.set("positionsInsidePause", distance.positionsInsidePause)
      json.set("positionsWhileParked", distance.positionsWhileParked)
    }
    return json
  }

  static func counts(_ counts: [FeedReason: Int]) -> JSONObject {
    var json = JSONObject()
    for (reason, count) in counts.sorted(by: { $0.key < $1.key }) {
      json.set(reason.rawValue, count)
    }
    return json
  }
}
