import RouteFeeds
import RouteMileage

extension FeedIngest {
  /// The last word on a feed once reading ended: why it failed, if it did, and what that means
  /// for the route.
  ///
  /// - A feed read to its end whose every record was unreadable fails with `.nothingReadable`,
  ///   naming the reasons (a log of nothing but bad checksums is not a drive with no distance).
  /// - A feed whose reading stopped partway (cut off mid-record, malformed, needing a date) is
  ///   cut off where it stopped: its route is partial and its words say where reading stopped.
  ///
  /// One implementation for `measure`, `batch`, `import` and `pipe`.
  /// - Complexity: O(number of error reasons).
  public static func concluded(_ measurement: FeedMeasurement, failure: FeedError?) -> FeedMeasurement {
    var measurement = measurement
    let report = measurement.report
    var failure = failure
    if failure == nil, report.records > 0, report.errors == report.records {
      failure = .nothingReadable(records: report.records, reasons: report.errorReasons)
    }
    measurement.report.failure = failure
    if let failure, failure.stopsReadingPartway {
      measurement.distance.cutOff = RecordingCutOff(line: failure.line, byteOffset: failure.byteOffset)
    }
    return measurement
  }
}
