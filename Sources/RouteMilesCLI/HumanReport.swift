import RouteFeeds
import RouteMileage

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
    if let failure = measurement.report.failure {
      let place = failure.line.map { "at line \($0)" } ?? "early"
      lines.append("  Reading stopped \(place) (the error is on standard error); this covers what was read before it.")
    }
    for sentence in quality.detailSentences { lines.append("  " + sentence) }
    if let timeline = result.timeline { lines.append("  " + shiftLine(timeline)) }
    lines.append("  " + ingestSummary(measurement.report, format: measurement.format))
    let distance = measurement.distance
    var notMeasured: [String] = []
    if distance.unusablePositionCount > 0 { notMeasured.append("\(distance.unusablePositionCount) describing nowhere on Earth") }
    if distance.positionsOutsideWindow > 0 { notMeasured.append("\(distance.positionsOutsideWindow) outside the shift window") }
    if distance.positionsInsidePause > 0 { notMeasured.append("\(distance.positionsInsidePause) while the shift was paused") }
    if distance.positionsWhileParked > 0 { notMeasured.append("\(distance.positionsWhileParked) while parked") }
    if distance.positionsNotAfterPrevious > 0 { notMeasured.append("\(distance.positionsNotAfterPrevious) sharing a timestamp or out of order") }
    if !notMeasured.isEmpty {
      lines.append("  Kept but not measured: " + notMeasured.joined(separator: ", ") + ".")
    }
    if explain {
      lines.append(contentsOf: explanation(distance, locale: locale))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func ingestSummary(_ report: IngestReport, format: FeedFormat) -> String {
    var text = "Read \(report.records) \(report.records == 1 ? "record" : "records") (\(format.rawValue.uppercased())): \(report.retained) retained"
    let rejected = report.rejectedCount
    if rejected > 0 {
      let reasons = report.rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\(words($0.key.rawValue)) \($0.value)" }
      text += ", \(rejected) rejected (\(reasons.joined(separator: ", ")))"
    } else {
      text += ", 0 rejected"
    }
    if report.errors > 0 {
      let shown = report.errorLines.map(String.init).joined(separator: ", ")
      let more = report.errors > report.errorLines.count ? ", …" : ""
      text += ", \(report.errors) unreadable (lines \(shown)\(more))"
    }
    text += "."
    let ignored = report.ignored.values.reduce(0, +)
    if ignored > 0 { text += " \(ignored) other \(ignored == 1 ? "line" : "lines") ignored." }
    if report.sessions > 0 {
      text += " \(report.sessions) capture \(report.sessions == 1 ? "session" : "sessions")"
      if report.reanchored > 0 { text += ", \(report.reanchored) re-anchored after a wild fix" }
      text += "."
    }
    if report.legacyPositions > 0 { text += " \(report.legacyPositions) positions without a capture session." }
    if report.estimatedAccuracy > 0 { text += " Accuracy estimated from HDOP for \(report.estimatedAccuracy)." }
    return text
  }

  static func explanation(_ distance: RouteDistance, locale: MileageLocale) -> [String] {
    var lines: [String] = []
    if !distance.segments.isEmpty {
      lines.append("  Segments:")
      for (index, segment) in distance.segments.enumerated() {
        lines.append(
          "    \(index + 1). \(CivilTime.iso8601(segment.start)) → \(CivilTime.iso8601(segment.end)) "
            + "(\(CivilTime.duration(segment.duration))), \(segment.positionCount) positions, "
            + "\(locale.formattedOneDecimal(segment.meters)) m")
      }
    }
    if !distance.gaps.isEmpty {
      lines.append("  Gaps (not measured):")
      for (index, gap) in distance.gaps.enumerated() {
        lines.append(
          "    \(index + 1). \(words(gap.kind.rawValue)): \(CivilTime.iso8601(gap.start)) → \(CivilTime.iso8601(gap.end)) "
            + "(\(CivilTime.duration(gap.duration)))")
      }
    }
    return lines
  }

  /// `negligibleMovement` → `negligible movement`.
  static func words(_ camelCase: String) -> String {
    var text = ""
    for character in camelCase {
      if character.isUppercase {
        text += " " + character.lowercased()
      } else {
        text.append(character)
      }
    }
    return text
  }
}
