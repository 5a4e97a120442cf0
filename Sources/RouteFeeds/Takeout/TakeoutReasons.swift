extension FeedReason {
  // Records that are not measurable positions (reported under `rejected`).
  /// A Takeout position whose latitude is beyond ±90° or longitude beyond ±180° (in
  /// `Records.json`, an E7 value past ±900000000 or ±1800000000): nowhere on Earth. Old exports
  /// hold such values from an integer overflow; they are counted, not guessed back.
  public static let coordinateOutOfRange = FeedReason("coordinateOutOfRange")
  /// A Takeout position whose session key (`deviceTag`, raw-signal `source`) is new when the
  /// reader already holds `TakeoutSessions.keyLimit` of them.
  public static let tooManySessions = FeedReason("tooManySessions")
  /// An iOS timeline point past the `TakeoutDocumentMapper.pendingLimit` held while its entry's
  /// `startTime` had not yet been read.
  public static let pathTooLong = FeedReason("pathTooLong")

  // Records that could not be read (reported under `errors`).
  /// An element of a Takeout record array (`locations`, `timelinePath`, `rawSignals`, …) that
  /// is not an object.
  public static let notAnObject = FeedReason("notAnObject")

  // Entries that hold no timed positions (reported under `ignored`).
  /// A timeline `visit` (Android segment, iOS entry) or Semantic Location History `placeVisit`:
  /// a stay at one place, with no path.
  public static let timelineVisit = FeedReason("timelineVisit")
  /// A timeline `activity` segment or Semantic Location History `activitySegment` without
  /// points: a summary (start, end, distance, mode), not a recording.
  public static let timelineActivity = FeedReason("timelineActivity")
  /// An iOS `timelineMemory` entry (a trip summary).
  public static let timelineMemory = FeedReason("timelineMemory")
  /// A timeline entry or semantic object of any other kind.
  public static let otherEntry = FeedReason("otherEntry")
  /// A raw signal holding a Wi-Fi scan, not a position.
  public static let wifiScan = FeedReason("wifiScan")
  /// A raw signal holding an activity recognition result, not a position.
  public static let activityRecord = FeedReason("activityRecord")
  /// A raw signal of any other kind.
  public static let otherSignal = FeedReason("otherSignal")
}
