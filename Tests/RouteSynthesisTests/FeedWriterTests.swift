import Foundation
import RouteMileage
import Testing

@testable import RouteSynthesis

@Suite("Feed writers")
struct FeedWriterTests {
  typealias Support = SynthesisTestSupport

  static let drive = SyntheticDrive(
    DriveConfiguration(
      seed: 31, start: 1_767_223_800, duration: 3_600, place: .gyrePoint, faults: .everyday,
      events: [
        .fixLoss(at: 400, duration: 20), .corruptedSentence(at: 900), .corruptedSentence(at: 2_000),
        .captureGap(at: 2_500, duration: 200),
      ]))

  @Test("fixed-decimal numbers round half away from zero and never print -0")
  func fixedDecimals() {
    func text(_ value: Double, _ decimals: Int) -> String {
      var out = OutputBuffer()
      defer { out.release() }
      out.fixed(value, decimals: decimals)
      return String(decoding: UnsafeBufferPointer(start: out.base, count: out.count), as: UTF8.self)
    }
    #expect(text(-123.45, 3) == "-123.450")
    #expect(text(0.25, 1) == "0.3")
    #expect(text(-0.25, 1) == "-0.3")
    #expect(text(-0.04, 1) == "0.0")
    #expect(text(12, 0) == "12")
    #expect(text(-48.876_699_95, 7) == "-48.8767000")
    #expect(text(154.5, 7) == "154.5000000")
    #expect(text(0.000_000_1, 7) == "0.0000001")
  }

  @Test("ISO 8601 times in UTC, with milliseconds only when present, across a year end")
  func times() {
    #expect(SynthesisTime.iso8601(milliseconds: 1_767_225_599_000) == "2025-12-31T23:59:59Z")
    #expect(SynthesisTime.iso8601(milliseconds: 1_767_225_600_250) == "2026-01-01T00:00:00.250Z")
    #expect(SynthesisTime.iso8601(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00Z")
    #expect(SynthesisTime.iso8601(milliseconds: -1_000) == "1969-12-31T23:59:59Z")
  }

  @Test("NMEA: every checksum is valid except the corrupted sentences; RMC dates roll over at midnight")
  func nmeaChecksums() throws {
    let bytes = Support.bytes(Self.drive, as: .nmea(NMEAWriterOptions(talker: .multiConstellation)))
    let lines = Support.lines(bytes)
    let facts = Self.drive.facts()
    let invalid = lines.filter { !Support.checksumIsValid($0) }
    #expect(facts.corruptedSentences == 2)
    #expect(invalid.count == 2)
    #expect(invalid.allSatisfy { $0.hasPrefix("$GNRMC,") })
    #expect(bytes.count > 1 << 17)  // crosses several buffer flushes
    #expect(bytes.split(separator: 0x0A).allSatisfy { $0.last == 0x0D })

    let rmc = lines.filter { $0.hasPrefix("$GNRMC,") }
    #expect(rmc.count == facts.records)
    #expect(rmc.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[2] == "V" }.count == 20)
    #expect(rmc.first!.contains(",311225,"))
    #expect(rmc.last!.contains(",010126,"))
    #expect(rmc.contains { $0.hasPrefix("$GNRMC,235959.00,") } && rmc.contains { $0.hasPrefix("$GNRMC,000000.00,") })

    // Field counts per sentence, as NMEA 0183 2.3 defines them.
    let expectedFields = ["RMC": 13, "GGA": 15, "GSA": 18, "GST": 9]
    for line in lines {
      let body = line.prefix(upTo: line.lastIndex(of: "*")!)
      let type = String(body.dropFirst(3).prefix(3))
      #expect(body.split(separator: ",", omittingEmptySubsequences: false).count == expectedFields[type], "\(line)")
    }
    // No-fix epochs: GGA quality 0, GSA mode 1, no GST.
    #expect(lines.filter { $0.hasPrefix("$GNGGA,") && $0.contains(",,,,,0,00,") }.count == 20)
    #expect(lines.filter { $0.hasPrefix("$GNGST,") }.count == facts.positions)
    // Northern/eastern hemisphere.
    #expect(lines.first { $0.hasPrefix("$GNGGA,") }!.contains(",N,15430."))
  }

  @Test("NMEA positions and GST accuracy read back to the generated values")
  func nmeaValues() throws {
    let fixes = Array(Self.drive.prefix(200)).filter(\.hasFix)
    let lines = Support.lines(Support.bytes(fixes, as: .nmea))
    let gga = lines.filter { $0.hasPrefix("$GPGGA,") }
    let gst = lines.filter { $0.hasPrefix("$GPGST,") }
    for (fix, (sentence, errors)) in zip(fixes, zip(gga, gst)) {
      let fields = sentence.split(separator: ",", omittingEmptySubsequences: false)
      let latitude = Double(fields[2].prefix(2))! + Double(fields[2].dropFirst(2))! / 60
      let longitude = Double(fields[4].prefix(3))! + Double(fields[4].dropFirst(3))! / 60
      #expect(abs(latitude - fix.sample.latitude) < 2e-7)
      #expect(abs(longitude - fix.sample.longitude) < 2e-7)
      let sigma = errors.split(separator: "*")[0].split(separator: ",")
      let accuracy = (Double(sigma[6])! * Double(sigma[6])! + Double(sigma[7])! * Double(sigma[7])!).squareRoot()
      #expect(abs(accuracy - fix.sample.horizontalAccuracy!) < 0.08)
    }
  }

  @Test("GPX: well-formed (balanced tags), one trkseg per session, one trkpt per position")
  func gpxStructure() throws {
    let bytes = Support.bytes(Self.drive, as: .gpx(GPXWriterOptions(name: "A & B <test>")))
    let text = String(decoding: bytes, as: UTF8.self)
    var stack: [String] = []
    var index = text.startIndex
    while let open = text[index...].firstIndex(of: "<") {
      let close = try #require(text[open...].firstIndex(of: ">"))
      let tag = text[text.index(after: open)..<close]
      index = text.index(after: close)
      if tag.hasPrefix("?") || tag.hasSuffix("/") { continue }
      let name = String(tag.split(separator: " ")[0])
      if name.hasPrefix("/") {
        #expect(stack.popLast() == String(name.dropFirst()))
      } else {
        stack.append(name)
      }
    }
    #expect(stack.isEmpty)
    let facts = Self.drive.facts()
    #expect(text.components(separatedBy: "<trkseg>").count - 1 == facts.sessions)
    #expect(text.components(separatedBy: "<trkpt ").count - 1 == facts.positions)
    #expect(text.contains("<name>A &amp; B &lt;test&gt;</name>"))
    #expect(text.contains("<time>2025-12-31T23:30:00Z</time>"))
  }

  /// The element names of `text`'s tags, checked balanced (every closing tag closes the
  /// innermost open one), in document order.
  static func balancedElementNames(_ text: String) throws -> [String] {
    var stack: [String] = []
    var names: [String] = []
    var index = text.startIndex
    while let open = text[index...].firstIndex(of: "<") {
      let close = try #require(text[open...].firstIndex(of: ">"))
      let tag = text[text.index(after: open)..<close]
      index = text.index(after: close)
      if tag.hasPrefix("?") { continue }
      let name = String(tag.split(whereSeparator: { $0 == " " || $0 == "/" && tag.first != "/" })[0])
      if tag.hasSuffix("/") {
        names.append(name)
      } else if name.hasPrefix("/") {
        #expect(stack.popLast() == String(name.dropFirst()))
      } else {
        stack.append(name)
        names.append(name)
      }
    }
    #expect(stack.isEmpty)
    return names
  }

  @Test("TCX: well-formed, one Track per session, one Trackpoint per position, values as generated")
  func tcxStructure() throws {
    let bytes = Support.bytes(Self.drive, as: .tcx(TCXWriterOptions(sport: "A & B")))
    let text = String(decoding: bytes, as: UTF8.self)
    let names = try Self.balancedElementNames(text)
    let facts = Self.drive.facts()
    #expect(names.filter { $0 == "Track" }.count == facts.sessions)
    #expect(names.filter { $0 == "Trackpoint" }.count == facts.positions)
    #expect(names.filter { $0 == "LatitudeDegrees" }.count == facts.positions)
    #expect(text.contains("<Activity Sport=\"A &amp; B\">"))
    let first = try #require(Self.drive.first { $0.hasFix })
    #expect(text.contains("<Time>2025-12-31T23:30:00Z</Time>"))
    var latitude = OutputBuffer()
    defer { latitude.release() }
    latitude.fixed(first.sample.latitude, decimals: 7)
    let digits = String(decoding: UnsafeBufferPointer(start: latitude.base, count: latitude.count), as: UTF8.self)
    #expect(text.contains("<LatitudeDegrees>\(digits)</LatitudeDegrees>"))
  }

  @Test("KML: well-formed, one gx:Track per session, a when and a gx:coord (longitude first) per position")
  func kmlStructure() throws {
    let bytes = Support.bytes(Self.drive, as: .kml(KMLWriterOptions(name: "A & B <test>")))
    let text = String(decoding: bytes, as: UTF8.self)
    let names = try Self.balancedElementNames(text)
    let facts = Self.drive.facts()
    #expect(names.filter { $0 == "gx:Track" }.count == facts.sessions)
    #expect(names.filter { $0 == "when" }.count == facts.positions)
    #expect(names.filter { $0 == "gx:coord" }.count == facts.positions)
    #expect(text.contains("<name>A &amp; B &lt;test&gt;</name>"))
    let first = try #require(Self.drive.first { $0.hasFix })
    var coord = OutputBuffer()
    defer { coord.release() }
    coord.fixed(first.sample.longitude, decimals: 7)
    coord.byte(UInt8(ascii: " "))
    coord.fixed(first.sample.latitude, decimals: 7)
    let digits = String(decoding: UnsafeBufferPointer(start: coord.base, count: coord.count), as: UTF8.self)
    #expect(text.contains("<when>2025-12-31T23:30:00Z</when>\n          <gx:coord>\(digits) "))
  }

  @Test("CSV: canonical and legacy headers, one row per position, values as generated")
  func csvRows() throws {
    let facts = Self.drive.facts()
    let canonical = Support.lines(Support.bytes(Self.drive, as: .csv(.canonical)))
    #expect(canonical[0] == "timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude,capture_session_id")
    #expect(canonical.count == 1 + facts.positions)
    let sessions = Set(canonical.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[7] })
    #expect(sessions.count == facts.sessions)
    let uuid = try Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
    #expect(sessions.allSatisfy { (try? uuid.wholeMatch(in: String($0))) != nil })

    let legacy = Support.lines(Support.bytes(Self.drive, as: .csv(.legacy)))
    #expect(legacy[0] == "timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude")
    #expect(legacy.count == canonical.count)
    #expect(legacy.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 7 })

    for (fix, row) in zip(Self.drive.filter(\.hasFix), canonical.dropFirst()) {
      let cells = row.split(separator: ",", omittingEmptySubsequences: false)
      #expect(Double(cells[1]) == fix.sample.latitude)
      #expect(Double(cells[2]) == fix.sample.longitude)
      #expect(Double(cells[3]) == fix.sample.horizontalAccuracy)
      #expect(cells[5].isEmpty == (fix.sample.course == nil))
    }
    let crlf = Support.bytes(Self.drive.prefix(3), as: .csv(CSVWriterOptions(usesCRLF: true)))
    #expect(crlf.filter { $0 == 0x0D }.count == 4 && crlf.filter { $0 == 0x0A }.count == 4)
  }

  @Test("CSV phone export: time with milliseconds, no altitude, sessions numbered, same rows as canonical")
  func phoneExportCSV() throws {
    let canonical = Support.lines(Support.bytes(Self.drive, as: .csv))
    let phone = Support.lines(Support.bytes(Self.drive, as: .csv(.phoneExport)))
    #expect(phone[0] == "time,latitude,longitude,accuracy,speed,course,session")
    #expect(phone.count == canonical.count)
    let fixes = Self.drive.filter(\.hasFix)
    // One row per fix, so the loop below pairs each row with its own fix and checks them all.
    #expect(phone.count == 1 + fixes.count)
    for (fix, (row, canonicalRow)) in zip(fixes, zip(phone.dropFirst(), canonical.dropFirst())) {
      let cells = row.split(separator: ",", omittingEmptySubsequences: false)
      let canonicalCells = canonicalRow.split(separator: ",", omittingEmptySubsequences: false)
      #expect(cells.count == 7)
      // `2025-11-04T16:00:00.000Z`: always three fraction digits, the canonical time otherwise.
      #expect(cells[0].count == 24 && cells[0].hasSuffix("Z") && cells[0].dropLast().contains("."))
      #expect(cells[0].prefix(19) == canonicalCells[0].prefix(19))
      #expect(Array(cells[1...5]) == Array(canonicalCells[1...5]))
      #expect(cells[6] == (fix.sample.captureSession == nil ? "" : "\(fix.session)"))
    }
    let noSession = Support.lines(
      Support.bytes(
        Self.drive.prefix(3), as: .csv(CSVWriterOptions(includesSessionColumn: false, columns: .phoneExport))))
    #expect(noSession[0] == "time,latitude,longitude,accuracy,speed,course")
    #expect(noSession.count == 4, "a header and three rows, so the check below has rows to check")
    #expect(noSession.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 6 })
  }

  @Test("GeoJSON: one Point feature per fix, properties first, values as generated")
  func geoJSONFeatures() throws {
    let bytes = Support.bytes(Self.drive, as: .geojson)
    #expect(bytes.count > 1 << 17)  // crosses several buffer flushes
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    #expect(document["type"] as? String == "FeatureCollection")
    let features = try #require(document["features"] as? [[String: Any]])
    let fixes = Self.drive.filter(\.hasFix)
    #expect(features.count == fixes.count)
    for (fix, feature) in zip(fixes, features) {
      let properties = try #require(feature["properties"] as? [String: Any])
      let geometry = try #require(feature["geometry"] as? [String: Any])
      let coordinates = try #require(geometry["coordinates"] as? [Double])
      #expect(geometry["type"] as? String == "Point")
      #expect(coordinates[0] == fix.sample.longitude && coordinates[1] == fix.sample.latitude)
      #expect(properties["time"] as? String == SynthesisTime.iso8601(milliseconds: fix.milliseconds))
      let accuracy = fix.sample.horizontalAccuracy.flatMap { $0 >= 0 ? $0 : nil }
      #expect(properties["accuracy"] as? Double == accuracy)
      #expect((properties["bearing"] == nil) == (fix.sample.course == nil))
    }
    // Properties before the geometry, so a streaming reader has the time before the position.
    let firstLine = try #require(Support.lines(bytes).dropFirst().first)
    #expect(firstLine.hasPrefix("{\"type\":\"Feature\",\"properties\":{\"time\":\""))
    let still = String(
      decoding: Support.bytes(Self.drive.prefix(2), as: .geojson(GeoJSONWriterOptions(includesMotion: false))),
      as: UTF8.self)
    #expect(!still.contains("speed") && !still.contains("bearing") && still.contains("accuracy"))
  }

  @Test("writing to a file descriptor streams the same bytes as writing to memory")
  func fileDescriptorSink() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("routesynthesis-\(UUID().uuidString).gpx")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(fd >= 0)
    let written = try FeedWriter.write(Self.drive, as: .gpx, to: fd)
    close(fd)
    let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(onDisk == Support.bytes(Self.drive, as: .gpx))
    #expect(written == onDisk.count)
  }
}
