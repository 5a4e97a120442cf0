import RouteFeeds
import RouteIngest
import RouteMileage
import ShiftWork

/// The human-readable account of one input: the RouteQuality line, its sentences, the ingest
/// summary and, with `--explain`, the segments and gaps. Never a coordinate.
enum HumanReport {
  static func text(for result: InputResult, locale: MileageLocale, explain: Bool) -> String {
    var lines = [result.source]
    guard let measurement = result.measurement else {
      let why = result.timelineRefused ? "its shift timeline was refused" : "the input could not be read"
      return lines.joined(separator: "\n") + "\n  Not measured: \(why).\n"
    }
    let quality = RouteQuality(measurement.distance, locale: locale)
    lines.append("  " + quality.line)
    for sentence in quality.detailSentences { lines.append("  " + sentence) }
    if let floor = quality.floorSentence { lines.append("  " + floor) }
    if let failure = measurement.report.failure {
      // Said here too, not only on standard error: the report must name why (never a coordinate).
      lines.append(failure.stopsReadingPartway ? "  Why reading stopped: \(failure)." : "  Not measured: \(failure).")
    }
    lines.append(contentsOf: recordingLines(measurement, locale: locale, explain: explain))
    if let timeline = result.timeline {
      lines.append("  " + shiftLine(timeline, lastPosition: measurement.report.lastTimestamp))
    }
    if let ledger = result.ledgerWithDeliveries {
      lines.append(contentsOf: deliveryLines(ledger, clamps: result.timelineRecord?.clamps ?? [], explain: explain))
    } else {
      for clamp in result.timelineRecord?.clamps ?? [] { lines.append("  Clamped: \(clamp).") }
    }
    lines.append("  " + ingestSummary(measurement.report, format: measurement.format, locale: locale))
    let distance = measurement.distance
    var notMeasured: [String] = []
    let count = locale.formattedCount
    if distance.unusablePositionCount > 0 {
      notMeasured.append("\(count(distance.unusablePositionCount)) describing nowhere on Earth")
    }
    // With a timeline, positions outside the shift, inside a pause or while parked are never
    // kept: they are rejected at capture (`outsideShift`, `insidePause`, `whileParked`).
    if distance.positionsOutsideWindow > 0, result.timeline == nil {
      notMeasured.append("\(count(distance.positionsOutsideWindow)) outside the shift window")
    }
    if distance.positionsNotAfterPrevious > 0 {
      notMeasured.append("\(count(distance.positionsNotAfterPrevious)) sharing a timestamp or out of order")
    }
    if !notMeasured.isEmpty {
      lines.append("  Kept but not measured: " + notMeasured.joined(separator: ", ") + ".")
    }
    if explain {
      if let jitter = quality.jitterSentence { lines.append("  " + jitter) }
      lines.append(contentsOf: explanation(distance, locale: locale))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The account of what was read, every count grouped by `locale`.
  static func ingestSummary(_ report: IngestReport, format: FeedFormat, locale: MileageLocale) -> String {
    let count = locale.formattedCount
    // A file that is not a feed is named for what it is, not for the format it was guessed as.
    let label: String =
      switch report.failure {
      case .notAFeed(let kind)?: kind.label
      case .noFeedInArchive?: "zip archive"
      default: format.displayName
      }
    var text = "Read \(locale.counted(report.records, "record")) (\(label)): \(count(report.retained)) retained"
    let rejected = report.rejectedCount
    if rejected > 0 {
      let reasons = report.rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\($0.key.words) \(count($0.value))" }
      text += ", \(count(rejected)) rejected (\(reasons.joined(separator: ", ")))"
    } else {
      text += ", 0 rejected"
    }
    if report.errors > 0 {
      let shown = report.errorLines.map(String.init).joined(separator: ", ")
      let more = report.errors > report.errorLines.count ? ", …" : ""
      // FIT records are placed by byte offset, text records by line.
      text += ", \(count(report.errors)) unreadable (\(format == .fit ? "at bytes" : "lines") \(shown)\(more))"
    }
    text += "."
    let ignored = report.ignored.values.reduce(0, +)
    if ignored > 0 { text += " \(locale.counted(ignored, "other " + format.ignoredPart)) ignored." }
    if let unchecked = report.notes[.checksumMissing] {
      text += " \(locale.counted(unchecked, "sentence")) without a checksum read unchecked."
    }
    if let damaged = report.notes[.crcMismatch] {
      text +=
        " \(locale.counted(damaged, "FIT CRC does", plural: "FIT CRCs do")) not match the bytes: the file was changed or damaged after it was written."
    }
    if let others = report.notes[.otherKMLDocuments] {
      text += " This KMZ holds \(count(others + 1)) KML documents; only the first was read."
    }
    if let steps = report.notes[.zoneLessStepBack] {
      text +=
        " Times without a zone step back by 10 minutes to 2 hours \(steps == 1 ? "once" : "\(count(steps)) times"), as a clock does when daylight saving ends; read as UTC, the repeated hour is a jump: pass --time-zone NAME (such as Europe/London) to read them as local time."
    }
    if report.sessions > 0 {
      text += " \(locale.counted(report.sessions, "capture session"))"
      if report.reanchored > 0 { text += ", \(count(report.reanchored)) re-anchored after a wild fix" }
      text += "."
    }
    if report.legacyPositions > 0 {
      text += " \(locale.counted(report.legacyPositions, "position")) without a capture session."
    }
    if report.estimatedAccuracy > 0 { text += " Accuracy estimated from HDOP for \(count(report.estimatedAccuracy))." }
    return text
  }

  static func explanation(_ distance: RouteDistance, locale: MileageLocale) -> [String] {
    var lines: [String] = []
    if !distance.segments.isEmpty {
      lines.append("  Segments:")
      for (index, segment) in distance.segments.enumerated() {
        lines.append(
          "    \(index + 1). \(CivilTime.iso8601(segment.start)) → \(CivilTime.iso8601(segment.end)) "
            + "(\(DurationWords.short(segment.duration))), \(locale.counted(segment.positionCount, "position")), "
            + "\(locale.formattedOneDecimal(segment.meters)) m (at least \(locale.formattedOneDecimal(segment.floorMeters)) m proven)"
        )
      }
    }
    if !distance.gaps.isEmpty {
      lines.append("  Gaps (not measured):")
      for (index, gap) in distance.gaps.enumerated() {
        lines.append(
          "    \(index + 1). \(gap.kind.words): \(CivilTime.iso8601(gap.start)) → \(CivilTime.iso8601(gap.end)) "
            + "(\(DurationWords.short(gap.duration)))")
      }
    }
    if !distance.stops.isEmpty {
      lines.append("  Stops (measured through; not gaps):")
      for (index, stop) in distance.stops.enumerated() {
        lines.append(
          "    \(index + 1). \(CivilTime.iso8601(stop.start)) → \(CivilTime.iso8601(stop.end)) (\(DurationWords.short(stop.duration)))"
        )
      }
    }
    return lines
  }

  /// The recordings measured apart (overlapping in time, or one chosen): which one the figure
  /// is, how to choose another, and each one's own figure (with `explain`, its times too).
  static func recordingLines(_ measurement: FeedMeasurement, locale: MileageLocale, explain: Bool) -> [String] {
    let recordings = measurement.recordings
    guard !recordings.isEmpty else { return [] }
    let count = locale.formattedCount(recordings.count)
    let isDevice = recordings.contains { if case .device? = $0.recording { true } else { false } }
    let flag = isDevice ? "--device ID" : "--track N"
    var first: String
    if measurement.recordingsOverlap {
      let overlap = recordings.count == 2 ? " that overlap in time" : ", some of them overlapping in time"
      first = "This file holds \(count) recordings\(overlap): they are measured apart, never added into one figure."
    } else {
      first = recordings.count == 1 ? "This file holds 1 recording." : "This file holds \(count) recordings."
    }
    if let chosen = recordings.first(where: \.isChosen) {
      let why = measurement.recordingChosen ? "as chosen" : "the one covering the most time"
      first += " The figure is \(label(chosen.recording))'s (\(why))"
      first += recordings.count > 1 ? "; choose another with \(flag)." : "."
    }
    var lines = ["  " + first]
    for recording in recordings {
      var text =
        "    \(label(recording.recording))\(recording.isChosen ? " (the figure)" : ""): "
        + RouteQuality(recording.distance, locale: locale).line
        + ", \(locale.counted(recording.positions, "position", plural: "positions"))"
      if explain, let first = recording.first, let last = recording.last {
        text += ", \(CivilTime.iso8601(first)) → \(CivilTime.iso8601(last)) (\(DurationWords.short(last - first)))"
      }
      lines.append(text + ".")
    }
    return lines
  }

  /// `track 2`, `device 1234`, or `unnamed recording` for positions of no named one.
  static func label(_ recording: FeedRecording?) -> String {
    recording.map(\.description) ?? "unnamed recording"
  }
}
