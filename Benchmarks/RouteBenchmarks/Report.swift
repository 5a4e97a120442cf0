/// What a benchmark run found: named figures for people, and scale-free metrics a baseline can
/// compare across machines (ratios, and throughput normalised by the same run's read-only pass).
struct BenchmarkReport {
  struct Metric {
    var scenario: String
    var name: String
    var value: Double
    /// True when a larger value is better (throughput, speed-up); false for costs and ratios of
    /// costs.
    var higherIsBetter: Bool
    /// Whether a baseline comparison uses it: only scale-free figures are compared.
    var scaleFree: Bool
  }

  struct Target {
    var scenario: String
    var description: String
    var met: Bool
  }

  /// `full` or `quick`: baselines are only compared within one mode (the inputs differ).
  var mode = "full"
  var metrics: [Metric] = []
  var targets: [Target] = []
  var lines: [String] = []

  mutating func say(_ line: String) {
    lines.append(line)
    print(line)
  }

  mutating func record(_ scenario: String, _ name: String, _ value: Double, higherIsBetter: Bool, scaleFree: Bool = false) {
    metrics.append(Metric(scenario: scenario, name: name, value: value, higherIsBetter: higherIsBetter, scaleFree: scaleFree))
  }

  mutating func target(_ scenario: String, _ description: String, met: Bool) {
    targets.append(Target(scenario: scenario, description: description, met: met))
    say("  target: \(description) — \(met ? "met" : "NOT met")")
  }

  /// `{"metrics":[{"scenario","name","value","higherIsBetter","scaleFree"}],"targets":[…]}`.
  var json: String {
    func quote(_ text: String) -> String {
      "\"" + text.replacingOccurrences("\\", "\\\\").replacingOccurrences("\"", "\\\"") + "\""
    }
    func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }
    let metricText = metrics.map {
      "{\"scenario\":\(quote($0.scenario)),\"name\":\(quote($0.name)),\"value\":\(number($0.value)),"
        + "\"higherIsBetter\":\($0.higherIsBetter),\"scaleFree\":\($0.scaleFree)}"
    }
    let targetText = targets.map {
      "{\"scenario\":\(quote($0.scenario)),\"description\":\(quote($0.description)),\"met\":\($0.met)}"
    }
    return "{\"mode\":\(quote(mode)),\"metrics\":[\n" + metricText.joined(separator: ",\n") + "\n],\"targets\":[\n"
      + targetText.joined(separator: ",\n") + "\n]}\n"
  }
}

extension String {
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

/// Reads a saved baseline (the `json` above) back: scenario/name → value and direction.
enum Baseline {
  struct Entry {
    var value: Double
    var higherIsBetter: Bool
  }

  /// The mode a baseline was taken in (`full` when it does not say).
  static func mode(_ text: String) -> String {
    guard let range = text.firstRange(of: "\"mode\":\"") else { return "full" }
    return String(text[range.upperBound...].prefix(while: { $0 != "\"" }))
  }

  /// A deliberately small reader for the exact shape `BenchmarkReport.json` writes.
  static func parse(_ text: String) -> [String: Entry] {
    var entries: [String: Entry] = [:]
    for line in text.split(separator: "\n") where line.contains("\"scaleFree\":true") {
      func field(_ name: String) -> Substring? {
        guard let range = line.firstRange(of: "\"\(name)\":") else { return nil }
        var rest = line[range.upperBound...]
        if rest.first == "\"" {
          rest = rest.dropFirst()
          return rest.prefix(while: { $0 != "\"" })
        }
        return rest.prefix(while: { $0 != "," && $0 != "}" })
      }
      guard let scenario = field("scenario"), let name = field("name"), let valueText = field("value"),
        let value = Double(valueText), let direction = field("higherIsBetter")
      else { continue }
      entries["\(scenario)/\(name)"] = Entry(value: value, higherIsBetter: direction == "true")
    }
    return entries
  }
}
