import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds

/// The FIT reader on real files (pinned to the metre, filter on and off), on files built byte by
/// byte for each rule, and on hostile input.
@Suite struct FITReaderTests {
  // MARK: Real files

  struct Pinned: CustomTestStringConvertible, Sendable {
    var name: String
    var filteredMeters: Int
    var unfilteredMeters: Int
    var records: Int
    var retained: Int
    var rejected: [String: Int]
    var ignored: Int
    var sessions: Int
    var segments: Int
    var gaps: Int
    /// The byte offset reading stopped at, for a damaged file.
    var failureOffset: Int?
    var testDescription: String { name }
  }

  static let pinned: [Pinned] = [
    // Edge 800: 9 timer stops and 8 starts (auto-pause) make 8 capture sessions, as the GPX twin's 8 trkseg.
    Pinned(
      name: "gpsbabel_garmin-edge-800.fit", filteredMeters: 25_089, unfilteredMeters: 25_122, records: 1286,
      retained: 1230,
      rejected: ["negligibleMovement": 56], ignored: 46, sessions: 8, segments: 7, gaps: 7),
    // FIT 2.0, big-endian definitions, developer fields.
    Pinned(
      name: "gpsbabel_wahoo-element-bolt.fit", filteredMeters: 4_729, unfilteredMeters: 4_738, records: 1101,
      retained: 730,
      rejected: ["negligibleMovement": 371], ignored: 62, sessions: 4, segments: 2, gaps: 3),
    // Four chained FIT files; 311 records (swim) carry no position; the three hr-only parts add no session.
    Pinned(
      name: "fitparse_sample-mulitple-header.fit", filteredMeters: 52_407, unfilteredMeters: 52_448, records: 1773,
      retained: 1398,
      rejected: ["missingPosition": 311, "negligibleMovement": 64], ignored: 1250, sessions: 1, segments: 1, gaps: 0),
    // A device bug appends unframed record bytes after the activity message; reading stops at the
    // impossible architecture byte that follows, keeping the 804 records before it (as GPSBabel's recovery mode).
    Pinned(
      name: "gpsbabel_lezyne-super-gps-bad-endian.fit", filteredMeters: 8_028, unfilteredMeters: 8_080, records: 804,
      retained: 597,
      rejected: ["negligibleMovement": 207], ignored: 21, sessions: 4, segments: 4, gaps: 3, failureOffset: 22_227),
  ]

  @Test(arguments: pinned)
  func realFileIsPinnedToTheMetre(_ expected: Pinned) throws {
    let bytes = try Fixtures.bytes("realdata/fit/\(expected.name)")
    let on = measureFIT(bytes)
    let off = measureFIT(bytes, filter: false)
    #expect(on.format == .fit, "detected as FIT")
    #expect(Int(on.distance.meters.rounded()) == expected.filteredMeters)
    #expect(Int(off.distance.meters.rounded()) == expected.unfilteredMeters)
    #expect(on.report.records == expected.records)
    #expect(on.report.retained == expected.retained)
    #expect(
      Dictionary(uniqueKeysWithValues: on.report.rejected.map { ($0.key.rawValue, $0.value) }) == expected.rejected)
    #expect(on.report.ignored == [.nonRecordMessage: expected.ignored])
    #expect(on.report.errors == 0)
    #expect(on.report.sessions == expected.sessions)
    #expect(on.distance.contributingSegmentCount == expected.segments)
    #expect(on.distance.gapCount == expected.gaps)
    #expect(off.report.retained == expected.records - (expected.rejected["missingPosition"] ?? 0))
    #expect(on.report.failure?.byteOffset == expected.failureOffset)
    #expect(off.report.failure?.byteOffset == expected.failureOffset)
    #expect(on.report.isBalanced && off.report.isBalanced)
  }

  /// Every property the fuzzer checks (balance, chunks of 1, 7 and 4096 bytes equal to the whole
  /// read, the streamed walk equal to one pass, permutation invariance), on each real file.
  @Test(arguments: pinned.map(\.name))
  func realFileReadsTheSameInAnyChunks(_ name: String) throws {
    let bytes = try Fixtures.bytes("realdata/fit/\(name)")
    let problems = FeedInvariants.violations(of: bytes, format: .fit, options: FeedOptions())
    #expect(problems.isEmpty, "\(problems)")
  }

  /// The Edge 800 ride and GPSBabel's GPX of it are one track: the same figure to the millimetre
  /// level of GPX's rounding, the same sessions, segments and gaps, filter on and off.
  @Test func edge800MatchesItsGPXTwin() throws {
    let fit = try Fixtures.bytes("realdata/fit/gpsbabel_garmin-edge-800.fit")
    let gpx = try Fixtures.bytes("realdata/gpx/gpsbabel_garmin-edge-800.gpx")
    for filter in [true, false] {
      let a = measureFIT(fit, filter: filter)
      let b = measureFIT(gpx, filter: filter)
      #expect(b.format == .gpx)
      #expect(abs(a.distance.meters - b.distance.meters) < 0.01, "\(a.distance.meters) vs \(b.distance.meters)")
      #expect(a.distance.contributingSegmentCount == b.distance.contributingSegmentCount)
      #expect(a.distance.gapCount == b.distance.gapCount)
      #expect(a.report.sessions == b.report.sessions)
      #expect(a.report.retained == b.report.retained)
      #expect(a.report.firstTimestamp == b.report.firstTimestamp && a.report.lastTimestamp == b.report.lastTimestamp)
    }
  }

  // MARK: The format, rule by rule

  @Test func aSmallDriveIsMeasuredFromEitherByteOrderAndEitherHeaderSize() {
    let expected = 9 * HostileDrive.step
    for bigEndian in [false, true] {
      for headerSize: UInt8 in [12, 14, 16] {
        let bytes = FITBuilder.drive(count: 10, bigEndian: bigEndian).file(headerSize: headerSize)
        let measured = measureFIT(bytes)
        #expect(measured.format == .fit)
        #expect(measured.report.failure == nil, "\(String(describing: measured.report.failure))")
        #expect(measured.report.retained == 10)
        #expect(abs(measured.distance.meters - expected) < 0.01, "big-endian \(bigEndian), header \(headerSize)")
        #expect(measured.report.firstTimestamp == 1_735_689_600)
      }
    }
  }

  @Test func compressedTimestampHeadersCountOnFromTheLastTimestamp() {
    var builder = FITBuilder()
    builder.define(local: 0, global: 20, fields: FITBuilder.recordFields)
    // A record layout without a timestamp field, for compressed headers (local type 1).
    builder.define(local: 1, global: 20, fields: Array(FITBuilder.recordFields.dropFirst()))
    let start = 1_735_689_630.0  // FIT time's low 5 bits are 30 here, so offsets roll over at 32
    builder.record(time: start, latitude: 45, longitude: 13.25)
    for step in 1...5 {
      let time = start + Double(step)
      let offset = UInt8(FITBuilder.fitTime(time) & 0x1F)
      builder.data.append(0x80 | (1 << 5) | offset)
      builder.data += Array(
        builder.recordBody(time: time, latitude: 45 + Double(step) * 0.0001, longitude: 13.25).dropFirst(4))
    }
    let measured = measureFIT(builder.file())
    #expect(measured.report.retained == 6)
    #expect(measured.report.lastTimestamp == start + 5, "rolled over the 5-bit offset")
    #expect(abs(measured.distance.meters - 5 * HostileDrive.step) < 0.01)
    // Without any timestamp before it, a compressed header gives no time.
    var orphan = FITBuilder()
    orphan.define(local: 1, global: 20, fields: Array(FITBuilder.recordFields.dropFirst()))
    orphan.data.append(0x80 | (1 << 5) | 3)
    orphan.data += Array(orphan.recordBody(time: start, latitude: 45, longitude: 13.25).dropFirst(4))
    #expect(measureFIT(orphan.file()).report.rejected == [.missingTime: 1])
  }

  @Test func developerFieldsAndUnusedFieldsOfAnySizeAreSkipped() {
    var builder = FITBuilder()
    let fields =
      [FITBuilder.Field(number: 99, size: 7, baseType: 0x86)] + FITBuilder.recordFields
      + [FITBuilder.Field(number: 6, size: 3, baseType: 0x84)]  // speed, misaligned: not read
    builder.define(
      local: 2, global: 20, fields: fields,
      developer: [.init(number: 0, size: 5, baseType: 0), .init(number: 1, size: 1, baseType: 0)])
    for index in 0..<4 {
      let body = builder.recordBody(
        time: 1_735_689_600 + Double(index), latitude: 45 + Double(index) * 0.0001, longitude: 13.25)
      builder.message(
        local: 2, [UInt8](repeating: 0xAB, count: 7) + body + [1, 2, 3] + [UInt8](repeating: 0xCD, count: 6))
    }
    let measured = measureFIT(builder.file())
    #expect(measured.report.failure == nil)
    #expect(measured.report.retained == 4)
    #expect(abs(measured.distance.meters - 3 * HostileDrive.step) < 0.01)
  }

  @Test func recordsWithoutAPositionOrATimeAreCountedNotMeasured() {
    var builder = FITBuilder.drive(count: 3)
    let invalid = builder.bytes(0x7FFF_FFFF, size: 4)
    builder.message(
      local: 0,
      builder.bytes(FITBuilder.fitTime(1_735_689_610), size: 4) + invalid + invalid + builder.bytes(0, size: 4))
    builder.message(
      local: 0,
      [0xFF, 0xFF, 0xFF, 0xFF]
        + Array(builder.recordBody(time: 1_735_689_600, latitude: 45, longitude: 13).dropFirst(4)))
    builder.message(
      local: 0,
      builder.bytes(1000, size: 4)
        + Array(builder.recordBody(time: 1_735_689_600, latitude: 45, longitude: 13).dropFirst(4)))
    // A record layout whose latitude is 3 bytes: unreadable, not a guess.
    builder.define(
      local: 3, global: 20,
      fields: [
        .init(number: 253, size: 4, baseType: 0x86), .init(number: 0, size: 3, baseType: 0x85),
        .init(number: 1, size: 4, baseType: 0x85),
      ])
    builder.message(local: 3, builder.bytes(FITBuilder.fitTime(1_735_689_620), size: 4) + [1, 2, 3, 4, 5, 6, 7])
    let bytes = builder.file()
    let measured = measureFIT(bytes)
    #expect(measured.report.records == 7)
    #expect(measured.report.retained == 3)
    #expect(measured.report.rejected == [.missingPosition: 1, .missingTime: 1, .deviceRelativeTime: 1])
    #expect(measured.report.errorReasons == [.badFieldSize: 1])
    #expect(measured.report.errorLines == [bytes.count - 2 - 12], "the message's byte offset")
    #expect(measured.report.isBalanced)
  }

  @Test func timerStopThenStartBeginsANewCaptureSession() {
    var builder = FITBuilder()
    builder.define(local: 0, global: 20, fields: FITBuilder.recordFields)
    builder.define(local: 1, global: 21, fields: FITBuilder.eventFields)
    let start = 1_735_689_600.0
    builder.timer(time: start, type: 0)  // the first start: no stop before it
    for index in 0..<5 {
      builder.record(time: start + Double(index), latitude: 45 + Double(index) * 0.0001, longitude: 13.25)
    }
    builder.timer(time: start + 5, type: 4)  // stop_all
    builder.record(time: start + 6, latitude: 45.0006, longitude: 13.25)  // logged while stopped: same session
    builder.timer(time: start + 20, type: 0)
    builder.timer(time: start + 21, type: 0)  // a second start without a stop: nothing new
    for index in 0..<5 {
      builder.record(time: start + 30 + Double(index), latitude: 45.001 + Double(index) * 0.0001, longitude: 13.25)
    }
    let measured = measureFIT(builder.file())
    #expect(measured.report.sessions == 2)
    #expect(measured.distance.contributingSegmentCount == 2)
    #expect(measured.distance.gapCount == 1)
    #expect(abs(measured.distance.meters - 10 * HostileDrive.step) < 0.01, "6 + 4 steps, never across the pause")
    #expect(measured.report.ignored == [.nonRecordMessage: 4])
  }

  @Test func chainedFilesAreReadOneAfterAnotherEachItsOwnSession() {
    let first = FITBuilder.drive(count: 5).file()
    let second = FITBuilder.drive(count: 5, start: 1_735_689_610).file(headerSize: 12)
    let measured = measureFIT(first + second)
    #expect(measured.report.failure == nil)
    #expect(measured.report.retained == 10)
    #expect(measured.report.sessions == 2)
    #expect(measured.distance.contributingSegmentCount == 2)
  }

  @Test func aBadCRCStillReadsEveryRecordAndIsNotedAtItsOffset() {
    let good = FITBuilder.drive(count: 10)
    let fileCRC = measureFIT(good.file(spoilFileCRC: true))
    #expect(fileCRC.report.retained == 10, "every record is read")
    #expect(abs(fileCRC.distance.meters - 9 * HostileDrive.step) < 0.01)
    #expect(fileCRC.report.failure == nil)
    #expect(fileCRC.report.notes == [.crcMismatch: 1])
    var lines = FeedRecordCollector()
    var reader = FITReader(options: FeedOptions())
    let bytes = good.file(spoilFileCRC: true)
    try? bytes.withUnsafeBufferPointer { try reader.read($0, into: &lines) }
    try? reader.finish(into: &lines)
    #expect(lines.records.last == .noted(.crcMismatch, line: 14 + good.data.count), "the CRC's own offset")
    // A chained file after a bad one is read too.
    let chained = measureFIT(good.file(spoilFileCRC: true) + FITBuilder.drive(count: 3, start: 1_735_689_700).file())
    #expect(chained.report.retained == 13)
    #expect(chained.report.notes == [.crcMismatch: 1])
    let header = measureFIT(good.file(spoilHeaderCRC: true))
    #expect(header.report.retained == 10)
    #expect(header.report.notes == [.crcMismatch: 1])
    #expect(header.report.failure == nil)
    // A header CRC of zero means "not computed" (the Edge 800's), never a mismatch.
    var zero = good.file()
    zero[12] = 0
    zero[13] = 0
    var crc = FITCRC()
    for byte in zero.dropLast(2) { crc.update(byte) }
    zero[zero.count - 2] = UInt8(crc.value & 0xFF)
    zero[zero.count - 1] = UInt8(crc.value >> 8)
    #expect(measureFIT(zero).report.failure == nil)
    #expect(measureFIT(zero).report.notes.isEmpty)
  }

  /// CRC-16 as the FIT SDK computes it: the check value of "123456789" for CRC-16/ARC.
  @Test func crcMatchesTheFITSDK() {
    var crc = FITCRC()
    for byte in Array("123456789".utf8) { crc.update(byte) }
    #expect(crc.value == 0xBB3D)
  }

  @Test func detectionNeedsTheFITSignature() {
    let bytes = FITBuilder.drive(count: 2).file()
    #expect(bytes.withUnsafeBufferPointer { FeedFormat.detect(prefix: $0) } == .fit)
    var spoiled = bytes
    spoiled[9] = 0x41
    #expect(spoiled.withUnsafeBufferPointer { FeedFormat.detect(prefix: $0) } != .fit)
  }

  // MARK: Hostile input

  @Test func structuralDamageStopsReadingWithTheByteOffset() {
    func failure(_ bytes: [UInt8], format: FeedFormat? = .fit) -> (Int?, String) {
      let measured = measureFIT(bytes, format: format)
      #expect(measured.report.isBalanced)
      guard case .malformedData(let offset, let detail)? = measured.report.failure else {
        return (nil, "\(String(describing: measured.report.failure))")
      }
      return (offset, detail)
    }
    // Not FIT at all.
    #expect(failure(Array("<gpx></gpx>\n".utf8)).0 == 0)
    #expect(failure([]).1.contains("empty"))
    // An undefined local message type.
    var undefined = FITBuilder.drive(count: 2)
    undefined.message(local: 5, [1, 2, 3])
    let (offset, detail) = failure(undefined.file())
    #expect(offset == 14 + undefined.data.count - 4)
    #expect(detail.contains("local type 5"))
    // An architecture byte other than 0 or 1.
    var architecture = FITBuilder.drive(count: 2)
    architecture.define(local: 1, global: 21, fields: FITBuilder.eventFields, architecture: 7)
    #expect(failure(architecture.file()).1.contains("architecture 7"))
    // A message running past the data size the header declares.
    var past = FITBuilder.drive(count: 3).file()
    past[4] -= 3
    #expect(failure(past).1.contains("runs past the end"))
    // Bytes after the last file that are not another FIT file.
    #expect(
      failure(FITBuilder.drive(count: 2).file() + [0x05] + [UInt8](repeating: 0x41, count: 11)).1.contains(
        "not another FIT file"))
    // A header whose size byte is larger than the header: the record after it is not a
    // definition.
    var oversized = FITBuilder.drive(count: 3).file()
    oversized[0] = 40
    #expect(
      failure(oversized) == (
        0,
        "the FIT header of 40 bytes is larger than a FIT header (12 or 14 bytes) and no message definition follows it, so its size byte is damaged"
      ))
    // A protocol newer than 2.x.
    #expect(failure(FITBuilder.drive(count: 2).file(protocolVersion: 0x30)).1.contains("protocol version 3.0"))
  }

  /// Cut at every offset: never a crash, every record read before the cut counted, the cut reported.
  @Test func truncatedAtEveryOffset() {
    let bytes = FITBuilder.drive(count: 6).file()
    let whole = measureFIT(bytes, filter: false)
    #expect(whole.report.failure == nil)
    for length in 0..<bytes.count {
      let prefix = Array(bytes[0..<length])
      let measured = measureFIT(prefix, format: .fit, filter: false)
      // Cut before its first byte, the file is empty, whatever its format.
      #expect(
        length == 0 ? measured.report.failure == .notAFeed(.empty) : measured.report.failure?.byteOffset != nil,
        "cut at \(length)")
      #expect(measured.report.isBalanced, "cut at \(length)")
      // Records whose bytes are all there are kept; one cut short is counted unreadable.
      let complete = length < 32 ? 0 : min(6, (length - 32) / 17)
      #expect(measured.report.retained == complete, "cut at \(length)")
      #expect(measured.report.records <= 6)
    }
  }

  /// Random bytes, with and without a valid FIT header in front: never a crash, always balanced,
  /// and the same in any chunks.
  @Test func randomBytesNeverCrash() {
    var generator = SeededRandom(seed: 16)
    for round in 0..<40 {
      let length = Int(generator.next() % 600)
      var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      if round % 2 == 0 {
        var header = FITBuilder()
        header.data = bytes
        bytes = header.file()
      }
      let problems = FeedInvariants.violations(of: bytes, format: .fit, options: FeedOptions())
      #expect(problems.isEmpty, "round \(round): \(problems)")
    }
  }

  /// The largest message FIT allows (255 fields and 255 developer fields of 255 bytes each:
  /// 130,050 bytes) is read, in any chunks, and its record found.
  @Test func hugeFieldSizesAreReadInBoundedMemory() {
    var builder = FITBuilder()
    let filler = (0..<251).map { FITBuilder.Field(number: UInt8(100 + $0 % 100), size: 255, baseType: 0x0D) }
    let fields = FITBuilder.recordFields + filler
    let developer = (0..<255).map { FITBuilder.Field(number: UInt8($0), size: 255, baseType: 0) }
    builder.define(local: 0, global: 20, fields: fields, developer: developer)
    for index in 0..<2 {
      let body = builder.recordBody(
        time: 1_735_689_600 + Double(index), latitude: 45 + Double(index) * 0.0001, longitude: 13.25)
      builder.message(local: 0, body + [UInt8](repeating: 0xEE, count: 251 * 255 + 255 * 255))
    }
    let bytes = builder.file()
    for chunkSize in [1 << 20, 4096, 1000] {
      let measured = measureFIT(bytes, chunkSize: chunkSize)
      #expect(measured.report.failure == nil)
      #expect(measured.report.retained == 2)
      #expect(abs(measured.distance.meters - HostileDrive.step) < 0.01)
    }
  }
}
