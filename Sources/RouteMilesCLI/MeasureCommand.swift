import RouteFeeds
import RouteIngest
import RouteMileage

/// `routemiles measure FILE... | -`: each feed measured as one shift.
enum MeasureCommand {
  static let name = "measure"
  static let usage = "routemiles measure [options] FILE... | -"
  static let help = """
    USAGE: \(usage)

    Measures each feed (GPX, NMEA 0183, CSV, TCX, KML/KMZ, GeoJSON, FIT, Google Takeout, OwnTracks;
    gzipped or not; the format is detected from content) as one shift, with the capture filter on, and prints what the route supports: the recorded figure,
    the sentences that qualify it, and an account of every record read. `-` reads standard input.

    Output:
      --json                  One JSON object per input, one per line (fields in README.md).
      --explain               Also list the segments and gaps with times and durations.
      --geojson FILE          Write the route as GeoJSON (segments and gaps as LineStrings).
      --svg FILE              Write a picture: segments solid, gaps dashed, a scale bar.
                              Coordinates appear only in these two files. With several inputs,
                              FILE may contain {n} (1, 2, …) or {name}; otherwise the last wins.
                              FILE - writes to standard output; the report then goes to
                              standard error, so standard output holds only the document.
      --threads 1|2           Read and measure each feed on one thread, or parse a feed past
                              its first MiB on one thread and measure it on a second. Default:
                              2 when the machine has a core to spare (2+ cores, load average
                              under twice the cores), else 1. The result is the same.

    \(MeasureOptions.help)

    \(MeasureOptions.timelineHelp)

    Exit status: 0 when every input was measured, 1 when one could not be read (the others are
    still measured), 64 for a usage error.
    """

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(MeasureOptions.timelineValueOptions).union([
        "format", "geojson", "svg", "threads",
      ]),
      flags: MeasureOptions.flagOptions.union(MeasureOptions.timelineFlagOptions).union(["json", "explain", "help"]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    let options = try MeasureOptions(arguments, formatOption: "format")
    guard !arguments.operands.isEmpty else {
      throw .usage("no input: give one or more files, or - for standard input", command: name)
    }
    // A feed past its first MiB may be read on one core and measured on another (same figure).
    let threads = try arguments.integer("threads", minimum: 1)
    if let threads, threads > 2 {
      throw .usage("--threads takes 1 or 2 (one feed is read on one thread and measured on another)", command: name)
    }
    let pipelining = MeasureThreads.pipelining(
      requested: threads, processors: BatchCommand.processorCount(), loadAverage: MeasureThreads.loadAverage())
    let json = arguments.has("json")
    let explain = arguments.has("explain")
    let geojsonPath = arguments.value("geojson")
    let svgPath = arguments.value("svg")
    let wantsPicture = geojsonPath != nil || svgPath != nil
    if geojsonPath == "-", svgPath == "-" {
      throw .usage("--geojson - and --svg - cannot both write to standard output", command: name)
    }
    // A document on standard output must be alone there: the report moves to standard error.
    let documentOnStandardOutput = geojsonPath == "-" || svgPath == "-"
    let report: (String) -> Void = documentOnStandardOutput ? console.err : console.out
    var status = ExitCode.success

    for (index, path) in arguments.operands.enumerated() {
      let result = options.reading.measure(path: path, keepPositions: wantsPicture, pipelining: pipelining)
      if let failure = result.failure {
        console.err("routemiles: \(failure)\n")
        status = ExitCode.failure
      }
      if json {
        report(MeasurementJSON.object(for: result, locale: options.locale, window: options.settings.window).text + "\n")
      } else {
        if index > 0 { report("\n") }
        report(HumanReport.text(for: result, locale: options.locale, explain: explain))
      }
      console.flush()
      if let measurement = result.measurement, wantsPicture {
        let picture = RoutePicture(
          positions: result.positions, distance: measurement.distance,
          title: RouteQuality(measurement.distance, locale: options.locale).line,
          window: result.timeline?.window ?? options.settings.window, timeline: result.timeline)
        if let geojsonPath {
          try write(GeoJSONWriter.document(picture), to: geojsonPath, index: index, source: path, console: console)
        }
        if let svgPath {
          try write(SVGWriter.document(picture), to: svgPath, index: index, source: path, console: console)
        }
      }
    }
    return status
  }

  /// Writes a picture to its file, or to standard output for `-`.
  static func write(_ document: String, to template: String, index: Int, source: String, console: Console)
    throws(CLIError)
  {
    if template == "-" {
      console.out(document.hasSuffix("\n") ? document : document + "\n")
      console.flush()
    } else {
      try writeTextFile(document, to: expand(template, index: index, source: source))
    }
  }

  /// Fills `{n}` and `{name}` in a picture path.
  static func expand(_ template: String, index: Int, source: String) -> String {
    let base = source.split(separator: "/").last.map(String.init) ?? source
    let stem = base.split(separator: ".").dropLast().joined(separator: ".")
    return template.replacingOccurrences(of: "{n}", with: String(index + 1))
      .replacingOccurrences(of: "{name}", with: stem.isEmpty ? base : stem)
  }
}

extension String {
  /// Plain substring replacement, so the CLI needs no Foundation.
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
