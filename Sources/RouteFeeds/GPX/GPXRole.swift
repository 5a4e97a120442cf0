/// What an open element means to the GPX reader (`XMLRole`), decided once when its start tag is read.
enum GPXRole: UInt8, XMLRole {
  case gpx, track, segment, point, route
  /// An element whose whole subtree is passed over: unknown elements, `<extensions>`,
  /// `<metadata>`, waypoints and route points (counted when they open), repeated fields.
  case skipped
  // The track point fields whose text the reader collects.
  case time, elevation, hdop, speed, course, fix

  /// Whether the element's text is a value the reader needs.
  @inline(__always) var isValue: Bool { rawValue >= GPXRole.time.rawValue }
  static var root: GPXRole { .gpx }
  var streamsText: Bool { false }
}

