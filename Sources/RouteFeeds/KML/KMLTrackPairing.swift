import RouteMileage

/// The `when` and `gx:coord` values of one `gx:Track`, paired in document order: the i-th
/// `when` goes with the i-th `gx:coord`, whichever comes first (writers put all the times
/// first, or interleave them either way round).
///
/// Values wait here only until their partner arrives, so an interleaved track holds one value
/// at a time; a track that lists all its times first holds its times (24 bytes each) until its
/// coordinates come. A track that would hold more than `pendingLimit` values is not paired any
/// further: every value from there to its end is counted as `trackTooLong`, so memory stays
/// bounded on a hostile file.
struct KMLTrackPairing {
  static let pendingLimit = 1 << 22

  struct When {
    var time: XMLFieldParser.Time
    var line: Int
  }

  enum Place {
    case point(latitude: Double, longitude: Double, altitude: Double?)
    /// `<gx:coord/>` or one holding only whitespace: OpenTracks writes these as pause markers.
    case empty
    case unreadable
  }

  struct Coord {
    var place: Place
    var line: Int
  }

  private var whens = KMLPendingQueue<When>()
  private var coords = KMLPendingQueue<Coord>()
  private var overflowed = false

  var isEmpty: Bool { whens.isEmpty && coords.isEmpty }
  /// Nothing waits and the track is still paired: a `when` and the `gx:coord` right after it
  /// may go to `pair` together.
  var isIdle: Bool { isEmpty && !overflowed }

  /// A time and the place right after it, with nothing waiting (`isIdle`): what `add(when)`
  /// then `add(coord)` do, without queueing the time in between.
  @inline(__always)
  func pair(_ when: When, _ coord: Coord, session: Int, into sink: inout some FeedSink) {
    Self.deliver(when, coord, session: session, into: &sink)
  }

  mutating func add(_ when: When, session: Int, into sink: inout some FeedSink) {
    if overflowed { return sink.unreadable(.trackTooLong, line: when.line) }
    if let coord = coords.takeFirst() { return Self.deliver(when, coord, session: session, into: &sink) }
    guard whens.count < Self.pendingLimit else { return overflow(when.line, into: &sink) }
    whens.append(when)
  }

  mutating func add(_ coord: Coord, session: Int, into sink: inout some FeedSink) {
    if overflowed { return sink.unreadable(.trackTooLong, line: coord.line) }
    if let when = whens.takeFirst() { return Self.deliver(when, coord, session: session, into: &sink) }
    guard coords.count < Self.pendingLimit else { return overflow(coord.line, into: &sink) }
    coords.append(coord)
  }

  /// The track closed: a time left without a place is `missingPosition`, a place left without a
  /// time `missingTime` (the KML schema wants as many of each, so a writer broke it); a place
  /// left over that is empty or unreadable is counted as such.
  mutating func finishTrack(into sink: inout some FeedSink) {
    for when in whens.waiting { sink.rejected(.missingPosition, line: when.line) }
    for coord in coords.waiting {
      switch coord.place {
      case .point: sink.rejected(.missingTime, line: coord.line)
      case .empty: sink.rejected(.missingPosition, line: coord.line)
      case .unreadable: sink.unreadable(.badNumber, line: coord.line)
      }
    }
    reset()
  }

  /// The document broke off inside the track: values still waiting are counted as unfinished.
  mutating func abandon(into sink: inout some FeedSink) {
    for when in whens.waiting { sink.unreadable(.unfinishedPoint, line: when.line) }
    for coord in coords.waiting { sink.unreadable(.unfinishedPoint, line: coord.line) }
    reset()
  }

  private mutating func reset() {
    whens.removeAll()
    coords.removeAll()
    overflowed = false
  }

  private mutating func overflow(_ line: Int, into sink: inout some FeedSink) {
    for when in whens.waiting { sink.unreadable(.trackTooLong, line: when.line) }
    for coord in coords.waiting { sink.unreadable(.trackTooLong, line: coord.line) }
    reset()
    overflowed = true
    sink.unreadable(.trackTooLong, line: line)
  }

  /// One time and one place: the place's problems first (an empty `gx:coord` is
  /// `missingPosition`, an unreadable one `badNumber`), then the time's (`badTime`,
  /// `missingTime`). The record's line is the `gx:coord`'s.
  private static func deliver(_ when: When, _ coord: Coord, session: Int, into sink: inout some FeedSink) {
    switch coord.place {
    case .empty: return sink.rejected(.missingPosition, line: coord.line)
    case .unreadable: return sink.unreadable(.badNumber, line: coord.line)
    case .point(let latitude, let longitude, let altitude):
      switch when.time {
      case .unreadable: sink.unreadable(.badTime, line: coord.line)
      case .missing: sink.rejected(.missingTime, line: coord.line)
      case .seconds(let timestamp):
        let sample = RouteSample(timestamp: timestamp, latitude: latitude, longitude: longitude, altitude: altitude)
        sink.position(sample, session: session, line: coord.line)
      }
    }
  }
}
