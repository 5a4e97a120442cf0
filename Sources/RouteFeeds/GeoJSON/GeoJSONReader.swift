/// Reads GeoJSON (RFC 7946) as a byte stream on the shared JSON tokenizer (`JSONTokenizer`),
/// so the JSON rules, errors and limits are those of every JSON format here; only the mapping
/// differs (`GeoJSONMapper`).
///
/// What becomes a position (see docs/formats/geojson.md):
/// - a `LineString`'s or `MultiLineString`'s coordinates, with per-coordinate times from
///   `properties.coordTimes` (flat for one line, nested per line) or
///   `properties.coordinateProperties.times`; each line is one capture session;
/// - a `Point` feature's coordinate, with its time from `properties.time` (ISO 8601, or a
///   number), `timestamp`, or `time_long` (epoch milliseconds), and its accuracy from
///   `accuracy`, `acc`, `hAccuracy`, `horizontalAccuracy` or `hAcc`; consecutive Point features
///   are one capture session (GPSLogger writes one feature per fix).
///
/// Every coordinate is accounted for: without a time it is `missingTime`, with an unreadable
/// one `badTime`, a malformed one `badNumber`, a Polygon's vertex `polygonVertex`.
///
/// Memory: member order is free in JSON, so a feature whose `properties` (the times) come after
/// its `geometry`, or whose geometry's `type` comes after its `coordinates`, has its coordinates
/// held until the feature ends — bounded by the largest feature, never the file. A feature
/// written properties-first and type-first streams in constant memory, apart from its times.
///
/// - Complexity: O(*n*) in the feed's length.
public struct GeoJSONReader: FeedReader {
  var tokenizer = JSONTokenizer()
  var mapper = GeoJSONMapper()
  /// Whether whole Point features are read from their bytes (`GeoJSONPointFeature`); off, every
  /// feature is read token by token (the tests compare the two).
  var readsPointFeaturesFromBytes = true
  /// How many features were read from their bytes, for the tests.
  private(set) var pointFeaturesReadFromBytes = 0

  public init(options: FeedOptions) { mapper.timestamps = ISO8601DayCache(zone: options.timeZone) }

  /// Bytes held between chunks: the tokenizer's scratch and the mapper's feature state.
  var heldBytes: Int { tokenizer.scratchCapacity + mapper.heldCapacity }

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    do {
      if readsPointFeaturesFromBytes, mapper.readsFeatures { readPointFeatures(chunk, into: &sink) }
      while let token = try tokenizer.next(in: chunk) {
        try mapper.take(token, into: &sink)
        // Where a feature may start next: after the features array opens, after a feature ends.
        if token.kind == .endObject || token.kind == .beginArray, readsPointFeaturesFromBytes, mapper.readsFeatures {
          readPointFeatures(chunk, into: &sink)
        }
      }
    } catch {
      throw failed(error, into: &sink)
    }
  }

  /// Reads the Point features from the tokenizer's place in `chunk` straight from their bytes
  /// (`GeoJSONPointFeature`), until one is not of that shape, the array ends or the chunk does;
  /// the tokenizer then reads on from that feature's `{` (or the byte that stopped it).
  private mutating func readPointFeatures(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) {
    // The feature, its geometry and its coordinates: three levels below the array.
    guard let base = chunk.baseAddress, tokenizer.depth + 3 <= tokenizer.maximumDepth else { return }
    while let start = tokenizer.objectElementStart(in: chunk) {
      var scan = GeoJSONPointFeatureScan(base, bound: chunk.count, from: start)
      guard let point = scan.feature(timestamps: &mapper.timestamps),
        scan.index - start <= tokenizer.maximumTokenLength
      else { return }
      let line = tokenizer.line + point.linesBeforeCoordinates
      tokenizer.endValue(at: scan.index, lines: scan.lines)
      mapper.take(point, line: line, into: &sink)
      pointFeaturesReadFromBytes += 1
    }
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    do {
      while let token = try tokenizer.finish() { try mapper.take(token, into: &sink) }
    } catch {
      throw failed(error, into: &sink)
    }
    mapper.finish(into: &sink)
  }

  /// Delivers what the broken feature had read, and says where and why reading stopped.
  private mutating func failed(_ error: JSONSyntaxError, into sink: inout some FeedSink) -> FeedError {
    mapper.finish(into: &sink)
    return error.isTruncation
      ? .truncated(line: error.line, detail: error.detail) : .malformed(line: error.line, detail: error.detail)
  }
}

extension FeedReason {
  /// A vertex of a GeoJSON `Polygon` or `MultiPolygon`: the outline of an area, not a recorded
  /// path.
  public static let polygonVertex = FeedReason("polygonVertex")
}
