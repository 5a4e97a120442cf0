import RouteMileage

extension CSVPlainRow {
  /// The bytes from a row's start that `decodeCanonicalRow` may read: a day-cached time (24
  /// bytes) and its delimiter, five numbers of at most sixteen bytes each with the seventeenth
  /// byte each reads past its sign, then the session's first word and the two bytes after a
  /// short session (119 in all). Checking this once replaces a bound check for every cell.
  static let canonicalWindow = 128
}

extension CSVReader {
  /// Reads the rows of the canonical column order from `start` onwards with
  /// `decodeCanonicalRow`, for as long as it reads them and each row's window lies before
  /// `bound`, advancing `line`, and hands each to `sink` in order, the last before it returns.
  /// Returns where it stopped (the start of the first row not read) and the start of the last
  /// row read, -1 when none was.
  ///
  /// One loop for the run of rows: the plan stays in registers and the row's bookkeeping is an
  /// increment, where going back to the chunk's loop for every row cost about 80 instructions.
  ///
  /// - Complexity: O(*n*) in the bytes read.
  mutating func decodeCanonicalRows(
    _ bytes: UnsafePointer<UInt8>, from start: Int, bound: Int, plan: CSVPlainRow, into sink: inout some FeedSink
  ) -> (next: Int, lastStart: Int) {
    // A record longer than `maximumRecordLength` is the general path's to skip: with a limit
    // shorter than the window, a row read here could be one.
    let cap = maximumRecordLength
    guard cap >= CSVPlainRow.canonicalWindow else { return (start, -1) }
    var index = start
    var lastStart = -1
    var rowLine = line
    // Each row is handed to the sink one row late, after the next row is read: the sink copies
    // the sample with wide loads, which cannot be forwarded from the narrower stores that just
    // wrote it and would wait for them to reach the cache. A row later they have.
    var late = RouteSample(timestamp: 0, latitude: 0, longitude: 0)
    var lateSession: Int?
    while index &+ CSVPlainRow.canonicalWindow <= bound {
      guard
        let (end, sample, session) = decodeCanonicalRow(
          bytes, start: index, bound: min(bound, index &+ cap &+ 1), plan: plan)
      else { break }
      if lastStart >= 0 { sink.position(late, session: lateSession, line: rowLine &- 1) }
      late = sample
      lateSession = session
      lastStart = index
      index = end &+ 1
      rowLine &+= 1
    }
    if lastStart >= 0 {
      sink.position(late, session: lateSession, line: rowLine &- 1)
      line = rowLine
      hasReadTime = true
    }
    return (index, lastStart)
  }

  /// Reads a plain row of the canonical column order (`CSVPlainRow.isCanonicalOrder`: time,
  /// latitude, longitude, accuracy, speed, course, session) straight through; returns the index
  /// of its line feed, its sample and its session ordinal, for the caller to hand to the sink,
  /// or nil for any row it does not read, which `decodePlainRow` then reads or declines.
  ///
  /// The same values as `decodePlainRow`, bit for bit, by the same functions: the time on a day
  /// the cache holds (`ISO8601DayCache.cachedDayZulu`), numbers of at most seven digits each
  /// side of the point (`ByteNumberParser.shortPlainNumber`), the same scales, and the session
  /// ordinal, which a session value of at most eight bytes equal to the last row's gets with
  /// one masked comparison. It reads only inside `CSVPlainRow.canonicalWindow` bytes from
  /// `start`, which the caller checked are before `bound`, so no cell checks a bound. Declined:
  /// another day or time shape, a longer number, an empty coordinate, anything but the
  /// delimiter after a cell, a quote, a space around the session. The caller sets `hasReadTime`.
  ///
  /// - Complexity: O(1) for a row whose session is the last row's and at most eight bytes;
  ///   O(*n*) in the session's length otherwise.
  @inline(__always)
  mutating func decodeCanonicalRow(
    _ bytes: UnsafePointer<UInt8>, start: Int, bound: Int, plan: CSVPlainRow
  ) -> (end: Int, sample: RouteSample, session: Int?)? {
    let delimiter = plan.delimiter
    let pattern = UInt64(delimiter) &* 0x0101_0101_0101_0101
    guard let (timestamp, timeEnd) = timestampCache.cachedDayZulu(bytes, at: start), bytes[timeEnd] == delimiter
    else { return nil }
    var index = timeEnd &+ 1
    // Each cell's end is found by its delimiter (`delimiterOffset`), and the next cell starts
    // after it: the row's cells are located by one short scan each, not by reading each number
    // to its end, so the number is read beside the scan rather than before the next one. A
    // number must end exactly at its delimiter, as before.
    var end = index &+ Self.delimiterOffset(bytes, at: index, pattern: pattern)
    var at = index
    guard let latitude = ByteNumberParser.shortPlainNumber(bytes, &at), at == end, bytes[end] == delimiter else {
      return nil
    }
    index = end &+ 1
    end = index &+ Self.delimiterOffset(bytes, at: index, pattern: pattern)
    at = index
    guard let longitude = ByteNumberParser.shortPlainNumber(bytes, &at), at == end, bytes[end] == delimiter else {
      return nil
    }
    index = end &+ 1
    // The optional readings: an empty cell is an absent one.
    var accuracy: Double?
    end = index &+ Self.delimiterOffset(bytes, at: index, pattern: pattern)
    if end != index {
      at = index
      guard let value = ByteNumberParser.shortPlainNumber(bytes, &at), at == end, bytes[end] == delimiter else {
        return nil
      }
      accuracy = value * plan.accuracyScale
    }
    index = end &+ 1
    var speed: Double?
    end = index &+ Self.delimiterOffset(bytes, at: index, pattern: pattern)
    if end != index {
      at = index
      guard let value = ByteNumberParser.shortPlainNumber(bytes, &at), at == end, bytes[end] == delimiter else {
        return nil
      }
      speed = value * plan.speedScale
    }
    index = end &+ 1
    var course: Double?
    end = index &+ Self.delimiterOffset(bytes, at: index, pattern: pattern)
    if end != index {
      at = index
      guard let value = ByteNumberParser.shortPlainNumber(bytes, &at), at == end, bytes[end] == delimiter else {
        return nil
      }
      course = value * 1
    }
    index = end &+ 1
    // The session, then the line end (LF, or CR LF).
    var session: Int?
    let length = lastShortSessionLength
    if length > 0,
      UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self) & lastShortSessionMask == lastShortSession,
      bytes[index &+ length] == .asciiNewline
        || (bytes[index &+ length] == .asciiReturn && bytes[index &+ length &+ 1] == .asciiNewline)
    {
      session = sessionOrdinals.lastOrdinal
      index &+= length
      if bytes[index] == .asciiReturn { index &+= 1 }
    } else {
      let cellStart = index
      guard let end = Self.plainCellEnd(bytes, from: index, bound: bound, delimiter: delimiter) else { return nil }
      index = end
      if bytes[index] == .asciiReturn {
        guard index &+ 1 < bound, bytes[index &+ 1] == .asciiNewline else { return nil }
        index &+= 1
      } else {
        guard bytes[index] == .asciiNewline else { return nil }
      }
      if end > cellStart {
        let value = UnsafeBufferPointer(start: bytes + cellStart, count: end &- cellStart)
        guard bytes[cellStart] > .asciiSpace, bytes[end &- 1] > .asciiSpace, let ordinal = sessionOrdinal(value) else {
          return nil
        }
        session = ordinal
        rememberShortSession(value)
      }
    }
    let sample = RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy,
      speed: speed, course: course, altitude: nil, receivedAt: nil)
    return (index, sample, session)
  }
}

extension CSVReader {
  /// How many bytes from `index` come before the first byte equal to the delimiter that
  /// `pattern` repeats in each of its eight bytes: 0 through 15, or 16 when none of the sixteen
  /// bytes from `index` (which must be readable) is one. Two loads and a few operations with no
  /// branch on the bytes, so the next cell's start does not wait for this one's number.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  static func delimiterOffset(_ bytes: UnsafePointer<UInt8>, at index: Int, pattern: UInt64) -> Int {
    let raw = UnsafeRawPointer(bytes + index)
    let low = raw.loadUnaligned(as: UInt64.self) ^ pattern
    let high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ pattern
    // A delimiter is a zero byte now; below the first zero byte nothing borrows, so the lowest
    // marked byte is exact.
    let lowMarks = (low &- 0x0101_0101_0101_0101) & ~low & 0x8080_8080_8080_8080
    let highMarks = (high &- 0x0101_0101_0101_0101) & ~high & 0x8080_8080_8080_8080
    // 64 trailing zeros when a word has no mark: 8 bytes, and 16 when neither has one.
    let lowBytes = lowMarks.trailingZeroBitCount >> 3
    return lowMarks != 0 ? lowBytes : 8 &+ (highMarks.trailingZeroBitCount >> 3)
  }

  /// Keeps `value`, the session cell just read (no delimiter, quote or line end in it, nothing
  /// to trim), as the last short session when it is at most eight bytes, for
  /// `decodeCanonicalRow`'s one-load comparison; forgets the last one otherwise. O(1).
  @inline(__always)
  mutating func rememberShortSession(_ value: UnsafeBufferPointer<UInt8>) {
    guard value.count <= 8 else {
      lastShortSessionLength = 0
      return
    }
    var word: UInt64 = 0
    for (offset, byte) in value.enumerated() { word |= UInt64(byte) << UInt64(8 * offset) }
    lastShortSession = word
    lastShortSessionMask = value.count == 8 ? .max : (1 << UInt64(8 * value.count)) - 1
    lastShortSessionLength = value.count
  }
}
