import RouteFeeds
import RouteIngest
import RouteMileage

/// The options `measure`, `batch`, `import` and `replay` share: how to read a feed and which
/// rules to measure it by.
struct MeasureOptions {
  var inputFormat: FeedFormat?
  var feedOptions = FeedOptions()
  var settings = IngestSettings()
  var locale = MileageLocale.english
  /// Where each feed's shift timeline comes from; see `MeasureOptions+Timeline.swift`.
  var timelineSource = TimelineSource.none

  /// Value-taking options these commands accept.
  static let valueOptions: Set<String> = [
    "input-format", "date", "columns", "locale", "max-interval", "max-accuracy", "max-fix-age",
    "max-speed", "min-movement", "reanchor-after", "shift-start", "shift-end", "track", "device", "time-zone",
  ]
  /// Flags these commands accept.
  static let flagOptions: Set<String> = ["no-filter", "keep-null-island"]
  /// The capture filter's thresholds, in the order a misuse is reported (`--keep-null-island`
  /// is its one flag).
  static let filterThresholdOptions = ["max-accuracy", "max-fix-age", "max-speed", "min-movement", "reanchor-after"]

  /// The capture filter as it stands without options: the help states its thresholds.
  private static let defaultFilter = RouteSampleFilter()

  /// The help text for these options, aligned. Its defaults and format names are read from
  /// the rules they describe, so the help cannot drift from what a run does.
  static let help = """
    Reading feeds:
      --input-format FORMAT   \(FeedFormat.rawValuesInWords):
                              skip format detection (gzip and zip are still recognised).
      --date YYYY-MM-DD       UTC date an NMEA log starts on; needed for GGA-only logs, and
                              overrides the dates in the log (midnight rollover still applies).
      --columns SPEC          CSV column mapping, e.g. 'timestamp=Time,latitude=3,longitude=4'
                              (see docs/formats/csv.md).
      --track N               Measure only track N (GPX, TCX, KML; 1-based in file order).
      --device ID             Measure only device ID (Takeout deviceTag, OwnTracks tracker).
                              Without either, recordings that overlap in time are measured
                              apart and the one covering the most time is the figure.
      --time-zone NAME        IANA zone (Europe/London) that times written without a zone are
                              local time in; read from $TZDIR or /usr/share/zoneinfo.

    Measuring:
      --no-filter             Measure rows as stored: no capture filter, only the calculator's
                              sort, tie-break and collapse (how a historical shift is measured).
      --max-interval SECONDS  Longest silence still continuous (default \(figure(RouteContinuity.defaultMaximumSampleInterval)), inclusive).
      --shift-start ISO8601   The shift's window; with --shift-end, late starts and early ends
      --shift-end ISO8601     count as gaps and positions outside it are not measured.
      --locale ID             Number format of the words (default en; e.g. de_DE → 12,4 mi).

    Capture filter thresholds (defaults in brackets):
      --max-accuracy METERS   Reject a larger horizontal accuracy radius [\(figure(defaultFilter.maximumHorizontalAccuracy))].
      --max-fix-age SECONDS   Reject a fix this much older than its arrival time [\(figure(defaultFilter.maximumFixAge))].
      --max-speed M/S         Reject a faster implied speed within a session [\(figure(defaultFilter.maximumSpeed))].
      --min-movement METERS   Drop movement under this within a session [\(figure(defaultFilter.minimumMovement))].
      --reanchor-after N      Consecutive agreeing speed rejections that re-anchor a session
                              [\(defaultFilter.speedRejectionsBeforeReanchoring)]; 0 turns re-anchoring off.
      --keep-null-island      Do not reject (0, 0).
    """

  /// A default as the help writes it: `120`, not `120.0`; a fraction keeps its digits.
  static func figure(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// `--locale ID`, refused when the table does not know its language (not silently English).
  static func locale(_ identifier: String, command: String?) throws(CLIError) -> MileageLocale {
    guard let locale = MileageLocale.known(identifier) else {
      throw .usage(
        "unknown locale '\(identifier)': give a language code such as en, en_US, de_DE, fr_FR or pt_BR",
        command: command)
    }
    return locale
  }

  /// - Parameter timelines: whether the command takes `--timeline` / `--no-timeline` (and so
  ///   picks up sidecar timelines).
  init(_ arguments: Arguments, formatOption: String? = "input-format", timelines: Bool = true) throws(CLIError) {
    let command = arguments.command
    if timelines { timelineSource = try Self.timelineSource(arguments) }
    if let text = formatOption.flatMap(arguments.value) ?? arguments.value("input-format") {
      guard let format = FeedFormat(rawValue: text.lowercased()) else {
        throw .usage("unknown input format '\(text)': use \(FeedFormat.rawValuesInWords)", command: command)
      }
      inputFormat = format
    }
    if let text = arguments.value("date") {
      guard let date = CivilDate(parsing: text) else {
        throw .usage("option '--date' needs a date as YYYY-MM-DD, not '\(text)'", command: command)
      }
      feedOptions.date = date
    }
    if let spec = arguments.value("columns") {
      do {
        feedOptions.csvColumns = try CSVColumnMapping(parsing: spec)
      } catch {
        throw .usage("option '--columns': \(error)", command: command)
      }
    }
    if let name = arguments.value("time-zone") {
      feedOptions.timeZone = try ZoneInfo.load(name, command: command)
    }
    switch (arguments.value("track"), arguments.value("device")) {
    case (nil, nil):
      break
    case (let text?, nil):
      guard let number = Int(text), number >= 1 else {
        throw .usage("option '--track' needs a track number (1, 2, …), not '\(text)'", command: command)
      }
      settings.recordingChoice = .track(number)
    case (nil, let id?):
      guard !id.isEmpty else { throw .usage("option '--device' needs a device ID", command: command) }
      settings.recordingChoice = .device(id)
    default:
      throw .usage("--track and --device each choose one recording: give one of them", command: command)
    }
    if let identifier = arguments.value("locale") {
      locale = try Self.locale(identifier, command: command)
    }
    // The one place the interval is held; the filter and the readers take it from `settings`.
    settings.maximumSampleInterval =
      try arguments.double("max-interval", minimum: 0) ?? RouteContinuity.defaultMaximumSampleInterval

    if arguments.has("no-filter") {
      for name in Self.filterThresholdOptions where arguments.value(name) != nil {
        throw .usage(
          "option '--\(name)' sets a capture filter threshold; it cannot be used with --no-filter", command: command)
      }
      if arguments.has("keep-null-island") {
        throw .usage(
          "option '--keep-null-island' sets a capture filter rule; it cannot be used with --no-filter", command: command
        )
      }
      settings.filter = nil
    } else {
      var filter = RouteSampleFilter()
      if let value = try arguments.double("max-accuracy", minimum: 0) { filter.maximumHorizontalAccuracy = value }
      if let value = try arguments.double("max-fix-age", minimum: 0) { filter.maximumFixAge = value }
      if let value = try arguments.double("max-speed", minimum: 0) { filter.maximumSpeed = value }
      if let value = try arguments.double("min-movement", minimum: 0) { filter.minimumMovement = value }
      if let value = try arguments.integer("reanchor-after", minimum: 0) {
        filter.speedRejectionsBeforeReanchoring = value
      }
      if arguments.has("keep-null-island") { filter.rejectsNullIsland = false }
      settings.filter = filter
    }

    switch (arguments.value("shift-start"), arguments.value("shift-end")) {
    case (nil, nil):
      break
    case (let start?, let end?):
      guard let startTime = ISO8601Parser.timestamp(start) else {
        throw .usage(
          "option '--shift-start' needs an ISO 8601 time such as 2025-11-29T08:00:00Z, not '\(start)'", command: command
        )
      }
      guard let endTime = ISO8601Parser.timestamp(end) else {
        throw .usage(
          "option '--shift-end' needs an ISO 8601 time such as 2025-11-29T17:00:00Z, not '\(end)'", command: command)
      }
      guard let window = ShiftWindow(start: startTime, end: endTime) else {
        throw .usage("the shift window ends before it starts", command: command)
      }
      settings.window = window
    default:
      throw .usage("--shift-start and --shift-end go together: a window needs both ends", command: command)
    }
  }
}
