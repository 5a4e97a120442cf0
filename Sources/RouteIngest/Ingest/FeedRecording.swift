import RouteFeeds
import RouteMileage

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
  /// One recording's earliest and latest finite timestamps and its positions with one: kept
  /// together, so noting a position writes one array element.
  struct Extent {
    var first = Double.infinity
    var last = -Double.infinity
    var positions = 0
  }

  var names: [FeedRecording?] = []
  /// Each recording's extent, by its index in `names`, but the cached recording's, which is
  /// `current` (see `extents`).
  private var stored: [Extent] = []
  /// The extent of recording `cachedIndex` while it is valid: noting a position updates three
  /// plain numbers, not an array element.
  private var current = Extent()
  var sessionRecording: [Int: Int] = [:]
  var unnamed: Int?
  var cachedSession: Int? = nil
  var cachedIndex = -1

  /// Each recording's extent, by its index in `names`.
  ///
  /// - Complexity: O(*r*) in the recordings.
  var extents: [Extent] {
    var all = stored
    if cachedIndex >= 0 { all[cachedIndex] = current }
    return all
  }

  /// Names the recording of a reader session (before its first position).
  mutating func declare(_ recording: FeedRecording, session: Int) {
    let index = names.firstIndex(of: recording) ?? add(recording)
    sessionRecording[session] = index
    if cachedSession == session { uncache() }
  }

  private mutating func add(_ recording: FeedRecording?) -> Int {
    names.append(recording)
    stored.append(Extent())
    return names.count - 1
  }

  /// Puts the cached recording's extent back in `stored` and forgets the cached session.
  private mutating func uncache() {
    if cachedIndex >= 0 { stored[cachedIndex] = current }
    cachedIndex = -1
  }

  /// The recording index of a reader session, adding the unnamed recording on first use.
  @inline(__always)
  mutating func index(of session: Int?) -> Int {
    if cachedIndex >= 0, session == cachedSession { return cachedIndex }
    return cacheIndex(of: session)
  }

  /// `index(of:)` for a session other than the cached one, which it caches.
  @inline(never)
  private mutating func cacheIndex(of session: Int?) -> Int {
    uncache()
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
    current = stored[index]
    return index
  }

  /// Notes one position's time in its recording.
  @inline(__always)
  mutating func note(session: Int?, timestamp: Double) {
    // Makes the session's recording the cached one, `current`.
    _ = index(of: session)
    guard timestamp.isFinite else { return }
    current.positions += 1
    if timestamp < current.first { current.first = timestamp }
    if timestamp > current.last { current.last = timestamp }
  }

  /// Whether any two recordings' spans intersect by more than `tolerance` seconds.
  ///
  /// - Complexity: O(*r* log *r*) in the recordings.
  func overlap(tolerance: Double) -> Bool {
    guard names.count > 1 else { return false }
    let extents = extents
    let order = names.indices.filter { extents[$0].positions > 0 }.sorted { extents[$0].first < extents[$1].first }
    var latestEnd = -Double.infinity
    for index in order {
      if min(latestEnd, extents[index].last) - extents[index].first > tolerance { return true }
      latestEnd = max(latestEnd, extents[index].last)
    }
    return false
  }

  /// The recording to report: the one chosen, or the one covering the most time (ties: the
  /// first in the file). Nil when the choice names no recording of the file.
  func chosen(_ choice: FeedRecording?) -> Int? {
    if let choice { return names.firstIndex(of: choice) }
    var best: Int?
    let extents = extents
    for index in names.indices where extents[index].positions > 0 {
      if let current = best,
        extents[index].last - extents[index].first <= extents[current].last - extents[current].first
      {
        continue
      }
      best = index
    }
    return best ?? (names.isEmpty ? nil : 0)
  }
}
