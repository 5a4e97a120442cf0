/// Reads KML 2.2 and 2.3 as a byte stream on the XML scanner GPX uses (`XMLScanner`), so the
/// XML rules, errors and limits are GPX's (see `GPXReader`); only the mapping differs
/// (`KMLTrackBuilder`).
///
/// Each `gx:Track` is one capture session; its i-th `when` and i-th `gx:coord` make one
/// position. An empty `gx:coord` is counted as `missingPosition`; a `LineString`'s tuples, which
/// have no times, as `missingTime`; a `Point` as `waypoint`. Memory is constant except for the
/// times of a track written before its coordinates (see `KMLTrackPairing`).
///
/// - Complexity: O(*n*) in the feed's length, each byte examined once.
public struct KMLReader: XMLFeedReader {
  var scanner = XMLScanner<KMLTrackBuilder>()

  public init(options: FeedOptions) { scanner.mapper.timestamps = ISO8601DayCache(zone: options.timeZone) }
}

extension FeedReason {
  /// A KML track with more than `KMLTrackPairing.pendingLimit` times (or places) waiting for
  /// their partners: the rest of that track is counted here, not paired.
  public static let trackTooLong = FeedReason("trackTooLong")
}
