import RouteFeeds
import RouteMileage
import RouteStore
import ShiftWork

/// One shift of a batch: a feed file, or a shift in a store.
public enum BatchJob: Sendable {
  case file(String, inDirectory: Bool)
  case shift(String, ShiftRecord)
  /// A shift ID given with --store that the store does not hold.
  case missingShift(String, Int64)

  /// Measures it; never throws (a failure is on the result).
  public func run(_ options: FeedReading) -> InputResult {
    switch self {
    case .file(let path, let inDirectory):
      var result = options.measure(path: path)
      result.foundInDirectory = inDirectory
      return result
    case .missingShift(let storePath, let id):
      var result = InputResult(source: "shift \(id)")
      result.formatName = "store"
      result.failure = "\(storePath): there is no shift \(id)"
      return result
    case .shift(let storePath, let record):
      var result = InputResult(source: "shift \(record.id.rawValue) (\(record.source))")
      result.formatName = "store"
      result.timeline = record.timeline
      result.storedLedger = record.ledger
      if record.isInterrupted {
        // Measured all the same, cut off (`RouteStore.measure`): the figure `shifts` shows.
        result.failure =
          "\(storePath): shift \(record.id.rawValue) is an interrupted import; its figure covers only the rows stored before it stopped"
      } else if let stoppedReading = record.stoppedReading {
        // A cut-off feed's finished import: `truncated`, as `batch` says of the file.
        result.failure =
          "\(storePath): shift \(record.id.rawValue) is truncated: reading of its feed stopped at \(stoppedReading)"
      }
      do {
        // One connection per job: a connection is not shared across threads.
        let store = try RouteStore(path: storePath, access: .readOnly)
        let distance = try store.measure(record, maximumSampleInterval: options.settings.maximumSampleInterval)
        var report = IngestReport()
        report.records = record.sampleCount
        report.retained = record.sampleCount
        report.sessions = 0
        report.firstTimestamp = distance.segments.first?.start
        report.lastTimestamp = distance.segments.last?.end
        // `.csv` is a placeholder the report never shows: `formatName` ("store") labels the row.
        result.measurement = FeedMeasurement(format: .csv, distance: distance, report: report)
      } catch {
        result.failure = "\(error)"
      }
      return result
    }
  }
}
