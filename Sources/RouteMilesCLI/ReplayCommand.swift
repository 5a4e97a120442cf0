import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// `routemiles replay FEED`: a recorded drive played back as a live shift.
enum ReplayCommand {
  static let name = "replay"
  static let usage = "routemiles replay [options] FEED"
  static let help = """
    USAGE: \(usage)

    Plays a recorded drive back as if it were being captured now. A capture loop releases the
    feed's positions in the order they would have arrived (by arrival time where the feed has
    one, by timestamp otherwise) at feed time scaled by --speed, runs each through the capture filter and writes
    the retained samples to the store in batches, one transaction per --batch-seconds of shift
    time. A display loop refreshes ActiveRouteMeasurement against the store every --refresh
    seconds of shift time and redraws a live card; the mileage figure on the card changes at most
    once per --route-update seconds (counts and state changes show at once). At the end, or on
    Ctrl-C, the shift ends and two figures are printed: the last live figure and the final figure
    measured from the stored rows in one pass; for an in-order feed with no faults they are
    identical, and the replay says so, or says why not. After Ctrl-C a --store shift is kept as
    interrupted (listed so by `shifts`, its figure partial) and the exit status is 130.

    A feed whose positions span more than 7 days is refused (exit 1) unless --allow-long-span.

    On a terminal the card redraws in place; otherwise, or with --json, one JSON line per update
    (fields in docs/replay.md).

    Timing:
      --speed FACTOR|max      Shift seconds per real second (default 1; max = no waiting).
      --refresh SECONDS       Display refresh interval, shift time (default 2).
      --route-update SECONDS  Least time between changes of the card's figure (default 30).
      --batch-seconds SECONDS Capture batch interval, shift time (default 5).
      --allow-long-span       Replay a feed whose positions span more than 7 days (refused
                              otherwise). At max speed, idle time is skipped: no update is
                              emitted where nothing changed.

    Store:
      --store PATH            Keep the shift in this SQLite store (default: in memory).

    Faults on purpose:
      --discard-batches P     Roll back a random fraction P of batches after they were measured.
      --seed N                Seed for --discard-batches (default 1).
      --interrupt-at SECONDS  End capture at this shift time, as a killed app: the unsaved batch
                              is lost and capture resumes in a new session after --relaunch-after.
      --relaunch-after SECONDS  Downtime of the interruption (default 30).

    Output:
      --json                  JSON Lines even on a terminal.

    \(MeasureOptions.help)

    \(MeasureOptions.timelineHelp)
    """

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name,
      options: MeasureOptions.valueOptions.union(MeasureOptions.timelineValueOptions).union([
        "speed", "refresh", "route-update", "batch-seconds", "store", "discard-batches", "seed",
        "interrupt-at", "relaunch-after",
      ]),
      flags: MeasureOptions.flagOptions.union(MeasureOptions.timelineFlagOptions).union([
        "help", "json", "allow-long-span",
      ]))
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    let options = try MeasureOptions(arguments)
    if options.settings.recordingChoice != nil {
      // A live feed has no recordings to choose between: it is what one device sends.
      throw .usage(
        "replay plays a feed as one live device; --track and --device are for measure, batch, import and pipe",
        command: name)
    }
    guard options.settings.filter != nil else {
      throw .usage("replay captures through the filter; --no-filter does not apply", command: name)
    }
    guard arguments.operands.count == 1, let feedPath = arguments.operands.first else {
      throw .usage("replay plays exactly one feed", command: name)
    }
    var settings = LiveReplay.Settings()
    if let speed = arguments.value("speed") {
      if speed == "max" {
        settings.speed = nil
      } else {
        guard let factor = Double(speed), factor.isFinite, factor >= LiveReplay.speedRange.lowerBound,
          factor <= LiveReplay.speedRange.upperBound
        else {
          throw .usage(
            "--speed needs a factor from 0.001 to 1000000 (shift seconds per real second) or 'max', not '\(speed)'",
            command: name)
        }
        settings.speed = factor
      }
    } else {
      settings.speed = 1
    }
    func positive(_ option: String) throws(CLIError) -> Double? {
      guard let value = try arguments.double(option, minimum: 0) else { return nil }
      guard value > 0 else { throw .usage("--\(option) must be more than 0", command: name) }
      return value
    }
    settings.refresh = try positive("refresh") ?? settings.refresh
    settings.routeUpdate = try arguments.double("route-update", minimum: 0) ?? settings.routeUpdate
    settings.batchSeconds = try positive("batch-seconds") ?? settings.batchSeconds
    if let fraction = try arguments.double("discard-batches", minimum: 0) {
      guard fraction <= 1 else { throw .usage("--discard-batches is a fraction from 0 to 1", command: name) }
      settings.discardFraction = fraction
    }
    settings.seed = UInt64(try arguments.integer("seed", minimum: 0) ?? 1)
    settings.interruptAt = try arguments.double("interrupt-at", minimum: 0)
    if arguments.value("relaunch-after") != nil, settings.interruptAt == nil {
      throw .usage(
        "--relaunch-after is the downtime of an interruption: it needs --interrupt-at SECONDS", command: name)
    }
    settings.relaunchAfter = try arguments.double("relaunch-after", minimum: 0) ?? settings.relaunchAfter
    settings.allowLongSpan = arguments.has("allow-long-span")

    let source: FileByteSource
    do {
      source = try FileByteSource(path: feedPath)
    } catch {
      throw .failure("\(feedPath): \(error)")
    }
    let store: RouteStore
    if let path = arguments.value("store") {
      store = try openStore(path)
    } else {
      do {
        store = try RouteStore.inMemory()
      } catch {
        throw .failure("\(error)")
      }
    }
    let record: ShiftTimelineFile.Record?
    do {
      record = try options.reading.timelineRecord(forFeed: feedPath)
    } catch {
      throw .failure("\(error)")
    }
    let display = ReplayDisplay(
      console: console, locale: options.locale, json: arguments.has("json") || !console.outputIsTerminal)
    var replay = LiveReplay(
      feedPath: feedPath, source: source, reading: options.reading, locale: options.locale, settings: settings,
      store: store, storePath: arguments.value("store"), record: record, observe: display.show)
    LiveReplay.stopRequested.store(false, ordering: .relaxed)
    // A parent may have started us with SIGINT blocked (a test runner's thread does): unblock
    // it, or Ctrl-C would never reach the replay.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    let previous = signal(SIGINT) { _ in LiveReplay.stopRequested.store(true, ordering: .relaxed) }
    defer { signal(SIGINT, previous) }
    do {
      return display.finish(try replay.run(), replay, feedPath: feedPath)
    } catch let refusal as ReplayRefusal {
      throw .failure(refusal.description)
    } catch {
      throw .failure("\(feedPath): \(error)")
    }
  }
}
