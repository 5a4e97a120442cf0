/// Why a JSON stream is not well-formed, and where: the 0-based byte offset in the whole stream
/// and the 1-based line. Never contains the document's content (it may hold a coordinate).
package struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  package enum Problem: Hashable, Sendable {
    /// Something else was found where `what` was expected ("a value", "',' or '}'").
    case expected(String)
    /// Containers nested deeper than the tokenizer's limit.
    case tooDeep(limit: Int)
    /// A string or number longer than the tokenizer's limit, in bytes.
    case tokenTooLong(limit: Int)
    /// A byte sequence in a string that is not UTF-8 (RFC 8259 §8.1 requires UTF-8).
    case invalidUTF8
    /// A raw control character (below U+0020) inside a string; it must be escaped.
    case controlCharacter
    /// A backslash escape JSON does not define, or a `\u` without four hex digits.
    case badEscape
    /// A number that breaks JSON's grammar (`01`, `1.`, `-`, `1e`, `+1`).
    case badNumber
    /// A well-formed number a double cannot hold (`1e999`, more than 400 bytes); raised by
    /// the DOM (`JSONParser`), while feed readers count such a value as a bad number.
    case numberOutOfRange
  }

  package var offset: Int
  package var line: Int
  package var problem: Problem
  /// The input ended before the document did (a cut-off file), rather than holding a wrong byte.
  package var isTruncation: Bool

  package init(offset: Int, line: Int, problem: Problem, isTruncation: Bool = false) {
    self.offset = offset
    self.line = line
    self.problem = problem
    self.isTruncation = isTruncation
  }

  /// What went wrong, without the position (callers put the line where their format does).
  package var detail: String {
    let what: String
    switch problem {
    case .expected(let expected):
      what = isTruncation ? "the input ends where \(expected) was expected" : "expected \(expected)"
    case .tooDeep(let limit): what = "JSON nested deeper than \(limit) levels"
    case .tokenTooLong(let limit): what = "a string or number longer than \(limit) bytes"
    case .invalidUTF8: what = "a string holds bytes that are not UTF-8"
    case .controlCharacter: what = "a string holds an unescaped control character"
    case .badEscape: what = "a string holds an invalid escape"
    case .badNumber: what = "a malformed number"
    case .numberOutOfRange: what = "a number too large for a double"
    }
    return "\(what) at byte offset \(offset)"
  }

  package var description: String { "invalid JSON on line \(line): \(detail)" }
}
