import RouteMileage

/// A `TimeOrderedSample` as the sorter holds and spills it: one flag byte, the timestamp,
/// latitude and longitude, then only the optional fields that are present, each as the 8 bytes
/// of its bits, in the order of the flags below. 25 to 81 bytes (a `TimeOrderedSample` takes 136
/// in memory; a canonical CSV row with every column 73). Every field reads back bit for bit, NaN
/// payloads and signed zeros included, and an absent field stays absent, so a sample that went
/// through the sorter is `==` to the one that went in and sorts the same.
///
/// Records are written and read at any byte offset (no alignment), native byte order: they live
/// only in this process's memory and its unlinked temporary file.
enum PackedSample {
  /// The flag byte and the three fields every sample has.
  static let fixedSize = 25
  /// Every optional field present.
  static let maximumSize = fixedSize + 7 * 8

  static let hasAccuracy: UInt8 = 1 << 0
  static let hasSpeed: UInt8 = 1 << 1
  static let hasCourse: UInt8 = 1 << 2
  static let hasAltitude: UInt8 = 1 << 3
  static let hasCaptureSession: UInt8 = 1 << 4
  static let hasReceivedAt: UInt8 = 1 << 5
  static let hasSession: UInt8 = 1 << 6
  /// `horizontalAccuracyIsEstimated`; not a field of its own.
  static let accuracyIsEstimated: UInt8 = 1 << 7

  /// The bytes the record at `record` takes. O(1).
  @inline(__always)
  static func size(of record: UnsafeRawPointer) -> Int {
    size(flags: record.load(as: UInt8.self))
  }

  /// The bytes a record whose flag byte is `flags` takes. O(1).
  @inline(__always)
  static func size(flags: UInt8) -> Int {
    fixedSize &+ 8 &* (flags & 0x7F).nonzeroBitCount
  }

  /// The timestamp of the record at `record`, read without the rest. O(1).
  @inline(__always)
  static func timestamp(of record: UnsafeRawPointer) -> Double {
    Double(bitPattern: record.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
  }

  /// The arrival time of the record at `record`, nil when it has none. O(1).
  @inline(__always)
  static func receivedAt(of record: UnsafeRawPointer) -> Double? {
    let flags = record.load(as: UInt8.self)
    guard flags & hasReceivedAt != 0 else { return nil }
    let offset = fixedSize &+ 8 &* (flags & (hasReceivedAt &- 1)).nonzeroBitCount
    return Double(bitPattern: record.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Writes `item` at `target`, which has at least `maximumSize` bytes free, and returns the
  /// bytes written. O(1).
  @inline(__always)
  static func write(_ item: TimeOrderedSample, to target: UnsafeMutableRawPointer) -> Int {
    let sample = item.sample
    target.storeBytes(of: sample.timestamp.bitPattern, toByteOffset: 1, as: UInt64.self)
    target.storeBytes(of: sample.latitude.bitPattern, toByteOffset: 9, as: UInt64.self)
    target.storeBytes(of: sample.longitude.bitPattern, toByteOffset: 17, as: UInt64.self)
    var flags: UInt8 = sample.horizontalAccuracyIsEstimated ? accuracyIsEstimated : 0
    var offset = fixedSize
    @inline(__always) func put(_ bits: UInt64?, _ flag: UInt8) {
      guard let bits else { return }
      target.storeBytes(of: bits, toByteOffset: offset, as: UInt64.self)
      offset &+= 8
      flags |= flag
    }
    put(sample.horizontalAccuracy?.bitPattern, hasAccuracy)
    put(sample.speed?.bitPattern, hasSpeed)
    put(sample.course?.bitPattern, hasCourse)
    put(sample.altitude?.bitPattern, hasAltitude)
    put(sample.captureSession.map { UInt64(bitPattern: $0.rawValue) }, hasCaptureSession)
    put(sample.receivedAt?.bitPattern, hasReceivedAt)
    put(item.session.map { UInt64(bitPattern: Int64($0)) }, hasSession)
    target.storeBytes(of: flags, as: UInt8.self)
    return offset
  }

  /// The position and recording index of the record at `record`, read without the other fields:
  /// each field present lies 8 bytes a present field of lower flag past the fixed part. O(1).
  @inline(__always)
  static func walkedPosition(from record: UnsafeRawPointer) -> WalkedPosition {
    let flags = record.load(as: UInt8.self)
    @inline(__always) func field(_ flag: UInt8) -> UInt64? {
      guard flags & flag != 0 else { return nil }
      let offset = fixedSize &+ 8 &* (flags & (flag &- 1)).nonzeroBitCount
      return record.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    let position = RoutePosition(
      timestamp: Double(bitPattern: record.loadUnaligned(fromByteOffset: 1, as: UInt64.self)),
      latitude: Double(bitPattern: record.loadUnaligned(fromByteOffset: 9, as: UInt64.self)),
      longitude: Double(bitPattern: record.loadUnaligned(fromByteOffset: 17, as: UInt64.self)),
      captureSession: field(hasCaptureSession).map { CaptureSessionID(Int64(bitPattern: $0)) },
      horizontalAccuracy: field(hasAccuracy).map { Double(bitPattern: $0) })
    return WalkedPosition(
      position: position, session: field(hasSession).map { Int(truncatingIfNeeded: Int64(bitPattern: $0)) })
  }

  /// The sample written at `record` by `write(_:to:)`. O(1).
  @inline(__always)
  static func read(from record: UnsafeRawPointer) -> TimeOrderedSample {
    let flags = record.load(as: UInt8.self)
    var offset = fixedSize
    @inline(__always) func take(_ flag: UInt8) -> UInt64? {
      guard flags & flag != 0 else { return nil }
      defer { offset &+= 8 }
      return record.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    let accuracy = take(hasAccuracy)
    let speed = take(hasSpeed)
    let course = take(hasCourse)
    let altitude = take(hasAltitude)
    let captureSession = take(hasCaptureSession)
    let receivedAt = take(hasReceivedAt)
    let session = take(hasSession)
    let sample = RouteSample(
      timestamp: Double(bitPattern: record.loadUnaligned(fromByteOffset: 1, as: UInt64.self)),
      latitude: Double(bitPattern: record.loadUnaligned(fromByteOffset: 9, as: UInt64.self)),
      longitude: Double(bitPattern: record.loadUnaligned(fromByteOffset: 17, as: UInt64.self)),
      horizontalAccuracy: accuracy.map { Double(bitPattern: $0) },
      horizontalAccuracyIsEstimated: flags & accuracyIsEstimated != 0,
      speed: speed.map { Double(bitPattern: $0) },
      course: course.map { Double(bitPattern: $0) },
      altitude: altitude.map { Double(bitPattern: $0) },
      captureSession: captureSession.map { CaptureSessionID(Int64(bitPattern: $0)) },
      receivedAt: receivedAt.map { Double(bitPattern: $0) })
    return TimeOrderedSample(sample: sample, session: session.map { Int(truncatingIfNeeded: Int64(bitPattern: $0)) })
  }
}
