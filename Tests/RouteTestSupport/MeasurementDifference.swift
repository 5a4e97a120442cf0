import RouteIngest

/// Failure messages that compare two measurements: the reader suites' chunked and pipelined
/// reads against a whole one, and the ingest's pipelined measure against one thread.
public enum MeasurementDifference {
  /// Which parts of two measurements differ, in words (for a failure message).
  public static func difference(_ a: FeedMeasurement, _ b: FeedMeasurement) -> String {
    var parts: [String] = []
    if a.format != b.format { parts.append("format") }
    if a.distance != b.distance { parts.append("distance \(a.distance.meters) m vs \(b.distance.meters) m") }
    let x = a.report
    let y = b.report
    if x.records != y.records { parts.append("records \(x.records) vs \(y.records)") }
    if x.retained != y.retained { parts.append("retained \(x.retained) vs \(y.retained)") }
    if x.rejected != y.rejected { parts.append("rejected \(x.rejected) vs \(y.rejected)") }
    if x.errorReasons != y.errorReasons { parts.append("errors \(x.errorReasons) vs \(y.errorReasons)") }
    if x.errorLines != y.errorLines { parts.append("error lines \(x.errorLines) vs \(y.errorLines)") }
    if x.ignored != y.ignored { parts.append("ignored \(x.ignored) vs \(y.ignored)") }
    if x.failure != y.failure {
      parts.append("failure \(String(describing: x.failure)) vs \(String(describing: y.failure))")
    }
    if parts.isEmpty { parts.append("other report fields") }
    return parts.joined(separator: "; ")
  }
}
