import RouteMileage
import Testing

@testable import RouteFeeds

/// The one-pass reader of plain CSV rows (`CSVPlainRow`): every value it reads is the one the
/// general cell parsers give, bit for bit, and every row it declines reads as before.
@Suite struct CSVPlainRowTests {
  static let header = "time,latitude,longitude,accuracy,speed,course,session\n"

  /// The numbers the one-pass reader may see, and ones it must hand to the general path.
  static let numbers = [
    "0", "7", "-0", "-0.0", "5.", ".5", "-.5", "12.3", "8.0", "0.00", "310.6", "-48.8840207", "-123.4064682",
    "51.50721780", "1.2345678", "12345678.5", "1234567.1234567", "123456789012345", "0.000000000000001",
    "1234567890123456", "-1.23456789012345", "99999999.9999999", "00000000000000012", "+5", "1e3", "2.5E-3",
    "-", ".", "-.", "5.5.5", "0x10", "nan", " 5", "5 ", "5\u{7F}",
  ]

  /// Reads `cell` as the latitude of an otherwise plain row; the latitude, or nil when the row
  /// was not a position.
  static func latitude(_ cell: String, chunkSize: Int = 0) -> Double? {
    let text = header + "2025-11-29T08:00:00.000Z,\(cell),-0.1275862,8.0,0.00,,1\n"
    return CSVTestSupport.read(text, chunkSize: chunkSize).sink.samples.first?.latitude
  }

  @Test(arguments: numbers)
  func aLatitudeReadsAsTheGeneralNumberParserReadsIt(cell: String) {
    let trimmed = cell.trimmingCharactersForTest()
    let expected = ByteNumberParser.double(trimmed)
    let read = Self.latitude(cell)
    #expect(read?.bitPattern == expected?.bitPattern, "\(cell)")
    // Cut anywhere: the same value.
    for size in [1, 3, 7, 29, 31, 64] {
      #expect(Self.latitude(cell, chunkSize: size)?.bitPattern == expected?.bitPattern, "\(cell) in chunks of \(size)")
    }
  }

  @Test(arguments: numbers)
  func anOptionalReadingReadsAsTheGeneralParserReadsIt(cell: String) throws {
    let text = Self.header + "2025-11-29T08:00:00Z,51.5,-0.12,\(cell),\(cell),\(cell),1\n"
    let samples = CSVTestSupport.read(text).sink.samples
    let expected = ByteNumberParser.double(cell.trimmingCharactersForTest())
    if expected == nil {
      // An unreadable accuracy makes the row unreadable.
      #expect(samples.isEmpty, "\(cell)")
      return
    }
    let sample = try #require(samples.first, "\(cell)")
    #expect(sample.horizontalAccuracy?.bitPattern == expected?.bitPattern, "\(cell)")
    #expect(sample.speed?.bitPattern == expected?.bitPattern, "\(cell)")
    #expect(sample.course?.bitPattern == expected?.bitPattern, "\(cell)")
  }

  /// Every digit count from 1 to 16, before and after the point, signed or not, with the
  /// buffer ending right after the number (the byte-at-a-time tail) or well after it (eight
  /// bytes at a time): the value `ByteNumberParser` gives, or a refusal beyond 15 digits.
  @Test func theOnePassNumberMatchesTheGeneralParserForEveryDigitCount() {
    var generator = SystemRandomNumberGenerator()
    for integerDigits in 0...9 {
      for fractionDigits in [-1] + Array(0...9) {
        for negative in [false, true] {
          for _ in 0..<20 {
            var text = negative ? "-" : ""
            for _ in 0..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
            if fractionDigits >= 0 {
              text += "."
              for _ in 0..<fractionDigits { text += String(Int.random(in: 0...9, using: &generator)) }
            }
            let expected = ByteNumberParser.double(text)
            let digits = integerDigits + max(fractionDigits, 0)
            // Every padding up to and past the sixteen bytes the two-load path needs after the sign.
            for padding in 0...17 {
              let bytes = Array(text.utf8) + Array(repeating: UInt8(ascii: ","), count: padding)
              bytes.withUnsafeBufferPointer { buffer in
                var index = 0
                let value = ByteNumberParser.plainNumber(buffer.baseAddress!, &index, bound: text.utf8.count + padding)
                if digits == 0 || digits > 15 {
                  #expect(value == nil, "\(text)")
                  #expect(index == 0)
                } else {
                  #expect(value?.bitPattern == expected?.bitPattern, "\(text) + \(padding)")
                  #expect(index == text.utf8.count, "\(text) + \(padding)")
                }
              }
            }
          }
        }
      }
    }
  }

  @Test func timesWithFractionsAndOffsetsReadAsTheGeneralParserReadsThem() throws {
    let cells = [
      "2025-11-29T08:00:00Z", "2025-11-29T08:00:00.5Z", "2025-11-29T08:00:00.250Z", "2025-11-29 08:00:00.123456789Z",
      "2025-11-29T09:00:00.000+01:00", "2025-11-29T02:30:00-05:30", "2025-11-29T08:00:00+00:00",
    ]
    for cell in cells {
      let read = CSVTestSupport.read(Self.header + "\(cell),51.5,-0.12,8.0,0.00,,1\n")
      let sample = try #require(read.sink.samples.first, "\(cell)")
      #expect(sample.timestamp == ISO8601Parser.timestamp(cell), "\(cell)")
    }
    // A time too short for the day cache, one without a zone, one with a space: read all the
    // same by the general path (the zone-less one as UTC, the padded one trimmed).
    let general = [
      ("2025-11-29T08:00", 1_764_403_200.0), ("2025-11-29T08:00:00", 1_764_403_200.0),
      (" 2025-11-29T08:00:00Z", 1_764_403_200.0),
    ]
    for (cell, seconds) in general {
      let read = CSVTestSupport.read(Self.header + "\(cell),51.5,-0.12,8.0,0.00,,1\n")
      #expect(read.sink.samples.first?.timestamp == seconds, "\(cell)")
    }
    // A date alone, a cut time: unreadable, on their line.
    for cell in ["2025-11-29T08:0", "2025-11-29T08:00:00.Z"] {
      let read = CSVTestSupport.read(Self.header + "\(cell),51.5,-0.12,8.0,0.00,,1\n")
      #expect(read.events == [.unreadable(.badTime, line: 2)], "\(cell)")
    }
  }

  /// The same rows with the time cell quoted, which sends each to the general path (the quote
  /// is stripped there): what the plain path makes of a row, read or declined, is what the
  /// general path makes of it.
  static func quotingColumn(_ column: Int, of rows: [String]) -> [String] {
    rows.map { row in
      var cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      cells[column] = "\"\(cells[column])\""
      return cells.joined(separator: ",")
    }
  }

  /// Times on a day already read (the in-place path reads only those), every field at and past
  /// its limits, each fraction and zone shape, odd bytes at every position of the time of day:
  /// each row reads as the general path reads it, whole and in every chunking, and each time
  /// read is `ISO8601Parser`'s.
  @Test func timesOnACachedDayReadAsTheGeneralPathReadsThem() {
    var times: [String] = []
    for hour in 0...25 { times.append("2025-11-29T\(hour < 10 ? "0" : "")\(hour):00:00Z") }
    for minute in ["00", "09", "10", "59", "60", "99"] {
      for second in ["00", "09", "59", "60", "61", "99"] { times.append("2025-11-29T23:\(minute):\(second)Z") }
    }
    for tail in [
      "Z", ".000Z", ".999Z", ".050Z", ".5Z", ".12Z", ".1234Z", ",250Z", "z", "+01:00", ".250+01:00", "-05:30", "",
      "Zx", "Z ", ".2a0Z", ".25Z0", ".:00Z", ".250z", ".250", "..250Z", ".2 0Z",
    ] {
      times.append("2025-11-29T08:07:06\(tail)")
      times.append("2025-11-29 08:07:06\(tail)")
      times.append("2025-11-29t08:07:06\(tail)")
    }
    let clock = Array("08:07:06".utf8)
    for position in clock.indices {
      for byte in [
        UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "0"), UInt8(ascii: "9"), UInt8(ascii: "A"), 0x20, 0xB0,
      ] {
        var bytes = clock
        bytes[position] = byte
        times.append("2025-11-29T" + String(decoding: bytes, as: UTF8.self) + "Z")
      }
    }
    // The day first, so every row after it is on a cached day.
    let rows = ["2025-11-29T00:00:00Z,51.5,-0.12,8.0,0.00,,1"] + times.map { "\($0),51.5,-0.12,8.0,0.00,,1" }
    let plain = Self.header + rows.joined(separator: "\n") + "\n"
    let quoted = Self.header + Self.quotingColumn(0, of: rows).joined(separator: "\n") + "\n"
    let reference = CSVTestSupport.read(quoted)
    #expect(CSVTestSupport.read(plain) == reference)
    for size in [7, 64, 1000] {
      #expect(CSVTestSupport.read(plain, chunkSize: size) == reference, "chunks of \(size)")
    }
    // And each time the plain path read is the general parser's, to the bit.
    var read = 0
    for event in reference.events {
      guard case .position(let sample, _, let line) = event else { continue }
      // Trimmed, as the general path trims a cell; a zone-less time is read as UTC here (no
      // `--time-zone`), as the parser reads it.
      let cell = String(rows[line - 2].split(separator: ",", omittingEmptySubsequences: false)[0])
        .trimmingCharactersForTest()
      // (The CSV time reader also takes shapes the ISO 8601 parser does not, a one-digit hour
      // among them; those are never read in place, and the comparison above covers them.)
      guard let expected = ISO8601Parser.timestamp(cell) else { continue }
      #expect(sample.timestamp.bitPattern == expected.bitPattern, "\(cell)")
      read += 1
    }
    #expect(read > 90)
  }

  /// Numbers of every digit count before and after the point, in every column the plain path
  /// reads, on full rows: each row reads as the general path reads it (the cell quoted).
  @Test func numbersOfEveryDigitCountReadAsTheGeneralPathReadsThem() {
    var generator = SystemRandomNumberGenerator()
    var rows: [String] = []
    for integerDigits in 0...9 {
      for fractionDigits in [-1] + Array(0...9) {
        for sign in ["", "-"] {
          var text = sign
          for _ in 0..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
          if fractionDigits >= 0 {
            text += "."
            for _ in 0..<fractionDigits { text += String(Int.random(in: 0...9, using: &generator)) }
          }
          rows.append("2025-11-29T08:00:01Z,\(text),-0.12,8.0,0.00,,1")
          rows.append("2025-11-29T08:00:01Z,51.5,\(text),8.0,0.00,,1")
          rows.append("2025-11-29T08:00:01Z,51.5,-0.12,\(text),\(text),\(text),1")
        }
      }
    }
    for column in 1...5 {
      let plain = Self.header + rows.joined(separator: "\n") + "\n"
      let quoted = Self.header + Self.quotingColumn(column, of: rows).joined(separator: "\n") + "\n"
      #expect(CSVTestSupport.read(plain) == CSVTestSupport.read(quoted), "column \(column)")
      #expect(CSVTestSupport.read(plain, chunkSize: 97) == CSVTestSupport.read(quoted), "column \(column), chunked")
    }
  }

  @Test func badBytesAndOddRowsReadAsBefore() {
    let rows: [(String, [FeedRecord])] = [
      // A NUL inside a number: binary.
      ("2025-11-29T08:00:00Z,51.5\u{0}1,-0.12,8.0,0.00,,1", [.unreadable(.binary, line: 2)]),
      // A quoted number: read by the general path.
      (
        "2025-11-29T08:00:00Z,\"51.5\",-0.12,8.0,0.00,,1",
        [
          .position(
            .init(timestamp: 1_764_403_200, latitude: 51.5, longitude: -0.12, horizontalAccuracy: 8, speed: 0),
            session: 0, line: 2)
        ]
      ),
      // A missing column: the session is absent.
      (
        "2025-11-29T08:00:00Z,51.5,-0.12,8.0,0.00,",
        [
          .position(
            .init(timestamp: 1_764_403_200, latitude: 51.5, longitude: -0.12, horizontalAccuracy: 8, speed: 0),
            session: nil, line: 2)
        ]
      ),
      // An empty latitude: unreadable.
      ("2025-11-29T08:00:00Z,,-0.12,8.0,0.00,,1", [.unreadable(.badNumber, line: 2)]),
      // A comment.
      ("#2025-11-29T08:00:00Z,51.5,-0.12,8.0,0.00,,1", [.ignored(.csvComment, line: 2)]),
      // CRLF.
      (
        "2025-11-29T08:00:00Z,51.5,-0.12,8.0,0.00,,1\r",
        [
          .position(
            .init(timestamp: 1_764_403_200, latitude: 51.5, longitude: -0.12, horizontalAccuracy: 8, speed: 0),
            session: 0, line: 2)
        ]
      ),
    ]
    for (row, expected) in rows {
      let read = CSVTestSupport.read(Self.header + row + "\n")
      #expect(read.events == expected, "\(row)")
    }
  }

  /// A file cut inside its last number, at every byte: the rows before it read as whole, and
  /// the cut row is reported as cut, whatever the chunking.
  @Test func aRowCutMidNumberReadsTheSameInEveryChunking() {
    let whole =
      Self.header + """
        2025-11-29T08:00:00.000Z,51.5072178,-0.1275862,8.0,0.00,,1
        2025-11-29T08:00:01.000Z,51.5072901,-0.1274412,7.5,9.80,51.2,1
        2025-11-29T08:00:02.000Z,51.5073755,-0.1272701,6.0,11.20,52.0,1

        """
    let bytes = Array(whole.utf8)
    for cut in (bytes.count - 62)..<bytes.count {
      let prefix = Array(bytes[..<cut])
      let reference = CSVTestSupport.read(prefix)
      #expect(reference.sink.samples.count >= 2)
      for size in [1, 5, 16, 61, 64] {
        #expect(CSVTestSupport.read(prefix, chunkSize: size) == reference, "cut at \(cut), chunks of \(size)")
      }
    }
  }
}

extension String {
  fileprivate func trimmingCharactersForTest() -> String {
    var bytes = Array(utf8)
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
