import RouteFeeds
import RouteIngest
import RouteMileage

/// `routemiles pipe`: one shift record per input line in, one result line per record out, in
/// order, flushed per record — the contract of Spark's `SELECT TRANSFORM … USING`, `RDD.pipe`
/// and Hadoop Streaming.
enum PipeCommand {
  static let name = "pipe"
  static let usage = "routemiles pipe [options] < records.jsonl"
  /// Bytes; the longest record line `--max-record-bytes` accepts when not given (256 MiB).
  static let defaultMaximumRecordBytes = 256 << 20
  static let help = """
    USAGE: \(usage)

    Reads one JSON object per line on standard input and writes one result line per record on
    standard output, in the same order, flushed after each record. A record is
      {"id": …, "shiftStart": ISO8601|epoch?, "shiftEnd": ISO8601|epoch?,
       "samples": [{"t": ISO8601|epoch seconds, "lat": …, "lon": …, "acc": …?, "session": …?}, …]}
    or, instead of "samples", "path": a feed file (any format measure reads; gzipped or not) the executor can read.
    The result is the `measure --json` object with "id" first. Rows from a warehouse are
    historical, so the capture filter is off unless --filter is given. A bad record gives a
    result line with an "error" field and the tool carries on.

    Options:
      --filter                Apply the capture filter (thresholds as in measure).
      --strict                Stop with exit status 1 at the first bad record instead.
      --max-record-bytes N    Longest record line accepted (default \(defaultMaximumRecordBytes)); a longer one
                              is a bad record, skipped without being held in memory.

    \(MeasureOptions.help)
    """

  static func run(_ argv: [String], console: Console, input: some ByteSource) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(["max-record-bytes"]),
      flags: MeasureOptions.flagOptions.union(["help", "filter", "strict"]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    if arguments.has("filter"), arguments.has("no-filter") {
      throw .usage("--filter and --no-filter contradict each other", command: name)
    }
    guard arguments.operands.isEmpty else {
      throw .usage("pipe reads standard input; unexpected argument '\(arguments.operands[0])'", command: name)
    }
    var options = try MeasureOptions(arguments, formatOption: nil, timelines: false)
    if !arguments.has("filter") {
      for option in MeasureOptions.filterThresholdOptions where arguments.value(option) != nil {
        throw .usage(
          "option '--\(option)' sets a capture filter threshold; pass --filter to apply the filter", command: name)
      }
      if arguments.has("keep-null-island") {
        throw .usage(
          "option '--keep-null-island' sets a capture filter rule; pass --filter to apply the filter", command: name)
      }
      options.settings.filter = nil
    }
    let maximumRecord = try arguments.integer("max-record-bytes", minimum: 1) ?? defaultMaximumRecordBytes
    let strict = arguments.has("strict")

    var lines = LineReader(input, maximumLength: maximumRecord)
    defer { lines.close() }
    var lineNumber = 0
    do {
      while let output = try lines.next({ line -> PipeRecord.Output? in
        lineNumber += 1
        switch line {
        case .tooLong:
          return PipeRecord.errorLine(
            id: "null", message: "record on line \(lineNumber) is longer than \(maximumRecord) bytes")
        case .record(let bytes):
          if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
          return PipeRecord.result(for: bytes, line: lineNumber, options: options)
        }
      }) {
        guard let output else { continue }
        if strict, output.isError {
          console.err("routemiles: pipe: record on line \(lineNumber) is bad; stopping (--strict)\n")
          return ExitCode.failure
        }
        console.out(output.line + "\n")
        console.flush()
      }
    } catch let error as FeedError {
      throw .failure("standard input: \(error)")
    } catch {
      throw .failure("standard input: \(error)")
    }
    return ExitCode.success
  }
}

/// One record of `pipe`: parse, measure, encode.
enum PipeRecord {
  /// One output line, and whether it reports a bad record.
  struct Output {
    var line: String
    var isError: Bool
  }

  static func errorLine(id: String, message: String) -> Output {
    Output(line: "{\"id\":\(id),\"error\":\(JSONText.quoted(message))}", isError: true)
  }

  static func result(for bytes: UnsafeBufferPointer<UInt8>, line: Int, options: MeasureOptions) -> Output {
    let record: JSONValue
    do {
      // The samples are checked here but read by `PipeSampleReader`, streaming.
      record = try JSONParser.parse(bytes, skippingElementsOf: "samples")
    } catch {
      return errorLine(id: "null", message: "record on line \(line): invalid JSON: \(error.detail)")
    }
    guard case .object = record else {
      return errorLine(id: "null", message: "record on line \(line) is not a JSON object")
    }
    guard let id = record["id"], let idText = encodeID(id) else {
      return errorLine(id: "null", message: "record on line \(line) has no \"id\" (a string or a number)")
    }
    var settings = options.settings
    do {
      settings.window = try PipeRecordInput.window(of: record)
    } catch {
      return errorLine(id: idText, message: "\(error)")
    }
    var measuredOptions = options
    measuredOptions.settings = settings
    let result: InputResult
    switch (record["samples"], record["path"]) {
    case (.array?, nil):
      result = PipeRecordInput.measure(
        record: bytes, source: "stdin:\(line)", settings: settings, timeZone: options.feedOptions.timeZone)
      if result.measurement == nil {
        return errorLine(id: idText, message: result.failure ?? "record on line \(line): not measured")
      }
    case (nil, .string(let path)?):
      result = measuredOptions.reading.measure(path: path)
      if result.measurement == nil {
        return errorLine(id: idText, message: result.failure ?? "\(path): not read")
      }
    case (_?, _?):
      return errorLine(id: idText, message: "a record has \"samples\" or \"path\", not both")
    default:
      return errorLine(id: idText, message: "a record needs \"samples\" (an array) or \"path\" (a string)")
    }
    let body = MeasurementJSON.object(for: result, locale: options.locale, window: settings.window).text
    return Output(line: "{\"id\":\(idText)," + body.dropFirst(), isError: false)
  }

  /// The id as JSON: strings and numbers only.
  static func encodeID(_ value: JSONValue) -> String? {
    switch value {
    case .string(let text): JSONText.quoted(text)
    case .number(let number): JSONObject.number(number)
    default: nil
    }
  }
}
