/// What a sentence is, once framed and its checksum checked.
enum NMEAVerdict: UInt8 {
  // Read.
  case rmc, gga, gns, gll, gst, gsa, zda
  // Ignored.
  case ais, proprietary, supporting, otherTalker
  // Unreadable.
  case notASentence, truncated, badChecksum, badAddress

  /// Whether the sentence is read or passed over as a known kind (not unreadable).
  var isRead: Bool {
    switch self {
    case .notASentence, .truncated, .badChecksum, .badAddress: false
    default: true
    }
  }

  /// The report reason, for the verdicts that are not read.
  var reason: FeedReason {
    switch self {
    case .ais: .ais
    case .proprietary: .proprietary
    case .supporting: .supportingSentence
    case .otherTalker: .otherTalker
    case .notASentence: .notASentence
    case .truncated: .truncatedSentence
    case .badChecksum: .badChecksum
    case .badAddress: .badAddress
    case .rmc, .gga, .gns, .gll, .gst, .gsa, .zda: .supportingSentence  // read, never reported by verdict
    }
  }
}

/// One sentence's place in its line.
struct NMEAFrame {
  var verdict: NMEAVerdict
  /// The comma after the address (or `star` when there are no fields).
  var comma = 0
  /// The `*` before the checksum.
  var star = 0
  /// Where the next sentence of the line starts (the line's length at its end).
  var next: Int
  /// True when the sentence carries no `*hh` checksum and was framed unchecked.
  var unchecked = false
}

/// Why a read sentence's fields could not be read.
enum NMEAReadError: UInt8, Error {
  case missingFields, badTime, badNumber

  var reason: FeedReason {
    switch self {
    case .missingFields: .missingFields
    case .badTime: .badTime
    case .badNumber: .badNumber
    }
  }
}

/// Splits a line into sentences and reads each.
///
/// A line normally holds one sentence; a packet collision puts a sentence start (`$` or `!`)
/// inside another, so every `$` or `!` starts a new sentence and the one it cut off is
/// `truncatedSentence` (a line is counted unreadable once, for its first problem; the
/// sentences in it that check out are still read). Each sentence is checked in this order: it starts with `$`/`!`
/// (else `notASentence`), it ends in `*hh` (else it is read unchecked and noted `checksumMissing`,
/// unless it was cut off: `truncatedSentence`), the checksum matches
/// (else `badChecksum`), then its address decides what it is. Only then are fields read.
enum NMEASentenceParser {
  /// Talkers whose RMC/GGA/GNS/GLL/GST/GSA/ZDA are read: GPS, combined GNSS, GLONASS, Galileo,
  /// BeiDou (both spellings), QZSS (both spellings), NavIC.
  @inline(__always)
  static func isGNSSTalker(_ first: UInt8, _ second: UInt8) -> Bool {
    switch (first, second) {
    case (0x47, 0x50), (0x47, 0x4E), (0x47, 0x4C), (0x47, 0x41), (0x47, 0x42),  // GP GN GL GA GB
      (0x42, 0x44), (0x51, 0x5A), (0x47, 0x51), (0x47, 0x49):  // BD QZ GQ GI
      return true
    default: return false
    }
  }

  /// Three-letter sentence types packed into an integer for one switch.
  @inline(__always)
  static func code(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }
  static let rmc = code(0x52, 0x4D, 0x43)
  static let gga = code(0x47, 0x47, 0x41)
  static let gns = code(0x47, 0x4E, 0x53)
  static let gll = code(0x47, 0x4C, 0x4C)
  static let gst = code(0x47, 0x53, 0x54)
  static let gsa = code(0x47, 0x53, 0x41)
  static let zda = code(0x5A, 0x44, 0x41)

  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt8? {
    if byte.isASCIIDigit { return byte &- .ascii0 }
    let folded = byte | 0x20
    if folded >= 0x61, folded <= 0x66 { return folded &- 0x61 &+ 10 }
    return nil
  }

  /// Reads the sentence that starts at `start` in `line`.
  ///
  /// - Parameters:
  ///   - line: a whole line, trimmed, holding only printable ASCII.
  ///   - lastLine: true for the feed's last line when it had no line end (and the log has so far
  ///     carried checksums); a sentence there without a checksum is `truncatedSentence` rather
  ///     than read unchecked.
  /// - Complexity: O(*n*) in the sentence length.
  static func frame(_ line: UnsafeBufferPointer<UInt8>, from start: Int, lastLine: Bool) -> NMEAFrame {
    let count = line.count
    let first = line[start]
    var index = start + 1
    guard first == .asciiDollar || first == .asciiBang else {
      while index < count, line[index] != .asciiDollar, line[index] != .asciiBang { index += 1 }
      return NMEAFrame(verdict: .notASentence, next: index)
    }
    // Whole words first: XOR them until one may hold a `*`, `$` or `!` (one test for the
    // three, which all lie below 0x2B; the line is printable ASCII).
    var words: UInt64 = 0
    let base = line.baseAddress!
    while index &+ 8 <= count {
      let word = NMEAWords.load(base + index)
      if NMEAWords.below(word, 0x2B) != 0 { break }
      words ^= word
      index &+= 8
    }
    var checksum = NMEAWords.foldXOR(words)
    var star = -1
    while index < count {
      let byte = line[index]
      if byte == .asciiStar {
        star = index
        break
      }
      if byte == .asciiDollar || byte == .asciiBang { break }
      checksum ^= byte
      index += 1
    }
    guard star >= 0 else {
      // Cut by another sentence, or the feed's last line with no line end: a cut, not a
      // logger that writes no checksums.
      if index < count || lastLine { return NMEAFrame(verdict: .truncated, next: index) }
      // No checksum at all (some loggers write none): read unchecked, noted `checksumMissing`.
      if first == .asciiBang { return NMEAFrame(verdict: .ais, next: index, unchecked: true) }
      var comma = start + 1
      while comma < index, line[comma] != .asciiComma { comma += 1 }
      return NMEAFrame(
        verdict: classify(line, start: start, comma: comma), comma: comma, star: index, next: index, unchecked: true)
    }
    index = star + 1
    while index < count, line[index] != .asciiDollar, line[index] != .asciiBang { index += 1 }
    let next = index
    var checksumEnd = next
    while checksumEnd > star + 1, line[checksumEnd - 1] == .asciiSpace || line[checksumEnd - 1] == .asciiTab {
      checksumEnd -= 1
    }
    guard checksumEnd == star + 3, let high = hexValue(line[star + 1]), let low = hexValue(line[star + 2]),
      high << 4 | low == checksum
    else { return NMEAFrame(verdict: .badChecksum, next: next) }
    if first == .asciiBang { return NMEAFrame(verdict: .ais, next: next) }
    // A five-letter address is the common case: its comma is where it always is.
    var comma = start + 6
    if comma >= star || line[comma] != .asciiComma {
      comma = start + 1
      while comma < star, line[comma] != .asciiComma { comma += 1 }
    }
    return NMEAFrame(verdict: classify(line, start: start, comma: comma), comma: comma, star: star, next: next)
  }

  /// What `classify` gives a sentence starting with `head`, its first eight bytes as a
  /// little-endian word, when they are `$`, a GNSS talker, RMC, GGA, GSA or GST and a comma (the
  /// sentences every epoch brings): the type by one compare of four bytes. Nil for any other
  /// start, which `classify` then reads. O(1).
  @inline(__always)
  static func commonVerdict(_ head: UInt64) -> NMEAVerdict? {
    let verdict: NMEAVerdict
    switch head & 0x00FF_FFFF_FF00_00FF {  // `$`, then bytes 3–6
    case 0x002C_434D_5200_0024: verdict = .rmc  // RMC,
    case 0x002C_4147_4700_0024: verdict = .gga  // GGA,
    case 0x002C_4153_4700_0024: verdict = .gsa  // GSA,
    case 0x002C_5453_4700_0024: verdict = .gst  // GST,
    default: return nil
    }
    guard isGNSSTalker(UInt8(truncatingIfNeeded: head &>> 8), UInt8(truncatingIfNeeded: head &>> 16)) else {
      return nil
    }
    return verdict
  }

  /// A checksummed `$` sentence, by its address (the bytes before `comma`).
  static func classify(_ line: UnsafeBufferPointer<UInt8>, start: Int, comma: Int) -> NMEAVerdict {
    let addressLength = comma - start - 1
    // A GNSS talker with a sentence read here is five capital letters, none a `P` first: what
    // the checks below would find, so the sentences every epoch brings skip them.
    if addressLength == 5, isGNSSTalker(line[start + 1], line[start + 2]) {
      switch code(line[start + 3], line[start + 4], line[start + 5]) {
      case rmc: return .rmc
      case gga: return .gga
      case gsa: return .gsa
      case gst: return .gst
      default: break
      }
    }
    if addressLength >= 1, line[start + 1] == 0x50 { return .proprietary }  // P
    guard addressLength == 5 else { return .badAddress }
    for index in (start + 1)...(start + 5) {
      let byte = line[index]
      guard byte.isASCIIDigit || (byte &- 0x41) < 26 else { return .badAddress }
    }
    guard isGNSSTalker(line[start + 1], line[start + 2]) else { return .otherTalker }
    switch code(line[start + 3], line[start + 4], line[start + 5]) {
    case rmc: return .rmc
    case gga: return .gga
    case gns: return .gns
    case gll: return .gll
    case gst: return .gst
    case gsa: return .gsa
    case zda: return .zda
    default: return .supporting
    }
  }
}

/// The field readers of the sentences the reader uses. Each reads into a caller's value, so
/// nothing large is copied per sentence, and throws the first problem it meets.
extension NMEASentenceParser {
  typealias Field = UnsafeBufferPointer<UInt8>

  @inline(__always)
  static func required(_ fields: inout NMEAFields) throws(NMEAReadError) -> Field {
    guard let field = fields.field() else { throw .missingFields }
    return field
  }

  @inline(__always)
  static func time(_ field: Field, _ repeats: inout NMEARepeatedFields) throws(NMEAReadError) -> Int64? {
    switch repeats.timeOfDay(field) {
    case .empty: return nil
    case .value(let value): return value
    case .invalid: throw .badTime
    }
  }

  @inline(__always)
  static func optionalNumber(_ field: Field?) throws(NMEAReadError) -> Double? {
    switch NMEAFieldParser.number(field) {
    case .empty: return nil
    case .value(let value): return value
    case .invalid: throw .badNumber
    }
  }

  /// Latitude and longitude fields with their hemispheres, into `fix`.
  static func coordinates(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    let latitude = try required(&fields)
    let north = try required(&fields)
    let longitude = try required(&fields)
    let east = try required(&fields)
    switch repeats.coordinates(latitude, north, longitude, east) {
    case (.value(let a), .value(let b)):
      fix.latitude = a
      fix.longitude = b
      fix.hasCoordinates = true
    case (.empty, .empty): break
    default: throw .badNumber
    }
  }

  /// NMEA 2.3+ FAA mode letters that do not describe the vehicle's movement: N (no fix),
  /// M (manual input), S (simulator).
  @inline(__always)
  static func modeIsUsable(_ field: Field?) -> Bool {
    guard let field, let mode = field.first else { return true }
    return modeLetterIsUsable(mode)
  }

  /// The mode rule for one letter (`modeIsUsable`), shared with the in-place reader. O(1).
  @inline(__always)
  static func modeLetterIsUsable(_ mode: UInt8) -> Bool {
    mode != 0x4E && mode != 0x4D && mode != 0x53
  }

  /// GGA's fix quality: 0 no fix, 7 manual input, 8 simulator; 6 (dead reckoning) is the
  /// receiver's own estimate. Shared with the in-place reader. O(1).
  @inline(__always)
  static func qualityIsUsable(_ quality: Int) -> Bool {
    quality >= 1 && quality != 7 && quality != 8
  }

  /// Reads a fix sentence (`verdict` is RMC, GGA, GNS, GLL or GST) into `fix`.
  static func readFix(
    _ verdict: NMEAVerdict, _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    switch verdict {
    case .rmc: try readRMC(&fields, &repeats, into: &fix)
    case .gga: try readGGA(&fields, &repeats, into: &fix)
    case .gns: try readGNS(&fields, &repeats, into: &fix)
    case .gll: try readGLL(&fields, &repeats, into: &fix)
    default: try readGST(&fields, &repeats, into: &fix)
    }
  }

  /// RMC: time, status, position, speed (knots), course, date, variation, mode.
  static func readRMC(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    fix = NMEAFix(.rmc, timeOfDay: try time(try required(&fields), &repeats))
    let status = try required(&fields)
    try coordinates(&fields, &repeats, into: &fix)
    let speed = try optionalNumber(try required(&fields))
    let course = try optionalNumber(try required(&fields))
    let date = try required(&fields)
    _ = fields.skip(2)  // magnetic variation and its direction
    let mode = fields.field()
    fix.valid = status.count == 1 && status[0] == 0x41 && modeIsUsable(mode)  // A
    if fix.valid {
      fix.details.speed = speed.map { $0 * 1852 / 3600 }
      fix.details.course = course
      fix.details.date = repeats.rmcDate(date)
    }
  }

  /// GGA: time, position, quality, satellites, HDOP, altitude.
  static func readGGA(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    fix = NMEAFix(.gga, timeOfDay: try time(try required(&fields), &repeats))
    try coordinates(&fields, &repeats, into: &fix)
    let quality: Int
    switch NMEAFieldParser.integer(try required(&fields)) {
    case .empty: quality = 0
    case .value(let value): quality = value
    case .invalid: throw .badNumber
    }
    _ = try required(&fields)  // satellites
    let hdop = try optionalNumber(fields.field())
    let altitude = try optionalNumber(fields.field())
    fix.valid = qualityIsUsable(quality)
    if fix.valid {
      fix.details.hdop = hdop
      fix.details.altitude = altitude
    }
  }

  /// GNS: time, position, one mode letter per constellation, satellites, HDOP, altitude.
  static func readGNS(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    fix = NMEAFix(.gns, timeOfDay: try time(try required(&fields), &repeats))
    try coordinates(&fields, &repeats, into: &fix)
    let mode = try required(&fields)
    _ = try required(&fields)  // satellites
    let hdop = try optionalNumber(fields.field())
    let altitude = try optionalNumber(fields.field())
    // Any of A D P R F E is a fix; N, M, S are not.
    fix.valid = mode.contains { letter in
      switch letter {
      case 0x41, 0x44, 0x50, 0x52, 0x46, 0x45: true
      default: false
      }
    }
    if fix.valid {
      fix.details.hdop = hdop
      fix.details.altitude = altitude
    }
  }

  /// GLL: position, time, status, mode. NMEA 1.5's GLL ends after the position: untimed.
  static func readGLL(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    fix = NMEAFix(.gll, timeOfDay: nil)
    try coordinates(&fields, &repeats, into: &fix)
    guard let timeField = fields.field() else { return }
    fix.timeOfDay = try time(timeField, &repeats)
    let status = fields.field()
    let mode = fields.field()
    fix.valid = status?.count == 1 && status?[0] == 0x41 && modeIsUsable(mode)
  }

  /// GST: time, RMS, error ellipse (major, minor, orientation), σlat, σlon, σalt.
  static func readGST(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) throws(NMEAReadError) {
    fix = NMEAFix(.gst, timeOfDay: try time(try required(&fields), &repeats))
    guard fields.skip(4) else { throw .missingFields }
    let sigmaLatitude = try optionalNumber(try required(&fields))
    let sigmaLongitude = try optionalNumber(try required(&fields))
    if let sigmaLatitude, let sigmaLongitude {
      fix.accuracy = (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
    }
  }

  /// GSA's HDOP (its PDOP when HDOP is empty), or nil.
  ///
  /// GSA is only a fallback for accuracy, and receivers disagree on its layout (more than 12
  /// satellite slots, a trailing system ID), so it is read leniently: the DOPs are taken only
  /// from the standard layout of 17 or 18 fields, and an unreadable DOP is no DOP.
  static func readGSA(_ fields: inout NMEAFields) -> Double? {
    var pdop: Field?
    var hdop: Field?
    var index = 0
    while let field = fields.field() {
      if index == 14 { pdop = field }
      if index == 15 { hdop = field }
      index += 1
    }
    guard index == 17 || index == 18 else { return nil }
    let value = hdop.flatMap { ByteNumberParser.double($0) } ?? pdop.flatMap { ByteNumberParser.double($0) }
    return value.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
  }

  /// ZDA: time, day, month, 4-digit year (then the local zone, which is not used).
  static func readZDA(
    _ fields: inout NMEAFields, _ repeats: inout NMEARepeatedFields
  ) throws(NMEAReadError) -> (timeOfDay: Int64?, date: Int?) {
    let timeOfDay = try time(try required(&fields), &repeats)
    let day = NMEAFieldParser.integer(try required(&fields))
    let month = NMEAFieldParser.integer(try required(&fields))
    let year = NMEAFieldParser.integer(try required(&fields))
    switch (day, month, year) {
    case (.value(let d), .value(let m), .value(let y)):
      guard let days = NMEAFieldParser.days(year: y, month: m, day: d) else { throw .badTime }
      return (timeOfDay, days)
    case (.empty, .empty, .empty):
      return (timeOfDay, nil)
    default:
      throw .badTime
    }
  }
}
