import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// KMZ: a zip archive whose first `.kml` entry is the document, read through its local headers
/// as a stream. Built here from the real KML fixtures (stored, deflated, with data descriptors,
/// zip64, behind other entries), each measuring exactly like the plain KML; damaged archives are
/// errors naming the byte offset.
@Suite struct KMZInputTests {
  static let fixtures = [
    "realdata/kml/gpsbabel_google-ext.kml", "realdata/kml/gpsbabel_opentracks.kml",
    "realdata/kml/gpsbabel_skydrop.kml", "realdata/kml/togeojson_multitrack.kml",
  ]

  static func measure(_ bytes: [UInt8], filter: Bool = true, chunkSize: Int = 1 << 20) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return FeedIngest.measure(&source, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
  }

  /// The failure of reading `bytes`, as a zip error's offset and words.
  static func archiveError(_ bytes: [UInt8]) -> (offset: Int, detail: String)? {
    guard case .badArchive(let offset, let detail)? = measure(bytes).report.failure else { return nil }
    return (offset, detail)
  }

  static let icon = Array((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })

  /// Every way a writer lays the document out, each measuring to the bit like the KML itself.
  static func variants(_ kml: [UInt8]) -> [(String, [UInt8])] {
    [
      ("deflated", Zip.archive([.init("doc.kml", kml)])),
      ("stored", Zip.archive([.init("doc.kml", kml, deflated: false)])),
      ("data descriptor", Zip.archive([.init("doc.kml", kml, dataDescriptor: true)])),
      ("zip64", Zip.archive([.init("doc.kml", kml, zip64: true)])),
      ("zip64 descriptor", Zip.archive([.init("doc.kml", kml, dataDescriptor: true, zip64: true)])),
      (
        "behind other entries",
        Zip.archive([
          .init("files/", []), .init("files/icon.png", icon, deflated: false),
          .init("files/style.xml", icon, dataDescriptor: true),
          .init("files/notes.txt", icon, claimedMethod: 12), .init("Track.KML", kml),
          .init("second.kml", Array("junk".utf8)),
        ])
      ),
    ]
  }

  @Test(arguments: fixtures)
  func aKMZMeasuresExactlyLikeItsKML(_ fixture: String) throws {
    let kml = try Fixtures.bytes(fixture)
    for filter in [true, false] {
      let expected = Self.measure(kml, filter: filter)
      #expect(expected.format == .kml)
      #expect(expected.report.failure == nil)
      #expect(expected.report.records > 0)
      for (name, kmz) in Self.variants(kml) {
        let measured = Self.measure(kmz, filter: filter)
        // The one variant with a second `.kml` after the document says so, and only that.
        var expected = expected
        if name == "behind other entries" { expected.report.notes[.otherKMLDocuments] = 1 }
        #expect(measured == expected, "\(name), filter \(filter)")
        #expect(measured.distance.meters.bitPattern == expected.distance.meters.bitPattern, "\(name): to the bit")
        #expect(Self.measure(kmz, filter: filter, chunkSize: 1) == expected, "\(name): 1-byte reads")
        #expect(Self.measure(kmz, filter: filter, chunkSize: 777) == expected, "\(name): 777-byte reads")
      }
    }
  }

  /// The figure itself, so a change that broke KML and KMZ alike would still show.
  @Test func aKMZIsPinnedToTheMetre() throws {
    let kmz = Zip.archive([.init("doc.kml", try Fixtures.bytes("realdata/kml/gpsbabel_skydrop.kml"))])
    let measured = Self.measure(kmz)
    #expect(measured.format == .kml)
    #expect(measured.report.records == 1329)
    #expect(
      measured.report.retained == Self.measure(try Fixtures.bytes("realdata/kml/gpsbabel_skydrop.kml")).report.retained)
    // skydrop has no times, so no figure: a file that has one, held to the real-file table's pins.
    let file = try #require(XMLFormatReadersTests.realFiles.first { $0.name == "kml/gpsbabel_google-ext.kml" })
    let zipped = Zip.archive([.init("doc.kml", try Fixtures.bytes("realdata/\(file.name)"))])
    file.expectPinned(
      format: .kml,
      measure: { settings in
        var source = MemoryByteSource(zipped)
        return FeedIngest.measure(&source, settings: settings)
      })
  }

  @Test func theSourceNamesTheArchive() throws {
    var source = DecompressingByteSource(MemoryByteSource(Zip.archive([.init("doc.kml", Array("<kml/>".utf8))])))
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = try buffer.withUnsafeMutableBufferPointer { pointer throws(FeedError) in try source.read(into: pointer)
    }
    #expect(Array(buffer[0..<count]) == Array("<kml/>".utf8))
    #expect(source.compression == "zip")
  }

  @Test func aZipWithoutKMLNamesWhatItHoldsByKind() {
    let zip = Zip.archive([
      .init("Home to work.gpx", Array("<gpx/>".utf8)), .init("b.GPX", Array("<gpx/>".utf8)), .init("pics/", []),
      .init("pics/x.jpeg", Self.icon, deflated: false), .init("README", Array("hi".utf8)),
    ])
    let failure = Self.measure(zip).report.failure
    #expect(failure == .noFeedInArchive(holding: ["2 .gpx", "1 .jpeg", "1 folder", "1 other"]))
    #expect(
      failure?.description
        == "this is a zip archive, not a feed: it holds no KML document (no entry named *.kml); it holds 2 .gpx, 1 .jpeg, 1 folder, 1 other; routemiles reads a zip only as KMZ; extract the feed files first (unzip FILE)"
    )
    #expect(failure?.description.contains("Home") == false, "entry names are never shown")
    #expect(failure?.stopsReadingPartway == false)
    #expect(Self.measure(zip, chunkSize: 3).report.failure == failure)
    // A hostile archive inventing a kind per entry: 16 kinds are kept apart, the rest are other.
    let many = Zip.archive((0..<40).map { .init("f.x\($0)", [1]) })
    guard case .noFeedInArchive(let holding)? = Self.measure(many).report.failure else {
      Issue.record("expected noFeedInArchive")
      return
    }
    #expect(holding.count == 17)
    #expect(holding.first == "24 other")
  }

  /// Cut anywhere before the document's data ends: an error at the file's end, never a crash;
  /// cut after it (in the central directory): the document is whole and reads as the KML does.
  @Test func aTruncatedKMZIsAnErrorAtItsEnd() throws {
    let kml = try Fixtures.bytes("realdata/kml/togeojson_multitrack.kml")
    let expected = Self.measure(kml)
    for descriptor in [false, true] {
      let (kmz, layout) = Zip.build([
        .init("a.png", Self.icon, deflated: false), .init("doc.kml", kml, dataDescriptor: descriptor),
      ])
      let documentEnd = layout[1].dataEnd + (descriptor ? 16 : 0)
      for length in 4..<kmz.count {
        let measured = Self.measure(Array(kmz[0..<length]), chunkSize: 501)
        #expect(measured.report.isBalanced)
        if length >= documentEnd {
          #expect(measured == expected, "cut at \(length), after the document")
          continue
        }
        guard case .badArchive(let offset, let detail)? = measured.report.failure else {
          Issue.record("cut at \(length): \(String(describing: measured.report.failure))")
          continue
        }
        #expect(offset == length, "cut at \(length)")
        #expect(detail.contains("(it was cut off)"), "\(detail)")
        #expect(measured.report.records <= expected.report.records)
      }
    }
  }

  @Test func aWrongCRCIsAnErrorAtTheEndOfTheData() throws {
    let kml = try Fixtures.bytes("realdata/kml/gpsbabel_opentracks.kml")
    let right = Zip.crc32(kml)
    for deflated in [true, false] {
      let (kmz, layout) = Zip.build([.init("doc.kml", kml, deflated: deflated, claimedCRC: right ^ 0x10)])
      let measured = Self.measure(kmz)
      #expect(measured.report.records == Self.measure(kml).report.records, "what was read stands")
      #expect(measured.report.failure?.stopsReadingPartway == true)
      #expect(
        measured.report.failure
          == .badArchive(
            byteOffset: layout[0].dataEnd,
            detail:
              "the KML entry's CRC-32 does not match (stored \(hex(right ^ 0x10)), computed \(hex(right))): the data is damaged"
          ))
    }
    // In a data descriptor: the offset is after the descriptor.
    var (kmz, layout) = Zip.build([.init("doc.kml", kml, dataDescriptor: true)])
    kmz[layout[0].dataEnd + 4] ^= 0xFF
    #expect(Self.archiveError(kmz)?.offset == layout[0].dataEnd + 16)
    #expect(Self.archiveError(kmz)?.detail.contains("CRC-32 does not match") == true)
  }

  func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  @Test func sizesThatDisagreeWithTheDataAreErrors() throws {
    let kml = try Fixtures.bytes("realdata/kml/togeojson_multitrack.kml")
    let deflatedCount = Zip.deflateRaw(kml).count
    let n = kml.count
    let cases: [(Zip.Entry, String)] = [
      (.init("doc.kml", kml, claimedSize: n + 1), "the KML entry holds \(n) bytes, but its stored size is \(n + 1)"),
      (.init("doc.kml", kml, claimedSize: n - 1), "the entry holds more than its stored size of \(n - 1) bytes"),
      (
        .init("doc.kml", kml, claimedCompressedSize: deflatedCount - 1),
        "the entry's deflate data runs past its stored compressed size (\(deflatedCount - 1) bytes)"
      ),
      (
        .init("doc.kml", kml, claimedCompressedSize: deflatedCount + 1),
        "the entry's deflate data ends after \(deflatedCount) bytes, but its stored compressed size is \(deflatedCount + 1)"
      ),
      (
        .init("doc.kml", kml, deflated: false, claimedSize: n + 5),
        "the KML entry is stored (not compressed) yet its sizes differ (\(n) and \(n + 5) bytes)"
      ),
      (
        .init("doc.kml", kml, zip64: true, claimedSize: Int.max),
        "a zip entry's sizes point to a zip64 field that is missing or damaged"
      ),
    ]
    for (entry, words) in cases {
      let kmz = Zip.archive([entry])
      let error = Self.archiveError(kmz)
      #expect(error?.detail == words, "\(words)")
      #expect((error?.offset ?? -1) >= 0 && (error?.offset ?? .max) <= kmz.count)
      #expect(
        Self.archiveError(kmz) != nil
          && Self.measure(kmz, chunkSize: 5).report.failure == Self.measure(kmz).report.failure)
    }
  }

  @Test func encryptedOtherMethodsAndUnstreamableEntriesAreRefusedByName() throws {
    let kml = try Fixtures.bytes("realdata/kml/gpsbabel_opentracks.kml")
    let png = Zip.Entry("a.png", Self.icon, deflated: false)
    let cases: [([Zip.Entry], String)] = [
      (
        [png, .init("doc.kml", kml, extraFlags: 1)],
        "the KML entry is encrypted; decrypt the archive first (unzip FILE)"
      ),
      (
        [png, .init("doc.kml", kml, claimedMethod: 12)],
        "the KML entry uses compression method 12; only stored (0) and deflate (8) are read; extract it first (unzip FILE)"
      ),
      (
        [png, .init("doc.kml", kml, deflated: false, dataDescriptor: true)],
        "the KML entry is stored with its size after the data, which cannot be read as a stream; extract it first (unzip FILE)"
      ),
    ]
    for (entries, words) in cases {
      let (kmz, layout) = Zip.build(entries)
      let error = Self.archiveError(kmz)
      #expect(error?.detail == words)
      #expect(error?.offset == layout[1].headerOffset)
    }
    let unskippable = Zip.build([
      .init("a.png", Self.icon, deflated: false, dataDescriptor: true), .init("doc.kml", kml),
    ])
    #expect(Self.archiveError(unskippable.bytes)?.offset == 0)
    #expect(Self.archiveError(unskippable.bytes)?.detail.contains("cannot be skipped as a stream") == true)
    // An encrypted entry before the document, its size known, is passed over.
    let skipped = Zip.archive([.init("a.png", Self.icon, extraFlags: 1), .init("doc.kml", kml)])
    #expect(Self.measure(skipped) == Self.measure(kml))
  }

  @Test func damagedDeflateAndGarbageHeadersAreErrors() throws {
    let kml = try Fixtures.bytes("realdata/kml/gpsbabel_google-ext.kml")
    var (kmz, layout) = Zip.build([.init("doc.kml", kml)])
    for index in layout[0].dataOffset..<(layout[0].dataOffset + 40) { kmz[index] = 0xFF }
    let error = Self.archiveError(kmz)
    #expect(error?.detail.hasPrefix("the entry's deflate data is damaged (") == true, "\(String(describing: error))")
    #expect((error?.offset ?? 0) > layout[0].dataOffset)
    let junk =
      Zip.archive([.init("a.png", Self.icon, deflated: false)]).prefix(30 + 5 + Self.icon.count)
      + Array("not a header".utf8)
    #expect(
      Self.measure(Array(junk)).report.failure
        == .badArchive(
          byteOffset: 35 + Self.icon.count,
          detail: "expected a zip entry's local header (PK 03 04) or the central directory"))
  }

  /// A zip bomb: output over 200 times the compressed bytes (past the first MiB) stops reading.
  @Test func aZipBombStopsAtTheRatioLimit() {
    let head = Array("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document><!--".utf8)
    let bomb = head + [UInt8](repeating: 0x20, count: 8 << 20) + Array("--></Document></kml>".utf8)
    let kmz = Zip.archive([.init("doc.kml", bomb)])
    #expect(kmz.count * 200 < bomb.count)
    let error = Self.archiveError(kmz)
    #expect(error?.detail.contains("expands more than 200 times its compressed size, as a zip bomb does") == true)
    #expect((error?.offset ?? .max) < kmz.count)
    // The same bytes stored are read: the limit is on the ratio, not the size.
    #expect(
      Self.measure(Zip.archive([.init("doc.kml", bomb, deflated: false)])).report.failure == nil,
      "a stored document is never a bomb")
  }
}
