/// How the tool writes a span of time: the one place, for every command and picture.
///
/// Two forms, for two uses:
///
///     DurationWords.short(7_530)   // "2h 05m": a stretch, a gap, a pause, working time in a list
///     DurationWords.clock(7_530)   // "2:05:30": a running clock (replay's card, progress ETA)
public enum DurationWords {
  /// A duration in seconds as `2h 05m`, `4m 10s` or `12s`, rounded to the nearest second, for
  /// explanations; `?` when it is not finite.
  ///
  /// - Complexity: O(1).
  public static func short(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "?" }
    let whole = Int64(seconds.rounded())
    let hours = whole / 3600
    let minutes = whole / 60 % 60
    let secs = whole % 60
    if hours > 0 { return "\(hours)h \(twoDigits(minutes))m" }
    if minutes > 0 { return "\(minutes)m \(twoDigits(secs))s" }
    return "\(secs)s"
  }

  /// A duration in seconds as a clock, `H:MM:SS` (`0:05:03`, `26:00:00`): whole seconds
  /// elapsed, rounded down as a clock shows them, never negative; `-:--:--` when it is not
  /// finite.
  ///
  /// - Complexity: O(1).
  public static func clock(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "-:--:--" }
    let whole = max(0, Int64(min(seconds, 9e15).rounded(.down)))
    return "\(whole / 3600):\(twoDigits(whole / 60 % 60)):\(twoDigits(whole % 60))"
  }

  static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
