import RouteFeeds
import RouteMileage

/// How feeds are read and measured: what `measure`, `batch`, `import`, `pipe` and `replay`
/// share once their options are parsed. A value the tool builds and the workflows take.
public struct FeedReading: Sendable {
  /// The format to read, or nil to detect it.
  public var inputFormat: FeedFormat?
  public var feedOptions = FeedOptions()
  public var settings = IngestSettings()
  /// Where each feed's shift timeline comes from.
  public var timelineSource = TimelineSource.none

  public init(
    inputFormat: FeedFormat? = nil, feedOptions: FeedOptions = FeedOptions(),
    settings: IngestSettings = IngestSettings(),
    timelineSource: TimelineSource = .none
  ) {
    self.inputFormat = inputFormat
    self.feedOptions = feedOptions
    self.settings = settings
    self.timelineSource = timelineSource
  }
}
