import RouteFeeds
import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a feed's shift timeline comes from (`--timeline`, the sidecar, or nowhere).
public enum TimelineSource: Equatable, Sendable {
  /// No timeline: `--no-timeline`, standard input, or a command that takes none.
  case none
  /// The file beside each feed, `drive.csv` → `drive.timeline.jsonl`, when there is one.
  case sidecar
  /// `--timeline FILE`, for every feed of the command.
  case file(String)
}

extension FeedReading {
  /// The timeline file read for the feed at `path` (its shift events, deliveries and clamps):
  /// `--timeline`, else its sidecar when one exists.
  ///
  /// - Throws: the timeline file's failure, naming file, line and rule.
  public func timelineRecord(forFeed path: String) throws(ShiftTimelineFile.Failure) -> ShiftTimelineFile.Record? {
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
  public func timeline(forFeed path: String) throws(ShiftTimelineFile.Failure) -> ShiftTimeline? {
    try timelineRecord(forFeed: path)?.timeline
  }

  /// The ingest settings for one feed, with its timeline.
  public func settings(forFeed path: String) throws(ShiftTimelineFile.Failure) -> IngestSettings {
    settings(with: try timelineRecord(forFeed: path))
  }

  /// The ingest settings with `record`'s timeline, when there is one. Only the timeline reaches
  /// the ingest: deliveries never touch the route.
  public func settings(with record: ShiftTimelineFile.Record?) -> IngestSettings {
    var settings = settings
    if let record {
      settings.timeline = record.timeline
      settings.window = nil
    }
    return settings
  }
}
