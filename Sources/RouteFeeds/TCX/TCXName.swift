/// The TCX element names the reader acts on, as the scanner packs them (see `XMLName`): the
/// first eight bytes of the local name and its length, which together tell every element of
/// the TCX v2 schema apart that the reader needs.
enum TCXName {
  static let trainingCenterDatabase: UInt64 = 0x676e_696e_6961_7254  // "Training", 22 bytes
  static let activities: UInt64 = 0x6974_6976_6974_6341  // "Activiti", 10 bytes
  static let track: UInt64 = 0x6b_6361_7254
  static let trackpoint: UInt64 = 0x696f_706b_6361_7254  // "Trackpoi", 10 bytes
  static let time: UInt64 = 0x656d_6954
  static let position: UInt64 = 0x6e6f_6974_6973_6f50
  static let latitudeDegrees: UInt64 = 0x6564_7574_6974_614c  // "Latitude", 15 bytes
  static let longitudeDegrees: UInt64 = 0x6475_7469_676e_6f4c  // "Longitud", 16 bytes
  static let altitudeMeters: UInt64 = 0x6564_7574_6974_6c41  // "Altitude", 14 bytes
  static let courses: UInt64 = 0x73_6573_7275_6f43
  static let extensions: UInt64 = 0x6f69_736e_6574_7845  // "Extensio", 10 bytes
}

/// What an open element means to the TCX reader.
enum TCXRole: UInt8, XMLRole {
  case database
  /// `Activities`, `Activity`, `Lap`, `MultiSportSession` and its parts: passed through to
  /// reach the tracks.
  case activity
  /// `Courses` and `Course`: planned routes, whose track points are counted, not measured.
  case course
  case track
  /// A `Track` inside a `Course`.
  case courseTrack
  case point
  /// A `Trackpoint` of a course's track: counted as `routePoint` when it opens; its fields are
  /// not read.
  case plannedPoint
  case position
  /// Unknown elements, `Extensions`, `Creator`, `Author`, notes, lap totals, repeated fields.
  case skipped
  // The texts the reader collects.
  case time, latitude, longitude, altitude

  static var root: TCXRole { .database }
  @inline(__always) var isValue: Bool { rawValue >= TCXRole.time.rawValue }
  var streamsText: Bool { false }
}
