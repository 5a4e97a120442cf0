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
