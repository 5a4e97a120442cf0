/// One Recorder line split into its three columns: the time the Recorder stored the message
/// (ISO 8601, UTC), a column word (`*` for a published message; the Recorder writes others, such
/// as `-` for a last-will message, `info`, `msg`), and the message's JSON.
///
/// Columns are separated by runs of tabs or spaces (the Recorder pads the column word with
/// spaces, then a tab). The JSON runs from the first `{` after the column word to the line's end.
struct OwnTracksLine {
  var storedAt: UnsafeBufferPointer<UInt8>
  var column: UnsafeBufferPointer<UInt8>
  var json: UnsafeBufferPointer<UInt8>

  /// Splits `line` (without its line end), or nil when it does not have the three columns with
  /// a timestamp first and a JSON object last.
  ///
  /// - Complexity: O(*n*) in the bytes before the JSON.
  init?(_ line: UnsafeBufferPointer<UInt8>) {
    var index = 0
    func isGap(_ byte: UInt8) -> Bool { byte == .asciiSpace || byte == .asciiTab }
    func run(while condition: (UInt8) -> Bool) -> Range<Int> {
      let start = index
      while index < line.count, condition(line[index]) { index += 1 }
      return start..<index
    }
    let time = run { !isGap($0) }
    guard !time.isEmpty, !run(while: isGap).isEmpty else { return nil }
    let column = run { !isGap($0) }
    guard !column.isEmpty, !run(while: isGap).isEmpty, index < line.count, line[index] == UInt8(ascii: "{") else {
      return nil
    }
    storedAt = UnsafeBufferPointer(rebasing: line[time])
    self.column = UnsafeBufferPointer(rebasing: line[column])
    var end = line.count
    // A CR of a CRLF line end, and trailing spaces, are not part of the JSON.
    while end > index, line[end - 1].isASCIIWhitespace { end -= 1 }
    json = UnsafeBufferPointer(rebasing: line[index..<end])
  }

  /// Whether `line` starts like a Recorder line: `YYYY-MM-DDT…`, a gap, a column word, a gap,
  /// then `{` (format detection).
  static func looksLikeRecorderLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.count >= 11, let split = OwnTracksLine(line) else { return false }
    let time = split.storedAt
    guard time.count >= 11 else { return false }
    for index in [0, 1, 2, 3, 5, 6, 8, 9] where !time[index].isASCIIDigit { return false }
    return time[4] == .asciiMinus && time[7] == .asciiMinus && (time[10] == .asciiUpperT || time[10] == .asciiLowerT)
  }
}
