import RouteFeeds
import RouteMileage

extension MeasurementJSON {
  /// The `shift` object: `state`, `start`, `end`, `workingSeconds`, `pausedSeconds`,
  /// `parkedSeconds`, `pauses`, `parks`. Times ISO 8601 UTC; `end` is null while running, and a
  /// running shift's durations run to its last position (`ShiftTimeline.readingInstant(lastPosition:)`).
  static func shift(_ timeline: ShiftTimeline, lastPosition: Double?) -> JSONObject {
    let instant = timeline.readingInstant(lastPosition: lastPosition)
    var json = JSONObject()
    json.set("state", timeline.state.rawValue)
    json.set("start", timeline.start.map(CivilTime.iso8601))
    json.set("end", timeline.end.map(CivilTime.iso8601))
    json.set("workingSeconds", timeline.workingDuration(asOf: instant))
    json.set("pausedSeconds", timeline.pausedDuration(asOf: instant))
    json.set("parkedSeconds", timeline.parkedDuration(asOf: instant))
    json.set("pauses", timeline.pauseCount)
    json.set("parks", timeline.parkCount)
    return json
  }
}

extension HumanReport {
  /// One line about the shift's timeline: window, working time, pauses and parks; a running
  /// shift's durations run to its last position.
  static func shiftLine(_ timeline: ShiftTimeline, lastPosition: Double?) -> String {
    let instant = timeline.readingInstant(lastPosition: lastPosition)
    let start = timeline.start.map(CivilTime.iso8601) ?? "?"
    let end = timeline.end.map(CivilTime.iso8601) ?? "still running"
    let pauses = timeline.pauseCount
    let parks = timeline.parkCount
    return "Shift \(start) – \(end): working time \(DurationWords.short(timeline.workingDuration(asOf: instant))), "
      + "\(MileageLocale.english.counted(pauses, "pause")) (\(DurationWords.short(timeline.pausedDuration(asOf: instant)))), "
      + "\(MileageLocale.english.counted(parks, "park")) (\(DurationWords.short(timeline.parkedDuration(asOf: instant))))."
  }
}
