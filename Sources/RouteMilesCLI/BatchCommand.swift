import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `routemiles batch PATH...`: many historical shifts, one per file, measured in parallel.
enum BatchCommand {
  static let name = "batch"
  static let usage = "routemiles batch [options] PATH... | --store PATH [SHIFT-ID...]"
  static let help = """
    USAGE: \(usage)

    Measures many historical shifts, each file one shift: files, directories (recursively: files
    ending .gpx .tcx .kml .kmz .geojson .nmea .nma .txt .log .csv .tsv .fit .json .rec .gz, hidden entries skipped) and glob patterns. Output
    follows the input order whatever the parallelism. One bad file never stops the batch: its
    error is on its row and on standard error, and the exit status is 1 at the end.

    A file a directory walk finds that is not a feed (a MANIFEST.tsv, a README.txt, a binary or
    compressed file) is skipped with a note on standard error; a file named on the command line
    is always measured. An empty directory and a pattern matching nothing are both reported and
    exit 1. A feed cut off partway is measured up to where reading stopped, with status
    truncated: its partial figure counts in the sum, and the exit status is 1.

    With --store PATH it measures the store's shifts instead — every one, or the shift IDs given —
    each from its stored rows in one pass (a shift whose import was interrupted, or whose feed
    was cut off, has status truncated and its partial figure, as the file would; an ID that is
    not in the store is a failed row).

    Output:
      --format table|csv|jsonl  table (default) for people; csv with a header; jsonl is the
                              `measure --json` object per line. The final summary line goes to
                              standard output with table, to standard error otherwise.
      --jobs N                Files measured at once (default: the number of cores).
      --progress              Show a progress bar on standard error even when it is not a
      --no-progress           terminal / never show one (default: only on a terminal).

    \(MeasureOptions.help)

    \(MeasureOptions.timelineHelp)
    """

  enum OutputFormat: String { case table, csv, jsonl }

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(MeasureOptions.timelineValueOptions).union(["format", "jobs", "store"]
      ),
      flags: MeasureOptions.flagOptions.union(MeasureOptions.timelineFlagOptions).union([
        "help", "progress", "no-progress",
      ]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    let options = try MeasureOptions(arguments, formatOption: nil)
    let format: OutputFormat
    if let text = arguments.value("format") {
      guard let parsed = OutputFormat(rawValue: text) else {
        throw .usage(
          "unknown output format '\(text)': use table, csv or jsonl (the input format is --input-format)", command: name
        )
      }
      format = parsed
    } else {
      format = .table
    }
    let jobs = try arguments.integer("jobs", minimum: 1) ?? processorCount()
    let storePath = arguments.value("store")
    guard !arguments.operands.isEmpty || storePath != nil else {
      throw .usage("no input: give files, directories or patterns, or --store PATH", command: name)
    }
    let jobsToRun: [BatchJob]
    var problems: [String] = []
    if let storePath {
      jobsToRun = try storeJobs(storePath, selecting: arguments.operands)
    } else {
      let expanded = InputPaths.expand(arguments.operands)
      problems = expanded.problems
      jobsToRun = expanded.paths.map { BatchJob.file($0.path, inDirectory: $0.inDirectory) }
    }
    for problem in problems { console.err("routemiles: \(problem)\n") }
    let showProgress =
      arguments.has("progress") || (!arguments.has("no-progress") && console.errorIsTerminal)

    var table = BatchTable(format: format, locale: options.locale, window: options.settings.window)
    if let header = table.header { console.out(header) }
    let progress = showProgress ? ProgressBar(console: console, total: jobsToRun.count) : nil
    var positions = 0
    let reading = options.reading
    orderedParallelMap(count: jobsToRun.count, jobs: jobs) {
      jobsToRun[$0].run(reading)
    } deliver: { index, result in
      // The bar shares the terminal with the rows when both streams are one: clear it first.
      if result.failure != nil || console.outputIsTerminal { progress?.finish() }
      if result.foundInDirectory, result.isNotAFeed {
        console.err("routemiles: skipped \(result.failure ?? result.source) (not a feed)\n")
        progress?.update(done: index + 1, positions: positions, force: index + 1 == jobsToRun.count)
        return
      }
      if let failure = result.failure {
        console.err("routemiles: \(failure)\n")
      }
      console.out(table.row(for: result))
      console.flush()
      positions += result.measurement?.report.records ?? 0
      progress?.update(done: index + 1, positions: positions, force: index + 1 == jobsToRun.count)
    }
    progress?.finish()
    let summary = table.summary()
    if format == .table { console.out(summary + "\n") } else { console.err(summary + "\n") }
    return table.failed > 0 || table.truncated > 0 || !problems.isEmpty ? ExitCode.failure : ExitCode.success
  }

  /// The stored shifts to measure: all of them, or the IDs given, in the order given.
  static func storeJobs(_ path: String, selecting operands: [String]) throws(CLIError) -> [BatchJob] {
    let store = try openStore(path, readOnly: true)
    let records: [ShiftRecord]
    do {
      records = try store.shifts()
    } catch {
      throw .failure("\(error)")
    }
    if operands.isEmpty { return records.map { .shift(path, $0) } }
    var byID: [Int64: ShiftRecord] = [:]
    for record in records { byID[record.id.rawValue] = record }
    return try operands.map { (operand: String) throws(CLIError) -> BatchJob in
      guard let id = Int64(operand) else {
        throw .usage("with --store, operands are shift IDs, not '\(operand)'", command: name)
      }
      // A missing ID is that row's failure; the other shifts are still measured.
      guard let record = byID[id] else { return .missingShift(path, id) }
      return .shift(path, record)
    }
  }

  static func processorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }
}

/// Formats batch rows and keeps the counts for the summary.
struct BatchTable {
  let format: BatchCommand.OutputFormat
  let locale: MileageLocale
  let window: ShiftWindow?
  private(set) var shifts = 0
  private(set) var measured = 0
  private(set) var partial = 0
  private(set) var unmeasurable = 0
  private(set) var failed = 0
  /// Rows cut off where reading stopped, failing the exit. Each row is counted once: measured,
  /// unmeasurable, truncated or failed, so the four add up to `shifts` (a truncated row's
  /// partial figure still counts in the sum).
  private(set) var truncated = 0
  private(set) var summedMeters = 0.0

  init(format: BatchCommand.OutputFormat, locale: MileageLocale, window: ShiftWindow?) {
    self.format = format
    self.locale = locale
    self.window = window
  }

  var header: String? {
    switch format {
    case .table:
      return
        "   miles  floor mi  segments  gaps  positions  rejected  unreadable  delivered  cancelled  in progress  delivery active  status        shift\n"
    case .csv:
      return
        "source,format,meters,miles,floor_meters,floor_miles,segments,gaps,usable_positions,inferred_continuity,measured,partial,records,retained,rejected,errors,summary,error,delivered,cancelled,in_progress,delivery_active_seconds,status\n"
    case .jsonl:
      return nil
    }
  }

  /// The status of a row: nil (`failed`) when the input could not be measured, otherwise
  /// RouteQuality's (`RouteQuality.Status`). `truncated`: reading stopped partway (a cut-off or
  /// damaged feed, an interrupted import), so the row has the partial figure of what was read —
  /// the same figure `measure`, `import` and `shifts` give — and the batch exits 1.
  static func status(_ result: InputResult) -> RouteQuality.Status? {
    guard let distance = result.measurement?.distance else { return nil }
    let status = RouteQuality(distance).status
    if status != .truncated, result.failure != nil { return nil }
    return status
  }

  mutating func row(for result: InputResult) -> String {
    shifts += 1
    let quality = Self.status(result)
    let status = quality?.rawValue ?? "failed"
    let distance = result.measurement?.distance
    switch quality {
    case nil: failed += 1
    case .unmeasurable: unmeasurable += 1
    case .truncated: truncated += 1
    case .partial:
      measured += 1
      partial += 1
    case .measured: measured += 1
    }
    if quality != nil, let distance, distance.isMeasured {
      summedMeters += distance.meters
    }
    switch format {
    case .jsonl:
      return MeasurementJSON.object(for: result, locale: locale, window: window).text + "\n"
    case .csv:
      return csvRow(result, status: status) + "\n"
    case .table:
      return tableRow(result, status: status) + "\n"
    }
  }

  private func tableRow(_ result: InputResult, status: String) -> String {
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    // The failure already starts with the path (`FILE:LINE: …`): the row names it once.
    var trailer = result.source
    if let failure = result.failure {
      trailer =
        failure.hasPrefix(result.source + ":") || failure.hasPrefix(result.source + " ")
        ? failure : "\(result.source): \(failure)"
    }
    guard let measurement = result.measurement else {
      return pad("-", 8) + pad("-", 10) + pad("-", 10) + pad("-", 6) + pad("-", 11) + pad("-", 10) + pad("-", 12)
        + pad("-", 11) + pad("-", 11) + pad("-", 13) + pad("-", 17) + "  failed        \(trailer)"
    }
    let distance = measurement.distance
    let report = measurement.report
    let count = locale.formattedCount
    let quality = RouteQuality(distance, locale: locale)
    return pad(quality.milesColumn, 8) + pad(quality.floorMilesColumn, 10)
      + pad(distance.isMeasured ? count(distance.contributingSegmentCount) : "-", 10)
      + pad(distance.isMeasured ? count(distance.gapCount) : "-", 6)
      + pad(count(distance.usablePositionCount), 11) + pad(count(report.rejectedCount), 10)
      + pad(count(report.errors), 12) + deliveryColumns(result, pad: pad) + "  " + status.padding(13) + " " + trailer
  }

  /// Delivered, cancelled, in progress and delivery active time; `-` for a shift whose
  /// timeline recorded no delivery (or that has none).
  private func deliveryColumns(_ result: InputResult, pad: (String, Int) -> String) -> String {
    guard let ledger = result.ledgerWithDeliveries else {
      return pad("-", 11) + pad("-", 11) + pad("-", 13) + pad("-", 17)
    }
    let counts = ledger.counts
    let count = locale.formattedCount
    return pad(count(counts.delivered), 11) + pad(count(counts.cancelled), 11) + pad(count(counts.inProgress), 13)
      + pad(DurationWords.short(ledger.activeDuration(asOf: ledger.readingInstant)), 17)
  }

  /// The CSV's delivery fields: empty for a shift whose timeline recorded no delivery.
  private func deliveryFields(_ result: InputResult) -> [String] {
    guard let ledger = result.ledgerWithDeliveries else { return ["", "", "", ""] }
    let counts = ledger.counts
    return [
      String(counts.delivered), String(counts.cancelled), String(counts.inProgress),
      JSONObject.number(ledger.activeDuration(asOf: ledger.readingInstant)),
    ]
  }

  /// The CSV columns, in this order (pinned; `status` last so the columns before it keep their
  /// places): source, format, meters, miles, floor_meters, floor_miles, segments, gaps,
  /// usable_positions, inferred_continuity, measured, partial, records, retained, rejected,
  /// errors, summary, error, delivered, cancelled, in_progress, delivery_active_seconds, status.
  private func csvRow(_ result: InputResult, status: String) -> String {
    func field(_ text: String) -> String {
      text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
    guard let measurement = result.measurement else {
      return
        ([
          field(result.source), "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
          field(result.failure ?? ""),
        ]
        + deliveryFields(result) + [status]).joined(separator: ",")
    }
    let distance = measurement.distance
    let report = measurement.report
    let quality = RouteQuality(distance, locale: locale)
    return [
      field(result.source), result.formatLabel ?? "", JSONObject.number(distance.meters),
      JSONObject.number(distance.miles), JSONObject.number(distance.floorMeters),
      JSONObject.number(distance.floorMiles), String(distance.contributingSegmentCount), String(distance.gapCount),
      String(distance.usablePositionCount), String(distance.usesInferredContinuity), String(distance.isMeasured),
      String(distance.isPartial), String(report.records), String(report.retained), String(report.rejectedCount),
      String(report.errors), field(quality.line), field(result.failure ?? ""),
    ].joined(separator: ",") + "," + (deliveryFields(result) + [status]).joined(separator: ",")
  }

  /// The closing line: counts, and the sum of recorded figures labelled as exactly that.
  func summary() -> String {
    // A sum of measured figures that is 0 m still stands for something measured.
    let sum = locale.formattedMiles(
      RouteLength(meters: summedMeters).miles, unit: "mi", isSomething: measured + truncated > 0)
    let count = locale.formattedCount
    return "\(locale.counted(shifts, "shift")): \(count(measured)) measured (\(count(partial)) partial), "
      + "\(count(unmeasurable)) unmeasurable, " + (truncated > 0 ? "\(count(truncated)) truncated, " : "")
      + "\(count(failed)) failed · sum of recorded figures: \(sum)"
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
