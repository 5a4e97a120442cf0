import RouteFeeds
import RouteMileage

/// One `pipe` record's own fields: its shift window, and its inline samples measured.
public enum PipeRecordInput {
  struct RecordError: Error, CustomStringConvertible {
    var description: String
  }

  static func time(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let seconds): CivilTime.supportedTimestamps.contains(seconds) ? seconds : nil
    case .string(let text): ISO8601Parser.timestamp(text)
    default: nil
    }
  }

  package static func window(of record: JSONValue) throws -> ShiftWindow? {
    switch (record["shiftStart"], record["shiftEnd"]) {
    case (nil, nil), (.null?, .null?), (.null?, nil), (nil, .null?):
      return nil
    case (let start?, let end?):
      guard let startTime = time(start), let endTime = time(end) else {
        throw RecordError(description: "\"shiftStart\"/\"shiftEnd\" must be ISO 8601 times or epoch seconds")
      }
      guard let window = ShiftWindow(start: startTime, end: endTime) else {
        throw RecordError(description: "the shift window ends before it starts")
      }
      return window
    default:
      throw RecordError(description: "\"shiftStart\" and \"shiftEnd\" go together")
    }
  }

  /// Runs the record's samples through the same ingest stage a feed goes through
  /// (`PipeSampleReader`: a sample that cannot be read is counted as unreadable with its 1-based
  /// index as the "line").
  public static func measure(
    record: UnsafeBufferPointer<UInt8>, source: String, settings: IngestSettings, timeZone: ZoneRules? = nil
  ) -> InputResult {
    let (measurement, failure) = PipeSampleReader.measure(record: record, settings: settings, timeZone: timeZone)
    var result = InputResult(source: source)
    if let failure {
      result.failure = "\(source): \(failure)"
    } else {
      result.measurement = measurement
    }
    result.formatName = "samples"
    return result
  }
}
