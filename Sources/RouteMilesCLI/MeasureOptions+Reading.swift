import RouteIngest
import RouteMileage

extension MeasureOptions {
  /// The parsed options as the workflows take them.
  var reading: FeedReading {
    FeedReading(inputFormat: inputFormat, feedOptions: feedOptions, settings: settings, timelineSource: timelineSource)
  }
}

extension ZoneInfo {
  /// `--time-zone NAME`'s rules; a zone that cannot be loaded is a usage error.
  static func load(_ name: String, command: String?) throws(CLIError) -> ZoneRules {
    do throws(ZoneInfo.Failure) {
      return try load(name)
    } catch {
      throw .usage(error.description, command: command)
    }
  }
}
