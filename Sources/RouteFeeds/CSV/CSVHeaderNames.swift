/// The column roles a CSV row can fill; the raw value is the slot the reader keeps the column in.
enum CSVRole: Int, CaseIterable, Sendable {
  case timestamp, date, time, utcOffset, latitude, longitude, latitudeHemisphere, longitudeHemisphere
  case horizontalAccuracy, speed, course, altitude, session, receivedAt, status, secondStatus

  static let count = allCases.count

  var field: CSVColumnMapping.Field {
    switch self {
    case .timestamp: .timestamp
    case .date: .date
    case .time: .time
    case .utcOffset: .utcOffset
    case .latitude: .latitude
    case .longitude: .longitude
    case .latitudeHemisphere: .latitudeHemisphere
    case .longitudeHemisphere: .longitudeHemisphere
    case .horizontalAccuracy: .horizontalAccuracy
    case .speed: .speed
    case .course: .course
    case .altitude: .altitude
    case .session: .captureSessionID
    case .receivedAt: .receivedAt
    case .status, .secondStatus: .status
    }
  }

  init(_ field: CSVColumnMapping.Field) {
    switch field {
    case .timestamp: self = .timestamp
    case .date: self = .date
    case .time: self = .time
    case .utcOffset: self = .utcOffset
    case .latitude: self = .latitude
    case .longitude: self = .longitude
    case .latitudeHemisphere: self = .latitudeHemisphere
    case .longitudeHemisphere: self = .longitudeHemisphere
    case .horizontalAccuracy: self = .horizontalAccuracy
    case .speed: self = .speed
    case .course: self = .course
    case .altitude: self = .altitude
    case .captureSessionID: self = .session
    case .receivedAt: self = .receivedAt
    case .status: self = .status
    }
  }
}

/// What one header name says about its column.
struct CSVHeaderMeaning: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// A whole timestamp (`timestamp`, `datetime`, `unix_time`).
    case timestamp
    /// `time`, `utc_time`, `gps_time`: a time of day when the header also has a date column,
    /// a whole timestamp otherwise.
    case timeOfDayOrTimestamp
    case date
    case other(CSVRole)
  }

  var kind: Kind
  /// The name is the canonical one (`timestamp`, `latitude`, …), which wins over an alias.
  var isCanonical = false
  /// The column holds local time (`Lcl Date`, `local_time`): detected, it needs a UTC offset
  /// column; mapped with `--columns`, it is read as a time without a zone (UTC, or local time in
  /// `--time-zone`).
  var isLocal = false
  /// Multiplies values to SI units (m, m/s), from a unit in the name (`speed_kmh`,
  /// `altitude (ft)`).
  var scale = 1.0
  /// The name says the epoch unit (`time_ms`, `timestamp_epoch_ms`).
  var timestampFormat: CSVColumnMapping.TimestampFormat = .auto
}

/// Header names and their aliases, matched case-insensitively after trimming.
///
/// Names are normalized before lookup: ASCII lower case, runs of spaces, `_` and `-` become one
/// `_`, and a unit in brackets or after the last `_` is split off (`Speed (km/h)`, `alt_ft`).
enum CSVHeaderNames {
  /// Columns beyond this many are not matched (a row may have more; they are skipped).
  static let maximumColumns = 4096

  static let canonical: [String: CSVRole] = [
    "timestamp": .timestamp, "latitude": .latitude, "longitude": .longitude,
    "horizontal_accuracy": .horizontalAccuracy, "speed": .speed, "course": .course,
    "altitude": .altitude, "capture_session_id": .session, "received_at": .receivedAt,
  ]

  static let aliases: [String: CSVHeaderMeaning.Kind] = {
    var table: [String: CSVHeaderMeaning.Kind] = [:]
    func add(_ kind: CSVHeaderMeaning.Kind, _ names: [String]) {
      for name in names { table[name] = kind }
    }
    add(
      .timestamp,
      [
        "timestamp", "datetime", "date_time", "utc", "timestamp_utc", "utc_timestamp", "utc_datetime",
        "iso_time", "iso8601", "time_iso", "recorded_at", "captured_at", "fix_time", "gps_timestamp",
        "timestamp_epoch", "unix_time", "unixtime", "unix_timestamp", "epoch", "epoch_time",
        "time_epoch", "unix", "time_stamp", "location_timestamp", "position_time",
      ])
    add(.timeOfDayOrTimestamp, ["time", "utc_time", "time_utc", "gps_time", "gpstime", "lcl_time", "local_time"])
    add(.date, ["date", "utc_date", "date_utc", "gps_date", "lcl_date", "local_date"])
    add(
      .other(.utcOffset),
      [
        "utc_offset", "utcofst", "utc_ofst", "utcoffset", "tz_offset", "timezone_offset", "utc_off",
        "time_zone_offset", "gmt_offset",
      ])
    add(
      .other(.latitude),
      [
        "latitude", "lat", "latitude_deg", "lat_deg", "latitude_degrees", "latitude_n/s", "lat_n/s",
        "gps_latitude", "gps_lat", "position_latitude",
      ])
    add(
      .other(.longitude),
      [
        "longitude", "lon", "lng", "long", "longitude_deg", "lon_deg", "lng_deg", "longitude_degrees",
        "longitude_e/w", "lon_e/w", "gps_longitude", "gps_lon", "gps_lng", "position_longitude",
      ])
    add(
      .other(.latitudeHemisphere),
      [
        "n/s", "ns", "n_s", "lat_ref", "latitude_ref", "lat_hemisphere", "latitude_hemisphere",
        "lat_dir", "latitude_direction", "ns_indicator",
      ])
    add(
      .other(.longitudeHemisphere),
      [
        "e/w", "ew", "e_w", "lon_ref", "longitude_ref", "lon_hemisphere", "longitude_hemisphere",
        "lon_dir", "longitude_direction", "ew_indicator",
      ])
    add(
      .other(.horizontalAccuracy),
      [
        "horizontal_accuracy", "accuracy", "hacc", "h_acc", "horizontal_acc", "hor_acc", "horiz_acc",
        "acc", "position_accuracy", "haccuracy", "gps_accuracy", "horizontal_accuracy_meters",
      ])
    add(.other(.speed), ["speed", "velocity", "spd", "ground_speed", "groundspeed", "speed_over_ground", "sog"])
    add(.other(.course), ["course", "heading", "bearing", "direction", "cog", "course_over_ground"])
    add(.other(.altitude), ["altitude", "alt", "elevation", "ele", "elev", "height"])
    add(
      .other(.session),
      [
        "capture_session_id", "capture_session", "session", "session_id", "sessionid", "segment",
        "segment_id", "trkseg", "track_segment",
      ])
    add(
      .other(.receivedAt),
      [
        "received_at", "received", "received_time", "arrival_time", "arrived_at", "receipt_time",
      ])
    add(
      .other(.status),
      [
        "status", "valid", "validity", "fix", "fix_status", "fix_type", "fix_mode", "gpsfix", "gps_fix",
        "fix_valid", "fix_quality", "gps_status",
      ])
    return table
  }()

  /// Units a name may end with, by what they measure: `CSVUnits`, the one table.
  static let distanceUnits = CSVUnits.byName(CSVUnits.distance)
  static let speedUnits = CSVUnits.byName(CSVUnits.speed)
  static let angleUnits = CSVUnits.byName(CSVUnits.angle)
  static let timeUnits: [String: CSVColumnMapping.TimestampFormat] = [
    "ms": .epochMilliseconds, "millis": .epochMilliseconds, "milliseconds": .epochMilliseconds,
    "msec": .epochMilliseconds, "s": .epochSeconds, "sec": .epochSeconds, "secs": .epochSeconds,
    "seconds": .epochSeconds,
  ]

  /// Lower case, separators folded to `_`, trimmed.
  static func normalize(_ name: String) -> String {
    var result = ""
    var pendingSeparator = false
    for scalar in name.unicodeScalars {
      let isSeparator = scalar == " " || scalar == "_" || scalar == "-" || scalar == "\t" || scalar == "\0"
      if isSeparator {
        pendingSeparator = !result.isEmpty
        continue
      }
      if pendingSeparator {
        result.append("_")
        pendingSeparator = false
      }
      if scalar.isASCII, (0x41...0x5A).contains(scalar.value) {
        result.unicodeScalars.append(Unicode.Scalar(scalar.value | 0x20)!)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// What a header cell says its column holds; nil for a column the reader has no use for.
  static func meaning(of header: String) -> CSVHeaderMeaning? {
    var name = normalize(header)
    var unit: String?
    // `Speed (km/h)`, `Altitude [ft]`.
    if let last = name.last, last == ")" || last == "]" {
      let open: Character = last == ")" ? "(" : "["
      if let start = name.lastIndex(of: open) {
        unit = String(name[name.index(after: start)..<name.index(before: name.endIndex)])
        name = String(name[..<start])
        while name.hasSuffix("_") { name.removeLast() }
      }
    }
    if let meaning = lookUp(name, unit: unit) { return meaning }
    // `speed_kmh`, `alt_ft`, `time_ms`.
    if unit == nil, let split = name.lastIndex(of: "_") {
      let base = String(name[..<split])
      let suffix = String(name[name.index(after: split)...])
      if let meaning = lookUp(base, unit: suffix) { return meaning }
    }
    return nil
  }

  private static func lookUp(_ name: String, unit: String?) -> CSVHeaderMeaning? {
    guard let kind = aliases[name] else { return nil }
    var meaning = CSVHeaderMeaning(kind: kind)
    meaning.isCanonical = canonical[name] != nil
    meaning.isLocal = name.hasPrefix("lcl_") || name.hasPrefix("local_")
    guard let unit else { return meaning }
    switch kind {
    case .timestamp, .timeOfDayOrTimestamp:
      guard let format = timeUnits[unit] else { return unit == "utc" ? meaning : nil }
      meaning.kind = .timestamp
      meaning.timestampFormat = format
    case .other(.horizontalAccuracy), .other(.altitude):
      guard let scale = distanceUnits[unit] else { return nil }
      meaning.scale = scale
    case .other(.speed):
      guard let scale = speedUnits[unit] else { return nil }
      meaning.scale = scale
    case .other(.course), .other(.latitude), .other(.longitude):
      guard angleUnits[unit] != nil else { return nil }
    default:
      return nil
    }
    return meaning
  }

  /// The field a `--columns` key names: a field name or any header alias.
  static func mappingField(forKey key: String) -> CSVColumnMapping.Field? {
    if let field = CSVColumnMapping.Field(rawValue: key) { return field }
    guard let meaning = meaning(of: key) else { return nil }
    switch meaning.kind {
    case .timestamp: return .timestamp
    case .timeOfDayOrTimestamp: return .time
    case .date: return .date
    case .other(let role): return role.field
    }
  }
}
