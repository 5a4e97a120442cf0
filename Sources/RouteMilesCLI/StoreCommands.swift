import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

/// Opens a store for a command, turning its error into an input failure that names the path.
///
/// - Parameter createIfMissing: false for a command that changes an existing store only (a
///   deletion): a missing store is an error, never created.
func openStore(_ path: String, readOnly: Bool = false, createIfMissing: Bool = true) throws(CLIError) -> RouteStore {
  do {
    return try RouteStore(path: path, access: readOnly ? .readOnly : .readWrite, createIfMissing: createIfMissing)
  } catch {
    throw .failure("\(error)")
  }
}

/// `routemiles import FILE... --store PATH`: each feed becomes one stored shift.
enum ImportCommand {
  static let name = "import"
  static let usage = "routemiles import [options] --store PATH FILE... | -"
  static let help = """
    USAGE: \(usage)

    Imports each feed as one shift in the SQLite store at PATH (created if missing), with the
    capture filter applied, and prints the shift's figure measured from the stored rows in one
    pass. Samples are written in batches, one transaction each; the shift is marked complete in
    the same transaction as its last batch. An import stopped by an error, Ctrl-C or kill -9
    leaves whole batches under a shift marked as an interrupted import (see `shifts`), never a
    shift that looks complete; Ctrl-C says which shift. A feed cut off or damaged partway keeps
    the rows read before reading stopped and finishes as a truncated shift recording where and
    why reading stopped: the partial figure, marker and "Reading stopped at …" sentence that
    `measure` gives the file, and exit 1. A file of which nothing can be read (not a feed,
    unmappable columns, every record unreadable), or that gives no position to keep (an empty
    file, a GGA-only NMEA log without --date), stores nothing and exits 1.

    Importing a file again after its import was interrupted replaces the interrupted shift when
    its rows are the first rows of the new one (same path; not standard input, not with
    --allow-duplicate), in the transaction that finishes the new shift, and says so.

    Without --shift-start/--shift-end the shift has no window: it starts at its first retained
    sample, its end is unknown, and no window gaps are counted.

    A file whose content (SHA-256, taken while the feed is read) is already stored as a finished
    import (truncated ones included) is not kept again: the import says which shift holds it,
    and whether it is truncated (then it exits 1), and removes its own.

    Options:
      --store PATH            The store (required).
      --json                  One JSON object per input (the measure fields plus "shift").
      --batch-size N          Samples per transaction (default \(ShiftImportWriter.defaultBatchSize)).
      --allow-duplicate       Import a file even when its content is already stored.

    \(MeasureOptions.help)

    \(MeasureOptions.timelineHelp)
    """

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(MeasureOptions.timelineValueOptions).union(["store", "batch-size"]),
      flags: MeasureOptions.flagOptions.union(MeasureOptions.timelineFlagOptions).union([
        "help", "json", "allow-duplicate",
      ]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    guard let storePath = arguments.value("store") else {
      throw .usage("import needs --store PATH", command: name)
    }
    let options = try MeasureOptions(arguments)
    guard !arguments.operands.isEmpty else {
      throw .usage("no input: give one or more files, or - for standard input", command: name)
    }
    let batchSize = try arguments.integer("batch-size", minimum: 1) ?? ShiftImportWriter.defaultBatchSize
    let store = try openStore(storePath)
    var status = ExitCode.success
    for path in arguments.operands {
      do {
        let result = try FeedImport.importFeed(
          path, into: store, storePath: storePath, reading: options.reading, batchSize: batchSize,
          allowDuplicate: arguments.has("allow-duplicate"))
        for note in copiesNotes(path, result, storePath: storePath) { console.err("routemiles: \(note)\n") }
        if let duplicate = result.duplicateOf {
          console.out(
            duplicateReport(path, shift: duplicate, truncated: result.duplicateIsTruncated, json: arguments.has("json"))
          )
          console.flush()
          // The file is still cut off: the same exit as `measure` of it.
          if result.duplicateIsTruncated { status = ExitCode.failure }
          continue
        }
        if let failure = result.input.failure {
          console.err("routemiles: \(failure)\n")
          status = ExitCode.failure
        }
        if arguments.has("json") {
          var json = MeasurementJSON.object(for: result.input, locale: options.locale, window: options.settings.window)
          json.set("shift", result.shift.map { Int($0.rawValue) } ?? -1)
          if !result.copies.replaceable.isEmpty {
            json.set("replaced", integers: result.copies.replaceable.map { Int($0.rawValue) })
          }
          if let timeline = result.input.timeline {
            json.set(
              "shiftTimeline",
              MeasurementJSON.shift(timeline, lastPosition: result.input.measurement?.report.lastTimestamp))
          }
          console.out(json.text + "\n")
        } else {
          console.out(result.summary(locale: options.locale))
        }
        console.flush()
      } catch {
        console.err("routemiles: \(path): \(error)\n")
        status = ExitCode.failure
      }
    }
    return status
  }
}

/// `routemiles shifts --store PATH`: the stored shifts, each measured from its rows now.
enum ShiftsCommand {
  static let name = "shifts"
  static let usage = "routemiles shifts --store PATH [--json] [--delete ID]"
  static let help = """
    USAGE: \(usage)

    Lists the shifts in the store with their figures, each measured from the stored rows in one
    pass every time it is asked (nothing derived is stored). A shift whose import was interrupted
    (Ctrl-C, kill, an error) is listed as interrupted; one whose feed was cut off mid-record as
    truncated, with the figure and "Reading stopped at line N" sentence `measure` gives the file;
    both with the partial figure of the rows kept. Listing never writes to the store and leaves
    no file beside it. Status: ended (a window from a timeline or --shift-start/--shift-end),
    no window (a finished import with neither), truncated, interrupted, or running; "working" is
    working time (elapsed less paused). A shift whose timeline recorded deliveries has a second
    line: its deliveries by outcome, its offers, delivery active and non-delivery time (--json:
    the "deliveries" object `measure --json` gives; `export` writes each delivery).
    A store that does not exist is an error, never created, for a listing and for --delete alike.

    Options:
      --store PATH            The store (required).
      --json                  One JSON object per shift.
      --delete ID             Delete shift ID and all its rows, then list what remains.
      --max-interval SECONDS  Continuity interval for the figures (default \(MeasureOptions.figure(RouteContinuity.defaultMaximumSampleInterval))).
      --locale ID             Number format of the words.
    """

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name, options: ["store", "delete", "max-interval", "locale"], flags: ["help", "json"])
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    guard let storePath = arguments.value("store") else {
      throw .usage("shifts needs --store PATH", command: name)
    }
    guard arguments.operands.isEmpty else {
      throw .usage("unexpected argument '\(arguments.operands[0])'", command: name)
    }
    let interval = try arguments.double("max-interval", minimum: 0) ?? RouteContinuity.defaultMaximumSampleInterval
    let locale =
      try arguments.value("locale").map { (identifier) throws(CLIError) in
        try MeasureOptions.locale(identifier, command: name)
      } ?? .english
    let store = try openStore(storePath, readOnly: arguments.value("delete") == nil, createIfMissing: false)
    do {
      if let text = arguments.value("delete") {
        guard let id = Int64(text) else {
          throw CLIError.usage("--delete needs a shift ID, not '\(text)'", command: name)
        }
        try store.deleteShift(ShiftID(id))
        console.err("routemiles: deleted shift \(id)\n")
      }
      let records = try store.shifts()
      if !arguments.has("json") {
        console.out("  shift  status        start                 end                   working   samples  figure\n")
      }
      for record in records {
        let distance = try store.measure(record, maximumSampleInterval: interval)
        if arguments.has("json") {
          console.out(json(record, distance: distance, locale: locale).text + "\n")
        } else {
          console.out(row(record, distance: distance, locale: locale) + "\n")
          if let ledger = record.ledger, !ledger.deliveries.isEmpty {
            console.out("         " + HumanReport.deliverySummary(ledger) + "\n")
          }
        }
      }
      if records.isEmpty, !arguments.has("json") { console.out("  (no shifts)\n") }
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("\(error)")
    }
    return ExitCode.success
  }

  /// `interrupted`, `truncated` (a finished import of a feed cut off mid-record: `batch`'s word
  /// for the same file), `running`, `ended` (a finished shift with a window: an ended timeline or
  /// `--shift-start/--shift-end`), or `no window` (a finished import with neither: never called
  /// complete, since nothing says the shift was over when the feed stopped).
  static func statusWord(_ record: ShiftRecord) -> String {
    switch record.status {
    case .importing: "interrupted"
    case .complete: record.isTruncated ? "truncated" : record.hasEnded ? "ended" : "no window"
    case .running: "running"
    }
  }

  /// Working time (elapsed less paused) from the timeline, or the window's length when the
  /// shift has a window and no timeline; nil when neither is known.
  static func workingSeconds(_ record: ShiftRecord) -> Double? {
    if let timeline = record.timeline, timeline.end != nil { return timeline.workingDuration(asOf: timeline.end!) }
    if record.timeline == nil, let window = record.window { return window.end - window.start }
    return nil
  }

  static func row(_ record: ShiftRecord, distance: RouteDistance?, locale: MileageLocale) -> String {
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: max(0, width - text.count))
      return left ? text + padding : padding + text
    }
    let start = CivilTime.iso8601(record.start)
    let end = record.end.map(CivilTime.iso8601) ?? "no window"
    let figure =
      distance.map { distance in
        let line = RouteQuality(distance, locale: locale).line
        guard distance.isMeasured else { return line }
        return line + " · \(locale.formattedMiles(distance.floorMiles, unit: "mi", qualifier: "at least")) proven"
      }
      ?? "not measured"
    return pad(String(record.id.rawValue), 7) + "  " + pad(statusWord(record), 12, left: true) + "  "
      + pad(start, 20, left: true) + "  " + pad(end, 20, left: true) + "  "
      + pad(workingSeconds(record).map(DurationWords.short) ?? "—", 8, left: true) + "  "
      + pad(locale.formattedCount(record.sampleCount), 7)
      + "  " + figure + "  (" + record.source + ")"
  }

  static func json(_ record: ShiftRecord, distance: RouteDistance?, locale: MileageLocale) -> JSONObject {
    var json = JSONObject()
    json.set("shift", Int(record.id.rawValue))
    json.set("status", statusWord(record))
    json.set("source", record.source)
    json.set("start", CivilTime.iso8601(record.start))
    json.set("end", record.end.map(CivilTime.iso8601))
    json.set("importedAt", CivilTime.iso8601(record.importedAt))
    json.set("samples", record.sampleCount)
    json.set("workingSeconds", workingSeconds(record))
    if let window = record.window {
      var windowJSON = JSONObject()
      windowJSON.set("start", CivilTime.iso8601(window.start))
      windowJSON.set("end", CivilTime.iso8601(window.end))
      json.set("window", windowJSON)
    } else {
      json.set("window", nil as String?)
    }
    if let timeline = record.timeline {
      var timelineJSON = MeasurementJSON.shift(timeline, lastPosition: distance?.segments.last?.end)
      if let clamps = record.ledger?.shiftClamps, !clamps.isEmpty {
        timelineJSON.set("clamped", clamps.map(MeasurementJSON.clamp))
      }
      json.set("timeline", timelineJSON)
    }
    if let ledger = record.ledger, !ledger.deliveries.isEmpty {
      json.set("deliveries", MeasurementJSON.deliveries(ledger))
    }
    if let distance {
      let quality = RouteQuality(distance, locale: locale)
      MeasurementJSON.figures(distance, quality: quality, into: &json)
      json.set("details", strings: quality.detailSentences)
    } else {
      json.set("summary", nil as String?)
    }
    return json
  }
}

extension ImportedFeed {
  func summary(locale: MileageLocale) -> String {
    guard let shift, let measurement = input.measurement else {
      let why = input.measurement?.report.failure.map { "\n  Not measured: \($0)." } ?? ""
      var text = "\(input.source): not imported; nothing was stored\(why)\n"
      if keptNothing, let measurement = input.measurement {
        text += "  " + HumanReport.ingestSummary(measurement.report, format: measurement.format, locale: locale) + "\n"
      }
      return text
    }
    let quality = RouteQuality(measurement.distance, locale: locale)
    let state = input.failure == nil ? "" : " (truncated: reading stopped before the end of the feed)"
    var text = "\(input.source) → \(shift)\(state)\(Self.replacedWords(copies))\n  \(quality.line)\n"
    if let sentence = quality.cutOffSentence { text += "  \(sentence)\n" }
    if let chosen = measurement.recordings.first(where: \.isChosen), measurement.recordings.count > 1 {
      let why = measurement.recordingsOverlap ? "the file's recordings overlap in time" : "as chosen"
      let flag = if case .device? = chosen.recording { "--device ID" } else { "--track N" }
      text += "  Stored \(HumanReport.label(chosen.recording)) only (\(why)); import another with \(flag).\n"
    }
    // Said here, because the store keeps retained positions only: a listing cannot say it later.
    if let sentence = quality.withoutTimeSentence { text += "  \(sentence)\n" }
    if let ledger = input.ledgerWithDeliveries {
      for line in HumanReport.deliveryLines(ledger, clamps: input.timelineRecord?.clamps ?? [], explain: false) {
        text += line + "\n"
      }
    }
    return text + "  " + HumanReport.ingestSummary(measurement.report, format: measurement.format, locale: locale)
      + "\n"
  }

  /// ` (replaces interrupted shift 3)`, or nothing when it replaced none.
  static func replacedWords(_ copies: InterruptedCopies) -> String {
    guard !copies.replaceable.isEmpty else { return "" }
    let ids = copies.replaceable.map { String($0.rawValue) }.joined(separator: ", ")
    return " (replaces interrupted \(copies.replaceable.count == 1 ? "shift" : "shifts") \(ids))"
  }
}

extension ImportCommand {
  /// The notes on interrupted imports of the same file: removed beside a duplicate, or kept
  /// because their rows differ (with the command that deletes them).
  static func copiesNotes(_ path: String, _ result: ImportedFeed, storePath: String) -> [String] {
    var notes: [String] = []
    if result.duplicateOf != nil, !result.copies.replaceable.isEmpty {
      let ids = result.copies.replaceable.map { String($0.rawValue) }.joined(separator: ", ")
      notes.append(
        "\(path): removed interrupted \(result.copies.replaceable.count == 1 ? "shift" : "shifts") \(ids), "
          + "an unfinished import of the same file")
    }
    for id in result.copies.differing {
      notes.append(
        "\(path): \(id), an interrupted import of this path, holds rows this import does not, so it was kept; "
          + "if it is the same drive, delete it with `routemiles shifts --store \(storePath) --delete \(id.rawValue)`")
    }
    return notes
  }

  /// What `import` says about a file whose content is already stored.
  static func duplicateReport(_ path: String, shift: ShiftID, truncated: Bool = false, json: Bool) -> String {
    if json {
      var object = JSONObject()
      object.set("source", path)
      object.set("skipped", true)
      object.set("duplicateOf", Int(shift.rawValue))
      if truncated { object.set("duplicateStatus", "truncated") }
      return object.text + "\n"
    }
    let kind =
      truncated ? "as truncated \(shift) (same content, cut off where reading stopped)" : "as \(shift) (same content)"
    return "\(path): already stored \(kind); skipped. Use --allow-duplicate to import it again.\n"
  }
}
