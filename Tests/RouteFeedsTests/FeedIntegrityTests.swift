import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// Issue #14 (part B), at the feed level: files that are not feeds are named, feeds cut off
/// mid-record are partial, a speed column mapped in knots is converted.
@Suite("Feed integrity")
struct FeedIntegrityTests {
  static func kind(_ bytes: [UInt8]) -> FeedFileKind? {
    bytes.withUnsafeBufferPointer { FeedFileKind.sniff($0) }
  }

  static func csv(rows: Int, north metres: Double = 10) -> String {
    var text = "timestamp,latitude,longitude\n"
    for row in 0..<rows {
      let latitude = 47.0 + Double(row) * metres / 111_195.0
      text += "2025-11-29T08:\(String(format: "%02d:%02d", row / 60, row % 60))Z,\(fixed6(latitude)),8.5\n"
    }
    return text
  }

  @Test func compressedArchivedUTF16AndBinaryFilesAreNamed() {
    var text = Array("timestamp,latitude,longitude\n2025-11-29T08:00:00Z,47.0,8.5\n".utf8)
    #expect(Self.kind(text) == nil)
    #expect(Self.kind([0x1F, 0x8B, 0x08, 0x00] + text) == .gzip)
    #expect(Self.kind([0x50, 0x4B, 0x03, 0x04] + text) == .zip)
    #expect(Self.kind(Array("BZh91AY&SY".utf8) + text) == .bzip2)
    #expect(Self.kind(Array("BZh9".utf8) + text) == nil, "a CSV may start with BZh: the block magic decides")
    #expect(Self.kind([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00] + text) == .xz)
    #expect(Self.kind([0xFF, 0xFE] + text.flatMap { [$0, 0] }) == .utf16)
    #expect(Self.kind(text.flatMap { [0, $0] }) == .utf16, "big-endian, no byte-order mark")
    var random = SeededRandom(seed: 7)
    #expect(Self.kind((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }) == .binary)
    #expect(Self.kind([UInt8](repeating: 0, count: 4096)) == .binary)
    // NUL padding in cells (the Columbus V-900) and UTF-8 names are text.
    text = Array(
      "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W\r\n2419\0\0,T,090204,063821,31.769598N\0,035.208829E\r\n".utf8)
    #expect(Self.kind(text) == nil)
    #expect(Self.kind(Array("Zeit,Breite,Länge,Höhe über NN\n".utf8)) == nil)
    // A text feed whose damage starts after its first line is read line by line, not refused.
    #expect(
      Self.kind(
        Array("timestamp,latitude,longitude\n".utf8) + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
      ) == nil)
  }

  @Test func theIngestNamesTheKindWhateverTheChunking() {
    // gzip is decompressed (#16), so only a file gzipped twice is named gzip.
    let twice = Gzip.compress(Gzip.compress(Array("timestamp,latitude,longitude\n".utf8)))
    for chunk in [1, 3, 1 << 20] {
      var source = MemoryByteSource(twice, chunkSize: chunk)
      let measured = FeedIngest.measure(&source)
      #expect(measured.report.failure == .notAFeed(.gzip))
      #expect(
        measured.report.failure?.description
          == "this is a gzip-compressed file, not a feed: it was compressed twice and routemiles decompresses one layer; decompress it once first (gunzip -k FILE)"
      )
      #expect(measured.report.records == 0)
    }
  }

  @Test func aCSVCutInItsLastLineIsPartialAndSaysWhereReadingStopped() {
    let whole = Self.csv(rows: 30)
    let cut = String(whole.dropLast(12))  // inside the last row's latitude
    let measured = CSVTestSupport.measure(cut)
    #expect(
      measured.report.failure
        == .truncated(
          line: 31,
          detail:
            "its last line has no line end and is shorter than the row before it (a missing column or a number with fewer decimals), so the file looks cut off there"
        ))
    #expect(measured.distance.cutOff == RecordingCutOff(line: 31))
    #expect(measured.distance.isPartial)
    #expect(measured.report.retained == 29)
    let quality = RouteQuality(measured.distance)
    #expect(quality.line == "0.2 mi recorded · partial route")
    #expect(
      quality.detailSentences.contains(
        "Reading stopped at line 31: the recording ends there or cannot be read past it, so anything recorded after it is not included."
      ))
    // A last line without a line end that reads whole is not a cut.
    let unterminated = CSVTestSupport.measure(String(whole.dropLast()))
    #expect(unterminated.report.failure == nil)
    #expect(unterminated.distance.cutOff == nil)
    #expect(unterminated.report.retained == 30)
    // A quoted field still open at the end is a cut too.
    #expect(CSVTestSupport.measure(whole + "\"2025-11-29T09:00:00Z").report.failure?.line == 32)
  }

  @Test func anNMEALogCutInItsLastLineIsPartial() {
    let bodies = (0..<20).map { NMEATestLog.rmc(String(format: "1200%02d.00", $0), "010524", north: Double($0) * 10) }
    let cut = NMEATestLog.lines(bodies) + "$GPRMC,120020.00,A,4722.0"
    let measured = NMEATestRun.measure(cut)
    #expect(measured.report.failure?.line == 21)
    #expect(measured.distance.isPartial)
    #expect(measured.report.retained == 20)
  }

  @Test func aFeedOfNothingButUnreadableRecordsFailsNamingTheReasons() {
    let bodies = (0..<5).map { NMEATestLog.rmc(String(format: "1200%02d.00", $0), "010524", north: Double($0) * 10) }
    let damaged = bodies.map { "$" + $0 + "*ZZ" }.joined(separator: "\n") + "\n"
    let measured = NMEATestRun.measure(damaged)
    #expect(measured.report.failure == .nothingReadable(records: 5, reasons: [.badChecksum: 5]))
    #expect(measured.report.failure?.description == "none of its 5 records could be read (bad checksum 5)")
    #expect(measured.distance.cutOff == nil, "read to its end: nothing was cut off")
  }

  @Test func aSpeedColumnMappedInKnotsIsConvertedToMetresPerSecond() throws {
    let text = "t,lat,lon,speed (knots)\n2025-11-29T08:00:00Z,47.0,8.5,10\n"
    let byHeader = try CSVColumnMapping(parsing: "timestamp=t,latitude=lat,longitude=lon,speed=4")
    let key = try CSVColumnMapping(parsing: "timestamp=1,latitude=2,longitude=3,speed_knots=4")
    for mapping in [byHeader, key] {
      let speed = try #require(CSVTestSupport.read(text, mapping: mapping).sink.samples.first?.speed)
      #expect(abs(speed - 10 * 1852.0 / 3600) < 1e-9, "\(mapping)")
    }
    // Without a unit, the number stands as m/s.
    let plain = try CSVColumnMapping(parsing: "timestamp=1,latitude=2,longitude=3,speed=4")
    let unitless = "t,lat,lon,v\n2025-11-29T08:00:00Z,47.0,8.5,10\n"
    #expect(CSVTestSupport.read(unitless, mapping: plain).sink.samples.first?.speed == 10)
  }
}

/// A number with six decimals, whatever the process's C locale.
private func fixed6(_ value: Double) -> String {
  let micro = Int64((value * 1_000_000).rounded())
  let fraction = String(micro % 1_000_000)
  return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}
