/// The position strings of Google's on-device Timeline export, read from bytes.
///
/// - Android (`Timeline.json`): `"-27.4127738°, 163.5638958°"` in `timelinePath[].point` and
///   `rawSignals[].position.LatLng`: latitude then longitude in degrees, each optionally
///   followed by a degree sign (U+00B0, bytes C2 B0), separated by a comma and optional spaces.
/// - iOS (`location-history.json`): `"geo:27.720007,-97.348044"`, an RFC 5870 `geo:` URI whose
///   first two coordinates are latitude and longitude (an altitude or `;u=` parameter after
///   them is passed over).
enum TakeoutPointText {
  /// Latitude and longitude in degrees, or nil when the text is neither shape.
  ///
  /// - Complexity: O(*n*) in the text's length.
  static func degrees(_ bytes: UnsafeBufferPointer<UInt8>) -> (latitude: Double, longitude: Double)? {
    var index = 0
    let end = bytes.count
    skipSpaces(bytes, &index)
    if end - index >= 4, bytes[index] | 0x20 == 0x67, bytes[index + 1] | 0x20 == 0x65, bytes[index + 2] | 0x20 == 0x6F,
      bytes[index + 3] == .asciiColon
    {
      index += 4
      guard let latitude = number(bytes, &index, degreeSign: false), index < end, bytes[index] == .asciiComma else {
        return nil
      }
      index += 1
      guard let longitude = number(bytes, &index, degreeSign: false) else { return nil }
      // `geo:lat,lon,alt;u=12` — what follows the two coordinates is not a position.
      guard index == end || bytes[index] == .asciiComma || bytes[index] == .asciiSemicolon else { return nil }
      return (latitude, longitude)
    }
    guard let latitude = number(bytes, &index, degreeSign: true) else { return nil }
    skipSpaces(bytes, &index)
    guard index < end, bytes[index] == .asciiComma else { return nil }
    index += 1
    skipSpaces(bytes, &index)
    guard let longitude = number(bytes, &index, degreeSign: true) else { return nil }
    skipSpaces(bytes, &index)
    guard index == end else { return nil }
    return (latitude, longitude)
  }

  /// A decimal number starting at `index` (no spaces inside), then an optional degree sign.
  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, degreeSign: Bool) -> Double? {
    let start = index
    while index < bytes.count, bytes[index].isJSONNumberByte { index += 1 }
    guard index > start, let value = ByteNumberParser.double(UnsafeBufferPointer(rebasing: bytes[start..<index])) else {
      return nil
    }
    if degreeSign, index + 1 < bytes.count, bytes[index] == 0xC2, bytes[index + 1] == 0xB0 { index += 2 }
    return value
  }

  private static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
    while index < bytes.count, bytes[index] == .asciiSpace || bytes[index] == .asciiTab { index += 1 }
  }
}
