/// Where the XML scanner stands in XML's grammar between two bytes; the next chunk resumes
/// exactly here, which is what makes the output independent of chunk boundaries.
enum XMLScanState: UInt8 {
  /// Before the first byte: a UTF-8 byte-order mark may follow.
  case start
  /// Character data between tags (or the prolog and epilog, outside the root element).
  case content
  /// Just after `<`.
  case markup
  case startTagName
  /// Inside a start tag, between its name or an attribute and the next attribute or `>`.
  case tagSpace
  case attributeName
  /// After an attribute name, waiting for `=`.
  case attributeEquals
  /// After `=`, waiting for the opening quote.
  case attributeQuote
  case attributeValue
  /// After an attribute's closing quote: whitespace, `>` or `/>` must follow.
  case afterAttributeValue
  /// After `/` in a start tag: `>` must follow.
  case emptyTagEnd
  case endTagName
  /// After a closing tag's name, waiting for `>`.
  case endTagSpace
  /// Just after `<!`.
  case bang
  /// Matching the rest of `<!--`, `<![CDATA[` or `<!DOCTYPE`.
  case keyword
  case comment
  case cdata
  case processingInstruction
  case doctype
  /// After `&` in a value the reader needs.
  case entity
}

/// Which `<!…` construct the scanner is matching.
enum XMLKeyword: UInt8 {
  case comment, cdata, doctype

  /// The bytes still to match after the one that chose the keyword.
  var rest: StaticString {
    switch self {
    case .comment: "-"
    case .cdata: "CDATA["
    case .doctype: "OCTYPE"
    }
  }
}
