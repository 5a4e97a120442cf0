import RouteMileage

/// What one fix sentence (RMC, GGA, GNS, GLL or GST) says, once read.
struct NMEAFix {
  /// Which sentence, as one bit of `NMEAEpoch.kinds`; lower bits rank higher for the position.
  enum Kind: UInt8 {
    case rmc = 1
    case gga = 2
    case gns = 4
    case gll = 8
    case gst = 16
  }

  var kind: Kind
  /// Microseconds since midnight UTC; nil when the receiver left the time empty.
  var timeOfDay: Int64?
  /// The receiver claims a usable fix (RMC status A, GGA quality 1–6, …).
  var valid = false
  var latitude = Double.nan
  var longitude = Double.nan
  var hasCoordinates = false
  var details = NMEAFixDetails()
  /// GST: sqrt(σlat² + σlon²), metres.
  var accuracy: Double?

  init(_ kind: Kind, timeOfDay: Int64?) {
    self.kind = kind
    self.timeOfDay = timeOfDay
  }
}

/// What the position sentences (RMC, GGA, GNS, GLL) say besides the position. One sentence
/// fills the fields it carries; an epoch keeps each field from the first of its sentences that
/// has it (`fillGaps`). (A GST's accuracy is kept apart: only a GST carries one.)
struct NMEAFixDetails {
  /// Metres per second.
  var speed: Double?
  var course: Double?
  var altitude: Double?
  var hdop: Double?
  /// RMC with status A: its date as days since 1970-01-01.
  var date: Int?

  /// Fills each field still empty from `other`. O(1).
  @inline(__always)
  mutating func fillGaps(from other: NMEAFixDetails) {
    if speed == nil { speed = other.speed }
    if course == nil { course = other.course }
    if altitude == nil { altitude = other.altitude }
    if hdop == nil { hdop = other.hdop }
    if date == nil { date = other.date }
  }
}

/// The sentences of one epoch — one time of day — merged into one record.
///
/// Receivers report one fix in several sentences (RMC for speed and date, GGA for altitude and
/// HDOP, GST for accuracy), and multi-constellation receivers repeat them per talker (`GPGGA`
/// and `GAGGA`); all of them with the same time of day are one position. The position comes from
/// the highest-ranked sentence that claims a fix: RMC, then GGA, GNS, GLL. Other fields are
/// taken from the first sentence that has them.
struct NMEAEpoch {
  /// Nil for an epoch of sentences whose time field was empty.
  var timeOfDay: Int64?
  /// The line the epoch starts on; its record is reported there.
  var line: Int
  /// Bits of `NMEAFix.Kind` seen.
  var kinds: UInt8 = 0
  /// The rank bit of the sentence the position came from; 0 while there is none.
  var positionKind: UInt8 = 0
  var latitude = Double.nan
  var longitude = Double.nan
  var details = NMEAFixDetails()
  /// From the epoch's first GST.
  var accuracy: Double?
  /// GSA and GST lines folded in; reported as unpaired if the epoch has no position sentence.
  var supportLines = 0

  init(timeOfDay: Int64?, line: Int) {
    self.timeOfDay = timeOfDay
    self.line = line
  }

  /// Whether any RMC, GGA, GNS or GLL is in the epoch (GST alone makes no record).
  var hasPositionSentence: Bool { kinds & ~NMEAFix.Kind.gst.rawValue != 0 }
  var hasPosition: Bool { positionKind != 0 }

  mutating func merge(_ fix: NMEAFix) {
    let bit = fix.kind.rawValue
    kinds |= bit
    if fix.kind == .gst {
      supportLines += 1
      if accuracy == nil { accuracy = fix.accuracy }
      return
    }
    guard fix.valid else { return }
    if fix.hasCoordinates, positionKind == 0 || bit < positionKind {
      positionKind = bit
      latitude = fix.latitude
      longitude = fix.longitude
    }
    details.fillGaps(from: fix.details)
  }

  /// The sample, given its timestamp and the HDOP of the latest GSA seen while the epoch was
  /// open. Accuracy: GST if the epoch has one; else HDOP (GGA/GNS, then GSA) ×
  /// `AccuracyEstimate.metersPerHDOP`, marked estimated; else none.
  func sample(timestamp: Double, gsaHDOP: Double?) -> RouteSample {
    var horizontalAccuracy: Double?
    var estimated = false
    if let accuracy {
      horizontalAccuracy = accuracy
    } else if let dop = details.hdop ?? gsaHDOP {
      horizontalAccuracy = dop * AccuracyEstimate.metersPerHDOP
      estimated = true
    }
    return RouteSample(
      timestamp: timestamp, latitude: latitude, longitude: longitude,
      horizontalAccuracy: horizontalAccuracy, horizontalAccuracyIsEstimated: estimated,
      speed: details.speed, course: details.course, altitude: details.altitude)
  }
}
