import RouteMileage
import Testing

@testable import RouteFeeds

/// `GPXRole`'s value roles and the `fieldsSeen` mask that skips a repeated field: the mask must
/// hold one distinct bit for every value role, so adding a ninth field to a `UInt8` mask fails
/// here rather than silently reading the last of a repeated field.
@Suite struct GPXRoleTests {
  static let valueRoles = GPXRole.allCases.filter(\.isValue)

  @Test func everyValueRoleHasItsOwnBitInTheMask() {
    let width = GPXTrackBuilder.FieldMask.bitWidth
    #expect(
      Self.valueRoles.count <= width, "\(Self.valueRoles.count) value roles outgrow a \(width)-bit FieldMask: widen it")
    var seen: GPXTrackBuilder.FieldMask = 0
    for role in Self.valueRoles {
      #expect(Int(role.rawValue - GPXRole.time.rawValue) < width, "\(role) is past the mask's \(width) bits")
      let bit = GPXTrackBuilder.fieldBit(role)
      #expect(bit != 0, "\(role) has no bit")
      #expect(bit.nonzeroBitCount == 1, "\(role)")
      #expect(seen & bit == 0, "\(role) shares a bit")
      seen |= bit
    }
  }

  @Test func theValueRolesAreTheCasesFromTimeOn() {
    // `isValue` is a comparison with `.time`'s raw value, so the value roles must be the last
    // cases, in order, with no structural role after them.
    #expect(Self.valueRoles.first == .time)
    #expect(Self.valueRoles.count >= 6, "time, ele, hdop, speed, course and fix at least")
    #expect(GPXRole.allCases.map(\.rawValue) == Array(0..<UInt8(GPXRole.allCases.count)))
    let fromFirstValue = GPXRole.allCases.drop { !$0.isValue }
    let allValues = fromFirstValue.allSatisfy { $0.isValue }
    #expect(allValues)
  }

  @Test func aRepeatedFieldKeepsItsFirstValueForEveryField() {
    let point = """
      <trkpt lat="45.5" lon="13.25">\
      <time>2025-01-01T07:00:00Z</time><time>2025-01-01T09:00:00Z</time>\
      <ele>12.5</ele><ele>99</ele><hdop>2</hdop><hdop>9</hdop>\
      <speed>4.5</speed><speed>40</speed><course>90</course><course>270</course>\
      <fix>3d</fix><fix>none</fix></trkpt>
      """
    let read = GPXReaderTests.read(GPXReaderTests.head + point + GPXReaderTests.tail)
    #expect(read.error == nil)
    guard case .position(let sample, _, _)? = read.records.first else {
      Issue.record("no position: \(read.records)")
      return
    }
    #expect(read.records.count == 1)
    #expect(sample.timestamp == GPXReaderTests.t("2025-01-01T07:00:00Z"))
    #expect(sample.altitude == 12.5)
    #expect(sample.horizontalAccuracy == 2 * AccuracyEstimate.metersPerHDOP)
    #expect(sample.speed == 4.5)
    #expect(sample.course == 90)
  }
}
