import RouteMileage

extension FeedIngest {
  /// How many bytes format and file-kind detection look at.
  public static let detectionPrefix = 8192

  /// Reads until `detectionPrefix` bytes are in `buffer` or the source ends, so detection never
  /// depends on how a source chunks its bytes. Returns the count read.
  static func readPrefix<Source: ByteSource>(
    _ source: inout Source, into buffer: UnsafeMutableBufferPointer<UInt8>
  ) throws(FeedError) -> Int {
    var count = 0
    while count < min(detectionPrefix, buffer.count) {
      let read: Int
      do {
        read = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
      } catch {
        // Bytes already read are read first; the error comes back on the next read (a gzip
        // stream damaged after a few bytes repeats its error).
        guard count > 0 else { throw error }
        break
      }
      if read == 0 { break }
      count += read
    }
    return count
  }

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
