import RouteFeeds
import RouteIngest
import RouteMileage

extension MeasureOptions {
  /// The timeline options `measure`, `batch`, `import` and `replay` take.
  static let timelineValueOptions: Set<String> = ["timeline"]
  static let timelineFlagOptions: Set<String> = ["no-timeline"]

  static let timelineHelp = """
    Shift timeline:
      --timeline FILE         The shift's timeline, JSON Lines: {"at": "2025-11-04T08:00:00Z",
                              "event": "start"} with events start, pause, resume, park, drive,
                              end. The window is [start, end]; pauses and parks are gaps.
                              Deliveries: accept, arrive, pickup, deliver, cancel with
                              "delivery": "d1" (and "offer": "o1" on accept).
      --no-timeline           Do not pick up a feed's sidecar timeline (drive.csv →
                              drive.timeline.jsonl), which is otherwise used automatically.
    """

  /// Reads `--timeline` / `--no-timeline`; the sidecar is the default.
  static func timelineSource(_ arguments: Arguments) throws(CLIError) -> TimelineSource {
    let command = arguments.command
    let file = arguments.value("timeline")
    if arguments.has("no-timeline") {
      if file != nil { throw .usage("--timeline and --no-timeline contradict each other", command: command) }
      return .none
    }
    if let file {
      if arguments.value("shift-start") != nil || arguments.value("shift-end") != nil {
        throw .usage("--timeline gives the shift's window; leave out --shift-start and --shift-end", command: command)
      }
      return .file(file)
    }
    // An explicit window is the user's word about this shift; a sidecar is not looked for then.
    if arguments.value("shift-start") != nil { return .none }
    return .sidecar
  }
}
