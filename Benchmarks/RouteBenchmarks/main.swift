#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// `swift run -c release RouteBenchmarks [--quick] [--json] [--save-baseline FILE]
/// [--baseline FILE --max-regression PCT] [SCENARIO...]`
/// The command line, taken apart once.
struct BenchmarkOptions {
  var arguments: [String]

  mutating func flag(_ name: String) -> Bool {
    guard let index = arguments.firstIndex(of: name) else { return false }
    arguments.remove(at: index)
    return true
  }

  mutating func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
  }
}

var options = BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
if options.flag("--help") || options.flag("-h") {
  print(
    """
    USAGE: swift run -c release RouteBenchmarks [options] [SCENARIO...]

    Scenarios: append-and-extend, store-extend, parse-and-measure, batch, memory, truth (default: all).

    Options:
      --quick                  Smoke-run every scenario with small inputs (CI; under a minute).
      --json                   Also print the results as JSON on the last line block.
      --save-baseline FILE     Write the results (JSON) to FILE.
      --baseline FILE          Compare the scale-free results with FILE …
      --max-regression PCT     … and exit 1 naming each scenario that regressed by more than PCT%.
    """)
  exit(0)
}
let quick = options.flag("--quick")
let printJSON = options.flag("--json")
let saveBaseline = options.option("--save-baseline")
let baselinePath = options.option("--baseline")
let maxRegression = options.option("--max-regression").flatMap(Double.init) ?? 10
let selected = Set(options.arguments)
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

#if DEBUG
print("warning: a debug build; run with `swift run -c release RouteBenchmarks` for real figures")
#endif

var report = BenchmarkReport()
report.mode = quick ? "quick" : "full"
report.say("RouteBenchmarks\(quick ? " --quick" : "")")
do {
  if wanted(AppendAndExtendBenchmark.name) { AppendAndExtendBenchmark.run(quick: quick, report: &report) }
  if wanted(StoreExtendBenchmark.name) { try StoreExtendBenchmark.run(quick: quick, report: &report) }
  if wanted(ParseAndMeasureBenchmark.name) { try ParseAndMeasureBenchmark.run(quick: quick, report: &report) }
  if wanted(BatchBenchmark.name) { try BatchBenchmark.run(quick: quick, report: &report) }
  if wanted(MemoryBenchmark.name) { try MemoryBenchmark.run(quick: quick, report: &report) }
  if wanted(TruthBenchmark.name) { TruthBenchmark.run(quick: quick, report: &report) }
} catch {
  BenchmarkFiles.remove()
  print("benchmark failed: \(error)")
  exit(2)
}
BenchmarkFiles.remove()

if printJSON { print(report.json) }
if let saveBaseline {
  guard let file = fopen(saveBaseline, "w") else {
    print("cannot write \(saveBaseline)")
    exit(2)
  }
  fputs(report.json, file)
  fclose(file)
  print("\nbaseline saved to \(saveBaseline)")
}
if let baselinePath {
  guard let text = readTextFile(baselinePath) else {
    print("cannot read baseline \(baselinePath)")
    exit(2)
  }
  guard Baseline.mode(text) == report.mode else {
    print("baseline \(baselinePath) is a \(Baseline.mode(text)) run and this is a \(report.mode) run: their inputs differ, so they are not compared (save a baseline in the same mode)")
    exit(2)
  }
  let baseline = Baseline.parse(text)
  var regressions: [String] = []
  print("\nAgainst baseline \(baselinePath) (scale-free figures, regression bound \(Format.fixed(maxRegression, 1))%):")
  for metric in report.metrics where metric.scaleFree {
    guard let old = baseline["\(metric.scenario)/\(metric.name)"], old.value != 0 else { continue }
    let change = (metric.value - old.value) / abs(old.value) * 100
    let worse = metric.higherIsBetter ? -change : change
    let verdict = worse > maxRegression ? "REGRESSED" : "ok"
    print("  \(metric.scenario) · \(metric.name): \(Format.fixed(old.value, 3)) → \(Format.fixed(metric.value, 3)) (\(worse > 0 ? "worse" : "better") by \(Format.fixed(abs(worse), 1))%) \(verdict)")
    if worse > maxRegression { regressions.append("\(metric.scenario) (\(metric.name))") }
  }
  if !regressions.isEmpty {
    print("regressed beyond \(Format.fixed(maxRegression, 1))%: " + regressions.joined(separator: ", "))
    exit(1)
  }
}
