import Foundation
import RouteTestSupport
import Testing

@testable import RouteFeeds

/// The shared JSON tokenizer: tokens, chunk invariance at every split, errors with offset and
/// line, limits, and the DOM built on it.
@Suite struct JSONTokenizerTests {
  /// One token as plain values (its bytes copied), so reads can be compared.
  struct Seen: Equatable, CustomStringConvertible {
    var kind: JSONTokenKind
    var text: String
    var offset: Int
    var line: Int
    var depth: Int
    var description: String { "\(kind) '\(text)' @\(offset) L\(line) d\(depth)" }
  }

  /// Tokenizes `bytes` `chunkSize` at a time; the tokens, and the error if any.
  static func tokens(
    _ bytes: [UInt8], chunkSize: Int = .max, sequence: Bool = false, maximumDepth: Int = 64,
    maximumTokenLength: Int = 1 << 24
  ) -> (tokens: [Seen], error: JSONSyntaxError?) {
    var seen: [Seen] = []
    let tokenizer = JSONTokenizer(
      maximumDepth: maximumDepth, maximumTokenLength: maximumTokenLength, allowsSequence: sequence)
    let error = FeedInvariants.tokenize(tokenizer, bytes, chunkSize: chunkSize) { token in
      seen.append(Seen(kind: token.kind, text: token.text, offset: token.offset, line: token.line, depth: token.depth))
    }
    return (seen, error)
  }

  static func tokens(_ text: String, chunkSize: Int = .max, sequence: Bool = false) -> (
    tokens: [Seen], error: JSONSyntaxError?
  ) {
    tokens(Array(text.utf8), chunkSize: chunkSize, sequence: sequence)
  }

  @Test func tokensCarryKindContentOffsetLineAndDepth() {
    let (tokens, error) = Self.tokens(
      "{\"a\": [1, -2.5e3, \"x\\\"y\"],\n \"b\": {\"c\": true, \"d\": null}, \"e\": false}")
    #expect(error == nil)
    #expect(
      tokens.map(\.description) == [
        "beginObject '' @0 L1 d0", "key 'a' @1 L1 d1", "beginArray '' @6 L1 d1", "number '1' @7 L1 d2",
        "number '-2.5e3' @10 L1 d2", "string 'x\"y' @18 L1 d2", "endArray '' @24 L1 d1", "key 'b' @28 L2 d1",
        "beginObject '' @33 L2 d1", "key 'c' @34 L2 d2", "true '' @39 L2 d2", "key 'd' @45 L2 d2", "null '' @50 L2 d2",
        "endObject '' @54 L2 d1", "key 'e' @57 L2 d1", "false '' @62 L2 d1", "endObject '' @67 L2 d0",
      ])
  }

  @Test func escapesAndUnicodeAreDecoded() {
    let (tokens, error) = Self.tokens(#"["\u00e9\n\t\/\\", "\ud83d\ude97", "\ud800x", "Zürich"]"#)
    #expect(error == nil)
    #expect(tokens.filter { $0.kind == .string }.map(\.text) == ["é\n\t/\\", "🚗", "\u{FFFD}x", "Zürich"])
  }

  /// Every split of a document into two chunks, and chunks of 1, 2, 3 and 7 bytes, give the
  /// same tokens with the same offsets and lines — including tokens cut mid-escape, mid-UTF-8,
  /// mid-number and mid-literal.
  @Test func everySplitGivesTheSameTokens() {
    let text =
      "{\"type\":\"Feature\",\r\n \"p\": {\"n\": \"Gen\\u00e8ve \\ud83d\\ude97 é\", \"t\": [1356999999123, -0.0, 12.5e-3]},\n\"ok\":true,\"no\":false,\"z\":null}"
    let bytes = Array(text.utf8)
    let whole = Self.tokens(bytes)
    #expect(whole.error == nil)
    #expect(whole.tokens.count == 21)
    for size in [1, 2, 3, 7] {
      let chunked = Self.tokens(bytes, chunkSize: size)
      #expect(chunked.tokens == whole.tokens, "chunks of \(size)")
      #expect(chunked.error == nil)
    }
    for split in 1..<bytes.count {
      var tokenizer = JSONTokenizer()
      var seen: [Seen] = []
      bytes.withUnsafeBufferPointer { all in
        for range in [0..<split, split..<all.count] {
          let chunk = UnsafeBufferPointer(rebasing: all[range])
          while let token = try! tokenizer.next(in: chunk) {
            seen.append(
              Seen(kind: token.kind, text: token.text, offset: token.offset, line: token.line, depth: token.depth))
          }
        }
      }
      #expect(try! tokenizer.finish() == nil)
      #expect(seen == whole.tokens, "split at \(split)")
    }
  }

  /// Strings are scanned eight plain bytes at a time: a quote, an escape, a control character
  /// or a multi-byte UTF-8 sequence at any offset of a long string is still where the string
  /// ends, is decoded, or is reported — in one chunk and split anywhere.
  @Test func aStopByteAtEveryOffsetOfALongString() {
    let plain = "2025-11-04T16:00:00.250+07:00 abcdefghij"
    let inserts: [(String, String, JSONSyntaxError.Problem?)] = [
      ("\\\"", "\"", nil), ("\\u00e9", "é", nil), ("é", "é", nil), ("🚗", "🚗", nil), ("\\n", "\n", nil),
      ("\u{01}", "", .controlCharacter),
    ]
    for (insert, decoded, problem) in inserts {
      for offset in 0...plain.count {
        let head = String(plain.prefix(offset))
        let tail = String(plain.dropFirst(offset))
        let text = "{\"time\":\"" + head + insert + tail + "\",\"n\":-1.25E+2}"
        let whole = Self.tokens(text)
        if let problem {
          #expect(whole.error?.problem == problem, "at \(offset)")
          #expect(whole.error?.offset == 9 + offset, "at \(offset)")
        } else {
          #expect(whole.error == nil, "at \(offset)")
          #expect(whole.tokens.map(\.text) == ["", "time", head + decoded + tail, "n", "-1.25E+2", ""], "at \(offset)")
        }
        for size in [1, 5, 8, 13] {
          let chunked = Self.tokens(text, chunkSize: size)
          #expect(chunked.tokens == whole.tokens && chunked.error == whole.error, "at \(offset), chunks of \(size)")
        }
      }
    }
  }

  /// Errors are the same, at the same offset and line, however the input is split.
  @Test func errorsAreChunkInvariant() {
    let cases = [
      "[1,\n2,\n03]", "{\"a\" 1}", "[1 2]", "{\"a\":tru}", "[\"a\u{01}\"]", "[\"\\x\"]", "[\"\\u12G4\"]",
      "[1.]", "[-]", "[1e+]", "{\"a\":1,}", "[nulll]", "{,}", "[1]]", "\"abc", "[1, 2", "{\"a\":",
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      let whole = Self.tokens(bytes)
      #expect(whole.error != nil, "\(text)")
      for size in 1...4 {
        let chunked = Self.tokens(bytes, chunkSize: size)
        #expect(chunked.error == whole.error, "\(text) in chunks of \(size)")
        #expect(chunked.tokens == whole.tokens, "\(text) in chunks of \(size)")
      }
    }
  }

  @Test func errorsNameOffsetLineAndWhatWasExpected() {
    #expect(
      Self.tokens("{\n  \"a\": 1,\n  \"b\" 2\n}").error?.description
        == "invalid JSON on line 3: expected ':' at byte offset 18")
    #expect(
      Self.tokens("[1,\n2,\n03]").error?.description == "invalid JSON on line 3: a malformed number at byte offset 8")
    let truncated = Self.tokens("{\"a\": [1, 2")
    #expect(truncated.error?.isTruncation == true)
    #expect(
      truncated.error?.description
        == "invalid JSON on line 1: the input ends where ',' or ']' was expected at byte offset 11")
    #expect(Self.tokens("").error?.isTruncation == true)
    #expect(
      Self.tokens("[\"abc").error?.description
        == "invalid JSON on line 1: the input ends where the closing quote of a string was expected at byte offset 5")
    #expect(
      Self.tokens("{} {}").error?.description
        == "invalid JSON on line 1: expected the end of the input at byte offset 3")
  }

  @Test func badUTF8IsReportedWhereItIs() {
    for bad: [UInt8] in [
      [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], [0x80],
    ] {
      let bytes = Array("[\"ab".utf8) + bad + Array("\"]".utf8)
      let error = Self.tokens(bytes).error
      #expect(error?.problem == .invalidUTF8, "\(bad)")
      #expect(error?.offset == 4, "\(bad)")
      #expect(Self.tokens(bytes, chunkSize: 1).error == error, "\(bad)")
    }
  }

  @Test func depthAndTokenLengthAreLimited() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(Self.tokens(deep).error?.problem == .tooDeep(limit: 64))
    #expect(Self.tokens(deep).error?.offset == 64)
    let limit64 = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(Self.tokens(limit64).error == nil)
    let long = Array(("[\"" + String(repeating: "x", count: 100) + "\"]").utf8)
    #expect(Self.tokens(long, maximumTokenLength: 99).error?.problem == .tokenTooLong(limit: 99))
    #expect(Self.tokens(long, chunkSize: 7, maximumTokenLength: 99).error?.problem == .tokenTooLong(limit: 99))
    #expect(Self.tokens(long, maximumTokenLength: 100).error == nil)
    let number = Array(("[" + String(repeating: "9", count: 5000) + "]").utf8)
    #expect(Self.tokens(number, chunkSize: 3, maximumTokenLength: 1000).error?.problem == .tokenTooLong(limit: 1000))
  }

  @Test func hugeNumbersAreTokensWithoutADouble() {
    let (tokens, error) = Self.tokens("[1e999, " + String(repeating: "1", count: 500) + ", 5e-324]")
    #expect(error == nil)
    var tokenizer = JSONTokenizer()
    let bytes = Array("[1e999, 12.5]".utf8)
    var values: [Double?] = []
    bytes.withUnsafeBufferPointer { chunk in
      while let token = try! tokenizer.next(in: chunk) {
        if token.kind == .number { values.append(token.double) }
      }
    }
    #expect(values == [nil, 12.5])
    #expect(tokens.filter { $0.kind == .number }.count == 3)
  }

  @Test func aSequenceAllowsManyTopLevelValuesOrNone() {
    let (tokens, error) = Self.tokens("{\"a\":1}\n{\"a\":2}\n 7 \"s\" 12", sequence: true)
    #expect(error == nil)
    #expect(
      tokens.map(\.kind) == [
        .beginObject, .key, .number, .endObject, .beginObject, .key, .number, .endObject, .number, .string, .number,
      ])
    #expect(tokens.last?.text == "12")
    #expect(Self.tokens("  \n", sequence: true).error == nil)
    #expect(Self.tokens("12").tokens.map(\.text) == ["12"])
    // Cut off inside a literal or number: truncation; a wrong word: not.
    #expect(Self.tokens("tru").error?.isTruncation == true)
    #expect(Self.tokens("trux").error?.isTruncation == false)
    #expect(Self.tokens("[1, -").error?.isTruncation == true)
    #expect(Self.tokens("[1, 2.").error?.isTruncation == true)
    #expect(Self.tokens("[1, 2.x]").error?.isTruncation == false)
  }

  @Test func theDOMIsBuiltOnTheTokenizer() throws {
    let bytes = Array(#"{"id": "a", "n": [1, 2.5, null, true], "o": {"k": "v"}, "id": 7}"#.utf8)
    let value = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
    #expect(
      value
        == .object([
          "id": .number(7), "n": .array([.number(1), .number(2.5), .null, .bool(true)]),
          "o": .object(["k": .string("v")]),
        ]))
    let huge = Array("[1e999]".utf8)
    #expect(throws: JSONSyntaxError.self) { try huge.withUnsafeBufferPointer { try JSONParser.parse($0) } }
    let deep = Array(String(repeating: "[", count: 65).utf8)
    #expect(throws: JSONSyntaxError(offset: 64, line: 1, problem: .tooDeep(limit: 64))) {
      try deep.withUnsafeBufferPointer { try JSONParser.parse($0) }
    }
  }

  /// Random bytes and random mutations of a valid document never crash, and the tokens and
  /// error do not depend on the chunking.
  @Test func hostileBytesNeverCrashAndStayChunkInvariant() {
    var random = SeededRandom(seed: 17)
    let base = Array("{\"a\": [1, -2.5e3, \"x\\u00e9y\", {\"b\": null}], \"c\": \"é\"}".utf8)
    for round in 0..<400 {
      var bytes = base
      for _ in 0..<(1 + round % 4) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        bytes[position] = UInt8.random(in: 0...255, using: &random)
      }
      let whole = Self.tokens(bytes)
      let chunked = Self.tokens(bytes, chunkSize: 1 + round % 5)
      #expect(whole.tokens == chunked.tokens)
      #expect(whole.error == chunked.error)
    }
  }
}
