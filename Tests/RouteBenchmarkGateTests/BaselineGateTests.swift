import Foundation
import RouteBenchmarkGate
import Testing

/// The benchmark's CI gate: a baseline is read whatever its formatting, a planted regression
/// fails with exit status 1, and a comparison that compares nothing fails rather than passes.
@Suite struct BaselineGateTests {
  /// A quick run's scale-free figures, and one absolute figure the gate must ignore.
  static let run = BenchmarkResults(
    mode: "quick",
    metrics: [
      .init(
        scenario: "append-and-extend", name: "extend p50 24h/1h", value: 1.0, higherIsBetter: false, scaleFree: true),
      .init(
        scenario: "parse-and-measure", name: "GPX MB/s / read MB/s", value: 0.5, higherIsBetter: true, scaleFree: true),
      .init(scenario: "batch", name: "batch seconds", value: 3.2, higherIsBetter: false, scaleFree: false),
    ],
    targets: [.init(scenario: "batch", description: "scales with cores", met: true)])

  /// The run with one figure changed.
  static func run(with name: String, value: Double) -> BenchmarkResults {
    var changed = run
    for index in changed.metrics.indices where changed.metrics[index].name == name {
      changed.metrics[index].value = value
    }
    return changed
  }

  /// `document` re-written by Foundation's serializer: on one line, or pretty-printed (indent 2
  /// with Foundation's own layout), keys sorted — a different text of the same JSON.
  static func reformatted(_ document: String, pretty: Bool) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(document.utf8))
    var options: JSONSerialization.WritingOptions = [.sortedKeys]
    if pretty { options.insert(.prettyPrinted) }
    let data = try JSONSerialization.data(withJSONObject: object, options: options)
    let text = String(decoding: data, as: UTF8.self)
    #expect(pretty ? text.contains("\n  ") : !text.contains("\n"))
    return text
  }

  static func gate(_ run: BenchmarkResults, baselineText: String, bound: Double = 25) throws -> BaselineGate.Outcome {
    let baseline = try BenchmarkBaseline.parse(baselineText, path: "baseline.json")
    return BaselineGate.compare(run, with: baseline, path: "baseline.json", maximumRegression: bound)
  }

  @Test(arguments: ["as written", "one line", "pretty-printed"])
  func everyFormattingReadsTheSameBaseline(formatting: String) throws {
    let written = Self.run.json
    let text =
      formatting == "as written" ? written : try Self.reformatted(written, pretty: formatting == "pretty-printed")
    let baseline = try BenchmarkBaseline.parse(text, path: "baseline.json")
    #expect(baseline.mode == "quick")
    #expect(baseline.entries.count == 2)
    #expect(baseline.entries["parse-and-measure/GPX MB/s / read MB/s"] == .init(value: 0.5, higherIsBetter: true))
    #expect(baseline.entries["batch/batch seconds"] == nil)

    let outcome = try Self.gate(Self.run, baselineText: text)
    #expect(outcome.verdict == .passed)
    #expect(outcome.verdict.exitStatus == 0)
    #expect(outcome.compared == 2)
    #expect(outcome.lines.last == "2 scale-free metrics compared, none regressed beyond 25.0%")
  }

  @Test(arguments: ["as written", "one line", "pretty-printed"])
  func aPlantedRegressionFailsInEveryFormatting(formatting: String) throws {
    // The issue's planted case: a cost ratio 64 % worse than the baseline's (1.64 against 1.0).
    let baselineRun = Self.run(with: "extend p50 24h/1h", value: 1.0)
    let written = baselineRun.json
    let text =
      formatting == "as written" ? written : try Self.reformatted(written, pretty: formatting == "pretty-printed")
    let slower = Self.run(with: "extend p50 24h/1h", value: 1.64)

    let outcome = try Self.gate(slower, baselineText: text)
    #expect(outcome.verdict == .regressed(["append-and-extend (extend p50 24h/1h)"]))
    #expect(outcome.verdict.exitStatus == 1)
    #expect(outcome.lines.contains("  append-and-extend · extend p50 24h/1h: 1.000 → 1.640 (worse by 64.0%) REGRESSED"))
    #expect(outcome.lines.last == "regressed beyond 25.0%: append-and-extend (extend p50 24h/1h)")
  }

  @Test func aHigherIsBetterFigureRegressesWhenItFalls() throws {
    let outcome = try Self.gate(Self.run(with: "GPX MB/s / read MB/s", value: 0.3), baselineText: Self.run.json)
    #expect(outcome.verdict == .regressed(["parse-and-measure (GPX MB/s / read MB/s)"]))
    #expect(
      outcome.lines.contains("  parse-and-measure · GPX MB/s / read MB/s: 0.500 → 0.300 (worse by 40.0%) REGRESSED"))
    // An improvement of the same size passes.
    #expect(
      try Self.gate(Self.run(with: "GPX MB/s / read MB/s", value: 0.7), baselineText: Self.run.json).verdict == .passed)
  }

  @Test func aBaselineWithNoMetricInCommonFails() throws {
    let other = BenchmarkResults(
      mode: "quick",
      metrics: [.init(scenario: "memory", name: "peak / input", value: 2, higherIsBetter: false, scaleFree: true)])
    let outcome = try Self.gate(Self.run, baselineText: other.json)
    #expect(outcome.compared == 0)
    #expect(outcome.verdict.exitStatus == 2)
    #expect(
      outcome.lines.last?.hasPrefix("baseline baseline.json has no scale-free metric in common with this run") == true)

    // An empty metrics list, in any formatting, is the same failure rather than a silent pass.
    let empty = try Self.gate(Self.run, baselineText: #"{ "mode" : "quick" , "metrics" : [ ] }"#)
    #expect(empty.verdict.exitStatus == 2)
  }

  @Test func aBaselineInTheOtherModeIsNotCompared() throws {
    var full = Self.run
    full.mode = "full"
    let pretty = try Self.reformatted(full.json, pretty: true)
    let outcome = try Self.gate(Self.run, baselineText: pretty)
    #expect(outcome.verdict.exitStatus == 2)
    #expect(
      outcome.lines == [
        "baseline baseline.json is a full run and this is a quick run: their inputs differ, so they are not compared (save a baseline in the same mode)"
      ])
    // A baseline that does not say its mode was a full run.
    let unlabelled = try BenchmarkBaseline.parse(#"{"metrics":[]}"#, path: "old.json")
    #expect(unlabelled.mode == "full")
  }

  @Test func aBaselineThatIsNotOneIsATypedFailure() {
    #expect(throws: BenchmarkBaseline.Failure.self) {
      try BenchmarkBaseline.parse("{\"mode\":\"quick\",", path: "b.json")
    }
    do {
      _ = try BenchmarkBaseline.parse(#"{"mode":"quick","metrics":[{"scenario":"x"}]}"#, path: "b.json")
      Issue.record("a metric without its fields was accepted")
    } catch {
      #expect(error.description.hasPrefix("baseline b.json is not a RouteBenchmarks baseline: metric 1 lacks"))
    }
    do {
      _ = try BenchmarkBaseline.parse("[1,2]", path: "b.json")
      Issue.record("an array was accepted")
    } catch {
      #expect(error == .wrongShape(path: "b.json", reason: "the document is not an object"))
    }
  }

  @Test func nonFiniteFiguresAreWrittenAsNullAndNotCompared() throws {
    let run = Self.run(with: "extend p50 24h/1h", value: .nan)
    #expect(run.json.contains(#""value":null"#))
    let baseline = try BenchmarkBaseline.parse(run.json, path: "b.json")
    #expect(baseline.entries["append-and-extend/extend p50 24h/1h"] == nil)
    #expect(BaselineGate.compare(Self.run, with: baseline, path: "b.json", maximumRegression: 10).compared == 1)
  }

  /// The committed `Benchmarks/baseline.json` stays a baseline the gate reads: a full run with
  /// scale-free figures, so `RouteBenchmarks --baseline Benchmarks/baseline.json` compares
  /// against something.
  @Test func theCommittedBaselineReads() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Benchmarks/baseline.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    let baseline = try BenchmarkBaseline.parse(text, path: "Benchmarks/baseline.json")
    #expect(baseline.mode == "full")
    #expect(baseline.entries.count >= 5)
  }
}
