/// Reads Training Center XML (TCX v2, Garmin and the apps that export it) as a byte stream, in
/// constant memory, on the XML scanner GPX uses (`XMLScanner`), so the XML rules, errors and
/// limits are GPX's (see `GPXReader`); only the mapping differs (`TCXTrackBuilder`).
///
/// Each `Track` is one capture session. A `Trackpoint` with `Time` and `Position` is a position;
/// one without a `Position` is counted as `missingPosition` (rejected), never measured. A
/// course's track points are planned, not driven: counted as `routePoint`.
///
/// - Complexity: O(*n*) in the feed's length, each byte examined once.
public struct TCXReader: XMLFeedReader {
  var scanner = XMLScanner<TCXTrackBuilder>()

  public init(options: FeedOptions) { scanner.mapper.timestamps = ISO8601DayCache(zone: options.timeZone) }
}

extension FeedReason {
  /// A TCX `Trackpoint` without a `Position`, or a KML track time whose `gx:coord` is empty or
  /// missing: a time with no place, so nothing to measure.
  public static let missingPosition = FeedReason("missingPosition")
}
