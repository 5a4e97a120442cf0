/// One entity or character reference (`&amp;`, `&#52;`, `&#x34;`) inside a value the format
/// reader needs, read a byte at a time so it may span chunks.
///
/// Only XML's five predefined entities and numeric character references are decoded. Any other
/// name (`&lol9;`, anything a DOCTYPE declares) is never looked up, let alone expanded: it makes
/// the value unreadable. That is what makes entity-expansion attacks ("billion laughs") cost
/// nothing. References outside needed values are not decoded at all.
struct XMLEntityReference {
  /// Longer references are not ones this reader decodes.
  static let maximumLength = 12

  private var length = 0
  private var name: UInt64 = 0
  private var numeric = false
  private var hexadecimal = false
  private var digits = 0
  private var scalar: UInt32 = 0

  mutating func reset() { self = XMLEntityReference() }

  /// Takes the next byte of the reference (after `&`, before `;`); false when the byte cannot
  /// be part of a reference this reader decodes.
  mutating func accept(_ byte: UInt8) -> Bool {
    length += 1
    guard length <= Self.maximumLength else { return false }
    if length == 1, byte == .asciiHash {
      numeric = true
      return true
    }
    if numeric {
      if length == 2, byte == 0x78 {  // x
        hexadecimal = true
        return true
      }
      let digit: UInt32
      if byte.isASCIIDigit {
        digit = UInt32(byte &- .ascii0)
      } else if hexadecimal, (byte | 0x20) &- 0x61 < 6 {  // a-f, A-F
        digit = UInt32((byte | 0x20) &- 0x61 + 10)
      } else {
        return false
      }
      scalar = scalar * (hexadecimal ? 16 : 10) + digit
      digits += 1
      return scalar <= 0x10FFFF
    }
    guard (byte | 0x20) &- 0x61 < 26, length <= 8 else { return false }
    name |= UInt64(byte) << (8 * UInt64(length - 1))
    return true
  }

  /// Appends the referenced character at the closing `;`, or marks the value unreadable.
  func resolve(into value: inout XMLValueBuffer) {
    if numeric {
      // XML allows neither NUL nor most other C0 controls as characters.
      guard digits > 0, scalar >= 0x20 || scalar == 0x09 || scalar == 0x0A || scalar == 0x0D else {
        value.isUnreadable = true
        return
      }
      value.append(scalar: scalar)
      return
    }
    switch name {
    case 0x746c: value.append(.asciiLess)  // lt
    case 0x7467: value.append(.asciiGreater)  // gt
    case 0x70_6d61: value.append(.asciiAmpersand)  // amp
    case 0x736f_7061: value.append(.asciiApostrophe)  // apos
    case 0x746f_7571: value.append(.asciiQuote)  // quot
    default: value.isUnreadable = true
    }
  }
}
