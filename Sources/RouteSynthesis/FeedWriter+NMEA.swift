/// Which sentences the NMEA writer emits per epoch, and with which talker.
public struct NMEAWriterOptions: Sendable, Hashable {
  /// `GP` (GPS only) or `GN` (multi-constellation), as receivers print them.
  public var talker: Talker
  /// `$--GSA` after GGA: fix mode, satellites used, PDOP, HDOP, VDOP.
  public var includesGSA: Bool
  /// `$--GST` after that: the error ellipse, with σlat = 0.6 × accuracy and σlon = 0.8 ×
  /// accuracy, so sqrt(σlat² + σlon²) gives the accuracy back (to the 0.1 m printed).
  public var includesGST: Bool
  /// Metres between the geoid and the ellipsoid, for GGA.
  public var geoidSeparation: Double

  public enum Talker: String, Sendable, Hashable {
    case gps = "GP"
    case multiConstellation = "GN"
  }

  public init(talker: Talker = .gps, includesGSA: Bool = true, includesGST: Bool = true, geoidSeparation: Double = -7.9)
  {
    self.talker = talker
    self.includesGSA = includesGSA
    self.includesGST = includesGST
    self.geoidSeparation = geoidSeparation
  }
}

extension FeedWriter {
  /// NMEA 0183 (`.nmea` to `write(_:as:into:)`; version 2.3 fields), one line per sentence
  /// ending in CR LF, per epoch: `RMC` (status, position, speed in knots, course, `ddmmyy` date,
  /// mode), `GGA` (quality, satellites, HDOP, altitude), then optionally `GSA` and `GST`.
  /// Coordinates are `ddmm.mmmmm` / `dddmm.mmmmm` (about 2 cm); times `hhmmss.ss`.
  ///
  /// A no-fix epoch writes RMC status `V` (mode `N`), GGA quality 0, GSA mode 1 and no GST, with
  /// the time and date still present. A fix marked `corruptedSentence` gets one digit of its RMC
  /// latitude changed after the checksum was computed, so exactly that sentence fails its
  /// checksum. The writer adds no sessions: an NMEA log shows a capture gap only as a silence.
  ///
  /// - Complexity: O(*n*); O(1) memory.
  static func writeNMEA(
    _ fixes: some Sequence<SyntheticFix>, options: NMEAWriterOptions,
    into out: consuming OutputBuffer, flushingInto sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> OutputBuffer {
    let talker = Array(options.talker.rawValue.utf8)
    for fix in fixes {
      try out.reserveRecord(into: &sink)
      let (day, millisecondOfDay) = CivilCalendar.split(fix.milliseconds)
      let date = out.date(ofDay: day)
      let sample = fix.sample

      // RMC
      var sentence = out.beginSentence(talker, "RMC")
      out.nmeaTime(millisecondOfDay)
      var corruptAt: Int?
      if fix.hasFix {
        out.text(",A,")
        corruptAt = out.nmeaLatitude(sample.latitude)
        out.byte(0x2C)
        out.nmeaLongitude(sample.longitude)
        out.byte(0x2C)
        out.fixed((sample.speed ?? 0) * 1.943_844_492_440_604_7, decimals: 3)
        out.byte(0x2C)
        if let course = sample.course { out.fixed(course, decimals: 1) }
        out.byte(0x2C)
      } else {
        out.text(",V,,,,,,,")
      }
      out.twoDigits(date.day)
      out.twoDigits(date.month)
      out.twoDigits(date.year % 100)
      out.text(fix.hasFix ? ",,,A" : ",,,N")
      out.endSentence(from: sentence)
      if fix.faults.contains(.corruptedSentence), let index = corruptAt {
        out.base[index] = (out.base[index] &- 0x30 &+ 5) % 10 &+ 0x30
      }

      // GGA
      sentence = out.beginSentence(talker, "GGA")
      out.nmeaTime(millisecondOfDay)
      if fix.hasFix {
        out.byte(0x2C)
        _ = out.nmeaLatitude(sample.latitude)
        out.byte(0x2C)
        out.nmeaLongitude(sample.longitude)
        out.text(",1,")
        out.twoDigits(min(99, fix.satellites))
        out.byte(0x2C)
        out.fixed(fix.hdop, decimals: 1)
        out.byte(0x2C)
        out.fixed(sample.altitude ?? 0, decimals: 1)
        out.text(",M,")
        out.fixed(options.geoidSeparation, decimals: 1)
        out.text(",M,,")
      } else {
        out.text(",,,,,0,00,99.9,,,,,,")
      }
      out.endSentence(from: sentence)

      if options.includesGSA {
        sentence = out.beginSentence(talker, "GSA")
        if fix.hasFix {
          out.text("A,3,")
          for slot in 0..<12 {
            if slot < fix.satellites { out.twoDigits(Self.satelliteNumbers[slot]) }
            out.byte(0x2C)
          }
          let hdop = fix.hdop
          out.fixed(min(99.9, hdop * 1.6), decimals: 1)
          out.byte(0x2C)
          out.fixed(hdop, decimals: 1)
          out.byte(0x2C)
          out.fixed(min(99.9, hdop * 1.3), decimals: 1)
        } else {
          out.text("A,1,,,,,,,,,,,,,99.9,99.9,99.9")
        }
        out.endSentence(from: sentence)
      }

      if options.includesGST, fix.hasFix, let accuracy = sample.horizontalAccuracy, accuracy >= 0 {
        sentence = out.beginSentence(talker, "GST")
        out.nmeaTime(millisecondOfDay)
        out.byte(0x2C)
        out.fixed(max(0.3, accuracy * 0.25), decimals: 1)
        out.byte(0x2C)
        out.fixed(accuracy * 0.8, decimals: 1)
        out.byte(0x2C)
        out.fixed(accuracy * 0.6, decimals: 1)
        out.text(",90.0,")
        out.fixed(accuracy * 0.6, decimals: 1)
        out.byte(0x2C)
        out.fixed(accuracy * 0.8, decimals: 1)
        out.byte(0x2C)
        out.fixed(accuracy * 1.5, decimals: 1)
        out.endSentence(from: sentence)
      }
    }
    return out
  }

  /// PRNs listed in GSA, in order, for as many satellites as the fix used.
  static let satelliteNumbers = [2, 5, 7, 9, 12, 13, 15, 17, 19, 20, 24, 28]
}

extension OutputBuffer {
  /// Writes `$` + talker + type + `,` and returns where the sentence starts.
  @inline(__always)
  mutating func beginSentence(_ talker: [UInt8], _ type: StaticString) -> Int {
    let start = count
    byte(0x24)
    byte(talker[0])
    byte(talker[1])
    text(type)
    byte(0x2C)
    return start
  }

  /// Writes `*` and the checksum (XOR of the bytes between `$` and `*`, two uppercase hex
  /// digits), then CR LF.
  @inline(__always)
  mutating func endSentence(from start: Int) {
    var checksum: UInt8 = 0
    var index = start + 1
    while index < count {
      checksum ^= base[index]
      index += 1
    }
    byte(0x2A)
    let high = checksum >> 4
    let low = checksum & 0xF
    byte(high < 10 ? high &+ 0x30 : high &+ 0x37)
    byte(low < 10 ? low &+ 0x30 : low &+ 0x37)
    byte(0x0D)
    byte(0x0A)
  }

  /// `hhmmss.ss`.
  @inline(__always)
  mutating func nmeaTime(_ millisecondOfDay: Int) {
    clock(millisecondOfDay: millisecondOfDay, separated: false)
    byte(0x2E)
    twoDigits(millisecondOfDay % 1000 / 10)
  }

  /// `ddmm.mmmmm,N`; returns the index of the last minutes digit (the one a corrupted
  /// sentence changes).
  @inline(__always)
  mutating func nmeaLatitude(_ degrees: Double) -> Int {
    angle(degrees, degreeDigits: 2)
    let last = count - 1
    byte(0x2C)
    byte(degrees < 0 ? UInt8(ascii: "S") : UInt8(ascii: "N"))
    return last
  }

  /// `dddmm.mmmmm,E`.
  @inline(__always)
  mutating func nmeaLongitude(_ degrees: Double) {
    angle(degrees, degreeDigits: 3)
    byte(0x2C)
    byte(degrees < 0 ? UInt8(ascii: "W") : UInt8(ascii: "E"))
  }

  /// Degrees and minutes to 5 decimals, rounded once in units of 10⁻⁵ minute so minutes
  /// never print as 60.
  @inline(__always)
  private mutating func angle(_ degrees: Double, degreeDigits: Int) {
    let units = UInt64((degrees.magnitude * 6_000_000).rounded(.toNearestOrAwayFromZero))
    unsigned(units / 6_000_000, width: degreeDigits)
    let minuteUnits = units % 6_000_000
    unsigned(minuteUnits / 100_000, width: 2)
    byte(0x2E)
    unsigned(minuteUnits % 100_000, width: 5)
  }
}
