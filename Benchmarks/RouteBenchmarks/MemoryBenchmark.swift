import RouteSynthesis

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Scenario 5: peak resident memory of the real `routemiles measure` process on generated 1 GB
/// GPX, NMEA and CSV feeds (100 MB with `--quick`), and of `measure --no-filter` on the CSV as
/// stored and with its rows shuffled (the spilling sort's bound).
///
/// The figure must be the tool's own. A process's `ru_maxrss` starts from the memory of the
/// process it was spawned from (Linux records the pre-`exec` image's high-water mark), so a tool
/// spawned straight from this benchmark would report the benchmark's own tens of megabytes. The
/// child is therefore started by `/usr/bin/time`, a small process, which reports the peak of the
/// tool it forks; without it the figure falls back to the inflated direct one, and says so.
enum MemoryBenchmark {
  static let name = "memory"

  static func run(quick: Bool, report: inout BenchmarkReport) throws {
    let megabytes = quick ? 100.0 : 1_024.0
    report.say("\n== 5. memory (peak RSS of `routemiles measure` on a \(Format.fixed(megabytes, 0)) MB feed)")
    if access(timer, X_OK) != 0 {
      report.say("  (no /usr/bin/time: figures include this benchmark's own memory, an upper bound)")
    }
    for (label, format) in [("gpx", SyntheticFeedFormat.gpx), ("nmea", .nmea), ("csv", .csv)] {
      let (path, bytes) = try BenchmarkFiles.feed("memory.\(label)", format: format, megabytes: megabytes)
      var peak = 0
      let seconds = try time { peak = try toolPeakResidentBytes(["measure", "--json", path]) }
      report.say(
        "  \(label.padding(5)) \(Format.megabytes(bytes)) measured in \(Format.fixed(seconds, 1)) s (\(Format.fixed(Double(bytes) / 1_048_576 / seconds, 0)) MB/s): peak RSS \(Format.megabytes(peak))"
      )
      report.record(name, "\(label) peak RSS bytes", Double(peak), higherIsBetter: false)
      report.target(
        name,
        "\(label.uppercased()) \(Format.fixed(megabytes, 0)) MB feed with peak RSS under 64 MB (\(Format.megabytes(peak)))",
        met: peak < 64 << 20)
      if format == .csv { try unfilteredPeaks(path, bytes: bytes, report: &report) }
      unlink(path)
    }
  }

  static let timer = "/usr/bin/time"

  /// The bound `--no-filter` is held to, in order and shuffled: it walks positions as they
  /// arrive, or sorts them through the spilling sorter (about 45 MB), never keeping them all.
  static let unfilteredLimit = 128 << 20

  /// `measure --no-filter` on the CSV as written and on a copy with its rows shuffled (header
  /// kept; `shuf`, seeded by the file itself so every run shuffles alike).
  static func unfilteredPeaks(_ path: String, bytes: Int, report: inout BenchmarkReport) throws {
    let shuffled = path + ".shuffled"
    _ = try childPeakResidentBytes(
      "/bin/sh",
      ["-c", "{ head -n 1 \"$1\"; tail -n +2 \"$1\" | shuf --random-source=\"$1\"; } > \"$2\"", "sh", path, shuffled])
    defer { unlink(shuffled) }
    for (label, file) in [("csv --no-filter", path), ("csv --no-filter shuffled", shuffled)] {
      var peak = 0
      let seconds = try time { peak = try toolPeakResidentBytes(["measure", "--no-filter", "--json", file]) }
      report.say(
        "  \(label.padding(5)) \(Format.megabytes(bytes)) measured in \(Format.fixed(seconds, 1)) s: peak RSS \(Format.megabytes(peak))"
      )
      report.record(name, "\(label) peak RSS bytes", Double(peak), higherIsBetter: false)
      report.target(
        name, "\(label) with peak RSS under 128 MB (\(Format.megabytes(peak)))", met: peak < unfilteredLimit)
    }
  }

  /// The peak RSS of one run of the real `routemiles` with these arguments (see the type's note).
  static func toolPeakResidentBytes(_ arguments: [String]) throws -> Int {
    let tool = siblingExecutable("routemiles")
    guard access(timer, X_OK) == 0 else { return try childPeakResidentBytes(tool, arguments) }
    let output = "\(BenchmarkFiles.directory)/peak.time"
    _ = try childPeakResidentBytes(timer, ["-f", "%M", "-o", output, tool] + arguments)
    return (Int(readTextFile(output)?.filter(\.isNumber) ?? "") ?? 0) * 1024
  }

  /// The built executable beside this one (`.build/release/routemiles`).
  static func siblingExecutable(_ name: String) -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count)
    let path = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : CommandLine.arguments[0]
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return directory + "/" + name
  }

  /// Runs a child to completion and returns its peak resident set size.
  static func childPeakResidentBytes(_ executable: String, _ arguments: [String]) throws -> Int {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
      throw BenchmarkError("cannot run \(executable); build it with `swift build -c release`")
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    guard status == 0 else {
      throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed (\(status))")
    }
    return Int(usage.ru_maxrss) * 1024
  }
}
