/// The capture-session ordinals of a Takeout document.
///
/// - A `timelinePath` (Android segment or iOS entry) and a Semantic Location History
///   `activitySegment`/`placeVisit` each get a fresh ordinal: one path is one stretch of capture.
/// - `Records.json` locations are keyed by `deviceTag`, so each device is its own session and two
///   phones interleaved in one file never zigzag between each other; locations without a
///   `deviceTag` share one session of their own.
/// - Raw signals (`rawSignals[].position`) are keyed by `source` (GPS, WIFI, CELL, UNKNOWN): the
///   export comes from one phone, and its fixes from different location providers disagree by
///   tens of metres, so joining them would measure the disagreement.
///
/// Keyed sessions are held in a table of at most `keyLimit` keys (memory stays bounded on hostile
/// input); a record with a new key past that is counted as `tooManySessions`.
struct TakeoutSessions {
  enum Key: Hashable {
    case untagged
    case device(Int64)
    /// A `deviceTag` that is not an integer, by its text.
    case deviceText(String)
    case source(String)
    /// A raw signal without a `source`.
    case noSource

    /// The `deviceTag` as `--device` names it: each device is its own recording
    /// (`FeedRecording.device`). Nil for keys that are not devices.
    var deviceName: String? {
      switch self {
      case .device(let tag): "\(tag)"
      case .deviceText(let text): text
      case .untagged, .source, .noSource: nil
      }
    }
  }

  static let keyLimit = 1024
  private var keyed: [Key: Int] = [:]
  private var next = 0
  /// Whether the last `ordinal(for:)` minted the key's session.
  private(set) var mintedLast = false

  /// A session of its own.
  mutating func fresh() -> Int {
    defer { next += 1 }
    return next
  }

  /// The session of `key`; nil when the table is full and `key` is new.
  mutating func ordinal(for key: Key) -> Int? {
    mintedLast = false
    if let ordinal = keyed[key] { return ordinal }
    guard keyed.count < Self.keyLimit else { return nil }
    mintedLast = true
    let ordinal = fresh()
    keyed[key] = ordinal
    return ordinal
  }
}
