import RouteMileage

@testable import RouteFeeds
@testable import RouteIngest

/// A feed made on the fly from parts, each a piece of bytes repeated some number of times
/// (optionally rewritten for each repetition), so a 100 MB feed costs the size of its largest
/// part, never 100 MB.
struct SyntheticByteSource: ByteSource {
  struct Part {
    var bytes: [UInt8]
    var count: Int
    /// Rewrites the part for its repetition index, in place (or replaces it).
    var patch: ((inout [UInt8], Int) -> Void)?

    static func text(_ text: String) -> Part { Part(bytes: Array(text.utf8), count: 1) }
    static func bytes(_ bytes: [UInt8], count: Int = 1) -> Part { Part(bytes: bytes, count: count) }
    static func repeated(_ text: String, count: Int) -> Part { Part(bytes: Array(text.utf8), count: count) }
    static func repeated(_ bytes: [UInt8], count: Int, patch: @escaping (inout [UInt8], Int) -> Void) -> Part {
      Part(bytes: bytes, count: count, patch: patch)
    }
  }

  let parts: [Part]
  private var part = 0
  private var repetition = -1
  private var current: [UInt8] = []
  private var offset = 0
  /// Bytes handed out so far.
  private(set) var produced = 0

  init(_ parts: [Part]) { self.parts = parts }

  /// Total bytes the source hands out.
  var size: Int { parts.reduce(0) { $0 + $1.bytes.count * $1.count } }

  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
    var written = 0
    while written < buffer.count {
      if offset == current.count {
        guard advance() else { break }
        continue
      }
      let n = min(buffer.count - written, current.count - offset)
      current.withUnsafeBytes { bytes in
        UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[written..<(written + n)])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)]))
      }
      offset += n
      written += n
    }
    produced += written
    return written
  }

  private mutating func advance() -> Bool {
    while part < parts.count {
      repetition += 1
      if repetition < parts[part].count {
        offset = 0
        if let patch = parts[part].patch {
          current = parts[part].bytes
          patch(&current, repetition)
        } else if repetition == 0 {
          current = parts[part].bytes
        }
        return true
      }
      part += 1
      repetition = -1
    }
    return false
  }
}

/// Writes `value` (0...99) as two decimal digits at `at`.
@inline(__always) func hostileWriteTwoDigits(_ bytes: inout [UInt8], at: Int, _ value: Int) {
  bytes[at] = 0x30 + UInt8(value / 10)
  bytes[at + 1] = 0x30 + UInt8(value % 10)
}

/// A long generated drive at 1 Hz, one minute per repeated part: every position 0.0001° of
/// latitude (11.12 m) north or south of the one before, zigzagging between 45.0000 and 45.0060,
/// so every one passes the capture filter and the route is one segment of
/// (positions − 1) × `step` metres.
enum HostileDrive {
  /// The distance between consecutive positions.
  static let step = GeographicDistance.meters(
    from: RoutePosition(timestamp: 0, latitude: 45, longitude: 13.25),
    to: RoutePosition(timestamp: 0, latitude: 45.0001, longitude: 13.25))

  /// The latitude's last four digits for second `second` of minute `minute`.
  static func latitudeDigits(minute: Int, second: Int) -> String {
    let value = minute % 2 == 0 ? second : 60 - second
    return String(repeating: "0", count: 4 - String(value).count) + String(value)
  }

  /// `minutes` minutes of GPX track points from 2025-01-01T00:00:00Z (at most 31 days), one a line.
  static func gpxMinutes(_ minutes: Int) -> SyntheticByteSource.Part {
    minuteBlocks(minutes) { minute, second in
      "<trkpt lat=\"45.\(latitudeDigits(minute: minute, second: second))\" lon=\"13.25\"><time>2025-01-DDTHH:MM:\(second < 10 ? "0" : "")\(second)Z</time></trkpt>\n"
    }
  }

  /// `minutes` minutes of CSV rows `timestamp,latitude,longitude` from 2025-01-01T00:00:00Z.
  static func csvMinutes(_ minutes: Int) -> SyntheticByteSource.Part {
    minuteBlocks(minutes) { minute, second in
      "2025-01-DDTHH:MM:\(second < 10 ? "0" : "")\(second)Z,45.\(latitudeDigits(minute: minute, second: second)),13.25\n"
    }
  }

  /// Repeats a minute of lines (two templates, for even and odd minutes), writing the day, hour
  /// and minute into the `DD`, `HH` and `MM` placeholders of each line.
  private static func minuteBlocks(_ minutes: Int, line: (Int, Int) -> String) -> SyntheticByteSource.Part {
    let templates = [0, 1].map { minute in Array((0..<60).map { line(minute, $0) }.joined().utf8) }
    var places: [Int] = []  // the offset of each line's DD; HH is 3 further, MM 6
    let text = templates[0]
    for index in 0..<(text.count - 1) where text[index] == 0x44 && text[index + 1] == 0x44 { places.append(index) }
    precondition(places.count == 60)
    return .repeated(templates[0], count: minutes) { bytes, minute in
      bytes = templates[minute % 2]
      let day = 1 + minute / 1440
      let hour = minute / 60 % 24
      let minuteOfHour = minute % 60
      for place in places {
        hostileWriteTwoDigits(&bytes, at: place, day)
        hostileWriteTwoDigits(&bytes, at: place + 3, hour)
        hostileWriteTwoDigits(&bytes, at: place + 6, minuteOfHour)
      }
    }
  }
}

/// Runs a reader over a source by hand, through the ingest stage, so a test can look at the
/// reader's buffers after every chunk.
enum HostileFeed {
  struct Outcome {
    var measurement: FeedMeasurement
    /// The most bytes the probe saw the reader holding after any chunk.
    var largestHeld: Int
  }

  /// What the allocator may add to one buffer's capacity, in bytes. A Swift array's capacity is
  /// what the allocator handed back (on Linux Swift asks `malloc_usable_size`), not what was
  /// asked: glibc hands back a free chunk whole when the rest would be too small to split (up
  /// to 31 bytes more), and which chunk is free depends on what else the process has allocated,
  /// so the same reader on the same bytes can hold a little more in one run than in another.
  /// 64 covers that rounding and one doubling of it; a buffer that grew with the input would be
  /// larger by orders of magnitude, so comparing against it still catches growth.
  static let allocatorSlack = 64

  /// - Parameter held: what the reader keeps between chunks, in bytes (its buffers' capacities).
  static func stream<Reader: FeedReader, Source: ByteSource>(
    _ reader: Reader, _ source: Source, format: FeedFormat, settings: IngestSettings = IngestSettings(),
    chunkSize: Int = 1 << 16, held: (Reader) -> Int
  ) -> Outcome {
    var reader = reader
    var source = source
    var ingest = ShiftIngest(settings: settings, retained: DiscardRetainedSamples())
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
    defer { buffer.deallocate() }
    var largest = 0
    var failure: FeedError?
    do throws(FeedError) {
      while true {
        let count = try source.read(into: buffer)
        if count == 0 { break }
        try reader.read(UnsafeBufferPointer(rebasing: buffer[0..<count]), into: &ingest)
        largest = max(largest, held(reader))
      }
      try reader.finish(into: &ingest)
    } catch {
      failure = error
    }
    var measurement = ingest.measurement(format: format)
    measurement.report.failure = failure
    return Outcome(measurement: measurement, largestHeld: largest)
  }

  static func gpx(_ source: some ByteSource, settings: IngestSettings = IngestSettings()) -> Outcome {
    stream(GPXReader(options: FeedOptions()), source, format: .gpx, settings: settings) {
      $0.scanner.stack.storageCapacity * MemoryLayout<XMLOpenElement<GPXRole>>.stride + $0.scanner.value.bytes.capacity
    }
  }

  static func nmea(
    _ source: some ByteSource, options: FeedOptions = FeedOptions(), settings: IngestSettings = IngestSettings()
  ) -> Outcome {
    stream(NMEAReader(options: options), source, format: .nmea, settings: settings) {
      $0.partial.capacity + $0.assembler.undated.capacity * MemoryLayout<NMEAEpochAssembler.UndatedPosition>.stride
    }
  }

  static func csv(_ source: some ByteSource, settings: IngestSettings = IngestSettings()) -> Outcome {
    stream(CSVReader(options: FeedOptions()), source, format: .csv, settings: settings) { $0.carry.capacity }
  }

  /// The whole ingest path as the CLI runs it, on text, with format detection.
  static func measure(_ text: String, format: FeedFormat? = nil, settings: IngestSettings = IngestSettings())
    -> FeedMeasurement
  {
    measure(Array(text.utf8), format: format, settings: settings)
  }

  static func measure(
    _ bytes: [UInt8], format: FeedFormat? = nil, options: FeedOptions = FeedOptions(),
    settings: IngestSettings = IngestSettings()
  ) -> FeedMeasurement {
    var source = MemoryByteSource(bytes)
    return FeedIngest.measure(&source, format: format, options: options, settings: settings)
  }
}

/// NMEA sentences with their checksums computed, for tests that build logs.
enum HostileNMEA {
  static func sentence(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = Array("0123456789ABCDEF".utf8)
    return "$" + body + "*" + String(decoding: [hex[Int(checksum >> 4)], hex[Int(checksum & 15)]], as: UTF8.self)
  }

  /// An RMC fix at `time` (hhmmss) on `date` (ddmmyy).
  static func rmc(
    _ time: String, _ date: String = "291125", latitude: String = "4807.0380", longitude: String = "01131.0000"
  ) -> String {
    sentence("GPRMC,\(time),A,\(latitude),N,\(longitude),E,0.0,0.0,\(date),,,A")
  }
}
