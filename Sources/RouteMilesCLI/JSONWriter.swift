/// A minimal JSON object builder: keys keep the order they are written in, so output is stable
/// and diffable, and numbers keep every digit Swift's shortest round-trip form gives.
struct JSONObject {
  private var members: [String] = []

  init() {}

  mutating func set(_ key: String, _ value: String?) {
    members.append("\(JSONText.quoted(key)):\(value.map(JSONText.quoted) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Double?) {
    members.append("\(JSONText.quoted(key)):\(value.map(JSONObject.number) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Int) {
    members.append("\(JSONText.quoted(key)):\(value)")
  }
  mutating func set(_ key: String, _ value: Int?) {
    members.append("\(JSONText.quoted(key)):\(value.map(String.init) ?? "null")")
  }
  mutating func set(_ key: String, _ value: Bool) {
    members.append("\(JSONText.quoted(key)):\(value)")
  }
  mutating func set(_ key: String, _ value: JSONObject) {
    members.append("\(JSONText.quoted(key)):\(value.text)")
  }
  mutating func set(_ key: String, _ values: [JSONObject]) {
    members.append("\(JSONText.quoted(key)):[\(values.map(\.text).joined(separator: ","))]")
  }
  mutating func set(_ key: String, strings: [String]) {
    members.append("\(JSONText.quoted(key)):[\(strings.map(JSONText.quoted).joined(separator: ","))]")
  }
  mutating func set(_ key: String, integers: [Int]) {
    members.append("\(JSONText.quoted(key)):[\(integers.map(String.init).joined(separator: ","))]")
  }
  /// A raw, already-encoded JSON value.
  mutating func set(_ key: String, raw: String) {
    members.append("\(JSONText.quoted(key)):\(raw)")
  }

  var text: String { "{" + members.joined(separator: ",") + "}" }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
