/// What a FIT definition message says about the data messages of one local message type: their
/// global message number, byte order and size, and where in each the fields this reader uses lie.
///
/// Fields are located by their declared sizes alone, so every field this reader does not use
/// (and every developer field) is skipped whatever its base type or size. A field it uses is read
/// only when its size is the size its profile type has (4 bytes for `timestamp` and positions,
/// 2 for `speed`, …); a used field of any other size (an array, or a size that is not a multiple
/// of its base type) is treated as absent, and for the three a position needs — `timestamp`,
/// `position_lat`, `position_long` — the record is counted `badFieldSize`.
struct FITDefinition: Sendable, Hashable {
  /// A field's offset in the data message, or -1 when the message has no usable one.
  struct Slot: Sendable, Hashable {
    var offset: Int32 = -1
    var isPresent: Bool { offset >= 0 }
  }

  var global: UInt16
  var bigEndian: Bool
  /// Bytes in one data message: every field and developer field.
  var size = 0
  var timestamp = Slot()
  var latitude = Slot()
  var longitude = Slot()
  var speed = Slot()
  var enhancedSpeed = Slot()
  var accuracy = Slot()
  var altitude = Slot()
  var enhancedAltitude = Slot()
  var event = Slot()
  var eventType = Slot()
  /// A `record` whose timestamp or position field has a size other than 4 bytes.
  var hasBadKeyField = false

  init(global: UInt16, bigEndian: Bool) {
    self.global = global
    self.bigEndian = bigEndian
  }

  /// Adds the fields of a definition message: `bytes` holds three bytes per field (number, size,
  /// base type), in data-message order.
  ///
  /// - Complexity: O(*k*) in the field count.
  mutating func addFields(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index + 3 <= bytes.count {
      let number = bytes[index]
      let fieldSize = Int(bytes[index + 1])
      place(number, size: fieldSize)
      size += fieldSize
      index += 3
    }
  }

  /// Adds developer fields (three bytes each: number, size, developer data index): skipped by size.
  mutating func addDeveloperFields(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index + 3 <= bytes.count {
      size += Int(bytes[index + 1])
      index += 3
    }
  }

  private mutating func place(_ number: UInt8, size fieldSize: Int) {
    typealias Field = FITProfile.Field
    let offset = Int32(size)
    func fill(_ slot: inout Slot, expected: Int, key: Bool = false) {
      guard !slot.isPresent else { return }  // the first of duplicate fields is read
      if fieldSize == expected {
        slot.offset = offset
      } else if key {
        hasBadKeyField = true
      }
    }
    let isRecord = global == FITProfile.Message.record
    if number == Field.timestamp {
      fill(&timestamp, expected: 4, key: isRecord)
      return
    }
    if isRecord {
      switch number {
      case Field.positionLat: fill(&latitude, expected: 4, key: true)
      case Field.positionLong: fill(&longitude, expected: 4, key: true)
      case Field.speed: fill(&speed, expected: 2)
      case Field.enhancedSpeed: fill(&enhancedSpeed, expected: 4)
      case Field.gpsAccuracy: fill(&accuracy, expected: 1)
      case Field.altitude: fill(&altitude, expected: 2)
      case Field.enhancedAltitude: fill(&enhancedAltitude, expected: 4)
      default: break
      }
    } else if global == FITProfile.Message.event {
      switch number {
      case Field.event: fill(&event, expected: 1)
      case Field.eventType: fill(&eventType, expected: 1)
      default: break
      }
    }
  }

  /// The unsigned value of the field at `slot` (1, 2 or 4 bytes) in a data message, in this
  /// definition's byte order; nil when the message has no such field.
  func value(_ slot: Slot, size fieldSize: Int, in message: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard slot.isPresent else { return nil }
    let start = Int(slot.offset)
    var value: UInt32 = 0
    for index in 0..<fieldSize {
      let byte = UInt32(message[start + (bigEndian ? index : fieldSize - 1 - index)])
      value = value << 8 | byte
    }
    return value
  }
}
