import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// Input that is not a feed is named for what it is: an empty file, a zip inside gzip.
@Suite struct NotAFeedKindTests {
  static func measure(_ bytes: [UInt8], chunkSize: Int = 1 << 16) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return FeedIngest.measure(&source)
  }

  @Test func anEmptyInputIsTheFileIsEmpty() {
    let measured = Self.measure([])
    #expect(measured.report.failure == .notAFeed(.empty))
    #expect(
      measured.report.failure?.description
        == "the file is empty: it holds no bytes, so nothing was recorded in it (or it was not copied or downloaded whole)"
    )
    #expect(measured.report.failure?.stopsReadingPartway == false)
    // Gzip of nothing is an empty feed too; one blank line is not empty (a CSV with no header).
    #expect(Self.measure(Gzip.compress([])).report.failure == .notAFeed(.empty))
    #expect(Self.measure(Array("\n".utf8)).report.failure != .notAFeed(.empty))
  }

  @Test func aZipInsideGzipIsNamedAsSuch() {
    let kml = Array("<kml><Document></Document></kml>\n".utf8)
    let kmz = Zip.archive([Zip.Entry("doc.kml", kml)])
    for chunk in [3, 1 << 16] {
      let measured = Self.measure(Gzip.compress(kmz), chunkSize: chunk)
      #expect(measured.report.failure == .notAFeed(.gzippedZip))
      #expect(
        measured.report.failure?.description
          == "this is a zip archive compressed with gzip (a .kmz.gz), not a feed: routemiles opens one layer; decompress it first (gunzip -k FILE) and read the .kmz it gives"
      )
    }
  }
}
