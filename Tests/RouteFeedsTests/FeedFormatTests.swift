import RouteFeeds
import Testing

/// `FeedFormat.detect`: the format from a feed's first bytes. Detection never fails; the XML
/// root names are tested with the XML readers (`XMLFormatReadersTests`).
@Suite struct FeedFormatTests {
  static func detect(_ bytes: [UInt8]) -> FeedFormat { bytes.withUnsafeBufferPointer { FeedFormat.detect(prefix: $0) } }
  static func detect(_ text: String) -> FeedFormat { detect(Array(text.utf8)) }

  static let rmc = "$GPRMC,080000,A,4530.000,N,01315.000,E,0.0,0.0,291125,,,A*6C"

  @Test func fitByItsHeader() {
    var header: [UInt8] = [14, 0x10, 0, 0, 0, 0, 0, 0, 0x2E, 0x46, 0x49, 0x54, 0, 0]
    #expect(Self.detect(header) == .fit)
    header[0] = 11  // a header shorter than FIT's smallest
    #expect(Self.detect(header) != .fit)
    #expect(Self.detect(Array(header[0..<11])) != .fit, "too short to hold the signature")
  }

  @Test func xmlAfterAByteOrderMarkAndWhitespace() {
    #expect(Self.detect("\u{FEFF}  \n<?xml version=\"1.0\"?><gpx>") == .gpx)
    #expect(Self.detect("\n\n<gpx version=\"1.1\">") == .gpx)
    #expect(
      Self.detect([0xEF, 0xBB, 0xBF, 0x00, 0x3C, 0x6B, 0x6D, 0x6C, 0x3E]) == .kml, "a NUL before the root is skipped")
  }

  @Test func nmeaByItsSentences() {
    #expect(Self.detect(Self.rmc + "\n" + Self.rmc + "\n") == .nmea)
    #expect(Self.detect("!AIVDM,1,1,,A,13aG,0*00\n") == .nmea)
    // A comment line and one truncated first line are tolerated.
    #expect(Self.detect("0,A,4530.000,N*00\n# logger v2\n" + Self.rmc + "\n" + Self.rmc + "\n") == .nmea)
    // Mostly other lines: not a log.
    let mostlyText = (0..<10).map { "row \($0),1,2" }.joined(separator: "\n") + "\n" + Self.rmc + "\n"
    #expect(Self.detect(mostlyText) == .csv)
  }

  @Test func csvIsEverythingElse() {
    #expect(Self.detect("timestamp,latitude,longitude\n2025-11-29T08:00:00Z,45.5,13.25\n") == .csv)
    #expect(Self.detect("") == .csv)
    #expect(Self.detect("   \n\n") == .csv)
    #expect(Self.detect("$GPRMC;080000;A\n") == .csv, "no comma after the address: not a sentence")
  }

  @Test func rawValuesAreTheNamesUsersType() {
    for format in FeedFormat.allCases {
      #expect(FeedFormat(rawValue: format.rawValue) == format)
      #expect(format.rawValue == format.rawValue.lowercased())
    }
    #expect(FeedFormat(rawValue: "gpx") == .gpx)
    #expect(FeedFormat(rawValue: "GPX") == nil)
  }
}
