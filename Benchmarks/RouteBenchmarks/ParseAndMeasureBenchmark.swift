import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteSynthesis

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Scenario 3: feeds of 2 million positions in GPX, NMEA and CSV through the full ingest path
/// (reader, sessions, filter, accumulator), beside a read-only pass of the same bytes and, for
/// GPX, Foundation's `XMLParser` merely visiting the document. CSV is measured in two layouts:
/// the canonical one (`csv`) and the one phone apps export most (`phone-csv`: ISO 8601 time with
/// milliseconds, latitude, longitude, accuracy, speed, course, session), whose yardstick is the
/// lean C scan of `Benchmarks/compare-limits.sh` rather than a MB/s target. Each CSV layout
/// also gets a `2T` row: the same ingest pipelined on two threads, as `routemiles measure` runs it
/// (`IngestPipelining.automatic`); the other rows are one thread.
enum ParseAndMeasureBenchmark {
  static let name = "parse-and-measure"

  /// An `XMLParser` delegate that does nothing: the cost of visiting the document only.
  final class Visitor: NSObject, XMLParserDelegate {
    var elements = 0
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
      attributes attributeDict: [String: String] = [:]
    ) {
      elements += 1
    }
  }

  static func run(quick: Bool, report: inout BenchmarkReport) throws {
    let positions = quick ? 200_000 : 2_000_000
    let repeats = 5
    report.say("\n== 3. parse and measure (\(positions) positions per feed; best of \(repeats))")
    report.say("  format      size       read-only     ingest (filter on)           positions/s   peak RSS")
    let feeds: [(String, SyntheticFeedFormat, FeedFormat, Double?)] = [
      ("csv", .csv, .csv, 300), ("phone-csv", .csv(.phoneExport), .csv, nil), ("nmea", .nmea, .nmea, 200),
      ("gpx", .gpx, .gpx, 150),
    ]
    for (label, synthetic, format, target) in feeds {
      let (path, bytes) = try BenchmarkFiles.feed("parse.\(label)", format: synthetic, positions: positions)
      let megabytes = Double(bytes) / 1_048_576
      let readTimes = repeated(warmup: 3, repeats: 4 * repeats) { blackHole(BenchmarkFiles.readOnlyPass(path)) }
      var records = 0
      let ingestTimes = try repeated(warmup: 1, repeats: repeats) {
        var source = try FileByteSource(path: path)
        let measurement = FeedIngest.measure(&source, format: format)
        records = measurement.report.records
        blackHole(measurement.distance.meters)
      }
      // The tool's own peak on the same file, from a separate run of `routemiles measure`.
      let peak = try MemoryBenchmark.toolPeakResidentBytes(["measure", "--json", path])
      let readRate = megabytes / readTimes[0]
      let ingestRate = megabytes / ingestTimes[0]
      report.say(
        "  \(label.padding(9))   \(pad(Format.megabytes(bytes), 9))   \(pad(Format.fixed(readRate, 0), 6)) MB/s   \(pad(Format.fixed(ingestRate, 0), 6)) MB/s (\(Format.fixed(ingestRate / readRate * 100, 1))% of read)   \(pad(Format.fixed(Double(records) / ingestTimes[0] / 1e6, 2), 6)) M/s   \(Format.megabytes(peak))"
      )
      report.record(name, "\(label) ingest MB/s", ingestRate, higherIsBetter: true)
      report.record(name, "\(label) read-only MB/s", readRate, higherIsBetter: true)
      report.record(name, "\(label) ingest / read-only", ingestRate / readRate, higherIsBetter: true, scaleFree: true)
      report.record(name, "\(label) positions per second", Double(records) / ingestTimes[0], higherIsBetter: true)
      if let target {
        report.target(
          name, "\(label.uppercased()) at least \(Int(target)) MB/s (\(Format.fixed(ingestRate, 0)) MB/s)",
          met: ingestRate >= target)
      }
      if format == .csv {
        // The rows above read and measure on one thread (`FeedIngest.measure`'s default). This
        // row is `routemiles measure`'s path: the first MiB on one thread, the rest parsed on this
        // thread and measured on a second (`IngestPipelining.automatic`), same figure.
        var settings = IngestSettings()
        settings.pipelining = .automatic
        var pipelinedRecords = 0
        let pipelinedTimes = try repeated(warmup: 1, repeats: repeats) {
          var source = try FileByteSource(path: path)
          let measurement = FeedIngest.measure(&source, format: format, settings: settings)
          pipelinedRecords = measurement.report.records
          blackHole(measurement.distance.meters)
        }
        let pipelinedRate = megabytes / pipelinedTimes[0]
        report.say(
          "  \(("\(label) 2T").padding(9))   \(pad(Format.megabytes(bytes), 9))   \(pad("", 6))        \(pad(Format.fixed(pipelinedRate, 0), 6)) MB/s pipelined on 2 threads (\(Format.fixed(pipelinedRate / ingestRate, 2))× one thread)   \(pad(Format.fixed(Double(pipelinedRecords) / pipelinedTimes[0] / 1e6, 2), 6)) M/s"
        )
        report.record(name, "\(label) pipelined ingest MB/s", pipelinedRate, higherIsBetter: true)
        report.record(
          name, "\(label) pipelined / one thread", pipelinedRate / ingestRate, higherIsBetter: true, scaleFree: true)
      }
      if format == .gpx {
        let visitTimes = repeated(warmup: 0, repeats: quick ? 1 : 2) {
          let parser = XMLParser(contentsOf: URL(fileURLWithPath: path))!
          let visitor = Visitor()
          parser.delegate = visitor
          _ = parser.parse()
          blackHole(visitor.elements)
        }
        let visitRate = megabytes / visitTimes[0]
        let speedup = ingestRate / visitRate
        report.say(
          "           XMLParser visiting only: \(Format.fixed(visitRate, 0)) MB/s — our whole ingest is \(Format.fixed(speedup, 1))× that"
        )
        report.record(name, "gpx ingest / XMLParser visit", speedup, higherIsBetter: true, scaleFree: true)
        report.target(name, "GPX at least 5× XMLParser's visit alone (\(Format.fixed(speedup, 1))×)", met: speedup >= 5)
      }
    }
  }
}

extension String {
  func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
