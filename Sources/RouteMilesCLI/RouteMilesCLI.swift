import RouteFeeds

/// The `routemiles` command line: parses, dispatches, maps errors to exit codes. It never calls
/// `exit`, so tests run it in process.
public enum RouteMilesCLI {
  public static let version = "0.1.0"

  static let usage = """
    USAGE: routemiles <command> [options] [arguments]

    Commands:
      measure   Measure recorded feeds (GPX, NMEA, CSV, TCX, KML/KMZ, GeoJSON, FIT, Takeout, OwnTracks;
                gzipped or not), each as one shift.
      batch     Measure many historical shifts (files, directories, globs, or a store) in parallel.
      import    Import feeds as shifts into a SQLite store.
      shifts    List (or delete) the store's shifts, each measured from its rows.
      export    Write the store's deliveries, one record each, as CSV or JSON Lines.
      places    List the store's pickup places; a place's wait history; rename or merge one.
      delivery  Correct one stored delivery: reopen, cancel-correct, correct-times, grouping,
                its pickup place, what it paid.
      replay    Play a feed back as a simulated live shift, measured as it grows.
      pipe      Measure shift records streamed as JSON lines (for Spark and Hadoop Streaming).

    Options:
      --help, -h     Show help (also after a command: routemiles measure --help).
      --version      Show the version.

    Exit status: 0 success, 1 an input failed, 64 usage error.
    """

  /// Runs one invocation (`arguments` excludes the program name) and returns the exit status.
  ///
  /// - Parameter standardInput: what `pipe` reads; the process's standard input by default.
  public static func run(_ arguments: [String], console: Console, standardInput: (any ByteSource)? = nil) -> Int32 {
    var rest = arguments
    guard let first = rest.first else {
      console.err("routemiles: no command given\n\n\(usage)\n")
      return ExitCode.usage
    }
    rest.removeFirst()
    do throws(CLIError) {
      switch first {
      case "--help", "-h", "help":
        console.out(usage + "\n")
        return ExitCode.success
      case "--version":
        console.out("routemiles \(version)\n")
        return ExitCode.success
      case MeasureCommand.name:
        return try MeasureCommand.run(rest, console: console)
      case BatchCommand.name:
        return try BatchCommand.run(rest, console: console)
      case ImportCommand.name:
        return try ImportCommand.run(rest, console: console)
      case ShiftsCommand.name:
        return try ShiftsCommand.run(rest, console: console)
      case ExportCommand.name:
        return try ExportCommand.run(rest, console: console)
      case PlacesCommand.name:
        return try PlacesCommand.run(rest, console: console)
      case DeliveryCommand.name:
        return try DeliveryCommand.run(rest, console: console)
      case ReplayCommand.name:
        return try ReplayCommand.run(rest, console: console)
      case PipeCommand.name:
        let input: any ByteSource
        if let standardInput {
          input = standardInput
        } else {
          do {
            input = try FileByteSource(path: "-")
          } catch {
            throw .failure("standard input: \(error)")
          }
        }
        return try PipeCommand.run(rest, console: console, input: input)
      default:
        throw .usage("unknown command '\(first)'", command: nil)
      }
    } catch {
      console.err("routemiles: \(error)\n")
      if case .usage(_, let command) = error {
        console.err(command.map { "Run 'routemiles \($0) --help' for usage.\n" } ?? "\n\(usage)\n")
      }
      return error.exitCode
    }
  }
}
