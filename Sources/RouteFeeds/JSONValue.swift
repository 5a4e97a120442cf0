/// A parsed JSON value, for `pipe`'s input records and timeline files.
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

/// A strict RFC 8259 parser over bytes. Nesting is limited (no stack exhaustion on hostile
/// input); errors name the byte offset, never the content.
package struct JSONParser {
  package static let maximumDepth = 64

  package enum Failure: Error, CustomStringConvertible {
    case invalid(offset: Int, expected: String)
    case tooDeep(offset: Int)

    package var description: String {
      switch self {
      case .invalid(let offset, let expected): "invalid JSON at byte \(offset + 1): expected \(expected)"
      case .tooDeep(let offset): "JSON nested deeper than \(JSONParser.maximumDepth) levels at byte \(offset + 1)"
      }
    }
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  /// Parses one complete value; trailing whitespace only.
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw .invalid(offset: parser.index, expected: "end of record") }
    return value
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  private mutating func skipWhitespace() {
    while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
  }

  private mutating func value(depth: Int) throws(Failure) -> JSONValue {
    guard depth < Self.maximumDepth else { throw .tooDeep(offset: index) }
    skipWhitespace()
    guard index < bytes.count else { throw .invalid(offset: index, expected: "a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var members: [String: JSONValue] = [:]
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .invalid(offset: index, expected: "a member name") }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw .invalid(offset: index, expected: "':'") }
        index += 1
        members[key] = try value(depth: depth + 1)
        skipWhitespace()
        guard index < bytes.count else { throw .invalid(offset: index, expected: "',' or '}'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw .invalid(offset: index, expected: "',' or '}'") }
        index += 1
        return .object(members)
      }
    case UInt8(ascii: "["):
      index += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        elements.append(try value(depth: depth + 1))
        skipWhitespace()
        guard index < bytes.count else { throw .invalid(offset: index, expected: "',' or ']'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw .invalid(offset: index, expected: "',' or ']'") }
        index += 1
        return .array(elements)
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      let start = index
      while index < bytes.count, bytes[index].isJSONNumberByte { index += 1 }
      guard index > start, let number = ByteNumberParser.double(UnsafeBufferPointer(rebasing: bytes[start..<index]))
      else { throw .invalid(offset: start, expected: "a value") }
      return .number(number)
    }
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw .invalid(offset: index, expected: "\(word)") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw .invalid(offset: index, expected: "\(word)")
    }
    index += count
  }

  private mutating func string() throws(Failure) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    let start = index
    // Fast path: no escapes.
    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
      index += 1
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      index += 1
      return text
    }
    scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).unicodeScalars)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(scalars)
      }
      guard byte >= 0x20 else { throw .invalid(offset: index, expected: "an escaped control character") }
      if byte != UInt8(ascii: "\\") {
        let runStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
          index += 1
        }
        scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self).unicodeScalars)
        continue
      }
      index += 1
      guard index < bytes.count else { break }
      let escaped = bytes[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
          index += 2
          let low = try hex4()
          if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
        }
        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
      default:
        throw .invalid(offset: index - 1, expected: "a valid escape")
      }
    }
    throw .invalid(offset: index, expected: "the end of the string")
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard index + 4 <= bytes.count else { throw .invalid(offset: index, expected: "four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw .invalid(offset: index, expected: "a hex digit")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}

extension UInt8 {
  fileprivate var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
  fileprivate var isJSONNumberByte: Bool {
    (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "-") || self == UInt8(ascii: "+")
      || self == UInt8(ascii: ".") || self == UInt8(ascii: "e") || self == UInt8(ascii: "E")
  }
}
