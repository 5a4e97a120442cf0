#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteFeeds
import RouteIngest
import RouteMileage

/// Where a feed's shift timeline comes from (`--timeline`, the sidecar, or nowhere).
enum TimelineSource: Equatable {
  /// No timeline: `--no-timeline`, standard input, or a command that takes none.
  case none
  /// The file beside each feed, `drive.csv` → `drive.timeline.jsonl`, when there is one.
  case sidecar
  /// `--timeline FILE`, for every feed of the command.
  case file(String)
}

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

  /// The timeline file read for the feed at `path` (its shift events, deliveries and clamps):
  /// `--timeline`, else its sidecar when one exists.
  ///
  /// - Throws: the timeline file's failure, naming file, line and rule.
  func timelineRecord(forFeed path: String) throws(ShiftTimelineFile.Failure) -> ShiftTimelineFile.Record? {
    switch timelineSource {
    case .none:
      return nil
    case .file(let file):
      return try ShiftTimelineFile.readRecord(path: file)
    case .sidecar:
      guard path != "-" else { return nil }
      let sidecar = ShiftTimelineFile.sidecarPath(forFeed: path)
      guard access(sidecar, F_OK) == 0 else { return nil }
      return try ShiftTimelineFile.readRecord(path: sidecar)
    }
  }

  /// The timeline for the feed at `path`: `--timeline`, else its sidecar when one exists.
  ///
  /// - Throws: the timeline file's failure, naming file, line and rule.
  func timeline(forFeed path: String) throws(ShiftTimelineFile.Failure) -> ShiftTimeline? {
    try timelineRecord(forFeed: path)?.timeline
  }

  /// The ingest settings for one feed, with its timeline.
  func settings(forFeed path: String) throws(ShiftTimelineFile.Failure) -> IngestSettings {
    settings(with: try timelineRecord(forFeed: path))
  }

  /// The ingest settings with `record`'s timeline, when there is one. Only the timeline reaches
  /// the ingest: deliveries never touch the route.
  func settings(with record: ShiftTimelineFile.Record?) -> IngestSettings {
    var settings = settings
    if let record {
      settings.timeline = record.timeline
      settings.window = nil
    }
    return settings
  }
}
