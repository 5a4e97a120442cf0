/// What a JSON token is. Structural tokens carry no bytes; `key` and `string` carry the
/// unescaped UTF-8 content (without quotes); `number` carries its validated text.
package enum JSONTokenKind: UInt8, Sendable, Hashable {
  case beginObject, endObject, beginArray, endArray
  /// An object member's name; the member's value follows as the next token.
  case key
  case string, number, `true`, `false`, null
}

/// One token from `JSONTokenizer`.
///
/// `bytes` points into the chunk being read or into the tokenizer's scratch buffer, and is
/// valid only until the next call to `next(in:)` or `finish()`: a reader that needs a value
/// later parses it at once (a number, a time) or copies it. This is what keeps the hot path
/// free of a `String` per token.
package struct JSONToken {
  package var kind: JSONTokenKind
  /// Unescaped content of a key or string, the text of a number; empty otherwise.
  package var bytes: UnsafeBufferPointer<UInt8>
  /// 0-based byte offset of the token's first byte in the whole stream (the opening quote of a
  /// string or key).
  package var offset: Int
  /// 1-based line the token starts on.
  package var line: Int
  /// How many containers enclose the token: 0 for the top-level value. A container's begin and
  /// end tokens carry the depth of the container itself (its members are at `depth + 1`).
  package var depth: Int

  /// Whether this is a key or string whose content is exactly `text` (byte comparison, no
  /// allocation). Complexity: O(length of `text`).
  @inline(__always)
  package func matches(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count == count else { return false }
    let start = text.utf8Start
    for index in 0..<count where bytes[index] != start[index] { return false }
    return true
  }

  /// The number's value (`number` tokens only), parsed from the bytes by `ByteNumberParser`;
  /// nil for other kinds and for numbers a double cannot hold (`1e999`, more than 400 bytes).
  package var double: Double? {
    kind == .number ? ByteNumberParser.double(bytes) : nil
  }

  /// The content as a `String` (keys and strings; the text of a number). Allocates: for cold
  /// paths (ids, names, the DOM), never per sample.
  package var text: String { String(decoding: bytes, as: UTF8.self) }
}
