import Foundation
import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds

/// The CSV layout phone apps export most (issue #16 item 8): ISO 8601 time, latitude,
/// longitude, accuracy, speed, course, session; and the day cache its times go through.
@Suite struct PhoneExportCSVTests {
  /// A short drive in the canonical layout (UTC, whole seconds, UUID-ish sessions).
  static let canonical = """
    timestamp,latitude,longitude,horizontal_accuracy,speed,course,altitude,capture_session_id
    2025-11-29T08:00:00Z,51.5072178,-0.1275862,8.0,0.00,,12.0,a
    2025-11-29T08:00:01Z,51.5072901,-0.1274412,7.5,9.80,51.2,12.1,a
    2025-11-29T08:00:02Z,51.5073755,-0.1272701,6.0,11.20,52.0,12.2,a
    2025-11-29T08:00:03Z,51.5074612,-0.1270950,9.5,12.05,53.4,12.2,a
    2025-11-29T08:00:04Z,51.5075588,-0.1269133,8.0,12.40,53.9,12.3,a
    2025-11-29T08:03:30Z,51.5090010,-0.1240003,5.0,10.00,60.0,12.3,b
    2025-11-29T08:03:31Z,51.5090790,-0.1238125,5.5,10.50,60.5,12.3,b
    2025-11-29T08:03:32Z,51.5091601,-0.1236244,6.5,11.00,61.0,12.4,b
    2025-11-29T23:59:59Z,51.5092502,-0.1234361,7.0,11.50,61.5,12.4,b
    2025-11-30T00:00:00Z,51.5093388,-0.1232470,7.0,11.60,62.0,12.4,b

    """

  /// The same fixes as a phone exports them: local time (+01:00) with milliseconds, no altitude,
  /// sessions numbered.
  static let phone = """
    time,latitude,longitude,accuracy,speed,course,session
    2025-11-29T09:00:00.000+01:00,51.5072178,-0.1275862,8.0,0.00,,1
    2025-11-29T09:00:01.000+01:00,51.5072901,-0.1274412,7.5,9.80,51.2,1
    2025-11-29T09:00:02.000+01:00,51.5073755,-0.1272701,6.0,11.20,52.0,1
    2025-11-29T09:00:03.000+01:00,51.5074612,-0.1270950,9.5,12.05,53.4,1
    2025-11-29T09:00:04.000+01:00,51.5075588,-0.1269133,8.0,12.40,53.9,1
    2025-11-29T09:03:30.000+01:00,51.5090010,-0.1240003,5.0,10.00,60.0,2
    2025-11-29T09:03:31.000+01:00,51.5090790,-0.1238125,5.5,10.50,60.5,2
    2025-11-29T09:03:32.000+01:00,51.5091601,-0.1236244,6.5,11.00,61.0,2
    2025-11-30T00:59:59.000+01:00,51.5092502,-0.1234361,7.0,11.50,61.5,2
    2025-11-30T01:00:00.000+01:00,51.5093388,-0.1232470,7.0,11.60,62.0,2

    """

  @Test func phoneExportMeasuresExactlyLikeTheCanonicalLayout() {
    let canonical = CSVTestSupport.measure(Self.canonical)
    let phone = CSVTestSupport.measure(Self.phone)
    #expect(phone.report.records == 10)
    #expect(phone.report.errors == 0)
    #expect(phone.distance.meters == canonical.distance.meters)
    #expect(phone.distance.floorMeters == canonical.distance.floorMeters)
    #expect(phone.distance.segments == canonical.distance.segments)
    #expect(phone.distance.gaps == canonical.distance.gaps)
    #expect(phone.report.sessions == 2)
    // Pinned to the metre: three stretches (the session change and the silence before
    // 23:59:59 are gaps), every position usable.
    #expect(phone.distance.meters.rounded() == 108)
    #expect(phone.distance.floorMeters.rounded() == 21)
    #expect(phone.distance.segments.count == 3)
    #expect(phone.distance.gaps.count == 2)
    #expect(phone.distance.usablePositionCount == 10)
  }

  @Test func phoneTimesReadTheSameAsTheFullParser() {
    let read = CSVTestSupport.read(Self.phone)
    let times = read.sink.samples.map(\.timestamp)
    let expected = Self.phone.split(separator: "\n").dropFirst().map { row in
      ISO8601Parser.timestamp(String(row.split(separator: ",")[0]))!
    }
    #expect(times == expected)
    #expect(times.first == 1_764_403_200)  // 2025-11-29T08:00:00Z
  }

  /// The day cache reads every shape it accepts bit for bit as `ISO8601Parser` does, and
  /// accepts the phone shapes (`Z` or an offset, with or without a fraction) itself.
  @Test(arguments: [
    "2025-11-29T08:00:01Z", "2025-11-29 08:00:01.250Z", "2025-11-29T08:00:01.123456789Z",
    "2025-11-29T09:00:01.250+01:00", "2025-11-29T03:30:01-04:30", "2025-11-29T08:00:01.5-00:00",
    "2025-11-29T23:59:59.999+14:00", "1999-12-31T23:59:60Z", "2025-11-29T08:00:01,75+05:45",
  ])
  func dayCacheAgreesWithTheFullParser(_ text: String) {
    var cache = ISO8601DayCache()
    var bytes = Array(text.utf8)
    let expected = ISO8601Parser.timestamp(text)
    let first = bytes.withUnsafeBufferPointer { cache.timestamp($0) }
    let again = bytes.withUnsafeBufferPointer { cache.timestamp($0) }
    #expect(first != nil)
    #expect(first?.bitPattern == expected?.bitPattern)
    #expect(again?.bitPattern == expected?.bitPattern)
    // The cached day is reused for a later time of the same day.
    bytes[18] = bytes[18] == 0x30 ? 0x31 : 0x30
    let later = bytes.withUnsafeBufferPointer { cache.timestamp($0) }
    #expect(later?.bitPattern == ISO8601Parser.timestamp(String(decoding: bytes, as: UTF8.self))?.bitPattern)
  }

  /// Shapes the cache does not take are handed to the full parser (nil), never misread.
  @Test(arguments: [
    "2025-11-29T08:00:01", "2025-11-29T08:00:01+0100", "2025-11-29T08:00:01+01", "2025-11-29T08:00:01+24:00",
    "2025-11-29T08:00:01+01:60", "2025-11-29T24:00:00Z", "2025-11-29T08:00:01.+01:00", "2025-11-29T08:00:01x+01:00",
    "2025-11-29T08:00:01.2x0Z", "2025-11-29T08:00:01.25:+01:00",
  ])
  func dayCacheHandsOtherShapesOn(_ text: String) {
    var cache = ISO8601DayCache()
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBufferPointer { cache.timestamp($0) } == nil)
  }
}
