import RouteMileage

/// GeoJSON's meaning, on top of the JSON tokenizer: which member is what, the coordinate being
/// read, the feature's times, and what each coordinate becomes in the sink.
///
/// Member order is free: every object is read by member name whatever comes first, and the
/// shape of `coordinates` (a position is an array of numbers; a line an array of positions) is
/// read from the nesting itself, so a `type` written last still works (see `GeoJSONFeature`
/// for when coordinates wait). Sessions: each line (a LineString, each line of a
/// MultiLineString, a MultiPoint) gets the next ordinal 0, 1, 2, … in document order;
/// consecutive Point features share one.
///
/// - Complexity: O(1) per token, amortised; memory is the open containers (≤ 64) and one
///   feature's held coordinates and times.
struct GeoJSONMapper {
  /// What an open object or array is.
  enum Role: UInt8 {
    case skippedObject, skippedArray
    /// The top-level object: a FeatureCollection, a Feature or a bare geometry.
    case root
    case features, feature, geometry, geometries, properties, coordinateProperties
    /// An array in a geometry's `coordinates` tree (see `CoordinateFrame`).
    case coordinates
    /// `coordTimes` or `coordinateProperties.times`, and one nested line of it.
    case times, timesLine
  }

  /// What the next value is: named by the key before it, or by the array it is in.
  enum Slot: UInt8 {
    case skipped, features, feature, geometry, geometries, properties, coordinateProperties
    case coordinates, coordinateElement, times, timeEntry, type
    /// Point time properties (`GeoJSONFeature.time`, `timestamp`, `timeLong`).
    case time, timestamp, timeLong
    case accuracy
    /// A property that marks a Point as a place (`GeoJSONPointRoles`).
    case waypointProperty
  }

  /// An array of the coordinates tree: unknown until its first element shows whether it is a
  /// position (numbers) or holds positions or lines (arrays).
  struct CoordinateFrame {
    enum Kind: UInt8 { case unknown, position, container }
    var kind = Kind.unknown
    var line: Int
    /// The array is the `coordinates` value itself.
    var isTop: Bool
    /// As a line: its index in the feature (-1 until it holds a position), and positions so far.
    var lineIndex = -1
    var count = 0
  }

  private var roles: [Role] = []
  private var slot = Slot.skipped
  private var frames: [CoordinateFrame] = []
  private var geometries: [Int] = []
  private var feature = GeoJSONFeature()
  /// Counts features, so lines of different features never share a session.
  private var featureSerial = 0
  private var position = GeoJSONPosition()
  private var numbers = 0
  var timestamps = ISO8601DayCache()
  private var nextSession = 0
  /// The session of the run of Point features being read; -1 when the last coordinate was not
  /// a Point's.
  private var pointRunSession = -1
  private var lineSessionFeature = -1
  private var lineSessionLine = -1
  private var lineSession = 0
  /// Whether each Point is a fix or a waypoint.
  private var pointRoles = GeoJSONPointRoles()

  init() {
    roles.reserveCapacity(JSONTokenizer.defaultMaximumDepth)
  }

  /// Bytes held between chunks (capacities of the stacks, held coordinates and times), for
  /// tests that check memory stays bounded by one feature.
  var heldCapacity: Int {
    roles.capacity + frames.capacity * MemoryLayout<CoordinateFrame>.stride + geometries.capacity * 8
      + feature.held.capacity * MemoryLayout<GeoJSONPosition>.stride
      + (feature.flatTimes.capacity + feature.lineTimes.reduce(0) { $0 + $1.capacity })
      * MemoryLayout<GeoJSONTime>.stride
      + pointRoles.heldCapacity
  }

  // MARK: - Tokens

  mutating func take(_ token: JSONToken, into sink: inout some FeedSink) throws(JSONSyntaxError) {
    switch token.kind {
    case .key:
      // A static function, not a closure over `self`: the closure made the optimiser copy the
      // whole mapper (504 bytes) for every key.
      if let role = roles.last {
        slot = Self.memberSlot(token, in: role, featureHasTimes: feature.hasTimes)
      } else {
        slot = .skipped
      }
      return
    case .endObject, .endArray:
      close(roles.removeLast(), into: &sink)
      return
    default:
      break
    }
    guard let parent = roles.last else {
      guard token.kind == .beginObject else {
        throw JSONSyntaxError(
          offset: token.offset, line: token.line,
          problem: .expected("a GeoJSON object (a FeatureCollection, a Feature or a geometry)"))
      }
      beginFeature(into: &sink)
      geometries = [newGeometry()]
      roles.append(.root)
      return
    }
    let slot: Slot
    switch parent {
    case .features: slot = .feature
    case .geometries: slot = .geometry
    case .coordinates: slot = .coordinateElement
    case .times, .timesLine: slot = .timeEntry
    case .skippedArray: slot = .skipped
    case .root, .feature, .geometry, .properties, .coordinateProperties, .skippedObject: slot = self.slot
    }
    if token.kind == .beginObject || token.kind == .beginArray {
      open(token, slot: slot, parent: parent, into: &sink)
    } else {
      scalar(token, slot: slot, parent: parent, into: &sink)
    }
  }

  /// What the value of member `key` of an object with `role` is.
  private static func memberSlot(_ key: JSONToken, in role: Role, featureHasTimes: Bool) -> Slot {
    switch role {
    case .root, .geometry:
      if key.matches("coordinates") { return .coordinates }
      if key.matches("type") { return .type }
      if key.matches("geometries") { return .geometries }
      guard role == .root else { return .skipped }
      // The root may be a FeatureCollection or a Feature as well as a geometry.
      if key.matches("features") { return .features }
      if key.matches("geometry") { return .geometry }
      if key.matches("properties") { return .properties }
      return .skipped
    case .feature:
      if key.matches("geometry") { return .geometry }
      if key.matches("properties") { return .properties }
      return .skipped
    case .properties:
      if key.matches("coordTimes") { return featureHasTimes ? .skipped : .times }
      if key.matches("coordinateProperties") { return .coordinateProperties }
      if key.matches("time") { return .time }
      if key.matches("timestamp") { return .timestamp }
      if key.matches("time_long") { return .timeLong }
      if key.matches("accuracy") || key.matches("acc") || key.matches("hAccuracy") || key.matches("horizontalAccuracy")
        || key.matches("hAcc")
      {
        return .accuracy
      }
      if Self.waypointKeys.contains(where: { key.matches($0) }) { return .waypointProperty }
      return .skipped
    case .coordinateProperties:
      return key.matches("times") && !featureHasTimes ? .times : .skipped
    case .skippedObject, .skippedArray, .features, .geometries, .coordinates, .times, .timesLine:
      return .skipped
    }
  }

  private mutating func open(_ token: JSONToken, slot: Slot, parent: Role, into sink: inout some FeedSink) {
    let isObject = token.kind == .beginObject
    let skipped: Role = isObject ? .skippedObject : .skippedArray
    switch slot {
    case .feature where isObject:
      beginFeature(into: &sink)
      roles.append(.feature)
    case .geometry where isObject:
      geometries.append(newGeometry())
      roles.append(.geometry)
    case .properties where isObject:
      roles.append(.properties)
    case .coordinateProperties where isObject:
      roles.append(.coordinateProperties)
    case .features where !isObject:
      roles.append(.features)
    case .geometries where !isObject:
      roles.append(.geometries)
    case .coordinates where !isObject:
      frames.append(CoordinateFrame(line: token.line, isTop: true))
      roles.append(.coordinates)
    case .coordinateElement:
      let top = frames.count - 1
      switch frames[top].kind {
      case .unknown where !isObject, .container where !isObject:
        frames[top].kind = .container
        frames.append(CoordinateFrame(line: token.line, isTop: false))
        roles.append(.coordinates)
      case .unknown:
        beginPosition(frames[top])
        frames[top].kind = .position
        position.isMalformed = true
        roles.append(skipped)
      case .position:
        position.isMalformed = true
        roles.append(skipped)
      case .container:
        strayElement(line: token.line, into: &sink)
        roles.append(skipped)
      }
    case .times where !isObject:
      feature.hasTimes = true
      roles.append(.times)
    case .timeEntry:
      if parent == .times, !isObject {
        feature.lineTimes.append([])
        roles.append(.timesLine)
      } else {
        appendTime(.unreadable, parent: parent)
        roles.append(skipped)
      }
    default:
      roles.append(skipped)
    }
  }

  private mutating func scalar(_ token: JSONToken, slot: Slot, parent: Role, into sink: inout some FeedSink) {
    switch slot {
    case .coordinateElement:
      let top = frames.count - 1
      switch frames[top].kind {
      case .unknown:
        beginPosition(frames[top])
        frames[top].kind = .position
        addNumber(token)
      case .position:
        addNumber(token)
      case .container:
        strayElement(line: token.line, into: &sink)
      }
    case .type:
      guard parent == .root || parent == .geometry, let index = geometries.last, index < feature.geometryTypes.count
      else { return }
      feature.geometryTypes[index] = token.kind == .string ? GeoJSONGeometryType(token) : .other
    case .timeEntry:
      appendTime(time(token), parent: parent)
    case .time:
      feature.time = time(token)
    case .timestamp:
      feature.timestamp = time(token)
    case .timeLong:
      feature.timeLong = time(token)
    case .accuracy:
      guard feature.accuracy == nil else { return }
      if token.kind == .number || token.kind == .string { feature.accuracy = ByteNumberParser.double(token.bytes) }
    case .waypointProperty:
      if token.kind == .string, !token.bytes.isEmpty { feature.hasWaypointProperty = true }
    case .properties:
      feature.propertiesRead = true  // `"properties": null`
    case .coordinates:
      guard token.kind != .null, let index = geometries.last else { return }
      // Not an array: one malformed coordinate.
      var malformed = GeoJSONPosition(line: token.line, geometry: index, isPointShaped: true, isMalformed: true)
      malformed.lineIndex = feature.nextLineIndex
      feature.nextLineIndex += 1
      malformed.indexInFeature = feature.positionCount
      feature.positionCount += 1
      emit(malformed, into: &sink)
    default:
      break
    }
  }

  private mutating func close(_ role: Role, into sink: inout some FeedSink) {
    switch role {
    case .root:
      flush(into: &sink)
      geometries.removeAll(keepingCapacity: true)
    case .feature:
      flush(into: &sink)
      feature.reset()
      geometries.removeAll(keepingCapacity: true)
    case .geometry:
      geometries.removeLast()
    case .properties:
      feature.propertiesRead = true
    case .coordinates:
      let frame = frames.removeLast()
      if frame.kind == .position { endPosition(into: &sink) }
    case .skippedObject, .skippedArray, .features, .geometries, .coordinateProperties, .times, .timesLine:
      break
    }
  }

  /// Ends the feed (or what a syntax error left): delivers the held coordinates, and counts a
  /// coordinate the document broke off inside of.
  mutating func finish(into sink: inout some FeedSink) {
    if let frame = frames.last, frame.kind == .position { sink.unreadable(.unfinishedPoint, line: position.line) }
    frames.removeAll()
    roles.removeAll()
    flush(into: &sink)
    pointRoles.deliverFixes(into: &sink)
    timestamps.noteStepBacks(line: 0, into: &sink)
  }

  /// The property names that mark a Point as a place rather than a fix: GPX's `name`, `desc`,
  /// `cmt` and `sym` as converters write them, and the simplestyle and common map names.
  static let waypointKeys: [StaticString] = [
    "name", "title", "desc", "description", "cmt", "sym", "marker-symbol", "icon",
  ]

  // MARK: - Point features read from their bytes

  /// Whether the next value is an element of a `features` array: where a whole Point feature
  /// may be read from its bytes (`GeoJSONPointFeature`) instead of token by token.
  var readsFeatures: Bool { roles.last == .features }

  /// A Point feature read by `GeoJSONPointFeature`: what its tokens would have done, from the
  /// feature's `{` to its `}` — a new feature, one Point geometry whose one coordinate is
  /// delivered with the feature's properties, the feature closed. The feature state is not
  /// filled in and emptied again: the coordinate goes straight to the delivery every Point
  /// shares.
  ///
  /// - Parameter line: the line of the coordinates' `[`.
  mutating func take(_ point: GeoJSONPointFeature, line: Int, into sink: inout some FeedSink) {
    // The feature state is not reset: the token path resets it when its next feature opens, and
    // nothing reads it before then. What an earlier feature held goes first, in order.
    flush(into: &sink)
    featureSerial += 1
    let session = pointSession()
    let time = GeoJSONFeature.pointTime(point.time, point.timestamp, point.timeLong)
    // A timed fix with no role to wait for, as `deliverCoordinate` delivers it, without the
    // outcome in between.
    if case .seconds(let timestamp) = time, !pointRoles.holds(named: point.hasWaypointProperty), !pointRoles.sawLine {
      let sample = RouteSample(
        timestamp: timestamp, latitude: point.latitude, longitude: point.longitude,
        horizontalAccuracy: point.accuracy, altitude: point.altitude)
      return sink.position(sample, session: session, line: line)
    }
    // Not malformed, not a polygon's: the rest of `deliver`.
    deliverCoordinate(
      isPoint: true, longitude: point.longitude, latitude: point.latitude, altitude: point.altitude,
      time: time, accuracy: point.accuracy, named: point.hasWaypointProperty, session: session, line: line,
      into: &sink)
  }

  // MARK: - Features and geometries

  private mutating func beginFeature(into sink: inout some FeedSink) {
    flush(into: &sink)
    feature.reset()
    if !geometries.isEmpty { geometries.removeAll(keepingCapacity: true) }
    featureSerial += 1
  }

  private mutating func newGeometry() -> Int {
    feature.geometryTypes.append(.unknown)
    return feature.geometryTypes.count - 1
  }

  // MARK: - Coordinates

  private mutating func beginPosition(_ frame: CoordinateFrame) {
    position = GeoJSONPosition(line: frame.line, geometry: geometries.last ?? 0, isPointShaped: frame.isTop)
    numbers = 0
  }

  /// Longitude, latitude, then altitude; members after the third are ignored (RFC 7946 §3.1.1).
  private mutating func addNumber(_ token: JSONToken) {
    guard token.kind == .number else {
      position.isMalformed = true
      return
    }
    let value = ByteNumberParser.double(token.bytes)
    switch numbers {
    case 0: position.longitude = value ?? 0
    case 1: position.latitude = value ?? 0
    case 2: position.altitude = value
    default: break
    }
    if value == nil, numbers < 2 { position.isMalformed = true }
    numbers += 1
  }

  private mutating func endPosition(into sink: inout some FeedSink) {
    var finished = position
    if numbers < 2 { finished.isMalformed = true }
    place(&finished, parentIsTop: frames.isEmpty)
    emit(finished, into: &sink)
  }

  /// A scalar or object among arrays (`[[1, 2], 3]`): one malformed coordinate of that line.
  private mutating func strayElement(line: Int, into sink: inout some FeedSink) {
    var stray = GeoJSONPosition(line: line, geometry: geometries.last ?? 0, isMalformed: true)
    place(&stray, parentIsTop: false)  // an element of the `frames` top, the container
    emit(stray, into: &sink)
  }

  /// Gives a finished coordinate its line and indices from the frame enclosing it (the
  /// `frames` top after its own frame was popped); a Point's is a line of its own.
  private mutating func place(_ position: inout GeoJSONPosition, parentIsTop: Bool) {
    if parentIsTop {
      position.lineIndex = feature.nextLineIndex
      position.indexInLine = 0
      feature.nextLineIndex += 1
    } else {
      let parent = frames.count - 1
      if frames[parent].lineIndex < 0 {
        frames[parent].lineIndex = feature.nextLineIndex
        feature.nextLineIndex += 1
      }
      position.lineIndex = frames[parent].lineIndex
      position.indexInLine = frames[parent].count
      frames[parent].count += 1
    }
    position.indexInFeature = feature.positionCount
    feature.positionCount += 1
  }

  // MARK: - Times

  private mutating func time(_ token: JSONToken) -> GeoJSONTime {
    switch token.kind {
    case .string:
      guard let seconds = timestamps.instant(token.bytes) else { return .unreadable }
      return .seconds(seconds)
    case .number: return .epoch(token.double)
    case .null: return .missing
    default: return .unreadable
    }
  }

  private mutating func appendTime(_ time: GeoJSONTime, parent: Role) {
    if parent == .timesLine {
      feature.lineTimes[feature.lineTimes.count - 1].append(time)
    } else {
      feature.flatTimes.append(time)
    }
  }

  // MARK: - Delivery

  private mutating func emit(_ position: GeoJSONPosition, into sink: inout some FeedSink) {
    if feature.canStream(position) {
      deliver(position, into: &sink)
    } else {
      feature.held.append(position)
    }
  }

  private mutating func flush(into sink: inout some FeedSink) {
    guard !feature.held.isEmpty else { return }
    // By index, so the array stays uniquely referenced and keeps its storage for the next feature.
    for index in feature.held.indices { deliver(feature.held[index], into: &sink) }
    feature.held.removeAll(keepingCapacity: true)
  }

  /// What a coordinate becomes. The first problem decides: malformed (`badNumber`), a polygon
  /// vertex, an unreadable time (`badTime`), no time (`missingTime`).
  private mutating func deliver(_ position: GeoJSONPosition, into sink: inout some FeedSink) {
    let isPoint = feature.isPoint(position)
    let session: Int
    if isPoint {
      session = pointSession()
    } else {
      pointRunSession = -1
      if lineSessionFeature != featureSerial || lineSessionLine != position.lineIndex {
        lineSessionFeature = featureSerial
        lineSessionLine = position.lineIndex
        lineSession = nextSession
        nextSession += 1
      }
      session = lineSession
    }
    if position.isMalformed { return sink.unreadable(.badNumber, line: position.line) }
    let type = feature.type(of: position)
    if type == .polygon || type == .multiPolygon { return sink.rejected(.polygonVertex, line: position.line) }
    deliverCoordinate(
      isPoint: isPoint, longitude: position.longitude, latitude: position.latitude, altitude: position.altitude,
      time: feature.time(of: position), accuracy: isPoint ? feature.accuracy : nil,
      named: feature.hasWaypointProperty, session: session, line: position.line, into: &sink)
  }

  /// The session of a Point: the run of Point features it continues, or a new one.
  private mutating func pointSession() -> Int {
    if pointRunSession < 0 {
      pointRunSession = nextSession
      nextSession += 1
    }
    return pointRunSession
  }

  /// A readable coordinate that is no polygon's: a waypoint beside a line, a Point held until
  /// its role is known, or its outcome by its time.
  private mutating func deliverCoordinate(
    isPoint: Bool, longitude: Double, latitude: Double, altitude: Double?, time: GeoJSONTime, accuracy: Double?,
    named: Bool, session: Int, line: Int, into sink: inout some FeedSink
  ) {
    if isPoint, pointRoles.sawLine { return sink.rejected(.waypoint, line: line) }
    if !isPoint { pointRoles.lineRead(into: &sink) }
    let outcome: GeoJSONPointRoles.Outcome
    switch time {
    case .unreadable: outcome = .badTime
    case .missing: outcome = .missingTime
    case .seconds(let timestamp):
      let sample = RouteSample(
        timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, altitude: altitude
      )
      outcome = .fix(sample, session: session)
    }
    if isPoint, pointRoles.holds(named: named) {
      pointRoles.hold(outcome, line: line, into: &sink)
    } else {
      GeoJSONPointRoles.deliver(outcome, line: line, into: &sink)
    }
  }
}
