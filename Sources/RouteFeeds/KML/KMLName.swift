/// The KML element names the reader acts on, as the scanner packs them (see `XMLName`): the
/// first eight bytes of the local name and its length. Namespace prefixes are ignored, so
/// KML 2.2's `gx:Track` and KML 2.3's `Track` are the same element.
enum KMLName {
  static let kml: UInt64 = 0x6c_6d6b
  static let track: UInt64 = 0x6b_6361_7254
  static let when: UInt64 = 0x6e65_6877
  static let coord: UInt64 = 0x64_726f_6f63
  static let lineString: UInt64 = 0x6972_7453_656e_694c  // "LineStri", 10 bytes
  static let coordinates: UInt64 = 0x616e_6964_726f_6f63  // "coordina", 11 bytes
  static let point: UInt64 = 0x74_6e69_6f50
  static let polygon: UInt64 = 0x6e_6f67_796c_6f50
  static let extendedData: UInt64 = 0x6465_646e_6574_7845  // "Extended", 12 bytes
}

/// What an open element means to the KML reader.
enum KMLRole: UInt8, XMLRole {
  case document
  /// `Document`, `Folder`, `Placemark`, `MultiGeometry`, `gx:MultiTrack` and any other element
  /// that may hold a geometry: passed through.
  case container
  case track
  case lineString
  case point
  /// Shapes, styles, extended data and the texts of containers: passed over.
  case skipped
  /// The `<coordinates>` of a `LineString`, whose tuples are counted as they stream past.
  case lineCoordinates
  // The texts the reader collects.
  case when, coord

  static var root: KMLRole { .document }
  @inline(__always) var isValue: Bool { rawValue >= KMLRole.when.rawValue }
  @inline(__always) var streamsText: Bool { self == .lineCoordinates }
}
