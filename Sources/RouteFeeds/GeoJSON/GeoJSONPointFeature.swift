/// The feature almost every point-per-fix GeoJSON export is made of (GPSLogger, this project's
/// own writer), read in one pass straight from the chunk's bytes:
///
///     {"type":"Feature","properties":{"time":"…","accuracy":4.0,…},
///      "geometry":{"type":"Point","coordinates":[lon,lat,ele]}}
///
/// Members in any order, any whitespace. It stands in front of `JSONTokenizer` plus
/// `GeoJSONMapper.take` and gives exactly their result for every feature it accepts: the same
/// numbers (`ByteNumberParser.double` on the same bytes), the same day-cached times, the same
/// properties by the same rules (a repeated time key: the last; a repeated accuracy: the
/// first). Any other feature is declined before anything is recorded, and the general path
/// reads it: a geometry other than a Point, a malformed coordinate, a key with an escape, a
/// time that is not a zoned ISO 8601 string of the common shape, a number or null, a repeated
/// `geometry`, `properties`, `type` or `coordinates`, a nested object or array where a
/// scalar is skipped, `coordTimes` or `coordinateProperties`, anything not well-formed, or a
/// feature the chunk cuts.
///
/// - Complexity: O(*n*) in the feature's bytes; no allocation.
struct GeoJSONPointFeature {
  var longitude = 0.0
  var latitude = 0.0
  var altitude: Double?
  /// Line feeds between the feature's `{` and its coordinates' `[`.
  var linesBeforeCoordinates = 0
  var time: GeoJSONTime?
  var timestamp: GeoJSONTime?
  var timeLong: GeoJSONTime?
  var accuracy: Double?
  var hasWaypointProperty = false
}

/// A cursor over one chunk reading a `GeoJSONPointFeature`; `index` and `lines` say where it
/// stopped.
struct GeoJSONPointFeatureScan {
  let base: UnsafePointer<UInt8>
  /// The end of the chunk: nothing at or after it is read.
  let bound: Int
  private(set) var index: Int
  /// Line feeds read so far.
  private(set) var lines = 0

  init(_ base: UnsafePointer<UInt8>, bound: Int, from start: Int) {
    self.base = base
    self.bound = bound
    index = start
  }

  /// Reads the feature whose `{` is at `index`; nil, with nothing recorded but the day cache's
  /// remembered day, when it is not of the shape this path reads.
  mutating func feature(timestamps: inout ISO8601DayCache) -> GeoJSONPointFeature? {
    guard take(0x7B) else { return nil }
    var point = GeoJSONPointFeature()
    var sawGeometry = false
    var sawProperties = false
    guard space(), base[index] != 0x7D else { return nil }  // `{}`: no geometry
    repeat {
      // The members as writers write them, each by one comparison of its bytes; any other
      // spelling (whitespace, other members) by its name.
      var isGeometry = false
      var isProperties = false
      if literal(#""properties":"#) {
        isProperties = true
      } else if literal(#""geometry":"#) {
        isGeometry = true
      } else if !literal(#""type":"Feature""#) {
        guard let (start, length) = key() else { return nil }
        isGeometry = Self.equals(base + start, length, "geometry")
        isProperties = !isGeometry && Self.equals(base + start, length, "properties")
        if !isGeometry, !isProperties, !skipScalar() { return nil }
      }
      if isGeometry {
        guard !sawGeometry, geometry(into: &point) else { return nil }
        sawGeometry = true
      } else if isProperties {
        guard !sawProperties, properties(into: &point, timestamps: &timestamps) else { return nil }
        sawProperties = true
      }
    } while next()
    guard sawGeometry, take(0x7D) else { return nil }
    return point
  }

  // MARK: - Members

  /// `{"type":"Point","coordinates":[…]}` in either order, with skipped scalar members.
  private mutating func geometry(into point: inout GeoJSONPointFeature) -> Bool {
    guard take(0x7B), space(), base[index] != 0x7D else { return false }
    var sawType = false
    var sawCoordinates = false
    repeat {
      if literal(#""type":"Point""#) {
        guard !sawType else { return false }
        sawType = true
        continue
      }
      let isCoordinates: Bool
      let start: Int
      let length: Int
      if literal(#""coordinates":"#) {
        (isCoordinates, start, length) = (true, 0, 0)
      } else {
        guard let key = key() else { return false }
        (start, length) = key
        isCoordinates = Self.equals(base + start, length, "coordinates")
      }
      if !isCoordinates, Self.equals(base + start, length, "type") {
        guard !sawType, let (typeStart, typeLength) = plainString(), Self.equals(base + typeStart, typeLength, "Point")
        else { return false }
        sawType = true
      } else if isCoordinates {
        guard !sawCoordinates, space(), base[index] == 0x5B else { return false }
        point.linesBeforeCoordinates = lines
        guard coordinates(into: &point) else { return false }
        sawCoordinates = true
      } else if Self.equals(base + start, length, "geometries") {
        return false
      } else {
        guard skipScalar() else { return false }
      }
    } while next()
    return sawType && sawCoordinates && take(0x7D)
  }

  /// `[lon, lat, ele?, …]`: at least two numbers, every member a number, the first two finite.
  private mutating func coordinates(into point: inout GeoJSONPointFeature) -> Bool {
    index += 1  // [
    var count = 0
    repeat {
      var value: Double?
      guard space(), number(&value) else { return false }
      switch count {
      case 0:
        guard let value else { return false }
        point.longitude = value
      case 1:
        guard let value else { return false }
        point.latitude = value
      case 2: point.altitude = value
      default: break
      }
      count += 1
    } while next()
    return count >= 2 && take(0x5D)
  }

  /// The properties object: the Point time keys, the accuracy keys and the waypoint keys as
  /// `GeoJSONMapper.memberSlot` reads them; any other scalar member skipped.
  private mutating func properties(
    into point: inout GeoJSONPointFeature, timestamps: inout ISO8601DayCache
  ) -> Bool {
    guard take(0x7B), space() else { return false }
    if base[index] == 0x7D {
      index += 1
      return true
    }
    repeat {
      let role: PropertyRole
      if literal(#""time":"#) {
        role = .time
      } else if literal(#""accuracy":"#) {
        role = .accuracy
      } else {
        guard let (start, length) = key() else { return false }
        role = Self.propertyRole(base + start, length)
      }
      switch role {
      case .time:
        guard let time = readTime(&timestamps) else { return false }
        point.time = time
      case .timestamp:
        guard let time = readTime(&timestamps) else { return false }
        point.timestamp = time
      case .timeLong:
        guard let time = readTime(&timestamps) else { return false }
        point.timeLong = time
      case .accuracy:
        guard accuracy(into: &point.accuracy) else { return false }
      case .waypoint:
        guard space() else { return false }
        if base[index] == .asciiQuote {
          guard let (_, contentLength, _) = string() else { return false }
          // An escape decodes to at least one byte: empty raw is empty decoded.
          if contentLength > 0 { point.hasWaypointProperty = true }
        } else {
          guard skipScalar() else { return false }
        }
      case .declined:
        return false
      case .skipped:
        guard skipScalar() else { return false }
      }
    } while next()
    return take(0x7D)
  }

  enum PropertyRole { case time, timestamp, timeLong, accuracy, waypoint, declined, skipped }

  /// What a property name is to a Point feature; `declined` for the per-coordinate times, which
  /// this path does not read. By length first: one or two comparisons a key.
  static func propertyRole(_ name: UnsafePointer<UInt8>, _ length: Int) -> PropertyRole {
    switch length {
    case 3:
      if equals(name, 3, "acc") { return .accuracy }
      if equals(name, 3, "cmt") || equals(name, 3, "sym") { return .waypoint }
    case 4:
      if equals(name, 4, "time") { return .time }
      if equals(name, 4, "hAcc") { return .accuracy }
      if equals(name, 4, "name") || equals(name, 4, "desc") || equals(name, 4, "icon") { return .waypoint }
    case 5:
      if equals(name, 5, "title") { return .waypoint }
    case 8:
      if equals(name, 8, "accuracy") { return .accuracy }
    case 9:
      if equals(name, 9, "timestamp") { return .timestamp }
      if equals(name, 9, "time_long") { return .timeLong }
      if equals(name, 9, "hAccuracy") { return .accuracy }
    case 10:
      if equals(name, 10, "coordTimes") { return .declined }
    case 11:
      if equals(name, 11, "description") { return .waypoint }
    case 13:
      if equals(name, 13, "marker-symbol") { return .waypoint }
    case 18:
      if equals(name, 18, "horizontalAccuracy") { return .accuracy }
    case 20:
      if equals(name, 20, "coordinateProperties") { return .declined }
    default:
      break
    }
    return .skipped
  }

  /// A Point time as `GeoJSONMapper.time` makes it; nil (decline) for a string the day cache
  /// does not read, a string with escapes, an object or array.
  private mutating func readTime(_ timestamps: inout ISO8601DayCache) -> GeoJSONTime? {
    guard space() else { return nil }
    switch base[index] {
    case .asciiQuote:
      // A `Z` time on the day already read, in place: no scan for the closing quote first.
      let text = index &+ 1
      if text &+ 24 < bound, let (seconds, end) = timestamps.cachedDayZulu(base, at: text), base[end] == .asciiQuote {
        index = end &+ 1
        return .seconds(seconds)
      }
      guard let (start, length) = plainString(),
        let seconds = timestamps.timestamp(UnsafeBufferPointer(start: base + start, count: length))
      else { return nil }
      return .seconds(seconds)
    case .asciiMinus, .ascii0...(.ascii9):
      var value: Double?
      guard number(&value) else { return nil }
      return .epoch(value)
    default:
      guard let literal = literal() else { return nil }
      return literal == .null ? .missing : .unreadable
    }
  }

  /// The first accuracy wins; a number or a numeric string sets it, another scalar does not.
  private mutating func accuracy(into accuracy: inout Double?) -> Bool {
    guard space() else { return false }
    switch base[index] {
    case .asciiQuote:
      guard let (start, length) = plainString() else { return false }
      if accuracy == nil { accuracy = ByteNumberParser.double(UnsafeBufferPointer(start: base + start, count: length)) }
    case .asciiMinus, .ascii0...(.ascii9):
      var value: Double?
      guard number(&value) else { return false }
      if accuracy == nil { accuracy = value }
    default:
      return literal() != nil
    }
    return true
  }

  // MARK: - JSON, checked as `JSONTokenizer` checks it

  /// Skips whitespace, counting line feeds; false when the chunk ends first.
  @inline(__always)
  private mutating func space() -> Bool {
    while index < bound {
      let byte = base[index]
      // Everything that is not whitespace is above the space: one test in the common case.
      if byte > .asciiSpace { return true }
      if byte == .asciiSpace || byte == .asciiTab || byte == .asciiReturn {
        index += 1
      } else if byte == .asciiNewline {
        lines += 1
        index += 1
      } else {
        return true
      }
    }
    return false
  }

  /// Takes `byte` after optional whitespace.
  @inline(__always)
  private mutating func take(_ byte: UInt8) -> Bool {
    guard space(), base[index] == byte else { return false }
    index += 1
    return true
  }

  /// After a member or element: true after a `,` (another follows), false at anything else
  /// (the caller then takes its closing bracket).
  @inline(__always)
  private mutating func next() -> Bool {
    guard space(), base[index] == .asciiComma else { return false }
    index += 1
    return true
  }

  /// A member name of printable ASCII (no escapes) and its `:`: the name's start and length.
  @inline(__always)
  private mutating func key() -> (Int, Int)? {
    guard let (start, length) = plainString(), take(.asciiColon) else { return nil }
    return (start, length)
  }

  /// A string of printable ASCII without escapes, after optional whitespace: its content's
  /// start and length; nil for any other string (`string()` reads those). Eight bytes at a
  /// time (`JSONStringScan.stopBytes`), as the tokenizer scans.
  @inline(__always)
  private mutating func plainString() -> (Int, Int)? {
    guard space(), base[index] == .asciiQuote else { return nil }
    let start = index + 1
    var i = start
    while i &+ 8 <= bound {
      let stops = JSONStringScan.stopBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian)
      if stops != 0 {
        i &+= stops.trailingZeroBitCount &>> 3
        break
      }
      i &+= 8
    }
    while i < bound {
      let byte = base[i]
      if byte == .asciiQuote {
        index = i + 1
        return (start, i - start)
      }
      guard byte >= 0x20, byte < 0x80, byte != 0x5C else { return nil }
      i += 1
    }
    return nil
  }

  /// A string after optional whitespace, checked by `JSONStringScan` as the tokenizer checks
  /// it: its content's start and length, and whether it holds escapes.
  @inline(__always)
  private mutating func string() -> (Int, Int, Bool)? {
    guard space(), base[index] == .asciiQuote else { return nil }
    guard case .complete(let end, let hasEscapes) = JSONStringScan.scan(base, from: index + 1, to: bound) else {
      return nil
    }
    let start = index + 1
    index = end + 1
    return (start, end - start, hasEscapes)
  }

  /// A number at `index`, by JSON's grammar: the longest run of number bytes, as the tokenizer
  /// takes it, must be exactly one number, and a byte must follow it in the chunk. Its value is
  /// `ByteNumberParser.double` of its bytes: a decimal of at most 15 digits without exponent
  /// is made here from the digits as they are checked, the same integer over the same power of
  /// ten as `ByteNumberParser.plainDecimal`; any other goes to `ByteNumberParser.double`.
  /// The shape recorders write is `shortDecimal`'s, without a loop; any other is `anyNumber`'s.
  @inline(__always)
  private mutating func number(_ value: inout Double?) -> Bool {
    var short = 0.0
    if shortDecimal(&short) {
      value = short
      return true
    }
    return anyNumber(&value)
  }

  /// `number(_:)` for any shape, digit runs eight bytes at a time. Not inlined: it is the rare
  /// case at each of the four places a number is read.
  @inline(never)
  private mutating func anyNumber(_ value: inout Double?) -> Bool {
    let start = index
    var i = index
    @inline(__always) func digit(_ at: Int) -> UInt8 { at < bound ? base[at] &- .ascii0 : 0xFF }
    let negative = base[i] == .asciiMinus
    if negative { i += 1 }
    var mantissa: UInt64 = 0
    guard digit(i) < 10 else { return false }
    let leadingZero = base[i] == .ascii0
    let digits = digitRun(&i, &mantissa)
    // `01` is no JSON number.
    guard !leadingZero || digits == 1 else { return false }
    var fractionDigits = 0
    if i < bound, base[i] == .asciiDot {
      i += 1
      guard digit(i) < 10 else { return false }
      fractionDigits = digitRun(&i, &mantissa)
    }
    var hasExponent = false
    if i < bound, base[i] | 0x20 == .asciiLowerE {
      hasExponent = true
      i += 1
      if i < bound, base[i] == .asciiPlus || base[i] == .asciiMinus { i += 1 }
      guard digit(i) < 10 else { return false }
      repeat { i += 1 } while digit(i) < 10
    }
    guard i < bound, !base[i].isJSONNumberByte else { return false }
    index = i
    if !hasExponent, digits + fractionDigits <= 15 {
      let magnitude =
        fractionDigits == 0
        ? ByteNumberParser.double(mantissa)
        : ByteNumberParser.double(mantissa) / ByteNumberParser.exactPowerOfTen(fractionDigits)
      value = negative ? -magnitude : magnitude
    } else {
      value = ByteNumberParser.double(UnsafeBufferPointer(start: base + start, count: i - start))
    }
    return true
  }

  /// A number of the shape recorders write (a sign, one to seven digits without a leading zero,
  /// optionally a point and one to seven more, then a byte that is no number byte), with 16
  /// bytes left in the chunk from its first digit: found and converted with two eight-byte loads
  /// and no loop (`ByteNumberParser.leadingDigits` and `digitsValue`), the same integer over the same
  /// exact power of ten as `number(_:)` makes, so the same double. False, `index` untouched, for
  /// any other shape; `number(_:)` then reads it from the same byte.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  private mutating func shortDecimal(_ value: inout Double) -> Bool {
    #if _endian(little)
      let negative = base[index] == .asciiMinus
      let at = negative ? index &+ 1 : index
      guard at &+ 16 <= bound else { return false }
      let raw = UnsafeRawPointer(base + at)
      let integer = raw.loadUnaligned(as: UInt64.self)
      let integerDigits = ByteNumberParser.leadingDigits(integer)
      // `01` is no JSON number.
      guard (1...7).contains(integerDigits), integerDigits == 1 || base[at] != .ascii0 else { return false }
      var mantissa = ByteNumberParser.digitsValue(integer, count: integerDigits)
      var end = at &+ integerDigits
      var fractionDigits = 0
      if base[end] == .asciiDot {
        let fraction = raw.loadUnaligned(fromByteOffset: integerDigits &+ 1, as: UInt64.self)
        fractionDigits = ByteNumberParser.leadingDigits(fraction)
        guard (1...7).contains(fractionDigits) else { return false }
        mantissa =
          mantissa &* ByteNumberParser.smallPowerOfTen(fractionDigits)
          &+ ByteNumberParser.digitsValue(fraction, count: fractionDigits)
        end &+= 1 &+ fractionDigits
      }
      // No exponent, nothing more of a number after it.
      guard !base[end].isJSONNumberByte else { return false }
      index = end
      // Dividing by 10^0 = 1 is exact: the integer's own value, as `number(_:)` gives it.
      let magnitude = ByteNumberParser.double(mantissa) / ByteNumberParser.exactPowerOfTen(fractionDigits)
      value = negative ? -magnitude : magnitude
      return true
    #else
      return false
    #endif
  }

  /// A number checked as `number(_:)` checks it, its value not wanted.
  private mutating func skipNumber() -> Bool {
    var i = index
    @inline(__always) func digit(_ at: Int) -> Bool { at < bound && base[at] &- .ascii0 < 10 }
    if base[i] == .asciiMinus { i += 1 }
    guard digit(i) else { return false }
    if base[i] == .ascii0 {
      i += 1
    } else {
      repeat { i += 1 } while digit(i)
    }
    if i < bound, base[i] == .asciiDot {
      i += 1
      guard digit(i) else { return false }
      repeat { i += 1 } while digit(i)
    }
    if i < bound, base[i] | 0x20 == .asciiLowerE {
      i += 1
      if i < bound, base[i] == .asciiPlus || base[i] == .asciiMinus { i += 1 }
      guard digit(i) else { return false }
      repeat { i += 1 } while digit(i)
    }
    guard i < bound, !base[i].isJSONNumberByte else { return false }
    index = i
    return true
  }

  /// Reads the digits from `i` on into `mantissa` (wrapping past 19 digits, where it is not
  /// used), eight at a time where eight bytes remain in the chunk: how many there were.
  @inline(__always)
  private func digitRun(_ i: inout Int, _ mantissa: inout UInt64) -> Int {
    let start = i
    while i &+ 8 <= bound {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
      // A byte is a digit when its high nibble is 3, and still 3 after adding 6 (at most '9').
      // A carry out of a byte only reaches bytes after a byte that is no digit.
      let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
      let threes: UInt64 = 0x3030_3030_3030_3030
      let notDigits = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
      let count = notDigits == 0 ? 8 : notDigits.trailingZeroBitCount &>> 3
      guard count > 0 else { return i - start }
      // The digits to the top, '0's below them: the same integer.
      let shift = UInt64(8 &* (8 &- count))
      let aligned = (word << shift) | (threes >> UInt64(8 &* count))
      mantissa = mantissa &* ByteNumberParser.integerPowerOfTen(count) &+ (ByteNumberParser.eightDigits(aligned) ?? 0)
      i &+= count
      if count < 8 { return i - start }
    }
    while i < bound {
      let value = base[i] &- .ascii0
      guard value < 10 else { break }
      mantissa = mantissa &* 10 &+ UInt64(value)
      i += 1
    }
    return i - start
  }

  /// `true`, `false` or `null`, followed in the chunk by a byte that is not a lowercase letter
  /// (the tokenizer reads a literal as a run of them).
  private mutating func literal() -> JSONTokenKind? {
    let kind: JSONTokenKind
    let length: Int
    switch base[index] {
    case 0x74: (kind, length) = (.true, 4)
    case 0x66: (kind, length) = (.false, 5)
    case 0x6E: (kind, length) = (.null, 4)
    default: return nil
    }
    let text: StaticString = kind == .true ? "true" : kind == .false ? "false" : "null"
    guard index + length < bound, Self.equals(base + index, length, text), base[index + length] &- 0x61 >= 26 else {
      return nil
    }
    index += length
    return kind
  }

  /// A string, number or literal whose value does not matter (escapes allowed); false for an
  /// object or array, or anything not well-formed.
  private mutating func skipScalar() -> Bool {
    guard space() else { return false }
    switch base[index] {
    case .asciiQuote: return string() != nil
    case .asciiMinus, .ascii0...(.ascii9): return skipShortDecimal() || skipNumber()
    default: return literal() != nil
    }
  }

  /// Takes a number of `shortDecimal`'s shape without converting it: the same two eight-byte
  /// loads and checks, no digits joined, no division. False, `index` untouched, for any other
  /// shape; `skipNumber()` then checks it from the same byte.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  private mutating func skipShortDecimal() -> Bool {
    #if _endian(little)
      let at = base[index] == .asciiMinus ? index &+ 1 : index
      guard at &+ 16 <= bound else { return false }
      let raw = UnsafeRawPointer(base + at)
      let integerDigits = ByteNumberParser.leadingDigits(raw.loadUnaligned(as: UInt64.self))
      // `01` is no JSON number.
      guard (1...7).contains(integerDigits), integerDigits == 1 || base[at] != .ascii0 else { return false }
      var end = at &+ integerDigits
      if base[end] == .asciiDot {
        let fractionDigits = ByteNumberParser.leadingDigits(
          raw.loadUnaligned(fromByteOffset: integerDigits &+ 1, as: UInt64.self))
        guard (1...7).contains(fractionDigits) else { return false }
        end &+= 1 &+ fractionDigits
      }
      // No exponent, nothing more of a number after it.
      guard !base[end].isJSONNumberByte else { return false }
      index = end
      return true
    #else
      return false
    #endif
  }

  /// Takes `text` (7 to 24 bytes) when the bytes at `index` are exactly it: two to three word
  /// comparisons, no scan. A member name with its `:` (and a value) as writers spell them.
  @inline(__always)
  private mutating func literal(_ text: StaticString) -> Bool {
    let length = text.utf8CodeUnitCount
    guard index + length <= bound else { return false }
    let here = UnsafeRawPointer(base + index)
    let there = UnsafeRawPointer(text.utf8Start)
    if length < 8 {
      guard here.loadUnaligned(as: UInt32.self) == there.loadUnaligned(as: UInt32.self),
        here.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
          == there.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
      else { return false }
    } else {
      guard here.loadUnaligned(as: UInt64.self) == there.loadUnaligned(as: UInt64.self),
        here.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
          == there.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
      else { return false }
      if length > 16 {
        guard
          here.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            == there.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        else { return false }
      }
    }
    index += length
    return true
  }

  /// Whether the `length` bytes at `bytes` are `text`.
  @inline(__always)
  static func equals(_ bytes: UnsafePointer<UInt8>, _ length: Int, _ text: StaticString) -> Bool {
    guard length == text.utf8CodeUnitCount else { return false }
    let start = text.utf8Start
    for offset in 0..<length where bytes[offset] != start[offset] { return false }
    return true
  }
}
