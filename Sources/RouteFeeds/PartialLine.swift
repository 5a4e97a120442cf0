/// The line being read, for the readers that read a feed line by line where it lies in the chunk
/// (NMEA, OwnTracks): its number, and its start when a chunk boundary cut it, kept until the line
/// ends. At most `maximumLength` bytes of a line are kept: a longer line is skipped to its end
/// with nothing of it held, so memory stays bounded whatever the input, and counted
/// `lineTooLong`.
struct PartialLine {
  /// Bytes of one line, its line end excluded.
  let maximumLength: Int
  /// Whether an over-long line's bytes are dropped keeping the buffer's capacity (a small buffer
  /// reserved once) rather than freeing it (a large one, rarely needed).
  let keepsCapacity: Bool
  private var bytes: [UInt8] = []
  /// True while skipping the rest of an over-long line.
  private(set) var skipping = false
  /// The number of the line being read (1-based).
  private(set) var lineNumber = 1

  init(maximumLength: Int, keepsCapacity: Bool) {
    self.maximumLength = maximumLength
    self.keepsCapacity = keepsCapacity
    if keepsCapacity { bytes.reserveCapacity(maximumLength) }
  }

  var isEmpty: Bool { bytes.isEmpty }
  /// The buffer's capacity in bytes (what the kept line costs in memory).
  var capacity: Int { bytes.capacity }

  /// Keeps `rest`, the unfinished last line of a chunk; a line that grows over the limit is
  /// dropped and skipped from here to its end. O(*n*) in `rest`.
  @inline(__always)
  mutating func keep(_ rest: UnsafeBufferPointer<UInt8>) {
    guard !rest.isEmpty, !skipping else { return }
    if bytes.count + rest.count > maximumLength {
      skipping = true
      bytes.removeAll(keepingCapacity: keepsCapacity)
    } else {
      bytes.append(contentsOf: rest)
    }
  }

  /// A line ends with `tail` (its last piece): its number, or nil when it is over-long (being
  /// skipped, or too long with `tail`), which is counted `lineTooLong`, ends the skip and drops
  /// what was kept. The next line is numbered on. O(1).
  @inline(__always)
  mutating func endLine(with tail: UnsafeBufferPointer<UInt8>, into sink: inout some FeedSink) -> Int? {
    let number = lineNumber
    lineNumber += 1
    guard skipping || bytes.count + tail.count > maximumLength else { return number }
    skipping = false
    bytes.removeAll(keepingCapacity: keepsCapacity)
    sink.unreadable(.lineTooLong, line: number)
    return nil
  }

  /// The feed ends: true when it ended inside an over-long line, which is then counted
  /// `lineTooLong` (and the skip ends). O(1).
  mutating func endFeedSkipping(into sink: inout some FeedSink) -> Bool {
    guard skipping else { return false }
    skipping = false
    sink.unreadable(.lineTooLong, line: lineNumber)
    return true
  }

  /// The whole line, what was kept then `tail`, taken out so the reader can read it while it
  /// changes itself; `giveBack` returns the buffer for the next line. O(*n*) in `tail`.
  mutating func take(appending tail: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    bytes.append(contentsOf: tail)
    return take()
  }

  /// What was kept, taken out (the feed's last line, which has no line end). O(1).
  mutating func take() -> [UInt8] {
    var whole: [UInt8] = []
    swap(&whole, &bytes)
    return whole
  }

  /// Takes back, emptied, the buffer `take` handed out, so its capacity serves the next line.
  mutating func giveBack(_ whole: inout [UInt8]) {
    whole.removeAll(keepingCapacity: true)
    swap(&whole, &bytes)
  }
}
