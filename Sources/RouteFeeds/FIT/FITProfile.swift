/// The few numbers of the FIT profile (Garmin's FIT SDK, `Profile.xlsx`) that a mileage reader
/// needs; every other message and field is skipped by its declared size.
enum FITProfile {
  /// FIT `date_time` counts seconds from 1989-12-31T00:00:00Z; this is that instant in Unix seconds.
  static let epochOffset: Double = 631_065_600
  /// A `date_time` below this counts seconds since the device powered on, not since the epoch.
  static let firstAbsoluteTime: UInt32 = 0x1000_0000
  /// Degrees per semicircle: a FIT position is a `sint32` where 2^31 semicircles are 180°.
  static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

  /// Global message numbers.
  enum Message {
    static let record: UInt16 = 20
    static let event: UInt16 = 21
  }

  /// Field numbers: `timestamp` in any message; the rest in `record` and `event`.
  enum Field {
    static let timestamp: UInt8 = 253
    static let positionLat: UInt8 = 0
    static let positionLong: UInt8 = 1
    static let altitude: UInt8 = 2
    static let speed: UInt8 = 6
    static let gpsAccuracy: UInt8 = 31
    static let enhancedSpeed: UInt8 = 73
    static let enhancedAltitude: UInt8 = 78
    static let event: UInt8 = 0
    static let eventType: UInt8 = 1
  }

  /// `event` values and `event_type` values of the timer.
  enum Event {
    static let timer: UInt8 = 0
    static let start: UInt8 = 0
    /// `stop`, `stop_all`, `stop_disable`, `stop_disable_all`.
    static let stops: Set<UInt8> = [1, 4, 8, 9]
  }

  /// Invalid (absent) values of the base types used.
  enum Invalid {
    static let sint32: UInt32 = 0x7FFF_FFFF
    static let uint32: UInt32 = 0xFFFF_FFFF
    static let uint16: UInt32 = 0xFFFF
    static let uint8: UInt32 = 0xFF
  }
}
