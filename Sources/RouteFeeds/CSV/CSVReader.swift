import RouteMileage

/// A streaming CSV reader: bytes in, positions out, no per-row allocation.
///
/// Records that lie wholly in a chunk are split in place by `CSVRecordScanner.scan`; only the
/// one record a chunk boundary cuts is copied (into `carry`), so memory is bounded by
/// `maximumRecordLength` whatever the feed's size, and the output does not depend on how the
/// feed is chunked. The first significant line decides the layout (`CSVLayout`): a header,
/// the 70mai dash cam's `$V02` marker, or — with `--columns header=no` — data.
///
/// Rules (docs/formats/csv.md says the same for users):
/// - a UTF-8 byte-order mark is skipped; CRLF and LF both end lines; blank lines and lines with
///   no value in any column are skipped without a count; lines starting with `#` are comments,
///   counted under `ignored`;
/// - a record longer than `maximumRecordLength` bytes (1 MiB) is counted unreadable
///   (`lineTooLong`) at its first line and skipped without being buffered: reading resumes
///   after the first line feed past the limit;
/// - a data row is a position, a `noFix` rejection (status column), or unreadable with its
///   line number (`badTime`, `badNumber`, `binary`, `badSession`, `unterminatedQuote`).
///
/// Memory: the carried record (at most `maximumRecordLength` bytes), one field table per chunk
/// on the stack, and one entry per distinct session value.
public struct CSVReader: FeedReader {
  /// The longest record, in bytes, before it is skipped as `lineTooLong`.
  public static let defaultMaximumRecordLength = 1 << 20
  /// The longest capture session value, in bytes; a longer one is unreadable (`badSession`).
  public static let maximumSessionLength = 256

  let mapping: CSVColumnMapping?
  let maximumRecordLength: Int

  /// The line the next record starts on (1-based).
  var line = 1
  /// Byte-order-mark bytes seen so far at the start of the feed.
  var bomMatched = 0
  var bomChecked = false
  /// The part of a record that a chunk boundary cut, with the scanner state after it.
  var carry: [UInt8] = []
  var carryState = CSVRecordScanner.State.recordStart
  var carryNewlines = 0
  /// Skipping the rest of an over-long record, up to the next line feed.
  var skipping = false
  /// Nil until the first significant line has been read.
  var layout: CSVLayout?
  /// The delimiter a spreadsheet's `sep=;` first line declares.
  var declaredDelimiter: UInt8?

  /// Sessions by their value's bytes; the last one's bytes are compared before any hashing.
  var sessionOrdinals = FirstSeenOrdinals<[UInt8]>()
  /// The last session's bytes as one word, first byte lowest, when `decodeCanonicalRow` read it
  /// and it is 1 to 8 bytes long (`lastShortSessionLength`, 0 otherwise), with the mask of those
  /// bytes: equal to `sessionOrdinals.lastKey` whenever the length is not 0.
  var lastShortSession: UInt64 = 0
  var lastShortSessionMask: UInt64 = 0
  var lastShortSessionLength = 0
  /// The 70mai recording the rows belong to (one per `$V02` line).
  var dashcamRecording = -1
  var timestampCache = ISO8601DayCache()
  /// Whether any row's time has been read: an ambiguous date before that stops the read with
  /// the mapping to pass; after it, it is one bad row.
  var hasReadTime = false
  /// The shape of the last data row read (or of the header, before any), against which an
  /// unterminated last row is judged whole or cut (`CSVRowShape`). Taken once per chunk, from
  /// the last row the chunk completed, so ordinary rows pay nothing for it.
  var previousRow: CSVRowShape?

  public init(options: FeedOptions) {
    self.init(options: options, maximumRecordLength: Self.defaultMaximumRecordLength)
  }

  /// - Parameter maximumRecordLength: bytes; tests use a small one to exercise the skipping.
  public init(options: FeedOptions, maximumRecordLength: Int) {
    mapping = options.csvColumns
    self.maximumRecordLength = max(16, maximumRecordLength)
    timestampCache = ISO8601DayCache(zone: options.timeZone)
    carry.reserveCapacity(4096)
  }

  var delimiters: CSVRecordScanner.Delimiters {
    if let layout { return .init(byte: layout.delimiter, anyCandidate: false) }
    if let forced = mapping?.delimiter { return .init(byte: forced.byte, anyCandidate: false) }
    if let declaredDelimiter { return .init(byte: declaredDelimiter, anyCandidate: false) }
    return .init(byte: .asciiComma, anyCandidate: true)
  }

  /// - Complexity: O(*n*) in the chunk length.
  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    var bytes = chunk
    if !bomChecked {
      // The byte-order mark may itself be split across chunks: match it byte by byte.
      let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
      var index = 0
      while !bomChecked, index < bytes.count {
        if bytes[index] == bom[bomMatched] {
          bomMatched += 1
          index += 1
          if bomMatched == 3 { bomChecked = true }
        } else {
          bomChecked = true
          if bomMatched > 0 {
            let partial = Array(bom[0..<bomMatched])
            try partial.withUnsafeBufferPointer { (prefix) throws(FeedError) in try consume(prefix, into: &sink) }
          }
        }
      }
      bytes = UnsafeBufferPointer(rebasing: bytes[index...])
    }
    try consume(bytes, into: &sink)
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    defer { timestampCache.noteStepBacks(line: 0, into: &sink) }
    if !bomChecked {
      bomChecked = true
      if bomMatched > 0 {
        let partial = Array([0xEF, 0xBB, 0xBF][0..<bomMatched]) as [UInt8]
        try partial.withUnsafeBufferPointer { (prefix) throws(FeedError) in try consume(prefix, into: &sink) }
      }
    }
    guard !skipping, !carry.isEmpty || carryState != .recordStart else { return }
    if carryState == .quoted {
      // A quote opened and never closed: the record (and any lines it swallowed) is lost, and
      // the file was cut inside it.
      let start = line
      line += carryNewlines + 1
      resetCarry()
      sink.unreadable(.csvUnterminatedQuote, line: start)
      throw .cutOffLastLine(start)
    }
    // The last record has no line end: when it is incomplete, ends in a number shorter than the
    // row before's, or cannot be read, the file was cut inside it.
    let lastLine = line
    if let layout, let previousRow, lastRowLooksCut(layout: layout, after: previousRow) {
      line += carryNewlines + 1
      resetCarry()
      sink.unreadable(.csvCutOffRow, line: lastLine)
      throw .cutOffLastRow(lastLine)
    }
    var watch = LastLineWatch(sink)
    defer { sink = watch.sink }
    try completeCarry(into: &watch)
    if watch.sawUnreadable, layout != nil { throw .cutOffLastLine(lastLine) }
  }

  // MARK: Chunks

  mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var index = 0
    while index < count {
      if skipping {
        var newline = index
        while newline < count, base[newline] != .asciiNewline { newline += 1 }
        guard newline < count else { return }
        skipping = false
        line += 1
        index = newline + 1
      } else if layout == nil || !carry.isEmpty || carryState != .recordStart {
        index = try extendCarry(base, from: index, to: count, into: &sink)
      } else {
        index = try scanInPlace(base, from: index, to: count, into: &sink)
      }
    }
  }

  /// Runs the state machine over `bytes[from..<to]`, extending the carried record; completes
  /// it at its line feed. Returns where it stopped.
  mutating func extendCarry(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into sink: inout some FeedSink
  ) throws(FeedError) -> Int {
    let delimiters = delimiters
    var state = carryState
    var offset = carry.count
    var newlines = 0
    var index = start
    while index < end {
      let byte = bytes[index]
      let (next, ends) = CSVRecordScanner.step(state, byte, delimiters)
      if ends {
        carry.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: index - start))
        carryNewlines += newlines
        try completeCarry(into: &sink)
        return index + 1
      }
      if offset == maximumRecordLength {
        // The byte past the limit is not the record's end: skip from here to a line feed.
        let first = line
        line += carryNewlines + newlines
        resetCarry()
        skipping = true
        sink.unreadable(.lineTooLong, line: first)
        return index
      }
      if byte == .asciiNewline { newlines += 1 }
      state = next
      offset += 1
      index += 1
    }
    carry.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
    carryState = state
    carryNewlines += newlines
    return end
  }

  /// Handles the carried record, now complete (its line feed was consumed).
  mutating func completeCarry(into sink: inout some FeedSink) throws(FeedError) {
    var record: [UInt8] = []
    swap(&record, &carry)
    let newlines = carryNewlines
    let startLine = line
    line += newlines + 1
    carryState = .recordStart
    carryNewlines = 0
    record.append(.asciiNewline)
    defer {
      // Keep the buffer for the next cut record.
      record.removeAll(keepingCapacity: true)
      swap(&record, &carry)
    }
    try record.withUnsafeBufferPointer { (buffer) throws(FeedError) in
      try handleRecord(buffer.baseAddress!, length: buffer.count - 1, line: startLine, into: &sink)
    }
  }

  mutating func resetCarry() {
    carry.removeAll(keepingCapacity: carry.capacity <= 1 << 16)
    carryState = .recordStart
    carryNewlines = 0
  }

  /// Splits the records that lie wholly in `bytes[from..<to]` in place, carrying the last
  /// partial one. Returns where it stopped.
  mutating func scanInPlace(
    _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into sink: inout some FeedSink
  ) throws(FeedError) -> Int {
    let layout = layout!
    let cap = maximumRecordLength
    var plain = CSVPlainRow(layout)
    // Rows the plain path declines one after another: past `CSVPlainRow.declinesBeforeGivingUp`
    // the chunk's other rows go straight to the general path, so a file of rows it never
    // accepts (zone-less times, say) pays for the attempt a few times a chunk, not every row.
    var declines = 0
    return try withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * layout.fieldLimit) {
      (fields) throws(FeedError) -> Int in
      let slots = fields.baseAddress!
      var index = start
      // The last record this call completed, for `previousRow`, taken when the call returns.
      var lastRowStart = -1
      var lastRowEnd = 0
      var lastRowFields = 0
      defer {
        if lastRowStart >= 0 {
          previousRow = CSVRowShape(
            bytes, start: lastRowStart, end: lastRowEnd, fieldCount: lastRowFields, delimiter: layout.delimiter)
        }
      }
      while index < end {
        let recordStart = index
        let bound = min(end, recordStart + cap + 1)
        if let plan = plain {
          // Canonical rows straight through while the window they may read is in the chunk; the
          // row that stops them is offered to the column loop.
          if plan.isCanonicalOrder {
            let (next, lastStart) = decodeCanonicalRows(bytes, from: recordStart, bound: end, plan: plan, into: &sink)
            if lastStart >= 0 {
              index = next
              lastRowStart = lastStart
              lastRowEnd = next - 1
              lastRowFields = plan.columns
              declines = 0
              continue
            }
          }
          if let recordEnd = decodePlainRow(
            bytes, start: recordStart, bound: bound, plan: plan, line: line, into: &sink)
          {
            line += 1
            index = recordEnd + 1
            lastRowStart = recordStart
            lastRowEnd = recordEnd
            lastRowFields = plan.columns
            declines = 0
            continue
          }
          declines += 1
          if declines == CSVPlainRow.declinesBeforeGivingUp { plain = nil }
        }
        let outcome =
          CSVFastPaths.scanUnquoted(
            bytes, start: recordStart, bound: bound, delimiter: layout.delimiter, fields: slots,
            limit: layout.fieldLimit)
          ?? CSVRecordScanner.scan(
            bytes, start: recordStart, bound: bound, delimiter: layout.delimiter, fields: slots,
            limit: layout.fieldLimit)
        switch outcome {
        case .record(let recordEnd, let fieldCount, let newlines):
          let rowLine = line
          line += newlines + 1
          index = recordEnd + 1
          lastRowStart = recordStart
          lastRowEnd = recordEnd
          lastRowFields = fieldCount
          try decodeRow(
            bytes, slots, fieldCount, recordStart, recordEnd, line: rowLine, layout: layout, into: &sink)
        case .comment(let recordEnd):
          sink.ignored(.csvComment, line: line)
          line += 1
          index = recordEnd + 1
        case .hitBound:
          if bound == recordStart + cap + 1 {
            sink.unreadable(.lineTooLong, line: line)
            line += CSVRecordScanner.countNewlines(bytes, recordStart, recordStart + cap)
            skipping = true
            return recordStart + cap
          }
          return try extendCarry(bytes, from: recordStart, to: end, into: &sink)
        }
      }
      return index
    }
  }

  // MARK: Records

  /// A complete record in `bytes[0..<length]`, followed by a line feed at `length`.
  mutating func handleRecord(
    _ bytes: UnsafePointer<UInt8>, length: Int, line recordLine: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    let record = UnsafeBufferPointer(start: bytes, count: length)
    if length > 0, bytes[0] == .asciiHash {
      sink.ignored(.csvComment, line: recordLine)
      return
    }
    if let layout {
      try withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * layout.fieldLimit) { (fields) throws(FeedError) in
        let slots = fields.baseAddress!
        switch CSVRecordScanner.scan(
          bytes, start: 0, bound: length + 1, delimiter: layout.delimiter, fields: slots, limit: layout.fieldLimit)
        {
        case .record(_, let fieldCount, _):
          previousRow = CSVRowShape(bytes, start: 0, end: length, fieldCount: fieldCount, delimiter: layout.delimiter)
          try decodeRow(bytes, slots, fieldCount, 0, length, line: recordLine, layout: layout, into: &sink)
        case .comment:
          sink.ignored(.csvComment, line: recordLine)
        case .hitBound:
          sink.unreadable(.csvUnterminatedQuote, line: recordLine)
        }
      }
      return
    }
    // Before the layout: skip blank lines, then the first significant line decides it.
    guard !isBlankForAnyCandidate(record) else { return }
    try beginLayout(record, line: recordLine, into: &sink)
  }

  func isBlankForAnyCandidate(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in record
    where !(byte.isASCIIWhitespace || byte == 0 || byte == .asciiQuote || delimiters.contains(byte)) {
      return false
    }
    return true
  }

  /// Reads the first significant line: a dash cam marker, a header, or (header=no) data.
  mutating func beginLayout(
    _ record: UnsafeBufferPointer<UInt8>, line recordLine: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    if CSVValues.isDashcamMarker(record.trimmingASCIIWhitespace()) {
      layout = try CSVLayout.dashcam(mapping: mapping, line: recordLine)
      dashcamRecording = 0
      return
    }
    let trimmed = record.trimmingASCIIWhitespace()
    if declaredDelimiter == nil, trimmed.count == 5,
      UnsafeBufferPointer(rebasing: trimmed[..<4]).equalsASCIICaseInsensitive("sep=")
    {
      // Excel's `sep=;` line: it names the delimiter; the header follows.
      declaredDelimiter = trimmed[4]
      return
    }
    if let carriageReturn = record.firstIndex(of: .asciiReturn), carriageReturn < record.count - 1 {
      throw FeedError.unmappedColumns(
        line: recordLine,
        detail: "the lines end with a lone carriage return (classic Mac OS); convert the line endings to LF or CRLF")
    }
    if CSVValues.looksUTF16(record) {
      throw FeedError.unmappedColumns(
        line: recordLine,
        detail: "the file looks like UTF-16 text (every other byte is zero); save it as UTF-8 and read it again")
    }
    let delimiter = mapping?.delimiter?.byte ?? declaredDelimiter ?? CSVRecordScanner.detectDelimiter(record)
    if let mapping, !mapping.hasHeader {
      let resolved = try CSVLayout.headerless(mapping: mapping, delimiter: delimiter, line: recordLine)
      layout = resolved
      var copy = Array(record)
      copy.append(.asciiNewline)
      try copy.withUnsafeBufferPointer { (buffer) throws(FeedError) in
        try handleRecord(buffer.baseAddress!, length: record.count, line: recordLine, into: &sink)
      }
      return
    }
    let cells = try headerCells(record, delimiter: delimiter, line: recordLine)
    layout = try CSVLayout.resolve(header: cells, mapping: mapping, delimiter: delimiter, line: recordLine)
    previousRow = CSVRowShape(fieldCount: cells.count, lastFieldDecimals: nil)
  }

  /// Whether the carried record, the feed's unterminated last line, looks cut when set against
  /// `previous` (`CSVRowShape`); a blank line, a comment or a dash cam marker is never cut. O(*n*)
  /// in the record.
  func lastRowLooksCut(layout: CSVLayout, after previous: CSVRowShape) -> Bool {
    var record = carry
    record.append(.asciiNewline)
    return record.withUnsafeBufferPointer { buffer in
      let length = buffer.count - 1
      let base = buffer.baseAddress!
      let row = UnsafeBufferPointer(start: base, count: length)
      if CSVValues.isBlank(row, delimiter: layout.delimiter) || CSVValues.isDashcamMarker(row.trimmingASCIIWhitespace())
      {
        return false
      }
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2) { fields in
        guard
          case .record(_, let fieldCount, _) = CSVRecordScanner.scan(
            base, start: 0, bound: buffer.count, delimiter: layout.delimiter, fields: fields.baseAddress!, limit: 1)
        else { return false }
        let shape = CSVRowShape(base, start: 0, end: length, fieldCount: fieldCount, delimiter: layout.delimiter)
        return shape.looksCut(after: previous)
      }
    }
  }

  /// The header's names, trimmed, quotes removed.
  func headerCells(_ record: UnsafeBufferPointer<UInt8>, delimiter: UInt8, line: Int) throws(FeedError) -> [String] {
    var copy = Array(record)
    copy.append(.asciiNewline)
    let limit = CSVHeaderNames.maximumColumns
    return try copy.withUnsafeBufferPointer { (buffer) throws(FeedError) -> [String] in
      try withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * limit) { (fields) throws(FeedError) -> [String] in
        let slots = fields.baseAddress!
        let base = buffer.baseAddress!
        guard
          case .record(_, let count, _) = CSVRecordScanner.scan(
            base, start: 0, bound: buffer.count, delimiter: delimiter, fields: slots, limit: limit)
        else {
          throw FeedError.unmappedColumns(line: line, detail: "the header line has a quote that is never closed")
        }
        return (0..<min(count, limit)).map { column in
          let value = UnsafeBufferPointer(
            start: base + slots[2 * column], count: slots[2 * column + 1] - slots[2 * column])
          return String(decoding: value.trimmingASCIIWhitespace(), as: UTF8.self)
        }
      }
    }
  }
}

extension FeedError {
  /// A CSV whose unterminated last row is shorter than the rows before it (`CSVRowShape`).
  static func cutOffLastRow(_ line: Int) -> FeedError {
    .truncated(
      line: line,
      detail:
        "its last line has no line end and is shorter than the row before it (a missing column or a number with fewer decimals), so the file looks cut off there"
    )
  }
}

extension FeedReason {
  /// A CSV file's last row, with no line end, that is missing fields or ends in a number with
  /// fewer decimals than the row before: the file was cut inside it (`CSVRowShape`).
  public static let csvCutOffRow = FeedReason("cutOffRow")
  /// A comment line (`#…`) in a CSV file; counted under `ignored`.
  public static let csvComment = FeedReason("comment")
  /// A quoted CSV field still open at the end of the feed (or of an over-long record).
  public static let csvUnterminatedQuote = FeedReason("unterminatedQuote")
  /// A CSV capture session value longer than `CSVReader.maximumSessionLength` bytes.
  public static let csvBadSession = FeedReason("badSession")
  /// A CSV row holding a carriage return that does not end it: a lone CR (mixed line endings)
  /// that joined two lines into one record.
  public static let csvLoneCarriageReturn = FeedReason("loneCarriageReturn")
}
