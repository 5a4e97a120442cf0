import RouteMileage

/// A streaming reader for one feed format.
///
/// It is fed the feed's bytes in chunks of any size and keeps whatever state a record split
/// across chunks needs; feeding the same bytes in chunks of 1, 7 or 4096 bytes delivers the same
/// records to the sink. It never holds the whole feed: memory is bounded by its longest record.
public protocol FeedReader {
  /// Scans one more chunk.
  ///
  /// - Throws: `FeedError` when the feed cannot be read further (malformed XML, a CSV whose
  ///   columns cannot be mapped, an NMEA log that needs a date). Records already delivered stand.
  mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError)

  /// Ends the feed: delivers a record still pending (an unterminated last line, a buffered
  /// epoch) and reports a truncated document.
  mutating func finish(into sink: inout some FeedSink) throws(FeedError)
}

/// Settings a reader may need that the feed itself does not carry.
public struct FeedOptions: Sendable, Hashable {
  /// The UTC date an NMEA log starts on (`--date`), for logs whose sentences carry only a time of
  /// day (GGA-only logs). When given it overrides the log's own RMC/ZDA dates; later days follow
  /// by midnight rollover.
  public var date: CivilDate?
  /// An explicit CSV column mapping, for layouts the header matcher does not recognise.
  public var csvColumns: CSVColumnMapping?
  /// Seconds; NMEA starts a new capture session after a silence longer than this. Set from
  /// the ingest's one maximum interval, whatever the caller gave here.
  public var maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval
  /// The zone times written without one are local time in (`--time-zone`); nil reads them as
  /// UTC. See `LocalTimeReading` for the hours a zone change skips or repeats.
  public var timeZone: ZoneRules?

  public init() {}
}
