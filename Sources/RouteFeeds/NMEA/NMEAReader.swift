import RouteMileage

/// Streams an NMEA 0183 log into positions: one per epoch, with capture sessions.
///
/// Lines end at LF, CR or CRLF (a run of CRs before an LF is one line end, so a doubled
/// `CR CR LF` makes no blank line). A line is scanned where it lies in the chunk; only a line
/// split across chunks is copied, into a buffer of at most `maximumLineLength` bytes. A longer
/// line is skipped to its end without being kept and counted as `lineTooLong`, so memory stays
/// bounded whatever the input. Each line is then split into sentences (`NMEASentenceParser`),
/// and the sentences into epochs (`NMEAEpochAssembler`), dated and sessioned by `NMEAClock`.
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
      do throws(NMEAReadError) {
        try NMEASentenceParser.readFix(frame.verdict, &fields, into: &fix)
      } catch {
        problem(error.reason, line: number, into: &sink)
        return
      }
      try assembler.fix(fix, line: number, into: &sink)
    case .gsa:
      // Its DOPs are read only when the open epoch may use them (`needsGSAHDOP`).
      assembler.gsa(hdop: assembler.needsGSAHDOP ? NMEASentenceParser.readGSA(&fields) : nil, line: number)
    case .zda:
      let zda: (timeOfDay: Int64?, date: Int?)
      do throws(NMEAReadError) {
        zda = try NMEASentenceParser.readZDA(&fields)
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
