/// The element and attribute names the GPX reader acts on, as packed keys (see `XMLName`):
/// no GPX name the reader needs is longer than eight bytes.
enum GPXName {
  static let gpx: UInt64 = 0x78_7067
  static let trk: UInt64 = 0x6b_7274
  static let trkseg: UInt64 = 0x6765_736b_7274
  static let trkpt: UInt64 = 0x74_706b_7274
  static let rte: UInt64 = 0x65_7472
  static let rtept: UInt64 = 0x74_7065_7472
  static let wpt: UInt64 = 0x74_7077
  static let time: UInt64 = 0x656d_6974
  static let ele: UInt64 = 0x65_6c65
  static let hdop: UInt64 = 0x706f_6468
  static let speed: UInt64 = 0x64_6565_7073
  static let course: UInt64 = 0x6573_7275_6f63
  static let fix: UInt64 = 0x78_6966
  static let lat: UInt64 = 0x74_616c
  static let lon: UInt64 = 0x6e_6f6c
}
