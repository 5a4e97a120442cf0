import RouteMileage

/// The kind of a JSON scalar, as the Takeout reader needs it.
enum TakeoutScalar: UInt8 {
  case string, number, boolean, null
}

/// The fields of the one record being read (a location, a path point, a raw signal's position,
/// a simplified raw path point), collected member by member until its object closes.
///
/// Numbers are read whether written as JSON numbers or as strings holding one (the iOS export
/// quotes every number; `timestampMs` is always a string). The first occurrence of a field counts;
/// a repeat is passed over. A field of the wrong type (an object, an array, `true`, a string that
/// is not a number) makes the record unreadable, except `altitude`, which is only a nicety.
struct TakeoutFix {
  enum Time: Equatable {
    case missing
    case seconds(Double)
    case unreadable
  }

  /// What a finished record is.
  enum Outcome: Equatable {
    case position(RouteSample)
    /// Timed relative to its segment's `startTime`, which is not known yet (iOS).
    case awaitingStart(latitude: Double, longitude: Double, minutes: Double)
    case rejected(FeedReason)
    case unreadable(FeedReason)
  }

  var line = 0
  var latitude: Double?
  var longitude: Double?
  var badPosition = false
  var isoTime = Time.missing
  var epochTime = Time.missing
  var offsetMinutes: Double?
  var badOffset = false
  var accuracy: Double?
  var badAccuracy = false
  var altitude: Double?
  /// `deviceTag` (Records.json) or `source` (raw signals): the key of the record's session.
  var sessionKey: TakeoutSessions.Key?
  /// Fields already given (one bit per `TakeoutField` raw value).
  private var seen: UInt64 = 0

  init(line: Int = 0) { self.line = line }

  /// Reads one scalar member.
  ///
  /// - Complexity: O(*n*) in the value's length.
  mutating func set(
    _ field: TakeoutField, _ kind: TakeoutScalar, _ bytes: UnsafeBufferPointer<UInt8>, timestamps: inout ISO8601DayCache
  ) {
    let bit: UInt64 = 1 << UInt64(field.rawValue)
    guard field.isRecordField, seen & bit == 0 else { return }
    seen |= bit
    if kind == .null { return }
    switch field {
    case .latitudeE7, .longitudeE7:
      guard let value = Self.number(kind, bytes) else {
        badPosition = true
        return
      }
      if field == .latitudeE7 { latitude = value / 10_000_000 } else { longitude = value / 10_000_000 }
    case .degrees:
      guard kind == .string, let point = TakeoutPointText.degrees(bytes) else {
        badPosition = true
        return
      }
      latitude = point.latitude
      longitude = point.longitude
    case .isoTime:
      guard kind == .string else {
        isoTime = .unreadable
        return
      }
      isoTime = timestamps.instant(bytes).map { .seconds($0) } ?? .unreadable
    case .epochMilliseconds:
      epochTime = Self.number(kind, bytes).map { .seconds($0 / 1000) } ?? .unreadable
    case .offsetMinutes:
      offsetMinutes = Self.number(kind, bytes)
      badOffset = offsetMinutes == nil
    case .accuracy:
      accuracy = Self.number(kind, bytes)
      badAccuracy = accuracy == nil
    case .altitude:
      altitude = Self.number(kind, bytes)
    case .deviceTag:
      sessionKey =
        Self.number(kind, bytes).flatMap { Int64(exactly: $0) }.map { .device($0) } ?? .deviceText(Self.text(bytes))
    case .source:
      sessionKey = .source(Self.text(bytes))
    default:
      break
    }
  }

  /// A member that should have been a scalar holds an object or an array.
  mutating func setContainer(_ field: TakeoutField) {
    let bit: UInt64 = 1 << UInt64(field.rawValue)
    guard field.isRecordField, seen & bit == 0 else { return }
    seen |= bit
    switch field {
    case .latitudeE7, .longitudeE7, .degrees: badPosition = true
    case .isoTime: isoTime = .unreadable
    case .epochMilliseconds: epochTime = .unreadable
    case .offsetMinutes: badOffset = true
    case .accuracy: badAccuracy = true
    default: break
    }
  }

  /// What the record is, judged in a fixed order: an unreadable coordinate (`badNumber`), no
  /// coordinate (`missingPosition`), an unreadable accuracy (`badNumber`), a coordinate off the
  /// Earth (`coordinateOutOfRange`), an unreadable time (`badTime`), no time (`missingTime`).
  /// `timestamp` wins over `timestampMs` when a record has both; a path point without either
  /// is timed by its minutes after the segment's start (`startTime`, when known).
  func outcome(segmentStart: Time) -> Outcome {
    if badPosition { return .unreadable(.badNumber) }
    guard let latitude, let longitude else { return .rejected(.missingPosition) }
    if badAccuracy { return .unreadable(.badNumber) }
    guard Self.isOnEarth(latitude, longitude) else { return .rejected(.coordinateOutOfRange) }
    var time = isoTime == .missing ? epochTime : isoTime
    if time == .missing {
      if badOffset { return .unreadable(.badTime) }
      if let offsetMinutes {
        switch segmentStart {
        case .seconds(let start): time = .seconds(start + offsetMinutes * 60)
        case .unreadable: time = .unreadable
        case .missing: return .awaitingStart(latitude: latitude, longitude: longitude, minutes: offsetMinutes)
        }
      }
    }
    switch time {
    case .unreadable: return .unreadable(.badTime)
    case .missing: return .rejected(.missingTime)
    case .seconds(let seconds):
      guard seconds.isFinite else { return .unreadable(.badTime) }
      return .position(
        RouteSample(
          timestamp: seconds, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, altitude: altitude
        ))
    }
  }

  static func isOnEarth(_ latitude: Double, _ longitude: Double) -> Bool {
    abs(latitude) <= 90 && abs(longitude) <= 180
  }

  /// A number written as a JSON number or as a string holding one.
  static func number(_ kind: TakeoutScalar, _ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard kind == .number || kind == .string, let value = ByteNumberParser.double(bytes), value.isFinite else {
      return nil
    }
    return value
  }

  /// A session key's text, at most 64 bytes of it.
  static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(64)), as: UTF8.self)
  }
}
