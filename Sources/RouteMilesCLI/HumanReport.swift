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
    for sentence in quality.detailSentences { lines.append("  " + sentence) }
    if let floor = quality.floorSentence { lines.append("  " + floor) }
    if let failure = measurement.report.failure {
      // Said here too, not only on standard error: the report must name why (never a coordinate).
      lines.append(failure.stopsReadingPartway ? "  Why reading stopped: \(failure)." : "  Not measured: \(failure).")
    }
    if let timeline = result.timeline { lines.append("  " + shiftLine(timeline)) }
    lines.append("  " + ingestSummary(measurement.report, format: measurement.format, locale: locale))
    let distance = measurement.distance
    var notMeasured: [String] = []
    let count = locale.formattedCount
    if distance.unusablePositionCount > 0 { notMeasured.append("\(count(distance.unusablePositionCount)) describing nowhere on Earth") }
    if distance.positionsOutsideWindow > 0 { notMeasured.append("\(count(distance.positionsOutsideWindow)) outside the shift window") }
    if distance.positionsInsidePause > 0 { notMeasured.append("\(count(distance.positionsInsidePause)) while the shift was paused") }
    if distance.positionsWhileParked > 0 { notMeasured.append("\(count(distance.positionsWhileParked)) while parked") }
    if distance.positionsNotAfterPrevious > 0 { notMeasured.append("\(count(distance.positionsNotAfterPrevious)) sharing a timestamp or out of order") }
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
      default: format.rawValue.uppercased()
      }
    var text = "Read \(count(report.records)) \(report.records == 1 ? "record" : "records") (\(label)): \(count(report.retained)) retained"
    let rejected = report.rejectedCount
    if rejected > 0 {
      let reasons = report.rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\(words($0.key.rawValue)) \(count($0.value))" }
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
    let unit = format == .fit ? "message" : "line"
    if ignored > 0 { text += " \(count(ignored)) other \(unit)\(ignored == 1 ? "" : "s") ignored." }
    if let unchecked = report.notes[.checksumMissing] {
      text += " \(count(unchecked)) \(unchecked == 1 ? "sentence" : "sentences") without a checksum read unchecked."
    }
    if let damaged = report.notes[.crcMismatch] {
      text += " \(count(damaged)) FIT \(damaged == 1 ? "CRC does" : "CRCs do") not match the bytes: the file was changed or damaged after it was written."
    }
    if let steps = report.notes[.zoneLessStepBack] {
      text +=
        " Times without a zone step back by 10 minutes to 2 hours \(steps == 1 ? "once" : "\(count(steps)) times"), as a clock does when daylight saving ends; read as UTC, the repeated hour is a jump: pass --time-zone NAME (such as Europe/London) to read them as local time."
    }
    if report.sessions > 0 {
      text += " \(count(report.sessions)) capture \(report.sessions == 1 ? "session" : "sessions")"
      if report.reanchored > 0 { text += ", \(count(report.reanchored)) re-anchored after a wild fix" }
      text += "."
    }
    if report.legacyPositions > 0 { text += " \(count(report.legacyPositions)) positions without a capture session." }
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
            + "(\(DurationWords.short(segment.duration))), \(locale.formattedCount(segment.positionCount)) positions, "
            + "\(locale.formattedOneDecimal(segment.meters)) m (at least \(locale.formattedOneDecimal(segment.floorMeters)) m proven)")
      }
    }
    if !distance.gaps.isEmpty {
      lines.append("  Gaps (not measured):")
      for (index, gap) in distance.gaps.enumerated() {
        lines.append(
          "    \(index + 1). \(words(gap.kind.rawValue)): \(CivilTime.iso8601(gap.start)) → \(CivilTime.iso8601(gap.end)) "
            + "(\(DurationWords.short(gap.duration)))")
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
