/// A parsed JSON value, for `pipe`'s input records and timeline files: small documents read
/// whole. Large feeds never build one; they read `JSONTokenizer`'s tokens as they stream by.
package enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  package subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }
}

/// A strict RFC 8259 parser over bytes, built on `JSONTokenizer` (one JSON syntax
/// implementation). Nesting is limited (no stack exhaustion on hostile input: the builder keeps
/// its own stack); errors name the byte offset and line, never the content. A repeated member
/// name keeps the last value; a number a double cannot hold (`1e999`) is an error.
package struct JSONParser {
  package static let maximumDepth = JSONTokenizer.defaultMaximumDepth

  package typealias Failure = JSONSyntaxError

  /// Parses one complete value; trailing whitespace only.
  ///
  /// - Parameter skippingElementsOf: the name of a top-level member whose array value is checked
  ///   (syntax, numbers) but not built: it comes back as an empty array. `pipe` reads a record's
  ///   `"samples"` that way and streams them itself.
  /// - Complexity: O(*n*) in the length of `bytes`.
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, skippingElementsOf member: StaticString? = nil)
    throws(Failure) -> JSONValue
  {
    var tokenizer = JSONTokenizer(maximumDepth: maximumDepth, maximumTokenLength: max(bytes.count, 1))
    var builder = JSONValueBuilder(skippedMember: member)
    while let token = try tokenizer.next(in: bytes) { try builder.add(token) }
    while let token = try tokenizer.finish() { try builder.add(token) }
    return builder.result ?? .null
  }
}

/// Assembles `JSONValue`s from tokens, with an explicit stack of open containers.
struct JSONValueBuilder {
  private struct Frame {
    var isObject: Bool
    var elements: [JSONValue] = []
    var members: [String: JSONValue] = [:]
    var key = ""
  }

  private var stack: [Frame] = []
  /// The finished top-level value.
  private(set) var result: JSONValue?
  /// A top-level member whose array elements are not built (see `JSONParser.parse`).
  private let skippedMember: StaticString?
  /// Inside that array: the depth of its begin token.
  private var skippingFrom: Int?

  init(skippedMember: StaticString? = nil) { self.skippedMember = skippedMember }

  mutating func add(_ token: JSONToken) throws(JSONSyntaxError) {
    if let depth = skippingFrom {
      if token.kind == .endArray, token.depth == depth {
        skippingFrom = nil
        attach(.array([]))
      } else if token.kind == .number, token.double == nil {
        throw JSONSyntaxError(offset: token.offset, line: token.line, problem: .numberOutOfRange)
      }
      return
    }
    if token.kind == .beginArray, token.depth == 1, let skippedMember, stack.count == 1, stack[0].isObject,
      stack[0].key.utf8.elementsEqual(
        UnsafeBufferPointer(start: skippedMember.utf8Start, count: skippedMember.utf8CodeUnitCount))
    {
      skippingFrom = token.depth
      return
    }
    switch token.kind {
    case .beginObject: stack.append(Frame(isObject: true))
    case .beginArray: stack.append(Frame(isObject: false))
    case .key: stack[stack.count - 1].key = token.text
    case .endObject, .endArray:
      let frame = stack.removeLast()
      attach(frame.isObject ? .object(frame.members) : .array(frame.elements))
    case .string: attach(.string(token.text))
    case .number:
      guard let number = token.double else {
        throw JSONSyntaxError(offset: token.offset, line: token.line, problem: .numberOutOfRange)
      }
      attach(.number(number))
    case .true: attach(.bool(true))
    case .false: attach(.bool(false))
    case .null: attach(.null)
    }
  }

  private mutating func attach(_ value: JSONValue) {
    guard !stack.isEmpty else {
      result = value
      return
    }
    let top = stack.count - 1
    if stack[top].isObject {
      stack[top].members[stack[top].key] = value
    } else {
      stack[top].elements.append(value)
    }
  }
}
