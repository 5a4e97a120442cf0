import RouteFeeds
import RouteMileage

/// What a reader delivered, recorded in order for a second thread to replay (`FeedPipeline`).
///
/// Positions, the hot case, are kept apart from everything else so recording one is a single
/// append of plain values. Every other record (and every chunk end) notes how many positions of
/// the batch came before it, which restores the exact interleaving on replay.
struct FeedEventBatch: Sendable {
  struct Position: Sendable {
    var sample: RouteSample
    var session: Int?
    var line: Int
  }

  /// A record that is not a position, or (nil) the end of a chunk of the feed.
  struct Other: Sendable {
    var record: FeedRecord?
    var positionsBefore: Int
  }

  var positions: [Position] = []
  var others: [Other] = []
  /// The feed's last batch: the reader has finished (or stopped).
  var isLast = false

  init() {}

  init(capacity: Int) {
    positions.reserveCapacity(capacity)
    others.reserveCapacity(min(capacity, 256))
  }

  /// Empties the batch for reuse, keeping its storage (no allocation per batch).
  mutating func clear() {
    positions.removeAll(keepingCapacity: true)
    others.removeAll(keepingCapacity: true)
    isLast = false
  }

  /// Delivers the batch to `sink` in the order it was recorded; at each chunk end calls
  /// `chunkEnded()`, and stops (returning false) as soon as that says to.
  ///
  /// - Complexity: O(records in the batch).
  func replay<Sink: ChunkAwareFeedSink>(into sink: inout Sink) throws -> Bool {
    var nextPosition = 0
    for other in others {
      while nextPosition < other.positionsBefore {
        let position = positions[nextPosition]
        sink.position(position.sample, session: position.session, line: position.line)
        nextPosition += 1
      }
      if let record = other.record {
        record.deliver(to: &sink)
      } else if try !sink.chunkEnded() {
        return false
      }
    }
    while nextPosition < positions.count {
      let position = positions[nextPosition]
      sink.position(position.sample, session: position.session, line: position.line)
      nextPosition += 1
    }
    return true
  }
}
