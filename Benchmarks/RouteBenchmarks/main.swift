import RouteBenchmarkGate

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

    Scenarios: append-and-extend, store-extend, parse-and-measure, batch, memory, truth, ledger
    (default: all).

    Options:
      --quick                  Smoke-run every scenario with small inputs (CI; under a minute).
      --json                   Write the results as one JSON document to standard output, and the
                               human table (and any baseline comparison) to standard error.
      --save-baseline FILE     Write the results (JSON) to FILE.
      --baseline FILE          Compare the scale-free results with FILE (any JSON formatting) …
      --max-regression PCT     … and exit 1 naming each scenario that regressed by more than PCT%
                               (default 10). Exit 2 when nothing can be compared: an unreadable
                               baseline, the other mode, or no scale-free metric in common.
    """)
  exit(0)
}
let quick = options.flag("--quick")
let printJSON = options.flag("--json")
let saveBaseline = options.option("--save-baseline")
let baselinePath = options.option("--baseline")
let maxRegressionText = options.option("--max-regression")
let scenarioNames: Set = [
  "append-and-extend", "store-extend", "parse-and-measure", "batch", "memory", "truth", LedgerBenchmark.name,
]
let selected = Set(options.arguments)
if let unknown = selected.subtracting(scenarioNames).sorted().first {
  fputs(
    "RouteBenchmarks: unknown scenario or option '\(unknown)' (or an option without its value); see --help\n", stderr)
  exit(2)
}
guard let maxRegression = maxRegressionText.map({ Double($0) }) ?? 10, maxRegression >= 0 else {
  fputs("RouteBenchmarks: --max-regression takes a percentage, such as 25\n", stderr)
  exit(2)
}
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

/// A human line: standard output, or standard error under `--json` (standard output then
/// carries the JSON document alone).
func say(_ line: String) {
  if printJSON {
    fputs(line + "\n", stderr)
  } else {
    print(line)
  }
}

#if DEBUG
  say("warning: a debug build; run with `swift run -c release RouteBenchmarks` for real figures")
#endif

var report = BenchmarkReport()
report.humanToStandardError = printJSON
report.mode = quick ? "quick" : "full"
report.say("RouteBenchmarks\(quick ? " --quick" : "")")
do {
  if wanted(AppendAndExtendBenchmark.name) { AppendAndExtendBenchmark.run(quick: quick, report: &report) }
  if wanted(StoreExtendBenchmark.name) { try StoreExtendBenchmark.run(quick: quick, report: &report) }
  if wanted(ParseAndMeasureBenchmark.name) { try ParseAndMeasureBenchmark.run(quick: quick, report: &report) }
  if wanted(BatchBenchmark.name) { try BatchBenchmark.run(quick: quick, report: &report) }
  if wanted(MemoryBenchmark.name) { try MemoryBenchmark.run(quick: quick, report: &report) }
  if wanted(TruthBenchmark.name) { TruthBenchmark.run(quick: quick, report: &report) }
  if wanted(LedgerBenchmark.name) { try LedgerBenchmark.run(quick: quick, report: &report) }
} catch {
  BenchmarkFiles.remove()
  say("benchmark failed: \(error)")
  exit(2)
}
BenchmarkFiles.remove()
report.sayTargetSummary()

if printJSON { print(report.json, terminator: "") }
if let saveBaseline {
  guard let file = fopen(saveBaseline, "w") else {
    say("cannot write \(saveBaseline)")
    exit(2)
  }
  fputs(report.json, file)
  fclose(file)
  say("\nbaseline saved to \(saveBaseline)")
}
if let baselinePath {
  guard let text = readTextFile(baselinePath) else {
    say("cannot read baseline \(baselinePath)")
    exit(2)
  }
  let baseline: BenchmarkBaseline
  do {
    baseline = try BenchmarkBaseline.parse(text, path: baselinePath)
  } catch {
    say(error.description)
    exit(2)
  }
  let outcome = BaselineGate.compare(
    report.results, with: baseline, path: baselinePath, maximumRegression: maxRegression)
  say("")
  for line in outcome.lines { say(line) }
  exit(outcome.verdict.exitStatus)
}
