import RouteMileage

/// Why a feed could not be read to the end. The records delivered before the error stand.
///
/// Every message says what was wrong and, where there is one, what to do about it. None
/// contains a coordinate.
public enum FeedError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The document is not well-formed at `line` (GPX); `detail` says what was expected.
  case malformed(line: Int, detail: String)
  /// The feed ended in the middle of a document or record.
  case truncated(line: Int, detail: String)
  /// An NMEA log whose sentences carry only a time of day and no date (no RMC or ZDA).
  case needsDate(line: Int)
  /// A CSV header whose columns could not be mapped to a timestamp, latitude and longitude.
  case unmappedColumns(line: Int, detail: String)
  /// The input could not be read at all (I/O).
  case unreadableInput(detail: String)
  /// The file is not a feed's text: compressed, an archive, UTF-16, or binary. Nothing is read.
  case notAFeed(FeedFileKind)
  /// The feed was read to its end, but not one of its records could be read; `reasons` says
  /// why, by count.
  case nothingReadable(records: Int, reasons: [FeedReason: Int])
  /// A feed stored out of time order is sorted through a temporary file past a limit, and that
  /// file could not be created, written or read (`$TMPDIR` missing, read-only or full).
  case temporaryStorage(detail: String)
  /// A binary feed (FIT) that breaks its format at `byteOffset` (0-based, in the feed's bytes:
  /// the decompressed ones when the file was gzipped); `detail` says what was expected.
  case malformedData(byteOffset: Int, detail: String)
  /// Gzip-compressed input whose compressed bytes are damaged or cut off at `byteOffset`
  /// (0-based, in the file as stored).
  case badCompression(byteOffset: Int, detail: String)
  /// A zip archive (KMZ) whose structure is damaged, cut off or not readable as a stream at
  /// `byteOffset` (0-based, in the file as stored): a bad header, a wrong size or CRC-32, an
  /// encrypted document, a zip bomb's ratio.
  case badArchive(byteOffset: Int, detail: String)
  /// A zip archive with no KML document in it; `holding` counts what it holds instead, by kind
  /// ("2 .gpx", "1 folder"), never by entry name. Nothing is read.
  case noFeedInArchive(holding: [String])
  /// `--track` or `--device` named a recording the feed does not hold; `present` lists those it
  /// does (in file order).
  case noSuchRecording(asked: FeedRecording, present: [FeedRecording])

  /// The line the problem is on, when there is one.
  public var line: Int? {
    switch self {
    case .malformed(let line, _), .truncated(let line, _), .needsDate(let line),
      .unmappedColumns(let line, _):
      line
    case .unreadableInput, .notAFeed, .nothingReadable, .temporaryStorage, .malformedData, .badCompression, .badArchive,
      .noFeedInArchive, .noSuchRecording:
      nil
    }
  }

  /// The byte offset the problem is at, for binary and compressed input.
  public var byteOffset: Int? {
    switch self {
    case .malformedData(let offset, _), .badCompression(let offset, _), .badArchive(let offset, _): offset
    default: nil
    }
  }

  /// Whether reading stopped partway through the recording, so the route ends where it
  /// stopped (a cut-off or damaged feed, or one that needs a date from some point on). A file
  /// that is not a feed, a header that cannot be mapped, or a feed read to its end with nothing
  /// readable did not stop partway: nothing of it was measured.
  public var stopsReadingPartway: Bool {
    switch self {
    case .malformed, .truncated, .needsDate, .unreadableInput, .malformedData, .badCompression, .badArchive: true
    case .unmappedColumns, .notAFeed, .nothingReadable, .temporaryStorage, .noFeedInArchive, .noSuchRecording: false
    }
  }

  public var description: String {
    switch self {
    case .malformed(_, let detail): "malformed document: \(detail)"
    case .truncated(_, let detail): "the feed ends early: \(detail)"
    case .needsDate:
      "this NMEA log carries times of day but no date (no RMC or ZDA sentence); pass --date YYYY-MM-DD with the UTC date the log starts on"
    case .unmappedColumns(_, let detail): "cannot map the CSV columns: \(detail)"
    case .unreadableInput(let detail): "cannot read the input: \(detail)"
    case .temporaryStorage(let detail):
      "cannot sort the feed by time: \(detail); set TMPDIR to a folder with free space"
    case .notAFeed(.empty): "the file is empty: \(FeedFileKind.empty.advice)"
    case .notAFeed(let kind): "this is \(kind.name), not a feed: \(kind.advice)"
    case .nothingReadable(let records, let reasons):
      "none of its \(MileageLocale.english.counted(records, "record")) could be read ("
        + reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\($0.key.words) \(MileageLocale.english.formattedCount($0.value))" }.joined(separator: ", ") + ")"
    case .malformedData(let offset, let detail): "malformed data at byte \(offset): \(detail)"
    case .badCompression(let offset, let detail): "damaged gzip data at compressed byte \(offset): \(detail)"
    case .badArchive(let offset, let detail): "damaged zip archive at byte \(offset): \(detail)"
    case .noFeedInArchive(let holding):
      "this is a zip archive, not a feed: it holds no KML document (no entry named *.kml)"
        + (holding.isEmpty ? ", no entries at all" : "; it holds \(holding.joined(separator: ", "))")
        + "; routemiles reads a zip only as KMZ; extract the feed files first (unzip FILE)"
    case .noSuchRecording(let asked, let present):
      "the feed holds no \(asked): "
        + (present.isEmpty
          ? "it is one recording with no track or device names; measure it without --track or --device"
          : "its recordings are " + present.map(\.description).joined(separator: ", "))
    }
  }
}
