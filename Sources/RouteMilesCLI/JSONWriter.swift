/// A minimal JSON object builder: keys keep the order they are written in, so output is stable
/// and diffable, and numbers keep every digit Swift's shortest round-trip form gives.
struct JSONObject {
  private var members: [String] = []

  init() {}

  mutating func set(_ key: String, _ value: String?) {
    members.append("\(JSONObject.quote(key)):\(value.map(JSONObject.quote) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Double?) {
    members.append("\(JSONObject.quote(key)):\(value.map(JSONObject.number) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Int) {
    members.append("\(JSONObject.quote(key)):\(value)")
  }
  mutating func set(_ key: String, _ value: Int?) {
    members.append("\(JSONObject.quote(key)):\(value.map(String.init) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Bool) {
    members.append("\(JSONObject.quote(key)):\(value)")
  }
  mutating func set(_ key: String, _ value: JSONObject) {
    members.append("\(JSONObject.quote(key)):\(value.text)")
  }
  mutating func set(_ key: String, _ values: [JSONObject]) {
    members.append("\(JSONObject.quote(key)):[\(values.map(\.text).joined(separator: ","))]")
  }
  mutating func set(_ key: String, strings: [String]) {
    members.append("\(JSONObject.quote(key)):[\(strings.map(JSONObject.quote).joined(separator: ","))]")
  }
  mutating func set(_ key: String, integers: [Int]) {
    members.append("\(JSONObject.quote(key)):[\(integers.map(String.init).joined(separator: ","))]")
  }
  /// A raw, already-encoded JSON value.
  mutating func set(_ key: String, raw: String) {
    members.append("\(JSONObject.quote(key)):\(raw)")
  }

  var text: String { "{" + members.joined(separator: ",") + "}" }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
