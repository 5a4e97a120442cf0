import RouteMileage

/// TCX's meaning, on top of the shared XML scanner: which element is what, the fields of the
/// track point being read, and what each finished point becomes in the sink.
///
/// Tracks are found inside `Activities` at any depth below (`Activity`, `Lap`,
/// `MultiSportSession`, …), so a multisport file is read too; each `Track` gets the next session
/// ordinal, 0, 1, 2, … in document order, because a device starts a new `Track` when recording
/// stopped and resumed (a lap boundary alone does not break a track, but a new `Track` says
/// nothing about the gap, so it is not joined to the previous one). A `Trackpoint` is read from
/// its `Time`, `Position` (`LatitudeDegrees`, `LongitudeDegrees`) and `AltitudeMeters`; lap
/// totals, heart rate, cadence and `Extensions` are skipped.
struct TCXTrackBuilder: XMLDocumentMapper {
  typealias Time = XMLFieldParser.Time

  static var rootName: String { "TrainingCenterDatabase" }
  static var formatName: String { "TCX" }
  static func isRoot(prefix: UInt64, length: Int) -> Bool {
    length == 22 && prefix == TCXName.trainingCenterDatabase
  }

  /// The ordinal of the current `Track`; -1 before the first.
  private(set) var track = -1
  private var pointIsOpen = false
  private var line = 0
  private var hasPosition = false
  private var latitude: Double?
  private var longitude: Double?
  private var altitude: Double?
  private var time = Time.missing
  /// Fields already read (bit per value role); a repeated field is skipped.
  private var fieldsSeen: UInt8 = 0
  var timestamps = ISO8601DayCache()
  /// The markup of the last plain point read element by element (see `TCXPointShape`).
  var shape = TCXPointShape()
  /// The whitespace between two points.
  var gap = XMLPlainGap()

  @inline(__always)
  mutating func role(
    ofChild prefix: UInt64, length: Int, in parent: TCXRole, line: Int, into sink: inout some FeedSink
  ) -> TCXRole {
    switch parent {
    case .database:
      if length == 10, prefix == TCXName.activities { return .activity }
      if length == 7, prefix == TCXName.courses { return .course }
      return .skipped
    case .activity, .course:
      if length == 5, prefix == TCXName.track {
        if parent == .course { return .courseTrack }
        track += 1
        sink.recording(.track(track + 1), ofSession: track)
        return .track
      }
      // Everything else that may hold a track is passed through; a Trackpoint here is
      // misplaced (counted by `skipped`), and extensions and texts are not read.
      if length == 10, prefix == TCXName.trackpoint || prefix == TCXName.extensions { return .skipped }
      return parent
    case .track:
      guard length == 10, prefix == TCXName.trackpoint else { return .skipped }
      beginPoint(line: line)
      return .point
    case .courseTrack:
      guard length == 10, prefix == TCXName.trackpoint else { return .skipped }
      sink.rejected(.routePoint, line: line)
      return .plannedPoint
    case .point, .position:
      switch Self.pointChild(prefix: prefix, length: length, in: parent) {
      case .position?:
        guard !hasPosition else { return .skipped }
        hasPosition = true
        return .position
      case let role?: return field(role)
      case nil: return .skipped
      }
    case .plannedPoint, .skipped, .time, .latitude, .longitude, .altitude:
      return .skipped
    }
  }

  /// What a child named `prefix` and `length` (see `XMLName`) of a `Trackpoint` (`.point`) or
  /// of its `Position` is; nil for an element the reader skips. The plain fast path asks this
  /// too before it skips a child.
  @inline(__always) static func pointChild(prefix: UInt64, length: Int, in parent: TCXRole) -> TCXRole? {
    if parent == .position {
      if length == 15, prefix == TCXName.latitudeDegrees { return .latitude }
      if length == 16, prefix == TCXName.longitudeDegrees { return .longitude }
      return nil
    }
    if length == 8, prefix == TCXName.position { return .position }
    if length == 4, prefix == TCXName.time { return .time }
    if length == 14, prefix == TCXName.altitudeMeters { return .altitude }
    return nil
  }

  /// The role of a point field, or `.skipped` when it was already read (the first one counts).
  @inline(__always)
  private mutating func field(_ role: TCXRole) -> TCXRole {
    let bit: UInt8 = 1 << (role.rawValue - TCXRole.time.rawValue)
    guard fieldsSeen & bit == 0 else { return .skipped }
    fieldsSeen |= bit
    return role
  }

  /// A `Trackpoint` where the schema has none (outside a `Track`, inside extensions): counted
  /// under `ignored`, so nothing read goes unaccounted.
  func skipped(prefix: UInt64, length: Int, line: Int, into sink: inout some FeedSink) {
    if length == 10, prefix == TCXName.trackpoint { sink.ignored(.misplacedTrackPoint, line: line) }
  }

  @inline(__always)
  mutating func close(
    _ role: TCXRole, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
    into sink: inout some FeedSink
  ) {
    switch role {
    case .point:
      finishPoint(into: &sink)
    case .time:
      time = value.finishTime(base, from, to, cache: &timestamps)
    case .latitude:
      latitude = value.finishNumber(base, from, to)
    case .longitude:
      longitude = value.finishNumber(base, from, to)
    case .altitude:
      altitude = value.finishNumber(base, from, to)
    case .database, .activity, .course, .track, .courseTrack, .plannedPoint, .position, .skipped:
      break
    }
  }

  private mutating func beginPoint(line: Int) {
    pointIsOpen = true
    self.line = line
    hasPosition = false
    latitude = nil
    longitude = nil
    altitude = nil
    time = .missing
    fieldsSeen = 0
  }

  /// Delivers the point whose end tag was just read. The first problem found decides its
  /// fate: no `Position` at all (`missingPosition`: devices write such points while the
  /// receiver has no fix, or for heart rate alone), then an unreadable or missing latitude or
  /// longitude (`badNumber`), an unreadable time (`badTime`), no time (`missingTime`).
  private mutating func finishPoint(into sink: inout some FeedSink) {
    pointIsOpen = false
    deliver(
      line: line, hasPosition: hasPosition, latitude: latitude, longitude: longitude, altitude: altitude, time: time,
      into: &sink)
  }

  /// `finishPoint`'s verdict on a point's fields.
  @inline(__always)
  private func deliver(
    line: Int, hasPosition: Bool, latitude: Double?, longitude: Double?, altitude: Double?, time: Time,
    into sink: inout some FeedSink
  ) {
    guard hasPosition else { return sink.rejected(.missingPosition, line: line) }
    guard let latitude, let longitude else { return sink.unreadable(.badNumber, line: line) }
    if case .unreadable = time { return sink.unreadable(.badTime, line: line) }
    guard case .seconds(let timestamp) = time else { return sink.rejected(.missingTime, line: line) }
    let sample = RouteSample(timestamp: timestamp, latitude: latitude, longitude: longitude, altitude: altitude)
    sink.position(sample, session: track, line: line)
  }

  /// A point the plain fast path read whole (`readPlainRecord`): the same record as the
  /// point's elements opening and closing one by one. The fields the element-by-element path
  /// keeps (`beginPoint`) are not written: nothing reads them before the next point's
  /// `beginPoint` resets them, and no point is left open.
  @inline(__always)
  mutating func finishPlainPoint(
    line: Int, hasPosition: Bool, latitude: Double?, longitude: Double?, altitude: Double?, time: Time,
    into sink: inout some FeedSink
  ) {
    deliver(
      line: line, hasPosition: hasPosition, latitude: latitude, longitude: longitude, altitude: altitude, time: time,
      into: &sink)
  }

  /// Counts a point the document broke off inside of (malformed or truncated).
  mutating func abandon(into sink: inout some FeedSink) {
    guard pointIsOpen else { return }
    pointIsOpen = false
    sink.unreadable(.unfinishedPoint, line: line)
  }
}
