import RouteMileage

/// Reads Garmin FIT activity files (binary) as a byte stream: every `record` message becomes a
/// position or is counted by reason.
///
/// The file is walked as the FIT protocol lays it out: a file header (12 or 14 bytes, `.FIT` at
/// bytes 8–11, the data size), then definition and data messages, then a 2-byte CRC; further FIT
/// files may follow in the same file (chained FIT), each read the same way. Both record-header
/// kinds are read: normal headers (16 local message types) and compressed-timestamp headers
/// (4 local types, a 5-bit time offset from the last timestamp). Definitions give each local
/// type its global message, byte order (architecture 0 little-endian, 1 big-endian) and field
/// layout; developer fields (definition header bit 0x20) and every field not used here are
/// skipped by their declared sizes (see `FITDefinition`).
///
/// From a `record` (global message 20) it reads `timestamp` (field 253, or the compressed
/// header's time), `position_lat`/`position_long` (fields 0/1, semicircles), `enhanced_speed`
/// (73) or `speed` (6), `gps_accuracy` (31, metres, reported by the device, not estimated) and
/// `enhanced_altitude` (78) or `altitude` (2). A record without a valid position is
/// `missingPosition`, without a time `missingTime`, with a device-relative time
/// `deviceRelativeTime` (all rejected); one whose time or position field has an impossible size
/// is unreadable (`badFieldSize`). Every other data message is counted under `ignored`
/// (`nonRecordMessage`). Line numbers in the report are the byte offsets of the messages.
///
/// Capture sessions: each FIT file in the stream starts one, and a timer `start` event (event 21,
/// event 0) that follows a timer stop (`stop`, `stop_all`, `stop_disable`, `stop_disable_all`)
/// starts the next: a paused recording is a gap, never measured across. Records logged while the
/// timer is stopped stay in the session before the stop (they are positions the device logged).
///
/// Errors: a structure the reader cannot walk past (not a FIT header, an architecture other than
/// 0 or 1, a data message of an undefined local type, a message running past the data size the
/// header declares, bytes after the last file that are not another FIT file, a file cut off)
/// throws `FeedError.malformedData` with the byte offset; records before it stand. A CRC that
/// does not match (the header's, when present and nonzero, or the file's) does not stop reading:
/// every record is still read and counted, and the mismatch is a note (`crcMismatch`, at the
/// CRC's byte offset), shown beside the figure: the bytes are not what the device wrote.
///
/// Memory: the largest message (at most 130,050 bytes: 255 fields and 255 developer fields of
/// 255 bytes) when one straddles chunks, plus 16 definitions.
///
/// - Complexity: O(*n*) in the file's length, each byte examined once (twice with the CRC).
public struct FITReader: FeedReader {
  enum Stage: Hashable {
    /// The 12 bytes every FIT header has.
    case fileHeaderStart
    /// The rest of a longer header (its CRC in bytes 12–13).
    case fileHeaderRest(size: Int)
    case recordHeader
    case definitionFixed(header: UInt8)
    case definitionFields(header: UInt8, definition: FITDefinition, count: Int)
    case developerFields(local: Int, definition: FITDefinition, count: Int)
    case data(local: Int, timeOffset: UInt8?)
    case fileCRC
  }

  var stage = Stage.fileHeaderStart
  /// The bytes of a unit (header, message, CRC) that straddles chunks.
  var pending: [UInt8] = []
  /// The byte offset of the unit being read.
  var offset = 0
  /// The byte offset of the message being read (its record header).
  var messageStart = 0
  var fileStart = 0
  /// Where the current file's data ends (its CRC starts).
  var dataEnd = 0
  var files = 0
  var crc = FITCRC()
  /// The CRC of the current header's first 12 bytes.
  var headerCRC = FITCRC()
  var definitions = [FITDefinition?](repeating: nil, count: 16)
  /// The last timestamp any message carried, for compressed-timestamp headers.
  var lastTimestamp: UInt32?
  var session = 0
  var timerStopped = false
  /// The size of a header longer than 14 bytes, until the record after it shows whether the
  /// size is true: every FIT file's first record is a definition.
  var longHeaderSize: Int?

  public init(options: FeedOptions) {}

  /// How many bytes the current stage's unit has.
  private var unitSize: Int {
    switch stage {
    case .recordHeader: 1
    case .fileHeaderStart: 12
    case .fileHeaderRest(let size): size - 12
    case .definitionFixed: 5
    case .definitionFields(let header, _, let count): 3 * count + (header & 0x20 != 0 ? 1 : 0)
    case .developerFields(_, _, let count): 3 * count
    case .data(let local, _): definitions[local]?.size ?? 0
    case .fileCRC: 2
    }
  }

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    var index = 0
    while true {
      if stage == .recordHeader, offset == dataEnd { stage = .fileCRC }
      let need = unitSize
      if isInsideData, offset + need > dataEnd {
        throw .malformedData(
          byteOffset: messageStart,
          detail: "this message runs past the end of the data the FIT header declares (byte \(dataEnd))")
      }
      if pending.isEmpty, chunk.count - index >= need {
        let unit = UnsafeBufferPointer(rebasing: chunk[index..<(index + need)])
        index += need
        try consume(unit, into: &sink)
        continue
      }
      guard index < chunk.count || need == 0 else { return }
      let take = min(need - pending.count, chunk.count - index)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<(index + take)]))
      index += take
      guard pending.count == need else { return }
      let unit = pending
      pending.removeAll(keepingCapacity: pending.capacity <= 4096)
      try unit.withUnsafeBufferPointer { bytes throws(FeedError) in try consume(bytes, into: &sink) }
    }
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    let end = offset + pending.count
    switch stage {
    case .fileHeaderStart where pending.isEmpty:
      if files == 0 { throw .malformedData(byteOffset: 0, detail: "the input is empty: no FIT file header") }
    case .fileHeaderStart, .fileHeaderRest:
      throw .malformedData(
        byteOffset: fileStartIfInHeader,
        detail: "the input ends inside a FIT file header (at byte \(end)): it was cut off, or is not FIT")
    case .recordHeader where offset == dataEnd, .fileCRC:
      throw .malformedData(
        byteOffset: offset, detail: "the FIT file ends before its 2-byte CRC (at byte \(end)): it was cut off")
    case .data(let local, _):
      if definitions[local]?.global == FITProfile.Message.record {
        sink.unreadable(.unfinishedRecord, line: messageStart)
      }
      throw .malformedData(
        byteOffset: messageStart,
        detail:
          "the FIT file ends inside this message (at byte \(end); its data should run to byte \(dataEnd)): it was cut off"
      )
    case .recordHeader, .definitionFixed, .definitionFields, .developerFields:
      throw .malformedData(
        byteOffset: end,
        detail: "the FIT file ends before the end of its data (byte \(dataEnd)): it was cut off")
    }
  }

  /// The header's offset once its first 12 bytes are read, else where it starts.
  private var fileStartIfInHeader: Int {
    if case .fileHeaderRest = stage { return fileStart }
    return offset
  }

  private var isInsideData: Bool {
    switch stage {
    case .fileHeaderStart, .fileHeaderRest, .fileCRC: false
    default: true
    }
  }

  private mutating func consume(_ unit: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    if stage != .fileCRC { crc.update(unit) }
    let start = offset
    offset += unit.count
    switch stage {
    case .fileHeaderStart:
      fileStart = start
      crc = FITCRC()
      crc.update(unit)
      headerCRC = crc
      try startFile(header: unit)
    case .fileHeaderRest(let size):
      if size >= 14 {
        let stored = UInt16(unit[0]) | UInt16(unit[1]) << 8
        if stored != 0, stored != headerCRC.value { sink.noted(.crcMismatch, line: start) }
      }
      stage = .recordHeader
    case .recordHeader:
      messageStart = start
      try recordHeader(unit[0])
    case .definitionFixed(let header):
      let architecture = unit[1]
      guard architecture <= 1 else {
        throw .malformedData(
          byteOffset: start + 1,
          detail:
            "a definition message declares architecture \(architecture); only 0 (little-endian) and 1 (big-endian) exist, so the file is damaged here or just before"
        )
      }
      let bigEndian = architecture == 1
      let global = bigEndian ? UInt16(unit[2]) << 8 | UInt16(unit[3]) : UInt16(unit[3]) << 8 | UInt16(unit[2])
      stage = .definitionFields(
        header: header, definition: FITDefinition(global: global, bigEndian: bigEndian), count: Int(unit[4]))
    case .definitionFields(let header, var definition, let count):
      definition.addFields(UnsafeBufferPointer(rebasing: unit[0..<(3 * count)]))
      let local = Int(header & 0x0F)
      if header & 0x20 != 0, unit[3 * count] > 0 {
        stage = .developerFields(local: local, definition: definition, count: Int(unit[3 * count]))
      } else {
        definitions[local] = definition
        stage = .recordHeader
      }
    case .developerFields(let local, var definition, _):
      definition.addDeveloperFields(unit)
      definitions[local] = definition
      stage = .recordHeader
    case .data(let local, let timeOffset):
      stage = .recordHeader
      if let definition = definitions[local] { dataMessage(unit, definition, timeOffset: timeOffset, into: &sink) }
    case .fileCRC:
      let stored = UInt16(unit[0]) | UInt16(unit[1]) << 8
      if stored != crc.value { sink.noted(.crcMismatch, line: start) }
      stage = .fileHeaderStart
    }
  }

  /// Reads a header's first 12 bytes: size, protocol, data size, `.FIT`.
  private mutating func startFile(header unit: UnsafeBufferPointer<UInt8>) throws(FeedError) {
    let size = Int(unit[0])
    guard size >= 12, unit[8] == 0x2E, unit[9] == 0x46, unit[10] == 0x49, unit[11] == 0x54 else {
      throw .malformedData(
        byteOffset: fileStart,
        detail: files == 0
          ? "not a FIT file: a FIT header is at least 12 bytes long with “.FIT” at bytes 8–11"
          : "the bytes after FIT file \(files)'s CRC are not another FIT file (no FIT header)")
    }
    let protocolMajor = unit[1] >> 4
    guard protocolMajor <= 2 else {
      throw .malformedData(
        byteOffset: fileStart + 1,
        detail: "FIT protocol version \(protocolMajor).\(unit[1] & 0x0F) is newer than this reader knows (1.x and 2.x)")
    }
    let dataSize = Int(unit[4]) | Int(unit[5]) << 8 | Int(unit[6]) << 16 | Int(unit[7]) << 24
    dataEnd = fileStart + size + dataSize
    files += 1
    if files > 1 { session += 1 }
    definitions = [FITDefinition?](repeating: nil, count: 16)
    lastTimestamp = nil
    timerStopped = false
    longHeaderSize = size > 14 ? size : nil
    stage = size > 12 ? .fileHeaderRest(size: size) : .recordHeader
  }

  private mutating func recordHeader(_ header: UInt8) throws(FeedError) {
    if let size = longHeaderSize {
      // A later protocol may lengthen the header, so a longer one is read; but when no
      // definition follows it, the size byte is what is wrong, not the message after it.
      longHeaderSize = nil
      guard header & 0xC0 == 0x40 else {
        throw .malformedData(
          byteOffset: fileStart,
          detail:
            "the FIT header of \(size) bytes is larger than a FIT header (12 or 14 bytes) and no message definition follows it, so its size byte is damaged"
        )
      }
    }
    if header & 0x80 != 0 {
      let local = Int((header >> 5) & 0x03)
      try requireDefinition(local)
      stage = .data(local: local, timeOffset: header & 0x1F)
    } else if header & 0x40 != 0 {
      stage = .definitionFixed(header: header)
    } else {
      let local = Int(header & 0x0F)
      try requireDefinition(local)
      stage = .data(local: local, timeOffset: nil)
    }
  }

  private func requireDefinition(_ local: Int) throws(FeedError) {
    guard definitions[local] != nil else {
      throw .malformedData(
        byteOffset: messageStart,
        detail: "a data message of local type \(local) comes before any definition of that type, so its size is unknown"
      )
    }
  }

  private mutating func dataMessage(
    _ message: UnsafeBufferPointer<UInt8>, _ definition: FITDefinition, timeOffset: UInt8?,
    into sink: inout some FeedSink
  ) {
    var time: UInt32?
    if let stamp = definition.value(definition.timestamp, size: 4, in: message), stamp != FITProfile.Invalid.uint32 {
      time = stamp
    } else if let timeOffset, let last = lastTimestamp {
      let low = UInt32(timeOffset)
      var stamp = (last & ~0x1F) &+ low
      if low < last & 0x1F { stamp = stamp &+ 0x20 }
      time = stamp
    }
    if let time { lastTimestamp = time }
    switch definition.global {
    case FITProfile.Message.record:
      record(message, definition, time: time, into: &sink)
    case FITProfile.Message.event:
      timerEvent(message, definition)
      sink.ignored(.nonRecordMessage, line: messageStart)
    default:
      sink.ignored(.nonRecordMessage, line: messageStart)
    }
  }

  private func record(
    _ message: UnsafeBufferPointer<UInt8>, _ definition: FITDefinition, time: UInt32?, into sink: inout some FeedSink
  ) {
    if definition.hasBadKeyField {
      sink.unreadable(.badFieldSize, line: messageStart)
      return
    }
    guard let lat = definition.value(definition.latitude, size: 4, in: message),
      let lon = definition.value(definition.longitude, size: 4, in: message),
      lat != FITProfile.Invalid.sint32, lon != FITProfile.Invalid.sint32
    else {
      sink.rejected(.missingPosition, line: messageStart)
      return
    }
    guard let time else {
      sink.rejected(.missingTime, line: messageStart)
      return
    }
    guard time >= FITProfile.firstAbsoluteTime else {
      sink.rejected(.deviceRelativeTime, line: messageStart)
      return
    }
    var speed: Double?
    if let value = definition.value(definition.enhancedSpeed, size: 4, in: message), value != FITProfile.Invalid.uint32
    {
      speed = Double(value) / 1000
    } else if let value = definition.value(definition.speed, size: 2, in: message), value != FITProfile.Invalid.uint16 {
      speed = Double(value) / 1000
    }
    var altitude: Double?
    if let value = definition.value(definition.enhancedAltitude, size: 4, in: message),
      value != FITProfile.Invalid.uint32
    {
      altitude = Double(value) / 5 - 500
    } else if let value = definition.value(definition.altitude, size: 2, in: message),
      value != FITProfile.Invalid.uint16
    {
      altitude = Double(value) / 5 - 500
    }
    var accuracy: Double?
    if let value = definition.value(definition.accuracy, size: 1, in: message), value != FITProfile.Invalid.uint8 {
      accuracy = Double(value)
    }
    let sample = RouteSample(
      timestamp: Double(time) + FITProfile.epochOffset,
      latitude: Double(Int32(bitPattern: lat)) * FITProfile.degreesPerSemicircle,
      longitude: Double(Int32(bitPattern: lon)) * FITProfile.degreesPerSemicircle,
      horizontalAccuracy: accuracy, speed: speed, altitude: altitude)
    sink.position(sample, session: session, line: messageStart)
  }

  /// A timer stop ends the capture session; the next timer start begins a new one.
  private mutating func timerEvent(_ message: UnsafeBufferPointer<UInt8>, _ definition: FITDefinition) {
    guard definition.value(definition.event, size: 1, in: message) == UInt32(FITProfile.Event.timer),
      let type = definition.value(definition.eventType, size: 1, in: message).map(UInt8.init)
    else { return }
    if type == FITProfile.Event.start {
      if timerStopped {
        session += 1
        timerStopped = false
      }
    } else if FITProfile.Event.stops.contains(type) {
      timerStopped = true
    }
  }
}
