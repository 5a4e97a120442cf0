import RouteMileage

/// Passes records through to a sink and remembers whether any was unreadable: a reader's
/// `finish` wraps its sink in one to learn whether the feed's unterminated last line — the
/// only place a cut-off text feed shows — could be read.
///
/// - Complexity: O(1) per record.
struct LastLineWatch<Sink: FeedSink>: FeedSink {
  var sink: Sink
  private(set) var sawUnreadable = false

  init(_ sink: Sink) { self.sink = sink }

  mutating func position(_ sample: RouteSample, session: Int?, line: Int) {
    sink.position(sample, session: session, line: line)
  }
  mutating func rejected(_ reason: FeedReason, line: Int) { sink.rejected(reason, line: line) }
  mutating func unreadable(_ reason: FeedReason, line: Int) {
    sawUnreadable = true
    sink.unreadable(reason, line: line)
  }
  mutating func ignored(_ reason: FeedReason, line: Int) { sink.ignored(reason, line: line) }
  mutating func noted(_ reason: FeedReason, line: Int) { sink.noted(reason, line: line) }
}

extension FeedError {
  /// A text feed whose last line has no line end and cannot be read: the file was cut off there.
  static func cutOffLastLine(_ line: Int) -> FeedError {
    .truncated(line: line, detail: "its last line has no line end and cannot be read, so the file looks cut off there")
  }
}
