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

  /// The roles whose elements are records or entries (each element is counted).
  var isRecordArray: Bool {
    switch self {
    case .entries, .locations, .segments, .path, .signals, .timelineObjects, .rawPathPoints, .waypoints: true
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
  case latitudeE7, longitudeE7, degrees, isoTime, epochMilliseconds, offsetMinutes, accuracy, altitude, deviceTag, source
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
    switch role {
    case .document:
      if equals("locations") { return .locations }
      if equals("semanticSegments") { return .semanticSegments }
      if equals("rawSignals") { return .rawSignals }
      if equals("timelineObjects") { return .timelineObjects }
    case .location:
      switch name.count {
      case 8: if equals("accuracy") { return .accuracy }; if equals("altitude") { return .altitude }
      case 9: if equals("timestamp") { return .isoTime }; if equals("deviceTag") { return .deviceTag }
      case 10: if equals("latitudeE7") { return .latitudeE7 }
      case 11: if equals("longitudeE7") { return .longitudeE7 }; if equals("timestampMs") { return .epochMilliseconds }
      default: break
      }
    case .segment:
      if equals("timelinePath") { return .timelinePath }
      if equals("startTime") { return .startTime }
      if equals("visit") { return .visitMark }
      if equals("activity") { return .activityMark }
      if equals("timelineMemory") { return .memoryMark }
    case .pathPoint:
      if equals("point") { return .degrees }
      if equals("time") { return .isoTime }
      if equals("durationMinutesOffsetFromStartTime") { return .offsetMinutes }
    case .signal:
      if equals("position") { return .position }
      if equals("wifiScan") { return .wifiScanMark }
      if equals("activityRecord") { return .activityRecordMark }
    case .signalPosition:
      if equals("LatLng") || equals("latLng") { return .degrees }
      if equals("accuracyMeters") { return .accuracy }
      if equals("altitudeMeters") { return .altitude }
      if equals("timestamp") { return .isoTime }
      if equals("source") { return .source }
    case .timelineObject:
      if equals("activitySegment") { return .activitySegment }
      if equals("placeVisit") { return .placeVisit }
    case .semanticItem:
      if equals("waypointPath") { return .waypointPath }
      if equals("simplifiedRawPath") { return .simplifiedRawPath }
    case .waypointPath:
      if equals("waypoints") { return .waypoints }
    case .rawPath:
      if equals("points") { return .points }
    case .rawPathPoint:
      if equals("latE7") { return .latitudeE7 }
      if equals("lngE7") { return .longitudeE7 }
      if equals("accuracyMeters") { return .accuracy }
      if equals("timestamp") { return .isoTime }
      if equals("timestampMs") { return .epochMilliseconds }
    case .entries, .locations, .segments, .path, .signals, .timelineObjects, .waypoints, .rawPathPoints, .skipped:
      break
    }
    return .none
  }
}
