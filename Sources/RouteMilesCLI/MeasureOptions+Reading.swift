import RouteIngest

extension MeasureOptions {
  /// The parsed options as the workflows take them.
  var reading: FeedReading {
    FeedReading(inputFormat: inputFormat, feedOptions: feedOptions, settings: settings, timelineSource: timelineSource)
  }
}
