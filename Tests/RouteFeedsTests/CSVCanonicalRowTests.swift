import RouteMileage
import Testing

@testable import RouteFeeds

/// The straight-through reader of rows in the canonical column order (`decodeCanonicalRow`):
/// every row it reads is the one the column loop and the general path make of it, and every
/// row it must decline (a quote, a missing or extra cell, CRLF, an empty cell it cannot take,
/// another day, a long number or session) reads as they read it.
@Suite struct CSVCanonicalRowTests {
  static let header = "time,latitude,longitude,accuracy,speed,course,session\n"

  /// A plain row at `second` past 08:00 on 2025-11-29 (a day the cache then holds).
  static func plain(_ second: Int, session: String = "1") -> String {
    let minute = second / 60 % 60
    let seconds = second % 60
    let clock = (minute < 10 ? "0" : "") + "\(minute):" + (seconds < 10 ? "0" : "") + "\(seconds)"
    return "2025-11-29T08:\(clock)Z,51.50\(100 + second % 900),-0.127\(1000 + second),7.9,2.45,310.6,\(session)"
  }

  /// Rows the straight-through reader must hand on, each between plain rows, so that it is
  /// offered every one of them with its whole window in the buffer.
  static let oddRows: [String] = [
    // Quotes: the general path's.
    "2025-11-29T08:10:00Z,\"51.5\",-0.12,8.0,0.00,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,\"1\"",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1\"x",
    // A missing cell, an extra one, a missing session cell.
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1,9",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,",
    // Line ends: CRLF, CRLF after a short session the last row shares, a lone CR inside.
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1\r",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,310.6,1\r",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0\r,0.00,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1\r\r",
    // Empty cells: absent readings, an unreadable coordinate, an absent session.
    "2025-11-29T08:10:00Z,51.5,-0.12,,,,1", "2025-11-29T08:10:00Z,,-0.12,8.0,0.00,,1",
    "2025-11-29T08:10:00Z,51.5,,8.0,0.00,,1", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,",
    ",,,,,,", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,\r",
    // Times: another day (then its rows), an offset, fractions, a space, lower case, no zone.
    "2025-11-30T08:10:00Z,51.5,-0.12,8.0,0.00,,1", "2025-11-29T09:10:00+01:00,51.5,-0.12,8.0,0.00,,1",
    "2025-11-29T08:10:00.250Z,51.5,-0.12,8.0,0.00,,1", "2025-11-29T08:10:00.5Z,51.5,-0.12,8.0,0.00,,1",
    "2025-11-29 08:10:00Z,51.5,-0.12,8.0,0.00,,1", "2025-11-29T08:10:00z,51.5,-0.12,8.0,0.00,,1",
    "2025-11-29T08:10:00,51.5,-0.12,8.0,0.00,,1", "2025-11-29T08:10:00Z ,51.5,-0.12,8.0,0.00,,1",
    // Numbers: eight digits before or after the point, 15 and 16 digits, signs, exponents, units.
    "2025-11-29T08:10:00Z,12345678.5,-0.12,8.0,0.00,,1", "2025-11-29T08:10:00Z,51.12345678,-0.12,8.0,0.00,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,1234567.12345678,0.00,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,1234567.1234567,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,1234567890123456,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,+8.0,0.00,,1", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,1e3,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,5 m,1", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,-,,1",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,.5,5.,1", "2025-11-29T08:10:00Z,-.5,-0.,-0,-0.00,,1",
    "2025-11-29T08:10:00Z,51.5, -0.12,8.0,0.00,,1", "2025-11-29T08:10:00Z,51.5,-0.12\t,8.0,0.00,,1",
    "2025-11-29T08:10:00Z,51.5\u{0}1,-0.12,8.0,0.00,,1",
    // Sessions: another, back again, exactly eight bytes, nine, a UUID, padded, too long.
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,2", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,12345678",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,123456789",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,2d0dff0a-b458-4e9e-8c2e-4f1a136ab21e",
    "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1 ", "2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,, 1",
    // A comment and a blank line.
    "# 2025-11-29T08:10:00Z,51.5,-0.12,8.0,0.00,,1", "",
  ]

  /// `oddRows`, each followed by three plain rows (with the odd row's session, so that a short
  /// one is compared in place on the next row), after five plain rows. Every row is shorter than
  /// 127 bytes, so a record limit of 127 changes nothing but the path.
  static let file: String = {
    var rows = (0..<5).map { plain($0) }
    for (offset, odd) in oddRows.enumerated() {
      rows.append(odd)
      var cells = odd.split(separator: ",", omittingEmptySubsequences: false)
      let session = cells.count == 7 ? String(cells.removeLast()) : "1"
      let plainSession = session.utf8.allSatisfy { $0 > 0x20 && $0 != 0x22 } ? session : "1"
      for next in 0..<3 { rows.append(plain(10 + 3 * offset + next, session: plainSession)) }
    }
    return header + rows.joined(separator: "\n") + "\n"
  }()

  /// The same file with every time cell quoted: each row goes to the general path.
  static var quotedFile: String {
    let rows = file.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { row -> String in
      guard row.hasPrefix("2025") else { return String(row) }
      var cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      cells[0] = "\"\(cells[0])\""
      return cells.joined(separator: ",")
    }
    return header + rows.joined(separator: "\n")
  }

  @Test func rowsItMustDeclineReadAsTheColumnLoopAndTheGeneralPathReadThem() {
    let read = CSVTestSupport.read(Self.file)
    #expect(read.sink.samples.count > 150)
    // A record limit shorter than the window: the column loop reads every plain row.
    #expect(read == CSVTestSupport.read(Self.file, maximumRecordLength: 127))
    // Quoted times: the general path reads every row.
    #expect(read == CSVTestSupport.read(Self.quotedFile))
    // Chunks that cut the window (the column loop reads the rows near a chunk's end) or hold it.
    for size in [61, 127, 128, 129, 500, 4096] {
      #expect(read == CSVTestSupport.read(Self.file, chunkSize: size), "chunks of \(size)")
    }
  }

  @Test func theSameRowsWithCRLFReadAsTheGeneralPathReadsThem() {
    let crlf = Self.file.replacingLineFeedsWithCRLF()
    let read = CSVTestSupport.read(crlf)
    #expect(read.sink.samples.count > 150)
    #expect(read == CSVTestSupport.read(Self.quotedFile.replacingLineFeedsWithCRLF()))
    #expect(read == CSVTestSupport.read(crlf, maximumRecordLength: 127))
    #expect(read == CSVTestSupport.read(crlf, chunkSize: 129))
  }

  /// A session longer than `CSVReader.maximumSessionLength`, on a row of its own and on the
  /// rows after it: unreadable, as the general path finds it.
  @Test func aSessionTooLongIsUnreadableAsOnTheGeneralPath() {
    let long = String(repeating: "s", count: CSVReader.maximumSessionLength + 1)
    let rows =
      (0..<4).map { Self.plain($0) } + (4..<8).map { Self.plain($0, session: long) } + (8..<12).map { Self.plain($0) }
    let text = Self.header + rows.joined(separator: "\n") + "\n"
    let quoted = Self.header + CSVPlainRowTests.quotingColumn(0, of: rows).joined(separator: "\n") + "\n"
    let read = CSVTestSupport.read(text)
    #expect(read.events.filter { $0 == .unreadable(.csvBadSession, line: $0.line) }.count == 4)
    #expect(read.sink.sessions == Array(repeating: 0, count: 8))
    #expect(read == CSVTestSupport.read(quoted))
    #expect(read == CSVTestSupport.read(text, chunkSize: 129))
  }

  /// Rows longer than a record limit that is shorter than the window: each is too long, as the
  /// general path finds it, though every cell is one the straight-through reader takes (the
  /// day and the session are the short rows' before them).
  @Test func rowsLongerThanAShortRecordLimitAreTooLong() {
    let short = ["2025-11-29T08:00:00.000Z,51.5,-0.12,8.0,0.00,,1", "2025-11-29T08:00:00.500Z,51.5,-0.12,8.0,0.00,,1"]
    let long = "2025-11-29T08:00:01.000Z,-48.8840207,-123.4064682,1234567.1234567,1234567.1234567,1234567.1234567,1"
    let text = Self.header + (short + Array(repeating: long, count: 8)).joined(separator: "\n") + "\n"
    let read = CSVTestSupport.read(text, maximumRecordLength: 90)
    #expect(read.sink.samples.count == 2)
    #expect(read.events.dropFirst(2) == (4...11).map { FeedRecord.unreadable(.lineTooLong, line: $0) }[...])
    // With room for them, every row is a position.
    #expect(CSVTestSupport.read(text).sink.samples.count == 10)
  }

  /// A session the general path read in between (a quoted cell) changes the last session: the
  /// plain row after it, with the session of the rows before, is that session again, not the
  /// quoted one.
  @Test func aSessionReadByTheGeneralPathInBetweenIsNotTakenForTheLastShortOne() {
    let rows =
      (0..<4).map { Self.plain($0) } + ["2025-11-29T08:00:04Z,51.5,-0.12,8.0,0.00,,\"2\""]
      + (5..<9).map { Self.plain($0) } + ["2025-11-29T08:00:09Z,51.5,-0.12,8.0,0.00,,\"1,2\""]
      + (10..<14).map { Self.plain($0, session: "1,2") } + (14..<18).map { Self.plain($0, session: "2") }
    let text = Self.header + rows.joined(separator: "\n") + "\n"
    let read = CSVTestSupport.read(text)
    // The unquoted `1,2` is a session `1` with an extra cell after it.
    #expect(read.sink.sessions == [0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 1, 1, 1])
    #expect(read == CSVTestSupport.read(text, maximumRecordLength: 127))
  }

  /// Times across midnight on a file's every row: the day changes under the straight-through
  /// reader, which reads the first row of each day itself as it reads the rest.
  @Test func rowsAcrossDaysReadAsTheGeneralPathReadsThem() {
    var rows: [String] = []
    for day in 27...29 {
      for second in [86_397, 86_398, 86_399] {
        let hours = second / 3600
        let clock = "\(hours):\(second / 60 % 60):\(second % 60)"
        rows.append("2025-11-\(day)T\(clock)Z,51.5,-0.12\(day),8.0,0.00,,1")
      }
      for second in 0..<3 { rows.append("2025-11-\(day + 1)T00:00:0\(second).500Z,51.5,-0.1\(second),8.0,0.00,,1") }
    }
    Self.expectReadAsTheFullParser(rows)
  }

  /// Rows of 22 days in a scrambled order (a file out of time order, as it is read again to be
  /// sorted): the straight-through reader changes day on almost every row, and days that share
  /// a remembered slot (the 21st of two months) replace each other there. Every time is the
  /// full parser's, bit for bit, and the other paths' reading.
  @Test func rowsOfDaysInAnyOrderReadAsTheFullParserReadsThem() {
    var rows: [String] = []
    var state: UInt64 = 12_345
    for index in 0..<240 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let day = 20 + Int(state >> 33) % 11
      let month = state >> 60 & 1 == 0 ? "10" : "11"
      let second = index * 317 % 86_400
      let clock = [second / 3600, second / 60 % 60, second % 60].map { ($0 < 10 ? "0" : "") + "\($0)" }
      let fraction = index % 3 == 0 ? ".250" : ""
      rows.append("2025-\(month)-\(day)T\(clock.joined(separator: ":"))\(fraction)Z,51.5,-0.12,8.0,0.00,,1")
    }
    Self.expectReadAsTheFullParser(rows)
  }

  /// `rows` (canonical rows, one time each) read with every time the full parser's, bit for
  /// bit, and as the column loop (a record limit under the window) and the general path (the
  /// times quoted) read them.
  static func expectReadAsTheFullParser(_ rows: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let text = header + rows.joined(separator: "\n") + "\n"
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.count == rows.count, sourceLocation: sourceLocation)
    #expect(
      read.sink.samples.map { Optional($0.timestamp) }
        == rows.map { ISO8601Parser.timestamp(String($0.prefix { $0 != "," })) }, sourceLocation: sourceLocation)
    #expect(read == CSVTestSupport.read(text, maximumRecordLength: 127), sourceLocation: sourceLocation)
    let quoted = header + CSVPlainRowTests.quotingColumn(0, of: rows).joined(separator: "\n") + "\n"
    #expect(read == CSVTestSupport.read(quoted), sourceLocation: sourceLocation)
  }
}

extension String {
  fileprivate func replacingLineFeedsWithCRLF() -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
  }
}
