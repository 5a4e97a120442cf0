import Testing

@testable import RouteFeeds

/// RMC, GGA and GST read in place (`NMEAInPlace`) must give, bit for bit, what the field walker
/// (`NMEASentenceParser.readFix`) gives, and decline every sentence it does not take so that the
/// walker reads it, with its error. Each case is checked in both orders against the shared memo.
@Suite("NMEA sentences read in place")
struct NMEAInPlaceTests {
  /// What a read gives, every double by its bits: equal only when the fixes are identical.
  static func outcome(_ fix: NMEAFix) -> String {
    func bits(_ value: Double?) -> String { value.map { String($0.bitPattern, radix: 16) } ?? "-" }
    return [
      "\(fix.kind)", "\(fix.timeOfDay.map(String.init) ?? "-")", "\(fix.valid)", bits(fix.latitude),
      bits(fix.longitude), "\(fix.hasCoordinates)", bits(fix.details.speed), bits(fix.details.course),
      bits(fix.details.altitude), bits(fix.details.hdop), "\(fix.details.date.map(String.init) ?? "-")",
      bits(fix.accuracy),
    ].joined(separator: " ")
  }

  /// Frames `sentence` (a whole checksummed line) as the reader does.
  static func withFrame<T>(_ sentence: String, _ body: (UnsafeBufferPointer<UInt8>, NMEAFrame) -> T) -> T {
    Array(sentence.utf8).withUnsafeBufferPointer { line in
      body(line, NMEASentenceParser.frame(line, from: 0, lastLine: false))
    }
  }

  /// The field walker's reading, or its error.
  static func general(_ sentence: String, _ repeats: inout NMEARepeatedFields) -> String {
    withFrame(sentence) { line, frame in
      switch frame.verdict {
      case .rmc, .gga, .gns, .gll, .gst: break
      default: return "\(frame.verdict)"
      }
      var fields = NMEAFields(line, comma: frame.comma, end: frame.star)
      var fix = NMEAFix(.rmc, timeOfDay: nil)
      do throws(NMEAReadError) {
        try NMEASentenceParser.readFix(frame.verdict, &fields, &repeats, into: &fix)
      } catch {
        return "error \(error)"
      }
      return outcome(fix)
    }
  }

  /// The in-place reading, or nil when it declines.
  static func inPlace(_ sentence: String, _ repeats: inout NMEARepeatedFields) -> String? {
    withFrame(sentence) { line, frame in
      var fix = NMEAFix(.rmc, timeOfDay: nil)
      guard NMEAInPlace.readFix(frame.verdict, line, comma: frame.comma, star: frame.star, &repeats, into: &fix)
      else { return nil }
      return outcome(fix)
    }
  }

  /// Reads `bodies` in order as the reader does (in place, else the walker) and by the walker
  /// alone, each with its own memo: every sentence must read the same. Returns which were taken.
  @discardableResult
  static func sameAsWalker(_ bodies: [String], _ label: String) -> [Bool] {
    var readerMemo = NMEARepeatedFields()
    var walkerMemo = NMEARepeatedFields()
    var taken: [Bool] = []
    for body in bodies {
      let sentence = NMEATestLog.sentence(body)
      let expected = general(sentence, &walkerMemo)
      if let read = inPlace(sentence, &readerMemo) {
        #expect(read == expected, "\(label): \(body)")
        taken.append(true)
      } else {
        #expect(general(sentence, &readerMemo) == expected, "\(label): \(body)")
        taken.append(false)
      }
    }
    return taken
  }

  static let rmc = "GPRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6,041125,,,A"
  static let gga = "GPGGA,160001.00,4853.04103,S,12324.38882,W,1,14,1.5,46.1,M,-7.9,M,,"
  static let gst = "GPGST,160001.00,1.9,6.2,4.6,90.0,4.6,6.2,11.6"

  /// `body` with its field `index` (0 is the address) replaced by `value`.
  static func with(_ body: String, _ index: Int, _ value: String) -> String {
    var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[index] = value
    return fields.joined(separator: ",")
  }

  @Test("the shapes receivers write are read in place, to the bit of the field walker")
  func commonShapesTaken() {
    let cases: [String] = [
      Self.rmc, Self.gga, Self.gst,
      Self.with(Self.rmc, 2, "V"), Self.with(Self.rmc, 12, "N"), Self.with(Self.rmc, 12, "M"),
      Self.with(Self.rmc, 12, "S"), Self.with(Self.rmc, 12, "D"), Self.with(Self.rmc, 12, ""),
      Self.with(Self.rmc, 7, ""), Self.with(Self.rmc, 8, ""), Self.with(Self.rmc, 9, ""),
      Self.with(Self.rmc, 9, "310299"), Self.with(Self.rmc, 9, "0411251"), Self.with(Self.rmc, 9, "04X125"),
      Self.with(Self.rmc, 1, "160001"), Self.with(Self.rmc, 1, "160001.5"), Self.with(Self.rmc, 1, "235960.123456"),
      Self.with(Self.rmc, 3, "512.5"), Self.with(Self.rmc, 3, "4853.0412345"), Self.with(Self.rmc, 5, "0012324.3"),
      Self.with(Self.rmc, 4, "N"), Self.with(Self.rmc, 6, "E"), Self.with(Self.rmc, 7, "-4.5"),
      Self.with(Self.rmc, 7, "5."), Self.with(Self.rmc, 7, ".5"), Self.with(Self.rmc, 8, "123456789012345"),
      Self.with(Self.rmc, 10, "1.5"), Self.with(Self.rmc, 11, "E"),
      "GPRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6,041125",
      "GPRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6,041125,,",
      "GPRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6,041125,,,N,V",
      "GNRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6,041125,,,A",
      Self.with(Self.gga, 6, "0"), Self.with(Self.gga, 6, "6"), Self.with(Self.gga, 6, "7"),
      Self.with(Self.gga, 6, "8"), Self.with(Self.gga, 7, ""), Self.with(Self.gga, 8, ""),
      Self.with(Self.gga, 9, ""), Self.with(Self.gga, 9, "-12.25"),
      "GPGGA,160001.00,4853.04103,S,12324.38882,W,1,14,1.5,46.1",
      Self.with(Self.gst, 6, ""), Self.with(Self.gst, 7, ""), Self.with(Self.gst, 2, "x,y"),
      "GPGST,160001.00,1.9,6.2,4.6,90.0,4.6,6.2",
    ]
    for body in cases {
      #expect(Self.sameAsWalker([body], "common") == [true], "\(body)")
    }
  }

  @Test("anything else is declined, and the walker reads it: its value or its error")
  func unusualShapesDeclined() {
    let cases: [String] = [
      Self.with(Self.rmc, 1, ""), Self.with(Self.rmc, 1, "160001.1234567"), Self.with(Self.rmc, 1, "16a001.00"),
      Self.with(Self.rmc, 1, "246000.00"), Self.with(Self.rmc, 1, "160001."), Self.with(Self.rmc, 2, ""),
      Self.with(Self.rmc, 2, "AA"), Self.with(Self.rmc, 3, ""), Self.with(Self.rmc, 3, "4853"),
      Self.with(Self.rmc, 3, "4853.04103999"), Self.with(Self.rmc, 3, "4860.00000"), Self.with(Self.rmc, 3, "48.5"),
      Self.with(Self.rmc, 3, "12345678.5"), Self.with(Self.rmc, 4, "s"), Self.with(Self.rmc, 4, ""),
      Self.with(Self.rmc, 6, "X"), Self.with(Self.rmc, 6, "WW"), Self.with(Self.rmc, 7, "1e1"),
      Self.with(Self.rmc, 7, "+5"), Self.with(Self.rmc, 7, "-"), Self.with(Self.rmc, 7, "1234567890123456"),
      Self.with(Self.rmc, 8, "310.6 "), Self.with(Self.rmc, 3, "-4853.04103"),
      "GPRMC,160001.00,A,4853.04103,S,12324.38882,W,4.762,310.6",
      "GPRMC,160001.00,A,4853.04103,S,12324.38882,W",
      "GPRMC,160001.00,A,,,,,4.762,310.6,041125,,,A",
      Self.with(Self.gga, 6, ""), Self.with(Self.gga, 6, "10"),
      "GPGGA,160001.00,4853.04103,S,12324.38882,W,1,14",
      "GPGGA,160001.00,4853.04103,S,12324.38882,W,1,14,1.5",
      "GPGST,160001.00,1.9,6.2,4.6,90.0,4.6", "GPGST,160001.00,1.9,6.2,4.6",
      Self.with(Self.gst, 6, "4.6e0"),
      // Not read in place at all: the walker's sentences.
      "GPGNS,160001.00,4853.04103,S,12324.38882,W,AN,14,1.5,46.1,-7.9,,",
      "GPGLL,4853.04103,S,12324.38882,W,160001.00,A,A",
    ]
    for body in cases {
      #expect(Self.sameAsWalker([body], "unusual") == [false], "\(body)")
    }
  }

  @Test("a sentence without a checksum is left to the walker")
  func uncheckedDeclined() {
    var memo = NMEARepeatedFields()
    #expect(Self.inPlace("$" + Self.rmc, &memo) == nil)
    #expect(Self.inPlace("$" + Self.rmc + "$GPGGA,1", &memo) == nil)
  }

  @Test("every byte of an epoch's sentences damaged, inserted or dropped: in place or declined, never different")
  func mutations() {
    let replacements = Array("0159.,-+NSEWAVe *x".utf8)
    for body in [Self.rmc, Self.gga, Self.gst] {
      let bytes = Array(body.utf8)
      var variants: [[UInt8]] = []
      for index in bytes.indices.dropFirst(6) {
        for byte in replacements where byte != bytes[index] {
          var changed = bytes
          changed[index] = byte
          variants.append(changed)
          var inserted = bytes
          inserted.insert(byte, at: index)
          variants.append(inserted)
        }
        var dropped = bytes
        dropped.remove(at: index)
        variants.append(dropped)
      }
      var taken = 0
      for variant in variants {
        let text = String(decoding: variant, as: UTF8.self)
        // After the original, so the memo holds its time and coordinates; and alone.
        taken += Self.sameAsWalker([body, text], "after").filter { $0 }.count - 1
        Self.sameAsWalker([text, body], "before")
      }
      #expect(taken > variants.count / 4, "\(body): most single changes keep the common shape")
    }
  }

  @Test("a drive read in place gives the same positions as reading a byte at a time")
  func driveReadsTheSame() {
    var bodies: [String] = []
    for second in 0..<30 {
      let time = "2359\(String(format: "%02d", 30 + second % 30)).\(second % 10)0"
      let minutes = String(format: "%08.5f", 3.04103 + Double(second) * 0.0013)
      bodies += [
        "GNRMC,\(time),A,48\(minutes),N,123\(minutes),E,\(second).5,\(second * 11).0,311225,,,\(second % 7 == 3 ? "N" : "A")",
        "GPGGA,\(time),48\(minutes),N,123\(minutes),E,\(second % 9),14,1.\(second % 10),46.1,M,-7.9,M,,",
        "GPGST,\(time),1.9,6.2,4.6,90.0,\(second % 5).6,6.\(second),11.6",
      ]
    }
    let taken = Self.sameAsWalker(bodies, "drive")
    #expect(taken.allSatisfy { $0 })
    let bytes = Array(NMEATestLog.lines(bodies).utf8)
    let whole = NMEATestRun.events(bytes)
    #expect(whole.events == NMEATestRun.events(bytes, chunkSize: 1).events)
    // One epoch of thirty has neither a usable RMC (mode N) nor a GGA fix (quality 8).
    #expect(whole.positions.count == 29)
  }
}
