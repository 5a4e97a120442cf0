/// What an open element means to the GPX reader (`XMLRole`), decided once when its start tag is read.
///
/// Adding a track point field (say `<sat>`): its packed name in `GPXName` (names of up to eight
/// bytes only); a case here after `.time` (every case from `.time` on is a value, and its
/// distance from `.time` is its bit in `GPXTrackBuilder.FieldMask`); the key → role line in
/// `GPXTrackBuilder.role(ofChild:…)` and the role in that switch's list of value roles; its
/// reset in `beginPoint`, its parse in `close` and its place in the sample in `deliver`;
/// then tests in `GPXReaderTests` and the tag in `Tests/Fuzz/gpx.dict`. `GPXRoleTests` fails
/// when the value roles outgrow the mask: widen `FieldMask` then. (docs/formats/gpx.md, "Adding a
/// field", has the same steps.)
enum GPXRole: UInt8, XMLRole, CaseIterable {
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
