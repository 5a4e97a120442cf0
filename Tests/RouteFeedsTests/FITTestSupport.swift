import RouteMileage

@testable import RouteFeeds
@testable import RouteIngest

/// Writes FIT files byte by byte for tests: definitions, data messages (normal and
/// compressed-timestamp headers), events, and the header and CRCs (which a test may spoil).
struct FITBuilder {
  /// A field of a definition: number, size in bytes, base type.
  struct Field {
    var number: UInt8
    var size: UInt8
    var baseType: UInt8
  }

  /// The standard record layout: timestamp, position_lat, position_long, enhanced_speed.
  static let recordFields = [
    Field(number: 253, size: 4, baseType: 0x86), Field(number: 0, size: 4, baseType: 0x85),
    Field(number: 1, size: 4, baseType: 0x85), Field(number: 73, size: 4, baseType: 0x86),
  ]
  /// An event: timestamp, event, event_type.
  static let eventFields = [
    Field(number: 253, size: 4, baseType: 0x86), Field(number: 0, size: 1, baseType: 0x00),
    Field(number: 1, size: 1, baseType: 0x00),
  ]

  var bigEndian = false
  /// The data section (messages), without header or CRC.
  var data: [UInt8] = []

  /// FIT seconds for a Unix time.
  static func fitTime(_ unix: Double) -> UInt32 { UInt32(unix - FITProfile.epochOffset) }
  /// Semicircles for degrees.
  static func semicircles(_ degrees: Double) -> Int32 { Int32((degrees / FITProfile.degreesPerSemicircle).rounded()) }

  func bytes(_ value: UInt32, size: Int) -> [UInt8] {
    let little = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    return bigEndian ? little.reversed() : little
  }

  mutating func define(
    local: UInt8, global: UInt16, fields: [Field], developer: [Field]? = nil, architecture: UInt8? = nil
  ) {
    data.append(0x40 | (developer != nil ? 0x20 : 0) | local)
    data.append(0)
    data.append(architecture ?? (bigEndian ? 1 : 0))
    data += bytes(UInt32(global), size: 2)
    data.append(UInt8(fields.count))
    for field in fields { data += [field.number, field.size, field.baseType] }
    if let developer {
      data.append(UInt8(developer.count))
      for field in developer { data += [field.number, field.size, field.baseType] }
    }
  }

  /// A data message with a normal header and the given field bytes.
  mutating func message(local: UInt8, _ body: [UInt8]) {
    data.append(local & 0x0F)
    data += body
  }

  /// A record in the standard layout (define it first with `recordFields`).
  mutating func record(local: UInt8 = 0, time: Double, latitude: Double, longitude: Double, speed: Double = 5) {
    message(local: local, recordBody(time: time, latitude: latitude, longitude: longitude, speed: speed))
  }

  func recordBody(time: Double, latitude: Double, longitude: Double, speed: Double = 5) -> [UInt8] {
    bytes(Self.fitTime(time), size: 4) + bytes(UInt32(bitPattern: Self.semicircles(latitude)), size: 4)
      + bytes(UInt32(bitPattern: Self.semicircles(longitude)), size: 4) + bytes(UInt32(speed * 1000), size: 4)
  }

  /// A timer event (define `eventFields` first): type 0 start, 1 stop, 4 stop_all.
  mutating func timer(local: UInt8 = 1, time: Double, type: UInt8) {
    message(local: local, bytes(Self.fitTime(time), size: 4) + [0, type])
  }

  /// Header (`headerSize` 12 or 14), data, file CRC.
  func file(
    headerSize: UInt8 = 14, protocolVersion: UInt8 = 0x20, spoilHeaderCRC: Bool = false, spoilFileCRC: Bool = false
  ) -> [UInt8] {
    var header: [UInt8] = [headerSize, protocolVersion, 0x08, 0x08]
    let size = UInt32(data.count)
    header += (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) }
    header += Array(".FIT".utf8)
    if headerSize >= 14 {
      var crc = FITCRC()
      for byte in header { crc.update(byte) }
      let value = crc.value ^ (spoilHeaderCRC ? 0x0101 : 0)
      header += [UInt8(value & 0xFF), UInt8(value >> 8)]
      header += [UInt8](repeating: 0, count: Int(headerSize) - 14)
    }
    var all = header + data
    var crc = FITCRC()
    for byte in all { crc.update(byte) }
    let value = crc.value ^ (spoilFileCRC ? 0x8001 : 0)
    all += [UInt8(value & 0xFF), UInt8(value >> 8)]
    return all
  }

  /// A small drive: `count` records at 1 Hz from `start`, 0.0001° of latitude (11.12 m) apart.
  static func drive(count: Int, start: Double = 1_735_689_600, bigEndian: Bool = false) -> FITBuilder {
    var builder = FITBuilder()
    builder.bigEndian = bigEndian
    builder.define(local: 0, global: 20, fields: recordFields)
    for index in 0..<count {
      builder.record(time: start + Double(index), latitude: 45 + Double(index) * 0.0001, longitude: 13.25)
    }
    return builder
  }
}

/// Measures FIT bytes through the whole ingest path (format detected unless given).
func measureFIT(_ bytes: [UInt8], format: FeedFormat? = nil, filter: Bool = true, chunkSize: Int = 1 << 20)
  -> FeedMeasurement
{
  var source = MemoryByteSource(bytes, chunkSize: chunkSize)
  return FeedIngest.measure(
    &source, format: format, settings: IngestSettings(filter: filter ? RouteSampleFilter() : nil))
}
