/// Work done with the reader a feed format needs, written once for every reader:
/// `FeedFormat.withReader` makes that reader and hands it over as its own concrete type, so the
/// work is compiled for each reader (the ingest's hot path stays specialised) rather than behind
/// an existential.
package protocol FeedReaderWork {
  associatedtype Output
  associatedtype Failure: Error
  mutating func run<Reader: FeedReader>(_ reader: Reader) throws(Failure) -> Output
}

extension FeedFormat {
  /// Makes this format's reader and hands it to `work`: the one place a format is paired with
  /// the reader type that reads it (the ingest's pass over a file, `AnyFeedReader` and any other
  /// caller that picks the reader at run time go through here).
  ///
  /// - Complexity: one switch, then whatever `work` does.
  package func withReader<Work: FeedReaderWork>(options: FeedOptions, _ work: inout Work) throws(Work.Failure)
    -> Work.Output
  {
    switch self {
    case .gpx: try work.run(GPXReader(options: options))
    case .nmea: try work.run(NMEAReader(options: options))
    case .csv: try work.run(CSVReader(options: options))
    case .fit: try work.run(FITReader(options: options))
    case .tcx: try work.run(TCXReader(options: options))
    case .kml: try work.run(KMLReader(options: options))
    case .takeout: try work.run(TakeoutReader(options: options))
    case .geojson: try work.run(GeoJSONReader(options: options))
    case .owntracks: try work.run(OwnTracksReader(options: options))
    }
  }
}
