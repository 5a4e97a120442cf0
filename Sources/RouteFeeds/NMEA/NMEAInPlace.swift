/// The fix sentences every epoch brings (RMC, GGA, GST), read where their bytes lie: each field
/// is found by reading it, with no field table and no second pass.
///
/// A cursor `at` is the start of the field being read; the field runs to the next comma or to the
/// sentence's `*` (`star`, the first `*` of the sentence). A field exists while `at <= star`;
/// after the last one `at` is `star + 1`. Words are loaded only while eight bytes remain in the
/// line (`bound`), so a read never leaves it.
///
/// Each reader takes only the shapes receivers write (an `hhmmss[.f…]` time, `ddmm.f…` degrees
/// with a one-letter hemisphere, plain decimals) and returns false, having written nothing, for
/// anything else: the general path (`NMEAFields` and the `read…` functions) then reads the
/// sentence and gives its value or its error. For the sentences it takes, every value is the one
/// the general path computes (the same integers, the same exact powers of ten, the same
/// arithmetic), and the repeated-field memo (`NMEARepeatedFields`) is shared.
///
/// - Complexity: O(*n*) in the sentence's length; most fields cost one or two word loads.
enum NMEAInPlace {
  typealias Bytes = UnsafePointer<UInt8>

  /// Reads `verdict`'s sentence in place into `fix`; false when it is not RMC, GGA or GST of
  /// the common shape, or carries no checksum.
  @inline(__always)
  static func readFix(
    _ verdict: NMEAVerdict, _ line: UnsafeBufferPointer<UInt8>, comma: Int, star: Int,
    _ repeats: inout NMEARepeatedFields, into fix: inout NMEAFix
  ) -> Bool {
    guard let base = line.baseAddress, star < line.count, base[star] == .asciiStar else { return false }
    switch verdict {
    case .rmc: return readRMC(base, at: comma &+ 1, star: star, bound: line.count, &repeats, into: &fix)
    case .gga: return readGGA(base, at: comma &+ 1, star: star, bound: line.count, &repeats, into: &fix)
    case .gst: return readGST(base, at: comma &+ 1, star: star, bound: line.count, &repeats, into: &fix)
    default: return false
    }
  }

  /// RMC: time, status, position, speed (knots), course, date, variation, mode; as
  /// `NMEASentenceParser.readRMC`.
  static func readRMC(
    _ base: Bytes, at start: Int, star: Int, bound: Int, _ repeats: inout NMEARepeatedFields,
    into fix: inout NMEAFix
  ) -> Bool {
    var at = start
    guard let time = timeOfDay(base, &at, star: star, bound: bound, &repeats) else { return false }
    // The status: A or V alone.
    guard at <= star else { return false }
    let status = base[at]
    guard status == 0x41 || status == 0x56, base[at &+ 1] == .asciiComma else { return false }
    at &+= 2
    guard let (latitude, longitude) = coordinates(base, &at, star: star, bound: bound, &repeats) else { return false }
    var speed: Double?
    var course: Double?
    guard number(base, &at, star: star, into: &speed),
      number(base, &at, star: star, into: &course), at <= star
    else { return false }
    let dateStart = at
    skipField(base, &at, star: star)
    let dateEnd = at &- 1
    // Magnetic variation and its direction, then the mode letter (none, or empty, is usable).
    skipField(base, &at, star: star)
    skipField(base, &at, star: star)
    let mode: UInt8 = at < star ? base[at] : 0
    fix = NMEAFix(.rmc, timeOfDay: time)
    fix.latitude = latitude
    fix.longitude = longitude
    fix.hasCoordinates = true
    // A (active), and a usable mode letter (none reads as 0, which is usable).
    fix.valid = status == 0x41 && NMEASentenceParser.modeLetterIsUsable(mode)
    if fix.valid {
      fix.details.speed = speed.map { $0 * 1852 / 3600 }
      fix.details.course = course
      fix.details.date = repeats.rmcDate(UnsafeBufferPointer(start: base + dateStart, count: dateEnd &- dateStart))
    }
    return true
  }

  /// GGA: time, position, quality, satellites, HDOP, altitude; as `NMEASentenceParser.readGGA`.
  static func readGGA(
    _ base: Bytes, at start: Int, star: Int, bound: Int, _ repeats: inout NMEARepeatedFields,
    into fix: inout NMEAFix
  ) -> Bool {
    var at = start
    guard let time = timeOfDay(base, &at, star: star, bound: bound, &repeats),
      let (latitude, longitude) = coordinates(base, &at, star: star, bound: bound, &repeats), at <= star
    else { return false }
    // The quality: one digit, then the satellites (any bytes, but there).
    let quality = base[at] &- .ascii0
    guard quality < 10, base[at &+ 1] == .asciiComma else { return false }
    at &+= 2
    guard at <= star else { return false }
    skipField(base, &at, star: star)
    var hdop: Double?
    var altitude: Double?
    guard number(base, &at, star: star, into: &hdop),
      number(base, &at, star: star, into: &altitude)
    else { return false }
    fix = NMEAFix(.gga, timeOfDay: time)
    fix.latitude = latitude
    fix.longitude = longitude
    fix.hasCoordinates = true
    fix.valid = NMEASentenceParser.qualityIsUsable(Int(quality))
    if fix.valid {
      fix.details.hdop = hdop
      fix.details.altitude = altitude
    }
    return true
  }

  /// GST: time, RMS, error ellipse, σlat, σlon; as `NMEASentenceParser.readGST`.
  static func readGST(
    _ base: Bytes, at start: Int, star: Int, bound: Int, _ repeats: inout NMEARepeatedFields,
    into fix: inout NMEAFix
  ) -> Bool {
    var at = start
    guard let time = timeOfDay(base, &at, star: star, bound: bound, &repeats) else { return false }
    for _ in 0..<4 {
      guard at <= star else { return false }
      skipField(base, &at, star: star)
    }
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?
    guard number(base, &at, star: star, into: &sigmaLatitude),
      number(base, &at, star: star, into: &sigmaLongitude)
    else { return false }
    fix = NMEAFix(.gst, timeOfDay: time)
    if let sigmaLatitude, let sigmaLongitude {
      fix.accuracy = (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
    }
    return true
  }

  /// The little-endian word at `pointer`.
  @inline(__always)
  static func word(_ pointer: Bytes) -> UInt64 { NMEAWords.load(pointer).littleEndian }

  /// Moves `at` past the field there (which exists): to the next field, or past `star`.
  @inline(__always)
  static func skipField(_ base: Bytes, _ at: inout Int, star: Int) {
    while at < star, base[at] != .asciiComma { at &+= 1 }
    at &+= 1
  }

  /// Whether `byte`, just after a field's last digit, ends the field (a comma, or the `*` that
  /// ends the sentence: a sentence holds no `*` before its `star`).
  @inline(__always)
  static func endsField(_ byte: UInt8) -> Bool { byte == .asciiComma || byte == .asciiStar }

  /// `hhmmss` or `hhmmss.f` with one to six fraction digits, as microseconds since midnight:
  /// the value `NMEAFieldParser.timeOfDay` gives the same bytes. Nil for any other field. The
  /// sentences of an epoch repeat one time: the same bytes before a comma or `*` are the same
  /// value, so a repeat is two word compares (`NMEARepeatedFields.knownTime`).
  @inline(__always)
  static func timeOfDay(
    _ base: Bytes, _ at: inout Int, star: Int, bound: Int, _ repeats: inout NMEARepeatedFields
  ) -> Int64? {
    let start = at
    guard start <= star, start &+ 16 <= bound else { return nil }
    let head = word(base + start)
    let tail = word(base + (start &+ 8))
    if let known = repeats.knownTime(head, tail), endsField(base[start &+ known.length]) {
      at = start &+ known.length &+ 1
      return known.value
    }
    guard let hhmm = ByteNumberParser.fourDigits(base + start) else { return nil }
    let tens = base[start &+ 4] &- .ascii0
    let units = base[start &+ 5] &- .ascii0
    guard tens < 10, units < 10 else { return nil }
    let hours = Int64(hhmm / 100)
    let minutes = Int64(hhmm % 100)
    let seconds = Int64(tens) &* 10 &+ Int64(units)
    guard hours < 24, minutes < 60, seconds <= 60 else { return nil }
    var end = start &+ 6
    var micros: Int64 = 0
    if base[end] == .asciiDot {
      let fraction = word(base + (end &+ 1))
      let digits = ByteNumberParser.leadingDigits(fraction)
      guard digits >= 1, digits <= 6 else { return nil }
      micros =
        Int64(ByteNumberParser.digitsValue(fraction, count: digits))
        &* Int64(ByteNumberParser.smallPowerOfTen(6 &- digits))
      end &+= 1 &+ digits
    }
    guard endsField(base[end]) else { return nil }
    at = end &+ 1
    let value = (hours &* 3600 &+ minutes &* 60 &+ seconds) &* 1_000_000 &+ micros
    repeats.rememberTime(head, tail, length: end &- start, value)
    return value
  }

  /// Where a `d…dmm.f…` coordinate (three to seven whole digits, one to seven fraction digits)
  /// starting at `start` ends, with its two runs of digits as words, not yet read. Nil for any
  /// other shape.
  @inline(__always)
  static func coordinateShape(_ base: Bytes, _ start: Int, bound: Int) -> (
    end: Int, head: UInt64, wholeDigits: Int, tail: UInt64, digits: Int
  )? {
    guard start &+ 8 <= bound else { return nil }
    let head = word(base + start)
    let wholeDigits = ByteNumberParser.leadingDigits(head)
    let dot = start &+ wholeDigits
    guard wholeDigits >= 3, wholeDigits <= 7, base[dot] == .asciiDot, dot &+ 9 <= bound else { return nil }
    let tail = word(base + (dot &+ 1))
    let digits = ByteNumberParser.leadingDigits(tail)
    guard digits >= 1, digits <= 7 else { return nil }
    return (dot &+ 1 &+ digits, head, wholeDigits, tail, digits)
  }

  /// The unsigned degrees of a coordinate `coordinateShape` found.
  @inline(__always)
  static func degrees(_ shape: (end: Int, head: UInt64, wholeDigits: Int, tail: UInt64, digits: Int)) -> Double? {
    NMEAFieldParser.degrees(
      whole: Int(ByteNumberParser.digitsValue(shape.head, count: shape.wholeDigits)),
      fraction: Int(ByteNumberParser.digitsValue(shape.tail, count: shape.digits)), digits: shape.digits)
  }

  /// `lat,N,lon,E` with one-letter hemispheres, as signed degrees: the values
  /// `NMEAFieldParser.coordinate` gives, from the memo when the same bytes came before (GGA
  /// repeating RMC's position, a stop).
  @inline(__always)
  static func coordinates(
    _ base: Bytes, _ at: inout Int, star: Int, bound: Int, _ repeats: inout NMEARepeatedFields
  ) -> (Double, Double)? {
    let latitudeStart = at
    guard latitudeStart <= star, let latitude = coordinateShape(base, latitudeStart, bound: bound),
      base[latitude.end] == .asciiComma, base[latitude.end &+ 2] == .asciiComma
    else { return nil }
    let north = base[latitude.end &+ 1]
    let longitudeStart = latitude.end &+ 3
    guard let longitude = coordinateShape(base, longitudeStart, bound: bound),
      base[longitude.end] == .asciiComma, endsField(base[longitude.end &+ 2])
    else { return nil }
    let east = base[longitude.end &+ 1]
    guard north == 0x4E || north == 0x53, east == 0x45 || east == 0x57 else { return nil }  // N S, E W
    at = longitude.end &+ 3
    let latitudeField = UnsafeBufferPointer(start: base + latitudeStart, count: latitude.end &- latitudeStart)
    let longitudeField = UnsafeBufferPointer(start: base + longitudeStart, count: longitude.end &- longitudeStart)
    let letters = UInt16(north) | UInt16(east) &<< 8
    if let known = repeats.knownCoordinates(latitudeField, longitudeField, letters: letters) { return known }
    guard let latitudeDegrees = degrees(latitude), let longitudeDegrees = degrees(longitude) else { return nil }
    let signed = (
      north == 0x53 ? -latitudeDegrees : latitudeDegrees, east == 0x57 ? -longitudeDegrees : longitudeDegrees
    )
    repeats.remember(latitudeField, longitudeField, letters: letters, signed)
    return signed
  }

  /// A plain decimal field (`-?digits[.digits]`, 1 to 15 digits) or an empty one, into `value`:
  /// the value `NMEAFieldParser.number` gives (for these bytes it and
  /// `ByteNumberParser.plainDecimal` divide the same integer mantissa by the same exact power of
  /// ten). False for any other field, or none. A byte at a time: the fields it reads (speeds,
  /// courses, DOPs, altitudes, σ) are three to seven bytes.
  @inline(__always)
  static func number(_ base: Bytes, _ at: inout Int, star: Int, into value: inout Double?) -> Bool {
    guard at <= star else { return false }
    // `d.d`, the shape of most DOPs and σ, without the loop: the same mantissa over 10.
    let units = base[at] &- .ascii0
    if units < 10, base[at &+ 1] == .asciiDot {
      let tenths = base[at &+ 2] &- .ascii0
      if tenths < 10, endsField(base[at &+ 3]) {
        value = Double(Int64(units) &* 10 &+ Int64(tenths)) / ByteNumberParser.exactPowerOfTen(1)
        at &+= 4
        return true
      }
    }
    var index = at
    let negative = base[index] == .asciiMinus
    if negative { index &+= 1 }
    let first = index
    var mantissa: UInt64 = 0
    var dot = -1
    // Ends at the comma or `*` after the number (neither is a digit or a point).
    while true {
      let digit = base[index] &- .ascii0
      if digit < 10 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
      } else if base[index] == .asciiDot, dot < 0 {
        dot = index
      } else {
        break
      }
      index &+= 1
    }
    guard endsField(base[index]) else { return false }
    let fractionDigits = dot < 0 ? 0 : index &- dot &- 1
    let digits = index &- first &- (dot < 0 ? 0 : 1)
    if digits == 0 {
      // Empty (a lone sign or point is not a number).
      guard index == at else { return false }
      value = nil
    } else {
      guard digits <= 15 else { return false }
      // Below 10^15: exact as a signed integer, and so as a double.
      let magnitude = Double(Int64(bitPattern: mantissa)) / ByteNumberParser.exactPowerOfTen(fractionDigits)
      value = negative ? -magnitude : magnitude
    }
    at = index &+ 1
    return true
  }
}
