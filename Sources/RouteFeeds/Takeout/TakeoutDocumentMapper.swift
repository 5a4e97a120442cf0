import RouteMileage

/// Google location history's meaning, on top of the shared JSON tokenizer: which member is
/// what, the record being read, and what each finished record becomes in the sink.
///
/// One mapper reads every shape Google has exported, told apart by their members, not guessed
/// up front:
/// - `Records.json`: `{"locations": [...]}`; each location is one record.
/// - The on-device Timeline export for Android (`Timeline.json`): `{"semanticSegments": [...],
///   "rawSignals": [...]}`; each `timelinePath` point and each raw signal's `position` is one
///   record; a `visit`, `activity` or `timelineMemory` segment, and a raw signal without a
///   position (`wifiScan`, `activityRecord`), is counted as ignored: none has per-point
///   positions with times.
/// - The same export from iOS: a top-level array of entries shaped like the segments, with
///   `geo:` points timed by `durationMinutesOffsetFromStartTime` after the entry's `startTime`.
/// - A Semantic Location History month: `{"timelineObjects": [...]}`; an `activitySegment`'s
///   `waypointPath.waypoints` have no times (each counted as `missingTime`), and the points of a
///   `simplifiedRawPath` (with times) are records.
///
/// Memory is bounded whatever the document's size: a stack of open containers (as deep as the
/// tokenizer allows), one record's fields, the session table (`TakeoutSessions.keyLimit` keys)
/// and, for an iOS entry whose `startTime` comes after its `timelinePath`, at most
/// `pendingLimit` points waiting for it.
struct TakeoutDocumentMapper {
  /// iOS points held until their entry's `startTime` arrives; past this they are counted as
  /// `pathTooLong`.
  static let pendingLimit = 4096

  struct PendingPoint {
    var latitude: Double
    var longitude: Double
    var minutes: Double
    var line: Int
  }

  enum EntryKind: UInt8 {
    case unknown, visit, activity, memory
  }

  enum SignalKind: UInt8 {
    case unknown, wifiScan, activityRecord
  }

  private(set) var roles: [TakeoutRole] = []
  private var field = TakeoutField.none
  private var fix = TakeoutFix()
  private var sessions = TakeoutSessions()
  var timestamps = ISO8601DayCache()
  /// Whether the document showed one of the shapes above (a known top-level member or a
  /// top-level array), and whether its top level was a scalar.
  private(set) var recognised = false
  private(set) var topLevelScalar = false

  // The open segment (iOS entry).
  private var entryKind = EntryKind.unknown
  private var entryLine = 0
  private var entryHasPath = false
  private var entryStart = TakeoutFix.Time.missing
  private var pathSession = 0
  private var pending: [PendingPoint] = []
  // The open raw signal.
  private var signalKind = SignalKind.unknown
  private var signalLine = 0
  private var signalHasPosition = false
  // The open timeline object and its activity segment or place visit.
  private var objectLine = 0
  private var objectHasItem = false
  private var itemIsVisit = false
  private var itemLine = 0
  private var itemRecords = 0
  private var itemSession: Int?

  init() { roles.reserveCapacity(16) }

  /// How many waiting iOS points the mapper has room for (bounded by `pendingLimit`).
  var pendingCapacity: Int { pending.capacity }

  // MARK: Events

  /// A member name inside the open object.
  mutating func key(_ name: UnsafeBufferPointer<UInt8>) {
    guard let role = roles.last else { return }
    field = TakeoutField.named(name, in: role)
  }

  /// An object (`isObject`) or array opens on `line`.
  mutating func open(isObject: Bool, line: Int, into sink: inout some FeedSink) {
    let role = childRole(isObject: isObject, line: line, into: &sink)
    roles.append(role)
    field = .none
  }

  /// The open container closes.
  mutating func close(into sink: inout some FeedSink) {
    guard let role = roles.popLast() else { return }
    field = .none
    switch role {
    case .location, .pathPoint, .signalPosition, .rawPathPoint:
      finishRecord(role, into: &sink)
    case .segment:
      finishEntry(into: &sink)
    case .signal:
      if !signalHasPosition {
        let reason: FeedReason =
          switch signalKind {
          case .wifiScan: .wifiScan
          case .activityRecord: .activityRecord
          case .unknown: .otherSignal
          }
        sink.ignored(reason, line: signalLine)
      }
    case .semanticItem:
      if itemRecords == 0 { sink.ignored(itemIsVisit ? .timelineVisit : .timelineActivity, line: itemLine) }
    case .timelineObject:
      if !objectHasItem { sink.ignored(.otherEntry, line: objectLine) }
    default:
      break
    }
  }

  /// A string, number, `true`, `false` or `null` value; `bytes` is a string's unescaped content
  /// or a literal's text.
  mutating func scalar(
    _ kind: TakeoutScalar, _ bytes: UnsafeBufferPointer<UInt8>, line: Int, into sink: inout some FeedSink
  ) {
    defer { field = .none }
    guard let role = roles.last else {
      topLevelScalar = true
      return
    }
    switch role {
    case .location, .pathPoint, .signalPosition, .rawPathPoint:
      fix.set(field, kind, bytes, timestamps: &timestamps)
    case .segment:
      switch field {
      case .startTime: setEntryStart(kind, bytes, into: &sink)
      case .visitMark: entryKind = .visit
      case .activityMark: entryKind = .activity
      case .memoryMark: entryKind = .memory
      default: break
      }
    case .signal:
      markSignal()
    case .entries, .locations, .segments, .path, .signals, .timelineObjects, .rawPathPoints, .waypoints:
      if role == .rawPathPoints || role == .waypoints { itemRecords += 1 }
      sink.unreadable(.notAnObject, line: line)
    case .document, .timelineObject, .semanticItem, .waypointPath, .rawPath, .skipped:
      break
    }
  }

  /// The document broke off (truncated or malformed): the record it broke off inside of, and
  /// the iOS points still waiting for a start time, are counted as `unfinishedPoint`.
  mutating func abandon(into sink: inout some FeedSink) {
    if roles.contains(where: \.isRecord) { sink.unreadable(.unfinishedPoint, line: fix.line) }
    for point in pending { sink.unreadable(.unfinishedPoint, line: point.line) }
    pending.removeAll()
    roles.removeAll()
  }

  // MARK: Structure

  private mutating func childRole(isObject: Bool, line: Int, into sink: inout some FeedSink) -> TakeoutRole {
    guard let parent = roles.last else {
      recognised = recognised || !isObject
      return isObject ? .document : .entries
    }
    switch parent {
    case .document:
      guard !isObject else { return .skipped }
      switch field {
      case .locations:
        recognised = true
        return .locations
      case .semanticSegments:
        recognised = true
        return .segments
      case .rawSignals:
        recognised = true
        return .signals
      case .timelineObjects:
        recognised = true
        return .timelineObjects
      default: return .skipped
      }
    case .entries, .segments:
      guard isObject else { return notAnObject(line, &sink) }
      beginEntry(line: line)
      return .segment
    case .locations:
      return record(.location, isObject: isObject, line: line, &sink)
    case .segment:
      switch field {
      case .timelinePath where !isObject && !entryHasPath:
        entryHasPath = true
        pathSession = sessions.fresh()
        return .path
      case .visitMark: entryKind = .visit
      case .activityMark: entryKind = .activity
      case .memoryMark: entryKind = .memory
      case .startTime: entryStart = .unreadable
      default: break
      }
      return .skipped
    case .path:
      return record(.pathPoint, isObject: isObject, line: line, &sink)
    case .signals:
      guard isObject else { return notAnObject(line, &sink) }
      signalKind = .unknown
      signalLine = line
      signalHasPosition = false
      return .signal
    case .signal:
      if field == .position, isObject, !signalHasPosition {
        signalHasPosition = true
        fix = TakeoutFix(line: line)
        return .signalPosition
      }
      markSignal()
      return .skipped
    case .timelineObjects:
      guard isObject else { return notAnObject(line, &sink) }
      objectLine = line
      objectHasItem = false
      return .timelineObject
    case .timelineObject:
      guard isObject, field == .activitySegment || field == .placeVisit else { return .skipped }
      objectHasItem = true
      itemIsVisit = field == .placeVisit
      itemLine = line
      itemRecords = 0
      itemSession = nil
      return .semanticItem
    case .semanticItem:
      if isObject, field == .waypointPath { return .waypointPath }
      if isObject, field == .simplifiedRawPath { return .rawPath }
      return .skipped
    case .waypointPath:
      return !isObject && field == .waypoints ? .waypoints : .skipped
    case .waypoints:
      // A waypoint of an activity's path: a place without a time.
      itemRecords += 1
      guard isObject else { return notAnObject(line, &sink) }
      sink.rejected(.missingTime, line: line)
      return .skipped
    case .rawPath:
      return !isObject && field == .points ? .rawPathPoints : .skipped
    case .rawPathPoints:
      itemRecords += 1
      return record(.rawPathPoint, isObject: isObject, line: line, &sink)
    case .location, .pathPoint, .signalPosition, .rawPathPoint:
      fix.setContainer(field)
      return .skipped
    case .skipped:
      return .skipped
    }
  }

  /// An element of a record array whose object is one record of `role` (its fix starts at
  /// `line`); an element that is not an object is counted `notAnObject`.
  private mutating func record(_ role: TakeoutRole, isObject: Bool, line: Int, _ sink: inout some FeedSink)
    -> TakeoutRole
  {
    guard isObject else { return notAnObject(line, &sink) }
    fix = TakeoutFix(line: line)
    return role
  }

  /// An element of a record array that is not an object: counted, its contents passed over.
  private func notAnObject(_ line: Int, _ sink: inout some FeedSink) -> TakeoutRole {
    sink.unreadable(.notAnObject, line: line)
    return .skipped
  }

  private mutating func markSignal() {
    switch field {
    case .wifiScanMark: signalKind = .wifiScan
    case .activityRecordMark: signalKind = .activityRecord
    default: break
    }
  }

  // MARK: Records

  private mutating func finishRecord(_ role: TakeoutRole, into sink: inout some FeedSink) {
    let line = fix.line
    let outcome = fix.outcome(segmentStart: role == .pathPoint ? entryStart : .missing)
    switch outcome {
    case .rejected(let reason): sink.rejected(reason, line: line)
    case .unreadable(let reason): sink.unreadable(reason, line: line)
    case .awaitingStart(let latitude, let longitude, let minutes):
      guard pending.count < Self.pendingLimit else { return sink.rejected(.pathTooLong, line: line) }
      pending.append(PendingPoint(latitude: latitude, longitude: longitude, minutes: minutes, line: line))
    case .position(let sample):
      let session: Int?
      switch role {
      case .location:
        let key = fix.sessionKey ?? .untagged
        session = sessions.ordinal(for: key)
        if let session, sessions.mintedLast, let device = key.deviceName {
          sink.recording(.device(device), ofSession: session)
        }
      case .signalPosition: session = sessions.ordinal(for: fix.sessionKey ?? .noSource)
      case .rawPathPoint:
        if itemSession == nil { itemSession = sessions.fresh() }
        session = itemSession
      default: session = pathSession
      }
      guard let session else { return sink.rejected(.tooManySessions, line: line) }
      sink.position(sample, session: session, line: line)
    }
  }

  private mutating func beginEntry(line: Int) {
    entryKind = .unknown
    entryLine = line
    entryHasPath = false
    entryStart = .missing
    pending.removeAll(keepingCapacity: true)
  }

  /// An entry's `startTime`: times the points that were waiting for it.
  private mutating func setEntryStart(
    _ kind: TakeoutScalar, _ bytes: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink
  ) {
    guard entryStart == .missing else { return }
    if kind == .string, let seconds = timestamps.instant(bytes) {
      entryStart = .seconds(seconds)
    } else {
      entryStart = .unreadable
    }
    flushPending(into: &sink)
  }

  /// Delivers the points waiting for the entry's start: timed when it was read, `badTime` when
  /// it was unreadable, `missingTime` when the entry had none.
  private mutating func flushPending(into sink: inout some FeedSink) {
    for point in pending {
      switch entryStart {
      case .seconds(let start):
        let timestamp = start + point.minutes * 60
        guard timestamp.isFinite else {
          sink.unreadable(.badTime, line: point.line)
          continue
        }
        let sample = RouteSample(timestamp: timestamp, latitude: point.latitude, longitude: point.longitude)
        sink.position(sample, session: pathSession, line: point.line)
      case .unreadable: sink.unreadable(.badTime, line: point.line)
      case .missing: sink.rejected(.missingTime, line: point.line)
      }
    }
    pending.removeAll(keepingCapacity: true)
  }

  private mutating func finishEntry(into sink: inout some FeedSink) {
    flushPending(into: &sink)
    guard !entryHasPath else { return }
    let reason: FeedReason =
      switch entryKind {
      case .visit: .timelineVisit
      case .activity: .timelineActivity
      case .memory: .timelineMemory
      case .unknown: .otherEntry
      }
    sink.ignored(reason, line: entryLine)
  }
}
