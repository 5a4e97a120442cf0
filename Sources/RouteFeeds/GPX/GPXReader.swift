import RouteMileage

/// Reads GPX 1.0 and 1.1 track logs as a byte stream, in constant memory.
///
/// Each `trkseg` is one capture session (ordinals 0, 1, 2, … in document order). A `trkpt`
/// becomes a position from its `lat`/`lon` attributes and its `time`, `ele`, `hdop`, `speed`,
/// `course` and `fix` children (GPX 1.0 puts speed and course in the point; GPX 1.1 moves them
/// into `<extensions>`, which are skipped). GPX has no accuracy: with `<hdop>` it is estimated
/// as HDOP × `AccuracyEstimate.metersPerHDOP` and marked estimated. Waypoints and route points
/// are counted, never measured. A point without a time is rejected as `missingTime`, one with
/// `<fix>none</fix>` as `noFix`; one whose coordinates or time cannot be read is unreadable.
///
/// XML is read as far as GPX needs and checked as far as that costs nothing: namespace
/// prefixes are ignored (local names are matched, case-sensitively), comments, processing
/// instructions and the DOCTYPE are skipped, CDATA sections are text, and only XML's five
/// predefined entities and numeric character references are decoded — a DOCTYPE's own
/// entities are never expanded. Tags must nest and match, attributes must be quoted and
/// separated, nothing but whitespace may surround the root element, and the root must be
/// `<gpx>`; breaking any of these throws `FeedError.malformed` with the line, and a feed that
/// stops before the document is complete throws `FeedError.truncated`. Points delivered
/// before the error stand; a point the error cut off is counted as `unfinishedPoint`.
///
/// Memory is constant in the feed's size: values the reader needs are capped at 1 KB (longer
/// is unreadable), names are hashed rather than stored, text it does not need is skipped
/// without being held, and element depth is a counter (see `XMLElementStack`).
///
/// - Complexity: O(*n*) in the feed's length, each byte examined once.
public struct GPXReader: XMLFeedReader {
  var scanner = XMLScanner<GPXTrackBuilder>()

  public init(options: FeedOptions) { scanner.mapper.timestamps = ISO8601DayCache(zone: options.timeZone) }
}

extension FeedReason {
  /// A GPX track point that the document broke off inside of (malformed or truncated XML):
  /// its start tag was read, its end never came.
  public static let unfinishedPoint = FeedReason("unfinishedPoint")
  /// A GPX `trkpt` where the schema has none (outside a `trkseg`, or inside extensions):
  /// counted under `ignored`, never measured.
  public static let misplacedTrackPoint = FeedReason("misplacedTrackPoint")
}
