/// The readers and scanners hold a feed part-read: a record cut at a chunk's end, an epoch
/// still gathering sentences, an open element, a window of inflated bytes. One thread reads one
/// feed from its first chunk to `finish`, so none of them may be shared or handed to another
/// thread mid-feed; the pipelined ingest (`FeedPipeline`) keeps the reader on the calling thread
/// and sends only finished record batches across. These declarations make a `Sendable` use a
/// compile error instead of a race.
@available(*, unavailable) extension AnyFeedReader: Sendable {}
@available(*, unavailable) extension CSVReader: Sendable {}
@available(*, unavailable) extension NMEAReader: Sendable {}
@available(*, unavailable) extension NMEAEpochAssembler: Sendable {}
@available(*, unavailable) extension GPXReader: Sendable {}
@available(*, unavailable) extension TCXReader: Sendable {}
@available(*, unavailable) extension KMLReader: Sendable {}
@available(*, unavailable) extension XMLScanner: Sendable {}
@available(*, unavailable) extension GeoJSONReader: Sendable {}
@available(*, unavailable) extension TakeoutReader: Sendable {}
@available(*, unavailable) extension OwnTracksReader: Sendable {}
@available(*, unavailable) extension FITReader: Sendable {}
@available(*, unavailable) extension JSONTokenizer: Sendable {}
@available(*, unavailable) extension JSONValueBuilder: Sendable {}
@available(*, unavailable) extension GzipInflater: Sendable {}
@available(*, unavailable) extension ZipDocumentReader: Sendable {}
@available(*, unavailable) extension DecompressingByteSource: Sendable {}
