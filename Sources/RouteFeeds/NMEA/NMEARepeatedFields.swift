/// The last time, position and date fields read, with their values.
///
/// The sentences of one epoch (RMC, GGA, GST, …) carry the same time bytes, RMC and GGA the same
/// coordinate bytes, and every RMC of a day the same date: each repeat is recognised by a few
/// word compares instead of being read again. Only values that read are kept (and a date that
/// names no day), and the same bytes always read the same, so every result is what reading
/// them gives.
///
/// - Complexity: O(1) memory; O(1) per field beside the reading a new value needs.
struct NMEARepeatedFields {
  typealias Field = UnsafeBufferPointer<UInt8>

  private var time = NMEAFieldBytes()
  private var timeOfDay: Int64 = 0
  private var latitudeBytes = NMEAFieldBytes()
  private var longitudeBytes = NMEAFieldBytes()
  /// The two hemisphere letters, north/south in the low byte.
  private var hemispheres: UInt16 = 0
  private var latitude = 0.0
  private var longitude = 0.0
  /// The last time of day read in place: its first sixteen bytes as two words, with the bytes
  /// past its end masked off (the masks are 0 and the head 1 before the first, so nothing
  /// matches), its length and its value.
  private var inPlaceTimeHead: UInt64 = 1
  private var inPlaceTimeTail: UInt64 = 0
  private var inPlaceTimeHeadMask: UInt64 = 0
  private var inPlaceTimeTailMask: UInt64 = 0
  private var inPlaceTimeLength = 0
  private var inPlaceTimeValue: Int64 = 0
  /// `ddmmyy` as day, month and two-digit year in three bytes; 0 before the first date.
  private var dateDigits = 0
  private var days: Int?

  /// `field` read as `NMEAFieldParser.timeOfDay` reads it.
  @inline(__always)
  mutating func timeOfDay(_ field: Field) -> NMEAValue<Int64> {
    guard let bytes = NMEAFieldBytes(field) else { return NMEAFieldParser.timeOfDay(field) }
    if bytes == time { return .value(timeOfDay) }
    let read = NMEAFieldParser.timeOfDay(field)
    if case .value(let value) = read {
      time = bytes
      timeOfDay = value
    }
    return read
  }

  /// A latitude and a longitude with their hemispheres, read as `NMEAFieldParser.coordinate`
  /// reads them.
  @inline(__always)
  mutating func coordinates(_ latitudeField: Field, _ north: Field, _ longitudeField: Field, _ east: Field)
    -> (NMEAValue<Double>, NMEAValue<Double>)
  {
    guard north.count == 1, east.count == 1, let latitudeKey = NMEAFieldBytes(latitudeField),
      let longitudeKey = NMEAFieldBytes(longitudeField)
    else {
      return (
        NMEAFieldParser.coordinate(latitudeField, north, positive: 0x4E, negative: 0x53),  // N S
        NMEAFieldParser.coordinate(longitudeField, east, positive: 0x45, negative: 0x57)  // E W
      )
    }
    let letters = UInt16(north[0]) | UInt16(east[0]) &<< 8
    if letters == hemispheres, latitudeKey == latitudeBytes, longitudeKey == longitudeBytes {
      return (.value(latitude), .value(longitude))
    }
    let lat = NMEAFieldParser.coordinate(latitudeField, north, positive: 0x4E, negative: 0x53)
    let lon = NMEAFieldParser.coordinate(longitudeField, east, positive: 0x45, negative: 0x57)
    if case .value(let a) = lat, case .value(let b) = lon {
      hemispheres = letters
      latitudeBytes = latitudeKey
      longitudeBytes = longitudeKey
      latitude = a
      longitude = b
    }
    return (lat, lon)
  }

  /// The coordinates last read from these bytes and hemisphere letters (north/south in the low
  /// byte), or nil: `coordinates` without the reading, for a reader that reads in place.
  @inline(__always)
  func knownCoordinates(_ latitudeField: Field, _ longitudeField: Field, letters: UInt16) -> (Double, Double)? {
    guard letters == hemispheres, let latitudeKey = NMEAFieldBytes(latitudeField), latitudeKey == latitudeBytes,
      let longitudeKey = NMEAFieldBytes(longitudeField), longitudeKey == longitudeBytes
    else { return nil }
    return (latitude, longitude)
  }

  /// Keeps coordinates read in place from these bytes, as `coordinates` keeps its readings.
  @inline(__always)
  mutating func remember(_ latitudeField: Field, _ longitudeField: Field, letters: UInt16, _ values: (Double, Double)) {
    guard let latitudeKey = NMEAFieldBytes(latitudeField), let longitudeKey = NMEAFieldBytes(longitudeField) else {
      return
    }
    hemispheres = letters
    latitudeBytes = latitudeKey
    longitudeBytes = longitudeKey
    (latitude, longitude) = values
  }

  /// The length and value of the time of day last read in place when the sixteen bytes `head`
  /// and `tail` start with its bytes, else nil. The caller checks that the field ends there.
  @inline(__always)
  func knownTime(_ head: UInt64, _ tail: UInt64) -> (length: Int, value: Int64)? {
    guard head & inPlaceTimeHeadMask == inPlaceTimeHead, tail & inPlaceTimeTailMask == inPlaceTimeTail else {
      return nil
    }
    return (inPlaceTimeLength, inPlaceTimeValue)
  }

  /// Keeps a time of day of `length` (6 to 16) bytes read in place from the words `head` and
  /// `tail`, for `knownTime`.
  @inline(__always)
  mutating func rememberTime(_ head: UInt64, _ tail: UInt64, length: Int, _ value: Int64) {
    inPlaceTimeHeadMask = length >= 8 ? ~0 : ~(~0 &<< UInt64(8 &* length))
    inPlaceTimeTailMask = length <= 8 ? 0 : length == 16 ? ~0 : ~(~0 &<< UInt64(8 &* (length &- 8)))
    inPlaceTimeHead = head & inPlaceTimeHeadMask
    inPlaceTimeTail = tail & inPlaceTimeTailMask
    inPlaceTimeLength = length
    inPlaceTimeValue = value
  }

  /// RMC's `ddmmyy` as days since 1970-01-01, or nil when it is empty or names no real day
  /// (the two-digit year pivots at 80: `NMEAFieldParser.fullYear`).
  @inline(__always)
  mutating func rmcDate(_ field: Field) -> Int? {
    guard field.count == 6, let day = field.twoDigits(at: 0), let month = field.twoDigits(at: 2),
      let year = field.twoDigits(at: 4)
    else { return nil }
    // Never 0 (the bit above the year), and one byte a field: each reads at most 99.
    let digits = 1 &<< 24 | year &<< 16 | month &<< 8 | day
    if digits != dateDigits {
      dateDigits = digits
      days = NMEAFieldParser.days(year: NMEAFieldParser.fullYear(twoDigit: year), month: month, day: day)
    }
    return days
  }
}

/// A field of 8 to 16 bytes held as two words, its first and its last eight (together the
/// whole field), to recognise the same bytes again in two compares.
struct NMEAFieldBytes: Equatable {
  private var count = 0
  private var head: UInt64 = 0
  private var tail: UInt64 = 0

  /// No field: equal to none made from one.
  init() {}

  /// Nil for a field shorter than 8 or longer than 16 bytes.
  @inline(__always)
  init?(_ field: UnsafeBufferPointer<UInt8>) {
    let count = field.count
    guard count >= 8, count <= 16, let base = field.baseAddress else { return nil }
    self.count = count
    head = NMEAWords.load(base)
    tail = NMEAWords.load(base + (count &- 8))
  }
}
