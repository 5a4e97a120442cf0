import RouteBenchmarkGate

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// What a benchmark run found: the human lines as they are said, and the results as data
/// (`BenchmarkResults`, which a baseline compares and `--json` writes).
struct BenchmarkReport {
  var results = BenchmarkResults()
  var lines: [String] = []
  /// Where the human table goes: standard output, or standard error under `--json`, so standard
  /// output carries one JSON document and nothing else.
  var humanToStandardError = false

  var mode: String {
    get { results.mode }
    set { results.mode = newValue }
  }
  var metrics: [BenchmarkResults.Metric] { results.metrics }
  var json: String { results.json }

  mutating func say(_ line: String) {
    lines.append(line)
    if humanToStandardError {
      fputs(line + "\n", stderr)
    } else {
      print(line)
    }
  }

  mutating func record(
    _ scenario: String, _ name: String, _ value: Double, higherIsBetter: Bool, scaleFree: Bool = false
  ) {
    results.metrics.append(
      BenchmarkResults.Metric(
        scenario: scenario, name: name, value: value, higherIsBetter: higherIsBetter, scaleFree: scaleFree))
  }

  mutating func target(_ scenario: String, _ description: String, met: Bool) {
    results.targets.append(BenchmarkResults.Target(scenario: scenario, description: description, met: met))
    say("  target: \(description) — \(met ? "met" : "NOT met")")
  }

  /// The run's last lines: every target met, or how many were not and each of them by
  /// scenario, so a log (CI's) ends with what was missed rather than burying it in the table.
  mutating func sayTargetSummary() {
    let missed = results.targets.filter { !$0.met }
    say("")
    guard !missed.isEmpty else { return say("targets: all \(results.targets.count) met") }
    say("targets NOT met: \(missed.count) of \(results.targets.count)")
    for target in missed { say("  \(target.scenario): \(target.description)") }
  }
}
