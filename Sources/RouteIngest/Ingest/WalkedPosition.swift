import RouteMileage

/// What the filter-off walk reads of a sorted sample: its position and the index of the recording
/// it came from (nil when it came with none). Decoded straight from a `PackedSample` record, so a
/// sorted position reaches the walk without the whole 136-byte `TimeOrderedSample` being built.
struct WalkedPosition {
  var position: RoutePosition
  var session: Int?
}
