import RouteMileage

/// One recording in a feed: what a single device wrote as one route. Two recordings whose time
/// spans overlap are two routes (see `RecordingSpans`), never added into one figure.
///
/// What a recording is, per format:
/// - GPX: a `<trk>` (its `<trkseg>`s are its capture sessions), numbered 1, 2, … in the file;
/// - TCX: a `Track`; KML: a `gx:Track` (numbered the same way);
/// - Google Takeout `Records.json`: a `deviceTag` (locations without one, raw signals and
///   timeline paths belong to the file's unnamed recording);
/// - OwnTracks: a tracker (`tid`, else `topic`);
/// - FIT, NMEA, CSV, GeoJSON and `pipe` records: the whole file is one unnamed recording.
public enum FeedRecording: Sendable, Hashable, CustomStringConvertible {
  /// A GPX, TCX or KML track, 1-based in file order (`--track N`).
  case track(Int)
  /// A Takeout device or an OwnTracks tracker, by its ID as the file writes it (`--device ID`).
  case device(String)

  /// `track 2`, `device 1234`.
  public var description: String {
    switch self {
    case .track(let number): "track \(number)"
    case .device(let id): "device \(id)"
    }
  }
}

/// One recording as read and, when the recordings were measured apart, its own figure.
public struct FeedRecordingSummary: Sendable, Hashable {
  /// Nil for the file's unnamed recording (positions of sessions no recording was named for).
  public var recording: FeedRecording?
  /// Its earliest and latest finite timestamps; nil when it had none.
  public var first: Double?
  public var last: Double?
  /// Positions read with a finite timestamp.
  public var positions: Int
  /// Its route measured on its own.
  public var distance: RouteDistance
  /// Whether this is the recording the measurement reports.
  public var isChosen: Bool

  /// Seconds from first to last; 0 without a timestamp.
  public var seconds: Double { first.flatMap { first in last.map { $0 - first } } ?? 0 }
}

/// The recordings an ingest has seen, their time spans, and the rule that separates them.
///
/// Two recordings *overlap* when their time spans (first to last position) intersect by more
/// than `tolerance` seconds (the maximum sample interval, 120 s by default): one vehicle cannot
/// drive two routes at once, so their figures must never be added. Recordings that follow one
/// another (two tracks of one day, one after the other; a clock that overlaps by a step) do not
/// overlap and are measured as one route, exactly as ever.
///
/// When any two overlap, every recording is measured on its own, and the route reported is the
/// one covering the most time (ties: the first in the file), unless one was chosen
/// (`IngestSettings.recordingChoice`).
///
/// - Complexity: O(1) per position (the recording of the last session is cached); memory
///   O(recordings + sessions).
struct RecordingSpans {
  var names: [FeedRecording?] = []
  var first: [Double] = []
  var last: [Double] = []
  var positions: [Int] = []
  var sessionRecording: [Int: Int] = [:]
  var unnamed: Int?
  var cachedSession: Int? = nil
  var cachedIndex = -1

  /// Names the recording of a reader session (before its first position).
  mutating func declare(_ recording: FeedRecording, session: Int) {
    let index = names.firstIndex(of: recording) ?? add(recording)
    sessionRecording[session] = index
    if cachedSession == session { cachedIndex = -1 }
  }

  private mutating func add(_ recording: FeedRecording?) -> Int {
    names.append(recording)
    first.append(.infinity)
    last.append(-.infinity)
    positions.append(0)
    return names.count - 1
  }

  /// The recording index of a reader session, adding the unnamed recording on first use.
  @inline(__always)
  mutating func index(of session: Int?) -> Int {
    if cachedIndex >= 0, session == cachedSession { return cachedIndex }
    let index: Int
    if let session, let named = sessionRecording[session] {
      index = named
    } else if let unnamed {
      index = unnamed
    } else {
      index = add(nil)
      unnamed = index
    }
    cachedSession = session
    cachedIndex = index
    return index
  }

  /// Notes one position's time in its recording.
  @inline(__always)
  mutating func note(session: Int?, timestamp: Double) {
    let index = index(of: session)
    guard timestamp.isFinite else { return }
    positions[index] += 1
    if timestamp < first[index] { first[index] = timestamp }
    if timestamp > last[index] { last[index] = timestamp }
  }

  /// Whether any two recordings' spans intersect by more than `tolerance` seconds.
  ///
  /// - Complexity: O(*r* log *r*) in the recordings.
  func overlap(tolerance: Double) -> Bool {
    guard names.count > 1 else { return false }
    let order = names.indices.filter { positions[$0] > 0 }.sorted { first[$0] < first[$1] }
    var latestEnd = -Double.infinity
    for index in order {
      if min(latestEnd, last[index]) - first[index] > tolerance { return true }
      latestEnd = max(latestEnd, last[index])
    }
    return false
  }

  /// The recording to report: the one chosen, or the one covering the most time (ties: the
  /// first in the file). Nil when the choice names no recording of the file.
  func chosen(_ choice: FeedRecording?) -> Int? {
    if let choice { return names.firstIndex(of: choice) }
    var best: Int?
    for index in names.indices where positions[index] > 0 {
      if let current = best, last[index] - first[index] <= last[current] - first[current] { continue }
      best = index
    }
    return best ?? (names.isEmpty ? nil : 0)
  }
}
