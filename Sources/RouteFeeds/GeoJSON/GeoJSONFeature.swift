import RouteMileage

/// A time as a GeoJSON file gives it: absent (`null`, or no entry), unreadable, or seconds.
enum GeoJSONTime: Equatable {
  case missing
  case unreadable
  case seconds(Double)

  /// A number as a time: epoch milliseconds from 10^11 up (1973 in milliseconds, year 5138 in
  /// seconds), epoch seconds below.
  static func epoch(_ value: Double?) -> GeoJSONTime {
    guard let value else { return .unreadable }
    let seconds = abs(value) >= 1e11 ? value / 1000 : value
    return CivilTime.supportedTimestamps.contains(seconds) ? .seconds(seconds) : .unreadable
  }
}

/// The geometry types, as far as reading positions needs them.
enum GeoJSONGeometryType: UInt8 {
  /// Not (yet) known: the `type` member comes later, or is missing.
  case unknown
  case point, multiPoint, lineString, multiLineString, polygon, multiPolygon, geometryCollection
  /// A type that is not a geometry (`Feature`, `FeatureCollection`, anything else).
  case other

  /// The geometry types by their `type` names (the names are case-sensitive).
  private static let names: [(name: StaticString, type: GeoJSONGeometryType)] = [
    ("Point", .point),
    ("LineString", .lineString),
    ("MultiLineString", .multiLineString),
    ("MultiPoint", .multiPoint),
    ("Polygon", .polygon),
    ("MultiPolygon", .multiPolygon),
    ("GeometryCollection", .geometryCollection),
  ]

  /// The type a `type` string names; `other` for any other string. O(1): at most seven short
  /// comparisons.
  init(_ token: JSONToken) {
    self = Self.names.first { token.matches($0.name) }?.type ?? .other
  }
}

/// One coordinate read from a geometry, waiting (if it must) for its feature's times.
struct GeoJSONPosition {
  var longitude = 0.0
  var latitude = 0.0
  var altitude: Double?
  /// The source line of its `[`.
  var line = 0
  /// Which line of its feature (a LineString is one, a MultiLineString's lines count 0, 1, …).
  var lineIndex = 0
  /// Its index in that line.
  var indexInLine = 0
  /// Its index among all of its feature's coordinates.
  var indexInFeature = 0
  /// Which geometry of its feature it belongs to.
  var geometry = 0
  /// The geometry's `coordinates` is this position itself (a Point's shape).
  var isPointShaped = false
  /// A member is not a number, or there are fewer than two.
  var isMalformed = false
}

/// What one feature has said so far: its times, Point time and accuracy, its geometries' types,
/// and the coordinates held until those are known.
struct GeoJSONFeature {
  /// Whether the feature's `properties` have been read to their end (or are `null`).
  var propertiesRead = false
  /// Whether a times array (`coordTimes` or `coordinateProperties.times`) has been read; a
  /// second one is skipped.
  var hasTimes = false
  /// A LineString's times, one per coordinate of the whole feature.
  var flatTimes: [GeoJSONTime] = []
  /// A MultiLineString's times, one array per line.
  var lineTimes: [[GeoJSONTime]] = []
  /// A Point feature's `time`, `timestamp` and `time_long`, in that order of preference
  /// (stored properties, not an array: no allocation per feature).
  var time: GeoJSONTime?
  var timestamp: GeoJSONTime?
  var timeLong: GeoJSONTime?
  /// A Point feature's horizontal accuracy, metres.
  var accuracy: Double?
  /// The feature's properties name it, describe it or give it a symbol: a place, when it is a
  /// Point (`GeoJSONPointRoles`).
  var hasWaypointProperty = false
  var geometryTypes: [GeoJSONGeometryType] = []
  /// Coordinates read before their times or geometry type were known, in document order.
  var held: [GeoJSONPosition] = []
  var nextLineIndex = 0
  var positionCount = 0

  /// Keeps the storage of the held coordinates between features. An array that is already
  /// empty is left alone: emptying one costs a uniqueness check and a call even when there is
  /// nothing to remove, and a Point feature leaves most of them empty.
  mutating func reset() {
    propertiesRead = false
    hasTimes = false
    if !flatTimes.isEmpty { flatTimes.removeAll(keepingCapacity: true) }
    if !lineTimes.isEmpty { lineTimes.removeAll(keepingCapacity: true) }
    time = nil
    timestamp = nil
    timeLong = nil
    accuracy = nil
    hasWaypointProperty = false
    if !geometryTypes.isEmpty { geometryTypes.removeAll(keepingCapacity: true) }
    if !held.isEmpty { held.removeAll(keepingCapacity: true) }
    nextLineIndex = 0
    positionCount = 0
  }

  func type(of position: GeoJSONPosition) -> GeoJSONGeometryType {
    position.geometry < geometryTypes.count ? geometryTypes[position.geometry] : .unknown
  }

  /// Whether a position is a Point's: by its geometry's type, or by its shape when the type is
  /// unknown.
  func isPoint(_ position: GeoJSONPosition) -> Bool {
    let type = type(of: position)
    return type == .point || (type == .unknown && position.isPointShaped)
  }

  /// Whether a coordinate can be delivered as soon as it is read: the times are known, its
  /// geometry's type is, and nothing earlier is held.
  func canStream(_ position: GeoJSONPosition) -> Bool {
    propertiesRead && held.isEmpty && type(of: position) != .unknown
  }

  /// The coordinate's time: from the per-coordinate times when the feature has them (nested per
  /// line, or flat over the feature), else from the Point time properties for a Point.
  func time(of position: GeoJSONPosition) -> GeoJSONTime {
    if !lineTimes.isEmpty {
      guard position.lineIndex < lineTimes.count, position.indexInLine < lineTimes[position.lineIndex].count else {
        return .missing
      }
      return lineTimes[position.lineIndex][position.indexInLine]
    }
    if hasTimes {
      return position.indexInFeature < flatTimes.count ? flatTimes[position.indexInFeature] : .missing
    }
    guard isPoint(position) else { return .missing }
    return Self.pointTime(time, timestamp, timeLong)
  }

  /// A Point's time from its `time`, `timestamp` and `time_long` properties: the first that
  /// reads, else unreadable if one was, else missing.
  static func pointTime(_ time: GeoJSONTime?, _ timestamp: GeoJSONTime?, _ timeLong: GeoJSONTime?) -> GeoJSONTime {
    if case .seconds? = time { return time! }
    if case .seconds? = timestamp { return timestamp! }
    if case .seconds? = timeLong { return timeLong! }
    return time == .unreadable || timestamp == .unreadable || timeLong == .unreadable ? .unreadable : .missing
  }
}
