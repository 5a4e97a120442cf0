/// The CI gate: a run's scale-free metrics against a baseline's. Kept apart from the benchmark
/// executable so the decision — which metrics are compared, what counts as a regression, and
/// which exit status follows — is tested without running a benchmark.
public enum BaselineGate {
  /// How the comparison ended, and the status the process exits with.
  public enum Verdict: Equatable, Sendable {
    /// Every compared metric is within the bound. Exit 0.
    case passed
    /// At least one compared metric regressed beyond the bound. Exit 1.
    case regressed([String])
    /// Nothing could be compared: the modes differ, or no scale-free metric is in both. Exit 2:
    /// a gate that compares nothing must not pass.
    case notCompared(String)

    public var exitStatus: Int32 {
      switch self {
      case .passed: 0
      case .regressed: 1
      case .notCompared: 2
      }
    }
  }

  public struct Outcome: Equatable, Sendable {
    /// The human lines: a header, one line per compared metric, and the verdict.
    public var lines: [String]
    public var verdict: Verdict
    /// How many metrics were compared.
    public var compared: Int
  }

  /// Compares `run` with `baseline`. A metric is compared when it is scale-free in the run, is in
  /// the baseline, and both values are finite with a non-zero baseline (a change relative to zero
  /// has no size). `maximumRegression` is in percent. O(m) in the run's metrics.
  public static func compare(
    _ run: BenchmarkResults, with baseline: BenchmarkBaseline, path: String, maximumRegression: Double
  ) -> Outcome {
    guard baseline.mode == run.mode else {
      let reason =
        "baseline \(path) is a \(baseline.mode) run and this is a \(run.mode) run: their inputs differ, so they are not compared (save a baseline in the same mode)"
      return Outcome(lines: [reason], verdict: .notCompared(reason), compared: 0)
    }
    var lines = ["Against baseline \(path) (scale-free figures, regression bound \(fixed(maximumRegression, 1))%):"]
    var regressions: [String] = []
    var compared = 0
    for metric in run.metrics where metric.scaleFree && metric.value.isFinite {
      guard let old = baseline.entries[metric.key], old.value != 0, old.value.isFinite else { continue }
      compared += 1
      let change = (metric.value - old.value) / abs(old.value) * 100
      let worse = metric.higherIsBetter ? -change : change
      let regressed = worse > maximumRegression
      lines.append(
        "  \(metric.scenario) · \(metric.name): \(fixed(old.value, 3)) → \(fixed(metric.value, 3)) "
          + "(\(worse > 0 ? "worse" : "better") by \(fixed(abs(worse), 1))%) \(regressed ? "REGRESSED" : "ok")")
      if regressed { regressions.append("\(metric.scenario) (\(metric.name))") }
    }
    if compared == 0 {
      let reason =
        "baseline \(path) has no scale-free metric in common with this run, so nothing was compared and the gate fails (save a baseline from the same scenarios with --save-baseline)"
      lines.append(reason)
      return Outcome(lines: lines, verdict: .notCompared(reason), compared: 0)
    }
    if !regressions.isEmpty {
      lines.append("regressed beyond \(fixed(maximumRegression, 1))%: " + regressions.joined(separator: ", "))
      return Outcome(lines: lines, verdict: .regressed(regressions), compared: compared)
    }
    lines.append(
      "\(compared) scale-free metric\(compared == 1 ? "" : "s") compared, none regressed beyond \(fixed(maximumRegression, 1))%"
    )
    return Outcome(lines: lines, verdict: .passed, compared: compared)
  }

  /// `value` with `decimals` places, without Foundation.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int64(rounded / scale)
    let fraction = Int64(rounded) - whole * Int64(scale)
    var text = (value < 0 && rounded != 0 ? "-" : "") + String(whole)
    if decimals > 0 {
      let digits = String(fraction)
      text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
  }
}
