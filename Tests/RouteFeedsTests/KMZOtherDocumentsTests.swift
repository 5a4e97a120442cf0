import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// A KMZ holding more than one `.kml` entry: the first is read, the others are counted by
/// walking the local headers after it (`notes.otherKMLDocuments`), and only when that walk
/// reaches the central directory; the first document's figure is the same either way.
@Suite struct KMZOtherDocumentsTests {
  static let kml = "realdata/kml/togeojson_multitrack.kml"

  static func measure(_ bytes: [UInt8], chunkSize: Int = 1 << 20) -> FeedMeasurement {
    var source = MemoryByteSource(bytes, chunkSize: chunkSize)
    return FeedIngest.measure(&source, settings: IngestSettings(filter: RouteSampleFilter()))
  }

  /// Every layout of the entries after the document (stored, deflated, data descriptors, zip64,
  /// in a folder, any case, an unknown method) is passed over and each `.kml` among them counted.
  @Test func laterKMLEntriesAreCountedWhateverTheirLayout() throws {
    let kml = try Fixtures.bytes(Self.kml)
    let alone = Self.measure(Zip.archive([.init("doc.kml", kml)]))
    #expect(alone.report.failure == nil)
    #expect(alone.report.notes.isEmpty)
    let other = Array("<kml/>".utf8)
    let layouts: [(String, [Zip.Entry], Int)] = [
      ("one deflated", [.init("overlay.kml", other)], 1),
      ("one stored", [.init("overlay.kml", other, deflated: false)], 1),
      ("one with a descriptor", [.init("overlay.kml", kml, dataDescriptor: true)], 1),
      ("zip64 descriptor", [.init("a/B.KML", kml, dataDescriptor: true, zip64: true)], 1),
      (
        "three among others",
        [
          .init("files/", []), .init("files/icon.png", KMZInputTests.icon, deflated: false), .init("x.kml", other),
          .init("files/style.xml", KMZInputTests.icon, dataDescriptor: true), .init("y.kml", other, claimedMethod: 12),
          .init("z.kml", kml, zip64: true),
        ],
        3
      ),
      ("none, only other files", [.init("files/icon.png", KMZInputTests.icon), .init("kml.txt", other)], 0),
    ]
    for (name, rest, others) in layouts {
      let kmz = Zip.archive([.init("doc.kml", kml)] + rest)
      for chunkSize in [1, 777, 1 << 20] {
        let measured = Self.measure(kmz, chunkSize: chunkSize)
        var expected = alone
        if others > 0 { expected.report.notes[.otherKMLDocuments] = others }
        #expect(measured == expected, "\(name), \(chunkSize)-byte reads")
        #expect(measured.distance.meters.bitPattern == alone.distance.meters.bitPattern, "\(name)")
      }
    }
  }

  /// What cannot be walked to the central directory claims no count: cut anywhere after the
  /// document, garbage after it, or an entry stored with a data descriptor (it cannot be
  /// passed as a stream). The document's figure stands, with no failure.
  @Test func aRestThatCannotBeWalkedClaimsNothing() throws {
    let kml = try Fixtures.bytes(Self.kml)
    let alone = Self.measure(Zip.archive([.init("doc.kml", kml)]))
    let (kmz, layout) = Zip.build([.init("doc.kml", kml), .init("overlay.kml", Array("<kml/>".utf8))])
    #expect(Self.measure(kmz).report.notes[.otherKMLDocuments] == 1)
    // Cut in the central directory, every local header has been seen: the count is whole.
    let centralDirectory = layout[1].dataEnd
    for length in layout[0].dataEnd..<kmz.count {
      let measured = Self.measure(Array(kmz[0..<length]))
      #expect(measured.distance == alone.distance, "cut at \(length)")
      #expect(measured.report.failure == nil, "cut at \(length)")
      #expect(
        measured.report.notes[.otherKMLDocuments] == (length >= centralDirectory + 4 ? 1 : nil), "cut at \(length)")
    }
    let garbage = Array(kmz[0..<layout[1].headerOffset]) + Array(repeating: 0x41, count: 64)
    #expect(Self.measure(garbage) == alone)
    let unstreamable = Zip.archive([
      .init("doc.kml", kml), .init("a.bin", [1, 2, 3], deflated: false, dataDescriptor: true), .init("b.kml", kml),
    ])
    #expect(Self.measure(unstreamable) == alone)
  }
}
