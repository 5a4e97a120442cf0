/// What a CSV row's shape says about whether a row after it was cut: how many fields it has and
/// how many digits follow the decimal point of its last field.
///
/// A last line with no line end may be the final row of a file whose writer did not end it
/// (whole), or a row the file was cut inside (the writer never finished it). Only the row's
/// last field can hold the cut, so the judgement is made on it, against the data row before:
///
/// - fewer fields than the row before (or than the header, when it is the first data row): the
///   cut fell in an earlier column, so the row is incomplete;
/// - a last field that is a plain number with fewer digits after its decimal point than the
///   same field of the row before, which is also a plain number with a decimal point: the cut
///   fell inside the number (`51.5380,-0.1` after `51.5379,-0.1012`).
///
/// A last field that is not a plain decimal (text, a time, an integer) cannot be judged this
/// way and the row is read whole; a cut there leaves text a reader refuses, or a value no
/// measurement uses. Writers that print each number at its shortest (dropping trailing zeros)
/// can produce a whole last row that looks shorter; the file then stops one row early, with
/// the sentence saying so, rather than measuring a row that may be cut.
struct CSVRowShape: Sendable, Equatable {
  /// The row's fields, including ones past the last mapped column.
  var fieldCount: Int
  /// Digits after the decimal point of the last field; nil when it is not a plain decimal
  /// number (`-?digits.digits`, `.` or `,` as the point).
  var lastFieldDecimals: Int?

  /// The shape of `bytes[start..<end]`, a record holding `fieldCount` fields.
  ///
  /// - Complexity: O(*k*) in the length of the last field.
  init(_ bytes: UnsafePointer<UInt8>, start: Int, end: Int, fieldCount: Int, delimiter: UInt8) {
    self.fieldCount = fieldCount
    var valueEnd = end
    while valueEnd > start, bytes[valueEnd - 1].isASCIIWhitespace || bytes[valueEnd - 1] == 0 { valueEnd -= 1 }
    var valueStart = valueEnd
    while valueStart > start, bytes[valueStart - 1] != delimiter { valueStart -= 1 }
    while valueStart < valueEnd, bytes[valueStart].isASCIIWhitespace || bytes[valueStart] == 0 { valueStart += 1 }
    lastFieldDecimals = Self.decimals(UnsafeBufferPointer(start: bytes + valueStart, count: valueEnd - valueStart))
  }

  init(fieldCount: Int, lastFieldDecimals: Int?) {
    self.fieldCount = fieldCount
    self.lastFieldDecimals = lastFieldDecimals
  }

  /// Digits after the point of a plain decimal number (0 when it has none); nil for anything
  /// else. O(*k*).
  static func decimals(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    if index < value.count, value[index] == .asciiMinus || value[index] == .asciiPlus { index += 1 }
    var integerDigits = 0
    while index < value.count, value[index].isASCIIDigit {
      integerDigits += 1
      index += 1
    }
    guard integerDigits > 0 else { return nil }
    guard index < value.count else { return 0 }
    guard value[index] == .asciiDot || value[index] == .asciiComma else { return nil }
    index += 1
    let point = index
    while index < value.count, value[index].isASCIIDigit { index += 1 }
    return index == value.count ? index - point : nil
  }

  /// Whether `self`, the shape of an unterminated last row, shows the row was cut, judged
  /// against `previous`, the data row (or header) before it. O(1).
  func looksCut(after previous: CSVRowShape) -> Bool {
    if fieldCount < previous.fieldCount { return true }
    guard fieldCount == previous.fieldCount, let decimals = lastFieldDecimals,
      let previousDecimals = previous.lastFieldDecimals, previousDecimals > 0
    else { return false }
    return decimals < previousDecimals
  }
}
