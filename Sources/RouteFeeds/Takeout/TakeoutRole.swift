/// What an open JSON container means to the Takeout reader.
///
/// Each record kind has one role (`location`, `pathPoint`, `signalPosition`, `rawPathPoint`);
/// every container inside a record, and every container the reader does not know, is `skipped`:
/// its contents stream past without being held.
enum TakeoutRole: UInt8 {
  /// The top-level object of `Records.json`, `Timeline.json` or a Semantic Location History month.
  case document
  /// The top-level array of the iOS export: its elements are timeline entries.
  case entries
  /// `Records.json` `locations[]` and one location record in it.
  case locations, location
  /// `semanticSegments[]`, one segment (an iOS entry too), its `timelinePath[]` and a point of it.
  case segments, segment, path, pathPoint
  /// `rawSignals[]`, one signal and its `position`.
  case signals, signal, signalPosition
  /// Semantic Location History: `timelineObjects[]`, one object, its `activitySegment` or
  /// `placeVisit`, the `waypointPath` and its `waypoints[]`, the `simplifiedRawPath`, its
  /// `points[]` and one point.
  case timelineObjects, timelineObject, semanticItem, waypointPath, waypoints, rawPath, rawPathPoints, rawPathPoint
  /// Anything else: passed over.
  case skipped

  /// The roles whose object is one record, delivered when it closes.
  var isRecord: Bool {
    switch self {
    case .location, .pathPoint, .signalPosition, .rawPathPoint: true
    default: false
    }
  }
}

/// The member of an open object whose value comes next, as far as the reader cares.
enum TakeoutField: UInt8 {
  /// A member the reader does not read: its value is passed over.
  case none
  // Members holding the containers the reader descends into.
  case locations, semanticSegments, rawSignals, timelineObjects, timelinePath, position
  case activitySegment, placeVisit, waypointPath, waypoints, simplifiedRawPath, points
  // Members that say what a segment or a raw signal is; their values are passed over.
  case visitMark, activityMark, memoryMark, wifiScanMark, activityRecordMark
  // The scalar fields of a record.
  case latitudeE7, longitudeE7, degrees, isoTime, epochMilliseconds, offsetMinutes, accuracy, altitude, deviceTag,
    source
  /// A segment's (iOS entry's) `startTime`.
  case startTime

  /// The fields read from a record's scalars.
  var isRecordField: Bool { rawValue >= TakeoutField.latitudeE7.rawValue && rawValue <= TakeoutField.source.rawValue }

  /// The member named `name` inside a container of role `role`.
  ///
  /// - Complexity: O(*n*) in the name's length (one comparison per candidate name of its length).
  static func named(_ name: UnsafeBufferPointer<UInt8>, in role: TakeoutRole) -> TakeoutField {
    func equals(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard name.count == count else { return false }
      for index in 0..<count where name[index] != text.utf8Start[index] { return false }
      return true
    }
    let members: [Member]
    switch role {
    case .document: members = Self.documentMembers
    case .location:
      // `Records.json` holds most of a large export's keys: candidates by length first.
      switch name.count {
      case 8:
        if equals("accuracy") { return .accuracy }
        if equals("altitude") { return .altitude }
      case 9:
        if equals("timestamp") { return .isoTime }
        if equals("deviceTag") { return .deviceTag }
      case 10: if equals("latitudeE7") { return .latitudeE7 }
      case 11:
        if equals("longitudeE7") { return .longitudeE7 }
        if equals("timestampMs") { return .epochMilliseconds }
      default: break
      }
      return .none
    case .segment: members = Self.segmentMembers
    case .pathPoint: members = Self.pathPointMembers
    case .signal: members = Self.signalMembers
    case .signalPosition: members = Self.signalPositionMembers
    case .timelineObject: members = Self.timelineObjectMembers
    case .semanticItem: members = Self.semanticItemMembers
    case .waypointPath: members = Self.waypointPathMembers
    case .rawPath: members = Self.rawPathMembers
    case .rawPathPoint: members = Self.rawPathPointMembers
    case .entries, .locations, .segments, .path, .signals, .timelineObjects, .waypoints, .rawPathPoints, .skipped:
      return .none
    }
    return members.first { equals($0.name) }?.field ?? .none
  }

  /// A member name a role reads, and the field it is.
  private typealias Member = (name: StaticString, field: TakeoutField)

  // The members each role reads (`location`'s are matched by length in `named`).
  private static let documentMembers: [Member] = [
    ("locations", .locations), ("semanticSegments", .semanticSegments), ("rawSignals", .rawSignals),
    ("timelineObjects", .timelineObjects),
  ]
  private static let segmentMembers: [Member] = [
    ("timelinePath", .timelinePath), ("startTime", .startTime), ("visit", .visitMark), ("activity", .activityMark),
    ("timelineMemory", .memoryMark),
  ]
  private static let pathPointMembers: [Member] = [
    ("point", .degrees), ("time", .isoTime), ("durationMinutesOffsetFromStartTime", .offsetMinutes),
  ]
  private static let signalMembers: [Member] = [
    ("position", .position), ("wifiScan", .wifiScanMark), ("activityRecord", .activityRecordMark),
  ]
  private static let signalPositionMembers: [Member] = [
    ("LatLng", .degrees), ("latLng", .degrees), ("accuracyMeters", .accuracy), ("altitudeMeters", .altitude),
    ("timestamp", .isoTime), ("source", .source),
  ]
  private static let timelineObjectMembers: [Member] = [
    ("activitySegment", .activitySegment), ("placeVisit", .placeVisit),
  ]
  private static let semanticItemMembers: [Member] = [
    ("waypointPath", .waypointPath), ("simplifiedRawPath", .simplifiedRawPath),
  ]
  private static let waypointPathMembers: [Member] = [("waypoints", .waypoints)]
  private static let rawPathMembers: [Member] = [("points", .points)]
  private static let rawPathPointMembers: [Member] = [
    ("latE7", .latitudeE7), ("lngE7", .longitudeE7), ("accuracyMeters", .accuracy), ("timestamp", .isoTime),
    ("timestampMs", .epochMilliseconds),
  ]
}
