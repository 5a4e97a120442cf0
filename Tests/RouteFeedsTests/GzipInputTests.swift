import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// Gzip around any feed: decompressed as a stream, detected by its magic bytes, measuring exactly
/// like the plain file; damaged or cut-off compression is an error with the compressed offset.
@Suite struct GzipInputTests {
  static let fixtures = [
    "realdata/gpx/gpsbabel_garmin-edge-800.gpx", "realdata/gpx/gpxpy_cerknicko-jezero.gpx",
    "realdata/nmea/genivi_geko-regensburg-car.nmea", "realdata/csv/gpsbabel_v900-advanced.csv",
    "realdata/fit/gpsbabel_garmin-edge-800.fit", "realdata/fit/fitparse_sample-mulitple-header.fit",
  ]

  static func measure(_ bytes: [UInt8], filter: Bool = true, chunkSize: Int = 1 << 20) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return FeedIngest.measure(&source, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
  }

  /// The acceptance rule: a `.gpx.gz` (or any feed gzipped) measures exactly like the plain file,
  /// filter on and off: the same `FeedMeasurement`, format, figure, report and all.
  @Test(arguments: fixtures)
  func aGzippedFeedMeasuresExactlyLikeThePlainOne(_ fixture: String) throws {
    let plain = try Fixtures.bytes(fixture)
    let compressed = Gzip.compress(plain)
    #expect(compressed.count < plain.count)
    for filter in [true, false] {
      let expected = Self.measure(plain, filter: filter)
      #expect(Self.measure(compressed, filter: filter) == expected, "filter \(filter)")
      // A source that hands out one byte at a time, and small chunks, change nothing.
      #expect(Self.measure(compressed, filter: filter, chunkSize: 1) == expected, "1-byte reads")
      #expect(Self.measure(compressed, filter: filter, chunkSize: 777) == expected, "777-byte reads")
    }
  }

  /// Members are concatenated, as gunzip does; zero padding after the last is skipped.
  @Test func multipleMembersAreOneStream() throws {
    let plain = try Fixtures.bytes("realdata/gpx/gpsbabel_garmin-edge-800.gpx")
    let thirds = [0, plain.count / 3, 2 * plain.count / 3, plain.count]
    var members: [UInt8] = []
    for index in 0..<3 {
      members += Gzip.compress(Array(plain[thirds[index]..<thirds[index + 1]]), level: Int32(1 + index * 4))
    }
    let expected = Self.measure(plain)
    #expect(Self.measure(members) == expected)
    #expect(Self.measure(members + [UInt8](repeating: 0, count: 512)) == expected, "zero padding")
    #expect(Self.measure(Gzip.compress([])).report == Self.measure([]).report, "an empty member is an empty feed")
  }

  @Test func bytesAfterTheGzipDataAreAnErrorWithTheirOffset() throws {
    let plain = try Fixtures.bytes("realdata/gpx/gpxpy_cerknicko-jezero.gpx")
    let compressed = Gzip.compress(plain)
    for tail: [UInt8] in [Array("garbage".utf8), [0, 0, 0x41]] {
      let measured = Self.measure(compressed + tail)
      #expect(measured.report.records == Self.measure(plain).report.records, "everything before it is read")
      guard case .badCompression(let offset, let detail)? = measured.report.failure else {
        Issue.record("expected badCompression, got \(String(describing: measured.report.failure))")
        continue
      }
      #expect(offset == compressed.count + tail.count - (tail[0] == 0 ? 1 : tail.count))
      #expect(detail.contains("neither another gzip member nor zero padding"))
    }
  }

  /// Cut anywhere: an error naming the compressed offset, never a crash; what was decompressed
  /// before the cut is read.
  @Test func aTruncatedGzipIsAnErrorAtItsEnd() throws {
    let plain = try Fixtures.bytes("realdata/gpx/gpsbabel_garmin-edge-800.gpx")
    let compressed = Gzip.compress(plain)
    let whole = Self.measure(plain).report.records
    for length in stride(from: 2, to: compressed.count, by: max(1, compressed.count / 97)) + [compressed.count - 1] {
      let measured = Self.measure(Array(compressed[0..<length]))
      #expect(measured.report.isBalanced)
      #expect(measured.report.records <= whole)
      guard case .badCompression(let offset, let detail)? = measured.report.failure else {
        Issue.record("cut at \(length): \(String(describing: measured.report.failure))")
        continue
      }
      #expect(offset == length, "cut at \(length)")
      #expect(detail.contains("cut off"))
    }
  }

  /// Damage inside the deflate data or its CRC-32: zlib's reason and offset, never a crash.
  @Test func damagedCompressedDataIsAnErrorNamingZlibsReason() throws {
    let plain = try Fixtures.bytes("realdata/csv/gpsbabel_v900-advanced.csv")
    var compressed = Gzip.compress(plain)
    compressed[compressed.count - 6] ^= 0xFF  // inside the trailer's CRC-32
    let measured = Self.measure(compressed)
    #expect(
      measured.report.records == Self.measure(plain).report.records,
      "all decompressed rows were read before the check failed")
    guard case .badCompression(let offset, let detail)? = measured.report.failure else {
      Issue.record("expected badCompression, got \(String(describing: measured.report.failure))")
      return
    }
    #expect(detail == "incorrect data check")
    #expect(offset > compressed.count - 9 && offset <= compressed.count)
    // A bad block type in the first block header.
    var badBlock = Gzip.compress(plain)
    badBlock[10] = 0x07  // BFINAL 1, BTYPE 11 (reserved)
    guard case .badCompression(_, let reason)? = Self.measure(badBlock).report.failure else {
      Issue.record("expected badCompression")
      return
    }
    #expect(reason == "invalid block type")
  }

  /// Random bytes behind a gzip magic: an error, never a crash, in any chunks.
  @Test func randomBytesBehindTheMagicNeverCrash() {
    var generator = SeededRandom(seed: 7)
    for round in 0..<60 {
      let length = Int(generator.next() % 300)
      let bytes: [UInt8] =
        [0x1F, 0x8B, round % 3 == 0 ? 0x08 : UInt8(truncatingIfNeeded: generator.next())]
        + (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      let whole = Self.measure(bytes)
      #expect(whole.report.isBalanced)
      #expect(whole.report.failure != nil, "round \(round)")
      #expect(Self.measure(bytes, chunkSize: 1) == whole, "round \(round)")
    }
  }

  /// Detection is by content: plain bytes are never decompressed, whatever they are called.
  @Test func plainInputPassesThroughUntouched() throws {
    var source = DecompressingByteSource(MemoryByteSource([0x1F, 0x41, 0x42], chunkSize: 1))
    var buffer = [UInt8](repeating: 0, count: 8)
    var out: [UInt8] = []
    while true {
      let count = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
      if count == 0 { break }
      out += buffer[0..<count]
    }
    #expect(out == [0x1F, 0x41, 0x42])
    #expect(source.compression == nil)
  }
}
