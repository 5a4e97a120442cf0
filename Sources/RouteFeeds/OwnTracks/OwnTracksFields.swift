/// The members of one OwnTracks message the reader uses, picked from `JSONTokenizer`'s tokens as
/// they pass (no `JSONValue` is built): top-level keys only; nested objects and arrays
/// (`inregions`, `waypoints`) are stepped over by the tokenizer. A repeated key keeps its last
/// value, as JSON parsers commonly do.
struct OwnTracksFields {
  /// A numeric member: absent, null, a finite number, or something else (not a number, out of
  /// range).
  enum Number: Equatable {
    case absent, null, invalid
    case value(Double)

    var value: Double? {
      if case .value(let number) = self { return number }
      return nil
    }
  }

  enum MessageType: Equatable { case absent, location, other }

  var type = MessageType.absent
  var latitude = Number.absent
  var longitude = Number.absent
  var time = Number.absent
  var accuracy = Number.absent
  var speed = Number.absent
  var course = Number.absent
  var altitude = Number.absent
  var tid: String?
  var topic: String?

  private enum Key { case other, type, lat, lon, tst, acc, vel, cog, alt, tid, topic }

  /// The fields of the JSON object `json`, or nil when it is not one well-formed object.
  ///
  /// - Complexity: O(*n*) in the bytes of `json`.
  init?(_ json: UnsafeBufferPointer<UInt8>) {
    var tokenizer = JSONTokenizer(maximumTokenLength: max(json.count, 1))
    var key = Key.other
    var isObject = false
    do throws(JSONSyntaxError) {
      while let token = try tokenizer.next(in: json) { take(token, &key, &isObject) }
      while let token = try tokenizer.finish() { take(token, &key, &isObject) }
    } catch {
      return nil
    }
    guard isObject else { return nil }
  }

  private mutating func take(_ token: JSONToken, _ key: inout Key, _ isObject: inout Bool) {
    if token.depth == 0 {
      if token.kind == .beginObject { isObject = true }
      return
    }
    guard token.depth == 1 else { return }
    if token.kind == .key {
      key = Self.key(token)
      return
    }
    guard token.kind != .endObject, token.kind != .endArray else { return }
    defer { key = .other }
    switch key {
    case .other: return
    case .type:
      type = token.kind == .string && token.matches("location") ? .location : token.kind == .string ? .other : .absent
    case .lat: latitude = Self.number(token, stringAllowed: false)
    case .lon: longitude = Self.number(token, stringAllowed: false)
    case .tst: time = Self.number(token, stringAllowed: true)
    case .acc: accuracy = Self.number(token, stringAllowed: true)
    case .vel: speed = Self.number(token, stringAllowed: true)
    case .cog: course = Self.number(token, stringAllowed: true)
    case .alt: altitude = Self.number(token, stringAllowed: true)
    case .tid: tid = token.kind == .string ? token.text : nil
    case .topic: topic = token.kind == .string ? token.text : nil
    }
  }

  private static func key(_ token: JSONToken) -> Key {
    switch token.bytes.count {
    case 3:
      if token.matches("lat") { return .lat }
      if token.matches("lon") { return .lon }
      if token.matches("tst") { return .tst }
      if token.matches("acc") { return .acc }
      if token.matches("vel") { return .vel }
      if token.matches("cog") { return .cog }
      if token.matches("alt") { return .alt }
      if token.matches("tid") { return .tid }
    case 5:
      if token.matches("_type") { return .type }
      if token.matches("topic") { return .topic }
    default: break
    }
    return .other
  }

  /// A number token, or (where allowed) a string holding a plain decimal number
  /// (`"1440363922"`, as some clients send `tst`).
  private static func number(_ token: JSONToken, stringAllowed: Bool) -> Number {
    switch token.kind {
    case .null: return .null
    case .number:
      guard let number = token.double, number.isFinite else { return .invalid }
      return .value(number)
    case .string where stringAllowed:
      let bytes = token.bytes
      guard !bytes.isEmpty, bytes.count <= 32,
        bytes.allSatisfy({ $0.isASCIIDigit || $0 == .asciiMinus || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "+") }
        ),
        let number = ByteNumberParser.double(bytes), number.isFinite
      else { return .invalid }
      return .value(number)
    default:
      return .invalid
    }
  }
}
