import RouteMilesCLI

/// What a benchmark run found, as data: the scale-free metrics a baseline can compare across
/// machines (ratios, and throughput normalised by the same run's read-only pass), the other
/// figures, and the targets. `RouteBenchmarks` fills it; `BaselineGate` compares two of them.
public struct BenchmarkResults: Sendable {
  public struct Metric: Sendable, Equatable {
    public var scenario: String
    public var name: String
    public var value: Double
    /// True when a larger value is better (throughput, speed-up); false for costs and ratios of
    /// costs.
    public var higherIsBetter: Bool
    /// Whether a baseline comparison uses it: only scale-free figures are compared.
    public var scaleFree: Bool

    public init(scenario: String, name: String, value: Double, higherIsBetter: Bool, scaleFree: Bool) {
      self.scenario = scenario
      self.name = name
      self.value = value
      self.higherIsBetter = higherIsBetter
      self.scaleFree = scaleFree
    }

    /// `scenario/name`: how a baseline and a run find the same metric.
    public var key: String { "\(scenario)/\(name)" }
  }

  public struct Target: Sendable, Equatable {
    public var scenario: String
    public var description: String
    public var met: Bool

    public init(scenario: String, description: String, met: Bool) {
      self.scenario = scenario
      self.description = description
      self.met = met
    }
  }

  /// `full` or `quick`: baselines are only compared within one mode (the inputs differ).
  public var mode: String
  public var metrics: [Metric]
  public var targets: [Target]

  public init(mode: String = "full", metrics: [Metric] = [], targets: [Target] = []) {
    self.mode = mode
    self.metrics = metrics
    self.targets = targets
  }

  /// `{"mode":…,"metrics":[{"scenario","name","value","higherIsBetter","scaleFree"}],"targets":[…]}`,
  /// one metric a line, ending in a newline. A non-finite value is written `null`; strings are
  /// quoted as the tool quotes them (`JSONText`). Readers must not depend on this layout:
  /// `BenchmarkBaseline.parse` reads any formatting of it.
  public var json: String {
    let quote = JSONText.quoted
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
