import RouteMilesCLI
import RouteSynthesis

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Scenario 4: `routemiles batch` over generated shifts (30–90 min each at 1 Hz, CSV), with
/// `--jobs 1` and `--jobs 2`: shifts per second and the scaling ratio.
enum BatchBenchmark {
  static let name = "batch"

  /// A console that drops everything: the benchmark times measuring, not printing.
  final class SilentConsole: Console {
    func out(_ text: String) {}
    func err(_ text: String) {}
    var errorIsTerminal: Bool { false }
    var outputIsTerminal: Bool { false }
    func flush() {}
  }

  static func run(quick: Bool, report: inout BenchmarkReport) throws {
    let count = quick ? 100 : 1_000
    report.say("\n== 4. batch (\(count) generated shifts, CSV, 30–90 min each at 1 Hz)")
    let directory = "\(BenchmarkFiles.directory)/batch"
    mkdir(directory, 0o755)
    var bytes = 0
    for (index, drive) in SyntheticShiftBatch(seed: 4, count: count).enumerated() {
      let path = "\(directory)/shift-\(String(100_000 + index).dropFirst()).csv"
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      guard descriptor >= 0 else { throw BenchmarkError("cannot write \(path)") }
      bytes += try FeedWriter.write(drive, as: .csv, to: descriptor)
      close(descriptor)
    }
    var rates: [Int: Double] = [:]
    for jobs in [1, 2] {
      let times = repeated(warmup: 1, repeats: 3) {
        let status = RouteMilesCLI.run(
          ["batch", "--jobs", String(jobs), "--no-progress", directory], console: SilentConsole())
        precondition(status == 0, "batch failed")
      }
      rates[jobs] = Double(count) / times[0]
      report.say(
        "  --jobs \(jobs): \(Format.fixed(rates[jobs]!, 0)) shifts/s (\(Format.fixed(Double(bytes) / 1_048_576 / times[0], 0)) MB/s)"
      )
      report.record(name, "jobs \(jobs) shifts per second", rates[jobs]!, higherIsBetter: true)
    }
    let scaling = rates[2]! / rates[1]!
    report.say("  scaling --jobs 2 / --jobs 1: \(Format.fixed(scaling, 2))× on \(BatchBenchmark.cores()) cores")
    report.record(name, "jobs 2 / jobs 1", scaling, higherIsBetter: true, scaleFree: true)
    report.target(name, "--jobs 2 at least 1.8× --jobs 1 (\(Format.fixed(scaling, 2))×)", met: scaling >= 1.8)
  }

  static func cores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
