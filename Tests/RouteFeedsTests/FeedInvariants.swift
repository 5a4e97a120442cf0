// Shared by the regression-corpus tests and the libFuzzer harnesses in Tests/Fuzz, which compile
// this file alongside the RouteMileage and RouteFeeds sources. It must not import Foundation or
// Testing, so the fuzz build needs nothing but the two modules.
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport

/// The properties every feed must have, whatever its bytes: the ones the readers promise
/// (DESIGN.md, issue 3) and the fuzzers and the regression corpus check.
///
/// Each check returns the list of properties that failed, in words (never a coordinate), so a test
/// can report them and a fuzz harness can trap on them.
enum FeedInvariants {
  /// The chunk sizes every feed is re-read in; the whole-feed read uses `FeedIngest.chunkSize`.
  static let chunkSizes = [1, 7, 4096]

  /// Which harness an input belongs to.
  enum Harness: String, CaseIterable {
    case gpx, nmea, csv, columns, tcx, kml, fit, geojson, takeout
    /// The bare JSON tokenizer (and the DOM built on it), not a feed.
    case json
    /// Gzip-compressed bytes, decompressed and read as CSV.
    case gzip
    /// A zip archive (KMZ), its first `.kml` entry read as KML.
    case kmz
    /// An OwnTracks Recorder `.rec` file.
    case owntracks

    var format: FeedFormat {
      switch self {
      case .gpx: .gpx
      case .nmea: .nmea
      case .csv, .columns, .gzip: .csv
      case .tcx: .tcx
      case .kml, .kmz: .kml
      case .fit: .fit
      case .owntracks: .owntracks
      case .geojson, .json: .geojson
      case .takeout: .takeout
      }
    }
  }

  /// Runs the checks the harness's fuzzer runs.
  static func violations(of bytes: [UInt8], harness: Harness) -> [String] {
    switch harness {
    case .gpx, .nmea, .csv, .tcx, .kml, .fit, .gzip, .kmz, .owntracks, .geojson, .takeout:
      violations(of: bytes, format: harness.format, options: FeedOptions())
    case .columns: violations(ofColumnsInput: bytes)
    case .json: violations(ofJSON: bytes)
    }
  }

  /// A feed read as `format` (forced, so each harness exercises its own reader), with the
  /// capture filter on and off:
  /// - every record is accounted for: records = retained + rejected + errors;
  /// - the metres are finite and not negative, and the figure's counts are consistent;
  /// - reading in chunks of 1, 7 and 4096 bytes gives the same `FeedMeasurement` (distance,
  ///   report, failure) as reading it whole, and so does reading it pipelined on two threads
  ///   (`IngestPipelining`), whole and in chunks of 7 bytes;
  /// - the retained samples the sink saw are the ones the report counts;
  /// - with the filter off, the calculator gives the same distance for the positions reversed
  ///   (permutation invariance); with it on, the streamed walk equals the calculator's one pass
  ///   over the retained samples.
  /// - Complexity: O(*n* log *n*) per read, eight reads plus two calculations.
  static func violations(of bytes: [UInt8], format: FeedFormat, options: FeedOptions) -> [String] {
    var problems: [String] = []
    for filterOn in [true, false] {
      let label = filterOn ? "filter on" : "filter off"
      let settings = IngestSettings(filter: filterOn ? RouteSampleFilter() : nil)
      var collected = KeepRetainedSamples()
      var source = MemoryByteSource(bytes, chunkSize: FeedIngest.chunkSize)
      guard
        let whole = try? FeedIngest.measure(
          &source, format: format, options: options, settings: settings, retained: &collected)
      else {
        problems.append("\(label): measure threw")
        continue
      }
      problems += check(whole, label: label)
      if collected.samples.count != whole.report.retained {
        problems.append(
          "\(label): the sink saw \(collected.samples.count) retained samples, the report counts \(whole.report.retained)"
        )
      }
      let calculator = RouteMileageCalculator(maximumSampleInterval: settings.maximumSampleInterval)
      // A feed whose reading stopped partway is cut off there: the same walk, marked.
      let cutOff = whole.report.failure.flatMap {
        $0.stopsReadingPartway ? RecordingCutOff(line: $0.line, byteOffset: $0.byteOffset) : nil
      }
      if whole.distance.cutOff != cutOff {
        problems.append(
          "\(label): cut off \(String(describing: whole.distance.cutOff)), expected \(String(describing: cutOff))")
      }
      // Positions without a time are the reader's count, never the walk's: the same walk, marked.
      let withoutTime = whole.report.rejected[.missingTime] ?? 0
      if whole.distance.positionsWithoutTime != withoutTime {
        problems.append(
          "\(label): \(whole.distance.positionsWithoutTime) positions without a time, expected \(withoutTime)")
      }
      if filterOn {
        var onePass = calculator.distance(of: collected.samples)
        onePass.cutOff = cutOff
        onePass.positionsWithoutTime = withoutTime
        if onePass != whole.distance {
          problems.append(
            "filter on: the streamed walk (\(whole.distance.meters) m) differs from one pass over the retained samples (\(onePass.meters) m)"
          )
        }
      } else {
        var reversed = calculator.distance(of: collected.samples.reversed())
        reversed.cutOff = cutOff
        reversed.positionsWithoutTime = withoutTime
        if reversed != whole.distance {
          problems.append("filter off: reversed order gives \(reversed.meters) m, in order \(whole.distance.meters) m")
        }
      }
      for chunkSize in chunkSizes where chunkSize < bytes.count {
        var chunked = MemoryByteSource(bytes, chunkSize: chunkSize)
        let measured = FeedIngest.measure(&chunked, format: format, options: options, settings: settings)
        if measured != whole {
          problems.append(
            "\(label): chunks of \(chunkSize) bytes differ from the whole read: \(MeasurementDifference.difference(whole, measured))"
          )
        }
      }
      // Read on one thread and measured on another, in batches of 7 records: the same figure.
      var pipelinedSettings = settings
      pipelinedSettings.pipelining = .always(batchCapacity: 7)
      for chunkSize in [FeedIngest.chunkSize, 7] {
        var pipelinedSource = MemoryByteSource(bytes, chunkSize: chunkSize)
        let pipelined = FeedIngest.measure(
          &pipelinedSource, format: format, options: options, settings: pipelinedSettings)
        if pipelined != whole {
          problems.append(
            "\(label): pipelined in chunks of \(chunkSize) bytes differs from one thread: \(MeasurementDifference.difference(whole, pipelined))"
          )
        }
      }
    }
    return problems
  }

  /// A `--columns` harness input: the first line is the mapping, the rest a CSV feed.
  /// - parsing never traps; a refusal is `unmappedColumns` on line 0 (the command line);
  /// - a parsed mapping prints as `--columns` syntax that parses back to the same mapping;
  /// - the feed read with the mapping has every property of `violations(of:format:options:)`.
  static func violations(ofColumnsInput bytes: [UInt8]) -> [String] {
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let spec = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    let mapping: CSVColumnMapping
    do {
      mapping = try CSVColumnMapping(parsing: spec)
    } catch {
      if case .unmappedColumns(line: 0, _) = error { return [] }
      return ["--columns refused with \(error), not unmappedColumns on line 0"]
    }
    var problems: [String] = []
    let printed = mapping.description
    if !printed.isEmpty {
      do {
        let reparsed = try CSVColumnMapping(parsing: printed)
        if reparsed != mapping { problems.append("--columns printed as '\(printed)' parses to a different mapping") }
      } catch {
        problems.append("--columns printed as '\(printed)' does not parse: \(error)")
      }
    }
    var options = FeedOptions()
    options.csvColumns = mapping
    return problems + violations(of: body, format: .csv, options: options)
  }

  /// The properties of one measurement on its own.
  static func check(_ measured: FeedMeasurement, label: String) -> [String] {
    var problems: [String] = []
    let report = measured.report
    let distance = measured.distance
    if !report.isBalanced {
      problems.append(
        "\(label): unbalanced: \(report.records) records, \(report.retained) retained, \(report.rejectedCount) rejected, \(report.errors) errors"
      )
    }
    if !distance.meters.isFinite || distance.meters < 0 { problems.append("\(label): metres are \(distance.meters)") }
    if report.records < 0 || report.retained < 0 || report.errors < 0
      || report.rejected.values.contains(where: { $0 < 0 })
    {
      problems.append("\(label): a negative count")
    }
    if report.errors != report.errorReasons.values.reduce(0, +) {
      problems.append("\(label): \(report.errors) errors but \(report.errorReasons.values.reduce(0, +)) by reason")
    }
    if report.errorLines.count != min(report.errors, IngestReport.keptErrorLines)
      || report.errorLines.contains(where: { $0 < 1 })
    {
      problems.append("\(label): error lines \(report.errorLines) for \(report.errors) errors")
    }
    if let first = report.firstTimestamp, let last = report.lastTimestamp, !(first <= last) {
      problems.append("\(label): first timestamp after the last")
    }
    if distance.usablePositionCount > report.retained {
      problems.append("\(label): \(distance.usablePositionCount) usable positions of \(report.retained) retained")
    }
    if distance.segments.contains(where: { !$0.meters.isFinite || $0.meters < 0 }) {
      problems.append("\(label): a segment's metres are not finite and non-negative")
    }
    if distance.isMeasured == (distance.unmeasurable != nil) {
      problems.append("\(label): isMeasured disagrees with unmeasurable")
    }
    return problems
  }
}

extension FeedInvariants {
  /// One token as plain values, for comparing reads.
  struct JSONTokenRecord: Equatable {
    var kind: JSONTokenKind
    var bytes: [UInt8]
    var offset: Int
    var line: Int
    var depth: Int
  }

  /// Tokenizes `bytes` in chunks of `chunkSize` (a single document, or a sequence).
  static func jsonTokens(_ bytes: [UInt8], chunkSize: Int, sequence: Bool) -> ([JSONTokenRecord], JSONSyntaxError?) {
    var tokens: [JSONTokenRecord] = []
    let error = tokenize(JSONTokenizer(allowsSequence: sequence), bytes, chunkSize: chunkSize) { token in
      tokens.append(
        JSONTokenRecord(
          kind: token.kind, bytes: Array(token.bytes), offset: token.offset, line: token.line, depth: token.depth))
    }
    return (tokens, error)
  }

  /// Runs `tokenizer` over `bytes` `chunkSize` bytes at a time (`.max`: all at once), then
  /// finishes it, handing every token to `keep` in order; the error it stopped at, if any.
  /// - Complexity: O(*n*) in the bytes.
  static func tokenize(
    _ tokenizer: JSONTokenizer, _ bytes: [UInt8], chunkSize: Int, keep: (JSONToken) -> Void
  ) -> JSONSyntaxError? {
    var tokenizer = tokenizer
    do throws(JSONSyntaxError) {
      try bytes.withUnsafeBufferPointer { (all) throws(JSONSyntaxError) in
        var start = 0
        while start < all.count {
          let end = start + min(chunkSize, all.count - start)
          let chunk = UnsafeBufferPointer(rebasing: all[start..<end])
          while let token = try tokenizer.next(in: chunk) { keep(token) }
          start = end
        }
      }
      while let token = try tokenizer.finish() { keep(token) }
      return nil
    } catch {
      return error
    }
  }

  /// The JSON tokenizer on any bytes, as one document and as a sequence:
  /// - chunks of 1, 7 and 4096 bytes give the same tokens (kind, content, offset, line, depth)
  ///   and the same error as the whole input;
  /// - offsets increase and lie inside the input, depths stay within the limit, and an error's
  ///   offset is inside the input (or at its end when it was cut off);
  /// - the DOM (`JSONParser`) accepts exactly the single documents the tokenizer accepts (bar
  ///   numbers a double cannot hold), and fails at the same place otherwise.
  /// - Complexity: O(*n*) per read, eight reads and one parse.
  static func violations(ofJSON bytes: [UInt8]) -> [String] {
    var problems: [String] = []
    for sequence in [false, true] {
      let label = sequence ? "sequence" : "document"
      let (whole, error) = jsonTokens(bytes, chunkSize: Int.max, sequence: sequence)
      for size in chunkSizes {
        let (chunked, chunkedError) = jsonTokens(bytes, chunkSize: size, sequence: sequence)
        if chunked != whole {
          problems.append(
            "\(label): \(size)-byte chunks give \(chunked.count) tokens, whole \(whole.count) (or different ones)")
        }
        if chunkedError != error {
          problems.append(
            "\(label): \(size)-byte chunks give error \(String(describing: chunkedError)), whole \(String(describing: error))"
          )
        }
      }
      var last = -1
      for token in whole {
        if token.offset <= last || token.offset >= bytes.count {
          problems.append("\(label): token offset \(token.offset) out of order or range")
        }
        if token.depth < 0 || token.depth > JSONTokenizer.defaultMaximumDepth {
          problems.append("\(label): depth \(token.depth)")
        }
        last = token.offset
      }
      if let error, error.offset < 0 || error.offset > bytes.count {
        problems.append("\(label): error offset \(error.offset) outside the input")
      }
      if !sequence {
        let parsed = bytes.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
          do throws(JSONSyntaxError) {
            _ = try JSONParser.parse(buffer)
            return nil
          } catch {
            return error
          }
        }
        if let error {
          // The DOM stops at the first number a double cannot hold, which may come before the
          // syntax error; otherwise it fails exactly where the tokenizer does.
          let earlierNumber = parsed.map { $0.problem == .numberOutOfRange && $0.offset < error.offset } ?? false
          if parsed != error, !earlierNumber {
            problems.append("document: the DOM fails with \(String(describing: parsed)), the tokenizer with \(error)")
          }
        } else if let parsed, parsed.problem != .numberOutOfRange {
          problems.append("document: the DOM fails (\(parsed)) where the tokenizer does not")
        }
      }
    }
    return problems
  }
}
