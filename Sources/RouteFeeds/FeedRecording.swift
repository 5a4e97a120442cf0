/// One recording in a feed: what a single device wrote as one route. Two recordings whose time
/// spans overlap are two routes (see `RecordingSpans`), never added into one figure.
///
/// What a recording is, per format:
/// - GPX: a `<trk>` (its `<trkseg>`s are its capture sessions), numbered 1, 2, … in the file;
/// - TCX: a `Track`; KML: a `gx:Track` (numbered the same way);
/// - Google Takeout `Records.json`: a `deviceTag` (locations without one, raw signals and
///   timeline paths belong to the file's unnamed recording);
/// - OwnTracks: a tracker (`tid`, else `topic`);
/// - FIT, NMEA, CSV, GeoJSON and `pipe` records: the whole file is one unnamed recording.
public enum FeedRecording: Sendable, Hashable, CustomStringConvertible {
  /// A GPX, TCX or KML track, 1-based in file order (`--track N`).
  case track(Int)
  /// A Takeout device or an OwnTracks tracker, by its ID as the file writes it (`--device ID`).
  case device(String)

  /// `track 2`, `device 1234`.
  public var description: String {
    switch self {
    case .track(let number): "track \(number)"
    case .device(let id): "device \(id)"
    }
  }
}
