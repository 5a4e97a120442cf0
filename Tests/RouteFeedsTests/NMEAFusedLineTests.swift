import RouteFeeds
import RouteMileage
import Testing

/// The one-pass path for a checksummed line (line end found and checksum summed together) and
/// the repeated-field shortcuts must deliver exactly what the general path delivers. A line cut
/// by a chunk boundary always takes the general path, so reading a byte at a time is the
/// reference, and reading whole, or in chunks that cut lines anywhere, must match it.
@Suite("NMEA one-pass lines")
struct NMEAFusedLineTests {
  static let context = NMEAFastPathTests.epoch("115959.00", "010524")

  /// The events of `bytes` read whole, compared with reading one byte at a time.
  static func sameAsByteAtATime(_ bytes: [UInt8], _ label: String) -> NMEARecordingSink {
    let whole = NMEATestRun.events(bytes)
    #expect(whole.events == NMEATestRun.events(bytes, chunkSize: 1).events, "\(label)")
    return whole
  }

  @Test("a damaged byte anywhere in a sentence, of any kind, reads as it does a byte at a time")
  func damageAtEveryOffset() {
    let prefix = Array(NMEATestLog.lines(Self.context).utf8)
    for body in NMEAFastPathTests.epoch("120000.00", "010524") {
      let good = Array(NMEATestLog.sentence(body).utf8)
      let clean = Self.sameAsByteAtATime(prefix + good + [0x0D, 0x0A], body)
      #expect(clean.events.allSatisfy { if case .unreadable = $0 { false } else { true } }, "\(body)")
      for index in good.indices {
        let byte = good[index]
        // A plain swap, a case flip (lowercase hex), separators, sentence starts, controls,
        // line ends, DEL and a non-ASCII byte.
        let replacements: [UInt8] = [
          byte == 0x37 ? 0x38 : 0x37, byte ^ 0x20, 0x20, 0x09, 0x24, 0x21, 0x2A, 0x2C, 0x23, 0x00, 0x0D, 0x0A,
          0x7F, 0xC3,
        ]
        for replacement in replacements where replacement != byte {
          var damaged = good
          damaged[index] = replacement
          let run = Self.sameAsByteAtATime(prefix + damaged + [0x0D, 0x0A], "\(body) byte \(index) → \(replacement)")
          // A printable byte that ends nothing, inside the summed span: the checksum catches it.
          if index > 0, index < good.count - 3, replacement == (byte == 0x37 ? 0x38 : 0x37) {
            #expect(run.events.contains(.unreadable(.badChecksum, line: 5)), "\(body) byte \(index)")
          }
        }
      }
    }
  }

  @Test("lines cut at every chunk boundary, with every line end and checksum form, read the same")
  func chunksOfOneToFortyBytes() {
    let rmc = NMEATestLog.rmc("120001.00", "010524", north: 10)
    var lowercase = NMEATestLog.sentence(rmc)
    lowercase = String(lowercase.dropLast(2)) + lowercase.suffix(2).lowercased()
    // 100 bytes: over NMEA's 82, well under the reader's limit.
    let long = NMEATestLog.sentence(
      "GPGGA,120002.00,4722.123456789012,N,00833.123456789012,E,1,14,1.6,45.9,M,-7.9,M,,0000,extra,fields")
    let text =
      NMEATestLog.lines(Self.context, ending: "\n")
      + NMEATestLog.sentence(NMEATestLog.rmc("120000.00", "010524")) + "\r\n"
      + NMEATestLog.sentence(NMEATestLog.gga("120000.00")) + "\r"
      + lowercase + "\r\r\n"
      + long + "\n"
      + "$" + NMEATestLog.rmc("120003.00", "010524", north: 30) + "\r\n"  // no checksum
      + NMEATestLog.sentence("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00") + "\n"
      + NMEATestLog.sentence("PGRME,5.5,M,7.0,M,8.9,M") + "\n"
      + "# a comment\n\n"
      + NMEATestLog.sentence(NMEATestLog.rmc("120004.00", "010524", north: 40)) + " \n"  // trailing space
      + "$GPRMC,120005.00,A" + NMEATestLog.sentence(NMEATestLog.rmc("120005.00", "010524", north: 50)) + "\n"
      + NMEATestLog.sentence(NMEATestLog.rmc("120006.00", "010524", north: 60)) + "\n"
    let bytes = Array(text.utf8)
    let whole = NMEATestRun.events(bytes)
    #expect(
      whole.positions.map(\.line) == [1, 5, 7, 8, 9, 14, 15, 16],
      "every epoch gives its position on its first line")
    #expect(whole.events.contains(.noted(.checksumMissing, line: 9)))
    #expect(whole.events.contains(.unreadable(.truncatedSentence, line: 15)))
    #expect(!whole.events.contains { if case .unreadable(.badChecksum, _) = $0 { true } else { false } })
    for size in 1...40 {
      #expect(NMEATestRun.events(bytes, chunkSize: size).events == whole.events, "chunk size \(size)")
    }
  }

  @Test("a field that repeats reads what it read before; one that changes, or is damaged, reads anew")
  func repeatedFields() throws {
    let text = NMEATestLog.lines([
      // Leap day, then a date that names no day (no date), then the leap day again.
      "GPRMC,120000.00,A,4722.12345,N,00833.54321,E,1.0,90.0,290224,,,A",
      "GPGGA,120000.00,4722.12345,N,00833.54321,E,1,14,1.6,45.9,M,-7.9,M,,",
      "GPRMC,120001.00,A,4722.12345,S,00833.54321,E,1.0,90.0,290223,,,A",
      "GPGGA,120001.00,4722.12345,S,00833.54321,W,1,14,1.6,45.9,M,-7.9,M,,",
      "GPRMC,120002.00,A,4722.12345,S,00833.54321,E,1.0,90.0,290224,,,A",
      // The same time written with another number of decimals: the same epoch.
      "GPGGA,120002.0,4722.12345,S,00833.54321,E,1,14,1.6,45.9,M,-7.9,M,,",
      // A damaged time or coordinate after a good one: an error, not the last value.
      "GPRMC,12000x.00,A,4722.12345,S,00833.54321,E,1.0,90.0,290224,,,A",
      "GPRMC,120003.00,A,4722.1234x,S,00833.54321,E,1.0,90.0,290224,,,A",
      "GPRMC,120004.00,A,4722.12345,S,00833.54321,E,1.0,90.0,290224,,,A",
      // The same digits in the other hemisphere: the position of a GGA-only epoch.
      "GPGGA,120005.00,4722.12345,S,00833.54321,W,1,14,1.6,45.9,M,-7.9,M,,",
    ])
    let run = NMEATestRun.events(text)
    let degrees = 47 + (22 + 12_345 / 1e5) / 60
    let east = 8 + (33 + 54_321 / 1e5) / 60
    #expect(run.positions.map(\.sample.latitude) == [degrees, -degrees, -degrees, -degrees, -degrees])
    #expect(run.positions.map(\.sample.longitude) == [east, east, east, east, -east])
    #expect(run.positions.map(\.line) == [1, 3, 5, 9, 10])
    #expect(run.events.contains(.unreadable(.badTime, line: 7)))
    #expect(run.events.contains(.unreadable(.badNumber, line: 8)))
    // Line 6 joined line 5's epoch: no record of its own.
    #expect(!run.events.contains { event in if case .position(_, _, 6) = event { true } else { false } })
    #expect(
      run.positions.map { iso($0.sample.timestamp) } == [
        "2024-02-29T12:00:00Z", "2024-02-29T12:00:01Z", "2024-02-29T12:00:02Z", "2024-02-29T12:00:04Z",
        "2024-02-29T12:00:05Z",
      ])
  }
}
