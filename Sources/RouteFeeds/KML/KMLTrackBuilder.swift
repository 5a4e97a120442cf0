/// KML's meaning, on top of the shared XML scanner: tracks, their times and places, and the
/// geometry that holds no times.
///
/// - `gx:Track` (KML 2.2's extension, KML 2.3's `Track`), at any depth in `Document`, `Folder`,
///   `Placemark`, `MultiGeometry` or `gx:MultiTrack`: each is one capture session (ordinals 0,
///   1, 2, … in document order), since a `gx:MultiTrack` holds one `gx:Track` per stretch of
///   recording. Its `when` and `gx:coord` values are paired in order (`KMLTrackPairing`).
/// - `LineString`: a path without per-point times. Each coordinate tuple is counted as
///   `missingTime` (rejected), never measured: without times it cannot be told apart from a
///   planned route, cut into sessions or checked for speed.
/// - `Point`: a place (a placemark's pin), counted as `waypoint`, like GPX's `wpt`.
/// - Polygons, styles, `ExtendedData` and the texts of containers are passed over.
struct KMLTrackBuilder: XMLDocumentMapper {
  static var rootName: String { "kml" }
  static var formatName: String { "KML" }
  static func isRoot(prefix: UInt64, length: Int) -> Bool { length == 3 && prefix == KMLName.kml }

  /// The ordinal of the current `gx:Track`; -1 before the first.
  private(set) var track = -1
  var pairing = KMLTrackPairing()
  /// The line of the `when` or `gx:coord` being read.
  var valueLine = 0
  var timestamps = ISO8601DayCache()
  /// The whitespace between two values of a track (see `readPlainRecord`).
  var gap = XMLPlainGap()
  // The `<coordinates>` of a LineString being streamed: tuples are runs of non-whitespace.
  private var coordinatesLine = 0
  private var tuples = 0
  private var inTuple = false
  private var inCoordinates = false

  @inline(__always)
  mutating func role(
    ofChild prefix: UInt64, length: Int, in parent: KMLRole, line: Int, into sink: inout some FeedSink
  ) -> KMLRole {
    switch parent {
    case .document, .container:
      switch (length, prefix) {
      case (5, KMLName.track):
        track += 1
        sink.recording(.track(track + 1), ofSession: track)
        return .track
      case (10, KMLName.lineString): return .lineString
      case (5, KMLName.point):
        sink.rejected(.waypoint, line: line)
        return .skipped
      case (7, KMLName.polygon), (12, KMLName.extendedData): return .skipped
      default: return .container
      }
    case .track:
      switch (length, prefix) {
      case (4, KMLName.when):
        valueLine = line
        return .when
      case (5, KMLName.coord):
        valueLine = line
        return .coord
      default: return .skipped
      }
    case .lineString:
      guard length == 11, prefix == KMLName.coordinates else { return .skipped }
      coordinatesLine = line
      tuples = 0
      inTuple = false
      inCoordinates = true
      return .lineCoordinates
    case .point, .skipped, .lineCoordinates, .when, .coord:
      return .skipped
    }
  }

  /// Counts the coordinate tuples in a piece of a LineString's `<coordinates>`.
  ///
  /// - Complexity: O(*n*) in the piece's length.
  mutating func text(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
    var index = from
    var inside = inTuple
    var count = tuples
    while index < to {
      let byte = base[index]
      let isSpace = XMLFieldParser.isWhitespace(byte)
      if !isSpace, !inside { count += 1 }
      inside = !isSpace
      index += 1
    }
    inTuple = inside
    tuples = count
  }

  @inline(__always)
  mutating func close(
    _ role: KMLRole, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
    into sink: inout some FeedSink
  ) {
    switch role {
    case .when:
      let time = value.finishTime(base, from, to, cache: &timestamps)
      pairing.add(KMLTrackPairing.When(time: time, line: valueLine), session: track, into: &sink)
    case .coord:
      let place = value.finish(base, from, to, Self.place) ?? .unreadable
      pairing.add(KMLTrackPairing.Coord(place: place, line: valueLine), session: track, into: &sink)
    case .track:
      pairing.finishTrack(into: &sink)
    case .lineCoordinates:
      inCoordinates = false
      for _ in 0..<tuples { sink.rejected(.missingTime, line: coordinatesLine) }
      tuples = 0
    case .document, .container, .lineString, .point, .skipped:
      break
    }
  }

  /// A `gx:coord`: longitude, latitude and an optional altitude, separated by whitespace (or
  /// commas, as `<coordinates>` tuples are).
  static func place(_ bytes: UnsafeBufferPointer<UInt8>) -> KMLTrackPairing.Place {
    let text = XMLFieldParser.trimmed(bytes)
    if text.isEmpty { return .empty }
    var numbers: (Double, Double, Double?) = (0, 0, nil)
    var field = 0
    /// One run of bytes between separators; false when it is a fourth or not a number.
    func take(_ from: Int, _ to: Int) -> Bool {
      guard field < 3, let number = ByteNumberParser.double(UnsafeBufferPointer(rebasing: text[from..<to])) else {
        return false
      }
      switch field {
      case 0: numbers.0 = number
      case 1: numbers.1 = number
      default: numbers.2 = number
      }
      field += 1
      return true
    }
    var start = text.startIndex
    var index = start
    while index < text.endIndex {
      let byte = text[index]
      // Digits, `.` and `-` lie above every separator: one compare for most bytes.
      if byte > .asciiComma || !(byte == .asciiComma || XMLFieldParser.isWhitespace(byte)) {
        index += 1
        continue
      }
      if index > start, !take(start, index) { return .unreadable }
      index += 1
      start = index
    }
    if index > start, !take(start, index) { return .unreadable }
    guard field >= 2 else { return .unreadable }
    return .point(latitude: numbers.1, longitude: numbers.0, altitude: numbers.2)
  }

  /// `place(_:)` for a value the fast path found in place (`base[range]`, followed by `<`): two
  /// or three plain decimals, one space or comma between them and nothing around them, read in
  /// one pass with `ByteNumberParser.plainNumber`, which gives what `ByteNumberParser.double`
  /// gives for each; any other value as `place(_:)` reads it. The same place either way.
  ///
  /// - Complexity: O(1) for a plain value; O(*n*) in its length otherwise.
  @inline(__always)
  static func place(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, bound: Int) -> KMLTrackPairing.Place {
    let end = range.upperBound
    var index = range.lowerBound
    // Each separator is one space or comma with a byte after it. Written out rather than as a
    // nested function: one capturing `index` costs a dynamic exclusivity check per call.
    if index < end, let longitude = ByteNumberParser.plainNumber(base, &index, bound: bound), index &+ 1 < end,
      base[index] == .asciiSpace || base[index] == .asciiComma
    {
      index &+= 1
      if let latitude = ByteNumberParser.plainNumber(base, &index, bound: bound) {
        if index == end { return .point(latitude: latitude, longitude: longitude, altitude: nil) }
        if index &+ 1 < end, base[index] == .asciiSpace || base[index] == .asciiComma {
          index &+= 1
          if let altitude = ByteNumberParser.plainNumber(base, &index, bound: bound), index == end {
            return .point(latitude: latitude, longitude: longitude, altitude: altitude)
          }
        }
      }
    }
    return place(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// The document broke off: values of the track still waiting for their partner, and the
  /// tuples of a `<coordinates>` cut off, are counted as `unfinishedPoint`.
  mutating func abandon(into sink: inout some FeedSink) {
    pairing.abandon(into: &sink)
    if inCoordinates {
      for _ in 0..<tuples { sink.unreadable(.unfinishedPoint, line: coordinatesLine) }
      tuples = 0
      inCoordinates = false
    }
  }
}
