import RouteMileage

/// Whether a GeoJSON Point is a fix of the drive or a waypoint (a named place), decided by the
/// collection it is in.
///
/// A GPX converted to GeoJSON (togeojson, ogr2ogr, GPSBabel) writes its track as a line and its
/// waypoints as Point features beside it, most often before it; a point-per-fix export
/// (GPSLogger) writes only Points. So:
///
/// - once a line (LineString, MultiLineString or MultiPoint coordinates) has been read, every
///   later Point is a waypoint;
/// - a Point read before any line, that carries a waypoint property (`name`, `title`, `desc`,
///   `description`, `cmt`, `sym`, `marker-symbol`, `icon`), is held, with every Point after
///   it, until the collection shows what it is: a line makes them waypoints; the end of the
///   document, or `maximumHeld` of them, makes them fixes (a point-per-fix export that names
///   its fixes);
/// - a Point with no such property read before any line is a fix, delivered at once, so a
///   point-per-fix export streams in constant memory.
///
/// - Complexity: O(1) per Point, amortised; memory at most `maximumHeld` outcomes.
struct GeoJSONPointRoles {
  /// What a held Point becomes if it is a fix, with its source line.
  enum Outcome {
    case fix(RouteSample, session: Int)
    case badTime
    case missingTime
  }

  /// The most Points held while their role is unknown.
  static let maximumHeld = 4096

  /// Whether the document has delivered a line's coordinate.
  private(set) var sawLine = false
  private var held: [(outcome: Outcome, line: Int)] = []

  /// Bytes held between chunks, for the memory tests.
  var heldCapacity: Int { held.capacity * MemoryLayout<(outcome: Outcome, line: Int)>.stride }

  /// Whether a Point (`named`: it carries a waypoint property) must wait for its role.
  func holds(named: Bool) -> Bool { !sawLine && (named || !held.isEmpty) }

  /// Keeps a Point whose role is not yet known; at `maximumHeld` they are delivered as fixes.
  mutating func hold(_ outcome: Outcome, line: Int, into sink: inout some FeedSink) {
    held.append((outcome, line))
    if held.count >= Self.maximumHeld { deliverFixes(into: &sink) }
  }

  /// A line's coordinate was read: the held Points are waypoints, and so is every later Point.
  mutating func lineRead(into sink: inout some FeedSink) {
    sawLine = true
    guard !held.isEmpty else { return }
    for entry in held { sink.rejected(.waypoint, line: entry.line) }
    held.removeAll()
  }

  /// The document ended with no line after the held Points: they are fixes.
  mutating func deliverFixes(into sink: inout some FeedSink) {
    for entry in held { Self.deliver(entry.outcome, line: entry.line, into: &sink) }
    held.removeAll(keepingCapacity: held.count < 256)
  }

  static func deliver(_ outcome: Outcome, line: Int, into sink: inout some FeedSink) {
    switch outcome {
    case .fix(let sample, let session): sink.position(sample, session: session, line: line)
    case .badTime: sink.unreadable(.badTime, line: line)
    case .missingTime: sink.rejected(.missingTime, line: line)
    }
  }
}
