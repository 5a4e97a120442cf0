import RouteMileage

/// GPX's meaning, on top of the scanner's elements: which element is what, the fields of the
/// track point being read, and what each finished point becomes in the sink.
///
/// Only the schema's places count: `trkpt` in `trk`/`trkseg`, `rtept` in `rte`, `wpt` in `gpx`,
/// and the point fields directly in `trkpt`. Anything else is skipped with its whole subtree,
/// so a `<time>` inside `<extensions>` or a `<trkpt>` inside an unknown element is never read.
/// Each `trkseg` gets the next session ordinal, 0, 1, 2, … in document order (an empty one
/// takes its number too), since the GPX 1.1 schema starts a new segment when reception was
/// lost or the receiver was off.
struct GPXTrackBuilder: XMLDocumentMapper {
  static var rootName: String { "gpx" }
  static var formatName: String { "GPX" }
  @inline(__always) static func isRoot(prefix: UInt64, length: Int) -> Bool { length == 3 && prefix == GPXName.gpx }

  typealias Time = XMLFieldParser.Time

  /// The ordinal of the current `trkseg`; -1 before the first.
  private(set) var segment = -1
  /// The 1-based number of the current `trk` (its recording, `FeedRecording.track`); 0 before
  /// the first.
  private(set) var track = 0
  /// Whether a `trkpt` is open (its start tag read, its end not yet).
  private(set) var pointIsOpen = false
  private var line = 0
  private var latitude: Double?
  private var longitude: Double?
  private var coordinatesSeen: UInt8 = 0
  private var time = Time.missing
  private var elevation: Double?
  private var hdop: Double?
  private var speed: Double?
  private var course: Double?
  private var noFix = false
  var timestamps = ISO8601DayCache()
  /// Fields already read (bit per role from `.time`); a repeated field is skipped.
  private var fieldsSeen: FieldMask = 0

  /// One bit per value role (`GPXRole.isValue`). A role past its width would get no bit (a
  /// shift past the width gives 0 in Swift), so its repeats would no longer be skipped:
  /// `GPXRoleTests` fails before that can happen.
  typealias FieldMask = UInt8

  /// The role's bit in `fieldsSeen`.
  @inline(__always) static func fieldBit(_ role: GPXRole) -> FieldMask { 1 << (role.rawValue - GPXRole.time.rawValue) }

  /// The role of an element opened directly inside `parent` (which is neither skipped nor a
  /// value). Waypoints and route points are counted here, at their start tags.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  mutating func role(
    ofChild prefix: UInt64, length: Int, in parent: GPXRole, line: Int, into sink: inout some FeedSink
  ) -> GPXRole {
    // No GPX name the reader needs is longer than eight bytes.
    let key = length <= 8 ? prefix : 0
    switch parent {
    case .segment:
      guard key == GPXName.trkpt else { return .skipped }
      beginPoint(line: line)
      return .point
    case .point:
      guard let role = Self.fieldRole(key) else { return .skipped }
      let bit = Self.fieldBit(role)
      guard fieldsSeen & bit == 0 else { return .skipped }
      fieldsSeen |= bit
      return role
    case .gpx:
      switch key {
      case GPXName.trk:
        track += 1
        return .track
      case GPXName.rte: return .route
      case GPXName.wpt:
        sink.rejected(.waypoint, line: line)
        return .skipped
      default: return .skipped
      }
    case .track:
      guard key == GPXName.trkseg else { return .skipped }
      segment += 1
      sink.recording(.track(track), ofSession: segment)
      return .segment
    case .route:
      if key == GPXName.rtept { sink.rejected(.routePoint, line: line) }
      return .skipped
    case .skipped, .time, .elevation, .hdop, .speed, .course, .fix:
      return .skipped
    }
  }

  /// The track point field a child named `key` (its packed local name, 0 when longer than
  /// eight bytes) is; nil for an element the point skips. The plain fast path asks this too
  /// before it skips a child.
  @inline(__always) static func fieldRole(_ key: UInt64) -> GPXRole? {
    switch key {
    case GPXName.time: .time
    case GPXName.ele: .elevation
    case GPXName.hdop: .hdop
    case GPXName.speed: .speed
    case GPXName.course: .course
    case GPXName.fix: .fix
    default: nil
    }
  }

  private mutating func beginPoint(line: Int) {
    pointIsOpen = true
    self.line = line
    latitude = nil
    longitude = nil
    coordinatesSeen = 0
    time = .missing
    elevation = nil
    hdop = nil
    speed = nil
    course = nil
    noFix = false
    fieldsSeen = 0
  }

  /// A track point where the schema has none (outside a `trkseg`, inside extensions): not a
  /// recorded position, but counted, so nothing read goes unaccounted.
  @inline(__always)
  func skipped(prefix: UInt64, length: Int, line: Int, into sink: inout some FeedSink) {
    if length == 5, prefix == GPXName.trkpt { sink.ignored(.misplacedTrackPoint, line: line) }
  }

  /// `lat` (1) and `lon` (2) of a track point.
  @inline(__always)
  func attributeTarget(prefix: UInt64, length: Int, in role: GPXRole) -> UInt8 {
    guard role == .point, length == 3 else { return 0 }
    return prefix == GPXName.lat ? 1 : prefix == GPXName.lon ? 2 : 0
  }

  @inline(__always)
  mutating func attribute(
    _ target: UInt8, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int
  ) -> String? {
    let number = value.finishNumber(base, from, to)
    return coordinate(isLatitude: target == 1, number) ? nil : target == 1 ? "lat" : "lon"
  }

  @inline(__always)
  mutating func close(
    _ role: GPXRole, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
    into sink: inout some FeedSink
  ) {
    switch role {
    case .point:
      finishPoint(into: &sink)
    case .time:
      setTime(value.finishTime(base, from, to, cache: &timestamps))
    case .elevation, .hdop, .speed, .course:
      setNumber(role, value.finishNumber(base, from, to))
    case .fix:
      setNoFix(value.finish(base, from, to, GPXTrackBuilder.isNoFix) ?? false)
    case .gpx, .track, .segment, .route, .skipped:
      break
    }
  }

  /// Records the open point's `lat` (`isLatitude`) or `lon`; nil means unreadable. Returns
  /// false for a repeated attribute, which XML forbids.
  mutating func coordinate(isLatitude: Bool, _ value: Double?) -> Bool {
    let bit: UInt8 = isLatitude ? 1 : 2
    guard coordinatesSeen & bit == 0 else { return false }
    coordinatesSeen |= bit
    if isLatitude { latitude = value } else { longitude = value }
    return true
  }

  mutating func setTime(_ value: Time) { time = value }

  /// Records an optional numeric field; an unreadable one (nil) is left out of the sample.
  mutating func setNumber(_ role: GPXRole, _ value: Double?) {
    switch role {
    case .elevation: elevation = value
    case .hdop: hdop = value
    case .speed: speed = value
    case .course: course = value
    default: break
    }
  }

  mutating func setNoFix(_ value: Bool) { noFix = value }

  /// Delivers the point whose end tag was just read.
  mutating func finishPoint(into sink: inout some FeedSink) {
    pointIsOpen = false
    Self.deliver(
      line: line, session: segment, latitude: latitude, longitude: longitude, time: time, elevation: elevation,
      hdop: hdop, speed: speed, course: course, noFix: noFix, into: &sink)
  }

  /// What a finished point becomes, whichever path read it (the general scanner's `close` or
  /// the plain fast path's `readPlainPoint`); `nil` is a value that was missing or unreadable.
  ///
  /// The first problem found decides its fate: unreadable coordinates (`badNumber`, which
  /// includes a missing `lat` or `lon`), then an unreadable time (`badTime`), then the
  /// receiver's own `<fix>none</fix>` (`noFix`), then no time at all (`missingTime`).
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func deliver(
    line: Int, session: Int, latitude: Double?, longitude: Double?, time: Time, elevation: Double?, hdop: Double?,
    speed: Double?, course: Double?, noFix: Bool, into sink: inout some FeedSink
  ) {
    guard let latitude, let longitude else { return sink.unreadable(.badNumber, line: line) }
    if case .unreadable = time { return sink.unreadable(.badTime, line: line) }
    if noFix { return sink.rejected(.noFix, line: line) }
    guard case .seconds(let timestamp) = time else { return sink.rejected(.missingTime, line: line) }
    var sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude,
      speed: speed, course: course, altitude: elevation)
    if let hdop {
      sample.horizontalAccuracy = hdop * AccuracyEstimate.metersPerHDOP
      sample.horizontalAccuracyIsEstimated = true
    }
    sink.position(sample, session: session, line: line)
  }

  /// Counts a point the document broke off inside of (malformed or truncated).
  mutating func abandon(into sink: inout some FeedSink) {
    guard pointIsOpen else { return }
    pointIsOpen = false
    sink.unreadable(.unfinishedPoint, line: line)
  }

  /// Whether a `<fix>` says `none` (any case); `2d`, `3d`, `dgps`, `pps` and anything else
  /// do not reject the point.
  static func isNoFix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    XMLFieldParser.trimmed(bytes).equalsASCIICaseInsensitive("none")
  }
}
