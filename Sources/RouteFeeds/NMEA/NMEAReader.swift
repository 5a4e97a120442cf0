import RouteMileage

/// Streams an NMEA 0183 log into positions: one per epoch, with capture sessions.
///
/// Lines end at LF, CR or CRLF (a run of CRs before an LF is one line end, so a doubled
/// `CR CR LF` makes no blank line). A line is scanned where it lies in the chunk; only a line
/// split across chunks is copied, into a buffer of at most `maximumLineLength` bytes. A longer
/// line is skipped to its end without being kept and counted as `lineTooLong`, so memory stays
/// bounded whatever the input. Each line is then split into sentences (`NMEASentenceParser`),
/// their fields read (RMC, GGA and GST of the common shape in place by `NMEAInPlace`, anything
/// else by the field walker), and the sentences gathered into epochs (`NMEAEpochAssembler`),
/// dated and sessioned by `NMEAClock`.
///
/// Every line is accounted for: it becomes part of an epoch record (a position, `noFix`,
/// `missingTime`), an unreadable record, or an `ignored` line of a named kind.
///
/// - Complexity: O(*n*) in the feed's bytes; memory O(1) in it once the date is known.
public struct NMEAReader: FeedReader {
  /// Bytes; NMEA's own limit is 82, proprietary dumps run to a few hundred.
  public static let maximumLineLength = 4096

  var assembler: NMEAEpochAssembler
  /// The line being read: its number, and its start when split across chunks.
  var partial = PartialLine(maximumLength: NMEAReader.maximumLineLength, keepsCapacity: true)
  /// True when the last chunk ended inside a run of CRs, so a leading LF ends nothing.
  var afterReturn = false
  /// True when the partial line holds a byte outside printable ASCII.
  var partialIsUnusual = false
  /// True once the line being read has been counted unreadable.
  var lineHasProblem = false
  /// True once a sentence without a checksum was read: this logger writes none.
  var sawUncheckedSentence = false
  /// The last time, position and date fields read, so the sentences repeating them compare
  /// instead of reading again.
  var repeats = NMEARepeatedFields()
  /// Scratch for the sentence being read, reused so nothing large is copied per sentence.
  var fix = NMEAFix(.rmc, timeOfDay: nil)

  public init(options: FeedOptions) {
    assembler = NMEAEpochAssembler(options: options)
  }

  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) throws(FeedError) {
    guard let base = chunk.baseAddress, chunk.count > 0 else { return }
    let count = chunk.count
    var index = afterReturn ? skipLineEnd(base, 0, count) : 0
    var lineStart = index
    var unusual = partialIsUnusual
    while true {
      // The common line, one checksummed sentence, is framed, checksummed and read in one pass.
      if index == lineStart, index < count, base[index] == .asciiDollar, !unusual, partial.isEmpty, !partial.skipping,
        let end = try checkedSentenceLine(base, index, count, into: &sink)
      {
        index = end
        lineStart = end
        continue
      }
      // Printable ASCII is almost every byte: skip it a word, then a byte, at a time.
      while index &+ 8 <= count, NMEAWords.unprintable(NMEAWords.load(base + index)) == 0 { index &+= 8 }
      while index < count, base[index] &- 0x20 < 0x5F { index &+= 1 }
      guard index < count else { break }
      let byte = base[index]
      if byte == .asciiNewline || byte == .asciiReturn {
        try endLine(
          UnsafeBufferPointer(start: base + lineStart, count: index - lineStart), unusual: unusual, into: &sink)
        unusual = false
        index = byte == .asciiReturn ? skipLineEnd(base, index + 1, count) : index + 1
        lineStart = index
      } else {
        unusual = true
        index += 1
      }
    }
    partialIsUnusual = unusual
    partial.keep(UnsafeBufferPointer(start: base + lineStart, count: count - lineStart))
  }

  /// Reads the line at `start` when it is exactly one sentence `$…*hh` with a matching checksum
  /// and no byte below `+` (0x2B) or above `~` between `$` and `*`, ended by CR or LF within the
  /// chunk: the line end is found and the checksum XORed in the same pass, eight bytes at a time
  /// (`NMEAWords.stops`, `foldXOR`). Returns where the next line starts, or nil, having read
  /// nothing, for any other line (a cut, a wrong or missing checksum, spaces, a second sentence,
  /// a line over the limit or near the chunk's end), which the general path then reads from the
  /// same byte. For the lines it takes it delivers exactly what the general path would: the same
  /// frame, line number and events.
  ///
  /// - Complexity: O(*n*) in the line's length, each byte looked at once.
  @inline(__always)
  private mutating func checkedSentenceLine(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int, into sink: inout some FeedSink
  ) throws(FeedError) -> Int? {
    var index = start &+ 1
    var words: UInt64 = 0
    var star = -1
    while index &+ 8 <= count {
      let word = NMEAWords.load(base + index).littleEndian
      let stops = NMEAWords.stops(word)
      if stops == 0 {
        words ^= word
        index &+= 8
        continue
      }
      let plain = stops.trailingZeroBitCount & ~7
      words ^= word & ~(~0 << UInt64(plain))
      index &+= plain &>> 3
      star = index
      break
    }
    // The `*`, two hex digits and a line end, all in this chunk; the line within the limit.
    guard star >= 0, star &+ 3 < count, base[star] == .asciiStar, star &+ 3 &- start <= Self.maximumLineLength,
      let high = NMEASentenceParser.hexValue(base[star &+ 1]),
      let low = NMEASentenceParser.hexValue(base[star &+ 2]),
      high << 4 | low == NMEAWords.foldXOR(words)
    else { return nil }
    let end = base[star &+ 3]
    guard end == .asciiNewline || end == .asciiReturn else { return nil }
    let next = end == .asciiReturn ? skipLineEnd(base, star &+ 4, count) : star &+ 4
    let line = UnsafeBufferPointer(start: base + start, count: star &+ 3 &- start)
    guard let number = partial.endLine(with: line, into: &sink) else { return next }
    // The same frame `NMEASentenceParser.frame` gives this line.
    let starInLine = star &- start
    var comma = 6
    let verdict: NMEAVerdict
    if starInLine > 7, let common = NMEASentenceParser.commonVerdict(NMEAWords.load(base + start).littleEndian) {
      verdict = common
    } else {
      if comma >= starInLine || line[comma] != .asciiComma {
        comma = 1
        while comma < starInLine, line[comma] != .asciiComma { comma &+= 1 }
      }
      verdict = NMEASentenceParser.classify(line, start: 0, comma: comma)
    }
    let frame = NMEAFrame(verdict: verdict, comma: comma, star: starInLine, next: line.count)
    lineHasProblem = false
    try sentence(frame, in: line, number: number, into: &sink)
    return next
  }

  /// Skips the CRs and one LF that continue a line end begun by a CR.
  @inline(__always)
  private mutating func skipLineEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
    var index = start
    while index < count, base[index] == .asciiReturn { index += 1 }
    if index == count {
      afterReturn = true
      return index
    }
    afterReturn = false
    return base[index] == .asciiNewline ? index + 1 : index
  }

  /// One line is complete: `tail` is its last (or only) piece.
  private mutating func endLine(_ tail: UnsafeBufferPointer<UInt8>, unusual: Bool, into sink: inout some FeedSink)
    throws(FeedError)
  {
    guard let number = partial.endLine(with: tail, into: &sink) else { return }
    if partial.isEmpty {
      try interpret(tail, line: number, unusual: unusual, lastLine: false, into: &sink)
      return
    }
    var whole = partial.take(appending: tail)
    try whole.withUnsafeBufferPointer { (bytes) throws(FeedError) in
      try interpret(bytes, line: number, unusual: unusual, lastLine: false, into: &sink)
    }
    partial.giveBack(&whole)
  }

  /// Reads one line's sentences.
  private mutating func interpret(
    _ raw: UnsafeBufferPointer<UInt8>, line number: Int, unusual: Bool, lastLine: Bool, into sink: inout some FeedSink
  ) throws(FeedError) {
    let line = raw.trimmingASCIIWhitespace()
    guard let first = line.first else {
      sink.ignored(.blankLine, line: number)
      return
    }
    if first == .asciiHash {
      sink.ignored(.comment, line: number)
      return
    }
    if unusual {
      for byte in line where byte &- 0x20 >= 0x5F {
        sink.unreadable(.binary, line: number)
        return
      }
    }
    var start = 0
    lineHasProblem = false
    while start < line.count {
      // A log that has shown it writes no checksums: its unterminated last line is read like
      // the others (a cut one still fails on its fields or its feed ends early).
      let frame = NMEASentenceParser.frame(line, from: start, lastLine: lastLine && !sawUncheckedSentence)
      start = frame.next
      if frame.unchecked, frame.verdict.isRead {
        sawUncheckedSentence = true
        sink.noted(.checksumMissing, line: number)
      }
      try sentence(frame, in: line, number: number, into: &sink)
    }
  }

  /// Counts a line's first problem; the rest of its damage is the same unreadable line.
  @inline(__always)
  private mutating func problem(_ reason: FeedReason, line number: Int, into sink: inout some FeedSink) {
    guard !lineHasProblem else { return }
    lineHasProblem = true
    sink.unreadable(reason, line: number)
  }

  /// Delivers one framed sentence: to the epochs if it is read, else to the report.
  @inline(__always)
  private mutating func sentence(
    _ frame: NMEAFrame, in line: UnsafeBufferPointer<UInt8>, number: Int, into sink: inout some FeedSink
  ) throws(FeedError) {
    var fields = NMEAFields(line, comma: frame.comma, end: frame.star)
    switch frame.verdict {
    case .rmc, .gga, .gns, .gll, .gst:
      // The common shapes in place; anything else, with its errors, by the field walker.
      if !NMEAInPlace.readFix(frame.verdict, line, comma: frame.comma, star: frame.star, &repeats, into: &fix) {
        do throws(NMEAReadError) {
          try NMEASentenceParser.readFix(frame.verdict, &fields, &repeats, into: &fix)
        } catch {
          problem(error.reason, line: number, into: &sink)
          return
        }
      }
      try assembler.fix(fix, line: number, into: &sink)
    case .gsa:
      // Its DOPs are read only when the open epoch may use them (`needsGSAHDOP`).
      assembler.gsa(hdop: assembler.needsGSAHDOP ? NMEASentenceParser.readGSA(&fields) : nil, line: number)
    case .zda:
      let zda: (timeOfDay: Int64?, date: Int?)
      do throws(NMEAReadError) {
        zda = try NMEASentenceParser.readZDA(&fields, &repeats)
      } catch {
        problem(error.reason, line: number, into: &sink)
        return
      }
      try assembler.zda(timeOfDay: zda.timeOfDay, date: zda.date, line: number, into: &sink)
    case .ais, .proprietary, .supporting, .otherTalker:
      sink.ignored(frame.verdict.reason, line: number)
    case .notASentence, .truncated, .badChecksum, .badAddress:
      problem(frame.verdict.reason, line: number, into: &sink)
    }
  }

  public mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    if !partial.endFeedSkipping(into: &sink), !partial.isEmpty {
      let whole = partial.take()
      let unusual = partialIsUnusual
      // The last line has no line end: when it cannot be read, the log was cut inside it.
      let lastLine = partial.lineNumber
      var watch = LastLineWatch(sink)
      try whole.withUnsafeBufferPointer { (bytes) throws(FeedError) in
        try interpret(bytes, line: lastLine, unusual: unusual, lastLine: true, into: &watch)
      }
      sink = watch.sink
      if watch.sawUnreadable {
        partialIsUnusual = false
        try assembler.finish(into: &sink)
        throw .cutOffLastLine(lastLine)
      }
    }
    partialIsUnusual = false
    try assembler.finish(into: &sink)
  }
}
