import RouteMileage
import ShiftWork

/// One committed file of `SampleRoutes/`: a drive and the format it is written in.
public struct SampleRoute: Sendable, Hashable {
  public var fileName: String
  /// One sentence: what the file is for.
  public var summary: String
  public var drive: SyntheticDrive
  public var format: SyntheticFeedFormat
  /// The shift's timeline, written beside the feed as its sidecar (`timelineFileName`).
  public var timeline: ShiftTimeline?
  /// The shift's delivery events, written into the sidecar among the shift's events.
  public var deliveries: [DeliveryEvent]

  public init(
    fileName: String, summary: String, drive: SyntheticDrive, format: SyntheticFeedFormat,
    timeline: ShiftTimeline? = nil,
    deliveries: [DeliveryEvent] = []
  ) {
    self.fileName = fileName
    self.summary = summary
    self.drive = drive
    self.format = format
    self.timeline = timeline
    self.deliveries = deliveries
  }

  /// The sidecar's events in recorded order: by instant; at one instant a start, resume, park or
  /// drive comes before a delivery event, and a pause or end after it.
  public var recordedEvents: [ShiftWorkEvent] {
    func rank(_ event: ShiftWorkEvent) -> Int {
      switch event {
      case .shift(let shift): shift.kind == .pause || shift.kind == .end ? 2 : 0
      case .delivery: 1
      }
    }
    let events =
      (timeline?.events ?? []).map { ShiftWorkEvent.shift($0) } + deliveries.map { ShiftWorkEvent.delivery($0) }
    return events.enumerated().sorted { a, b in
      (a.element.at, rank(a.element), a.offset) < (b.element.at, rank(b.element), b.offset)
    }.map(\.element)
  }

  /// The sidecar's name: the feed's without its extension, plus `.timeline.jsonl`.
  public var timelineFileName: String? {
    guard timeline != nil else { return nil }
    let stem = fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
    return stem + ".timeline.jsonl"
  }

  /// The sidecar's bytes: JSON Lines, one event a line, as `routemiles` reads them.
  public func timelineBytes() -> [UInt8]? {
    guard timeline != nil else { return nil }
    var text = ""
    for event in recordedEvents {
      let at = SynthesisTime.iso8601(milliseconds: Int64((event.at * 1000).rounded()))
      text += "{\"at\": \"\(at)\", \"event\": \"\(event.name)\""
      if case .delivery(let delivery) = event {
        // The catalog's labels are plain ASCII words: nothing to escape.
        text += ", \"delivery\": \"\(delivery.delivery)\""
        if let offer = delivery.offer { text += ", \"offer\": \"\(offer)\"" }
      }
      text += "}\n"
    }
    return Array(text.utf8)
  }

  /// Writes the file's bytes.
  @discardableResult
  public func write(into sink: inout some SynthesisByteSink) throws(SynthesisWriteError) -> Int {
    try FeedWriter.write(drive, as: format, into: &sink)
  }

  /// The file's bytes, in memory.
  public func bytes() -> [UInt8] {
    var sink = ByteArraySink()
    // An in-memory sink never fails.
    _ = try? write(into: &sink)
    return sink.bytes
  }
}

/// The drives behind `SampleRoutes/`, fixed by one seed: `GenerateSampleRoutes` writes them, and
/// the tests regenerate them and compare bytes with the committed files.
///
/// Every drive happens in an invented town in open ocean (`InventedPlace.nemoFlats`, or
/// `gyrePoint` for the northern/eastern NMEA log). Event times are offsets from each drive's
/// start.
public enum SampleRouteCatalog {
  /// The seed the committed files were generated with.
  public static let seed: UInt64 = 1729

  public static func routes(seed: UInt64 = seed) -> [SampleRoute] {
    func derived(_ index: UInt64) -> UInt64 { SplitMix64.derive(seed, index) }

    let clean = SyntheticDrive(
      DriveConfiguration(
        seed: derived(1), start: 1_762_268_400, duration: 7_200, place: .nemoFlats, reception: .openSky,
        deliveryStops: false))

    let twelveHours = SyntheticDrive(
      DriveConfiguration(
        seed: derived(2), start: 1_762_322_400, duration: 43_200, fixInterval: 5, place: .nemoFlats,
        reception: .suburban, faults: .everyday,
        events: [
          .captureGap(at: 7_500, duration: 420),
          .park(at: 16_800, duration: 2_400, capturePaused: false),
          .fixLoss(at: 21_600, duration: 60),
          .relaunch(at: 26_400, interruption: 180),
          .park(at: 32_400, duration: 1_200, capturePaused: true),
          .captureGap(at: 37_800, duration: 1_500),
        ]))

    let legacy = SyntheticDrive(
      DriveConfiguration(
        seed: derived(3), start: 1_762_444_800, duration: 4_800, place: .nemoFlats, reception: .suburban,
        legacyRows: true, faults: .everyday,
        events: [.captureGap(at: 2_400, duration: 360)]))

    let midnight = SyntheticDrive(
      DriveConfiguration(
        seed: derived(4), start: 1_767_224_100, duration: 3_300, place: .gyrePoint, reception: .suburban,
        events: [
          .fixLoss(at: 300, duration: 35),
          .corruptedSentence(at: 1_080),
          .fixLoss(at: 2_400, duration: 150),
        ]))

    let messy = SyntheticDrive(
      DriveConfiguration(
        seed: derived(5), start: 1_762_534_800, duration: 4_200, place: .nemoFlats, reception: .urban,
        subsecondTimestamps: true,
        faults: FaultRates(
          accuracySpike: 0.003, wildJump: 0.0015, duplicate: 0.004, lateArrival: 0.003, invalidAccuracy: 0.0008,
          nullIsland: 0.0006),
        events: [.relaunch(at: 2_280, interruption: 150), .wildJump(at: 2_280, meters: 5_000)]))

    // A three-hour shift whose vehicle stands still through a parked lunch (10:00–10:30) and a
    // paused break (11:00–11:15) while the recorder keeps writing fixes: its timeline says which
    // stretches were not captured.
    let timelineStart: Int64 = 1_762_592_400  // 2025-11-08T09:00:00Z
    let timed = SyntheticDrive(
      DriveConfiguration(
        seed: derived(6), start: timelineStart, duration: 10_800, fixInterval: 5, place: .nemoFlats,
        reception: .suburban,
        events: [
          .park(at: 3_600, duration: 1_800, capturePaused: false),
          .park(at: 7_200, duration: 900, capturePaused: false),
        ]))
    let t = Double(timelineStart)
    // The catalog's timeline obeys the lifecycle rules by construction.
    let timedShift = try! ShiftTimeline([
      .init(.start, at: t), .init(.park, at: t + 3_600), .init(.drive, at: t + 5_400), .init(.pause, at: t + 7_200),
      .init(.resume, at: t + 8_100), .init(.end, at: t + 10_800),
    ])

    // An evening shift with stacked deliveries (17:00–19:30, parked 18:10–18:20): an offer of two
    // (d1, d2) accepted at 17:05, a third (d3) accepted at 17:20 while both are open and cancelled
    // after arriving at its pickup, and d4 accepted at 18:00 that records nothing for 40 minutes
    // (a stale acceptance: a reminder from 18:30 in replay).
    let deliveryStart: Int64 = 1_762_794_000  // 2025-11-10T17:00:00Z
    let evening = SyntheticDrive(
      DriveConfiguration(
        seed: derived(7), start: deliveryStart, duration: 9_000, fixInterval: 10, place: .nemoFlats,
        reception: .suburban,
        events: [.park(at: 4_200, duration: 600, capturePaused: false)]))
    let e = Double(deliveryStart)
    func minute(_ value: Double) -> Double { e + value * 60 }
    let eveningShift = try! ShiftTimeline([
      .init(.start, at: e), .init(.park, at: minute(70)), .init(.drive, at: minute(80)), .init(.end, at: minute(150)),
    ])
    let eveningDeliveries: [DeliveryEvent] = [
      .init(.accept, at: minute(5), delivery: "d1", offer: "o1"),
      .init(.accept, at: minute(5), delivery: "d2", offer: "o1"),
      .init(.arrive, at: minute(15), delivery: "d1"), .init(.arrive, at: minute(15), delivery: "d2"),
      .init(.accept, at: minute(20), delivery: "d3"), .init(.pickup, at: minute(24), delivery: "d1"),
      .init(.pickup, at: minute(26), delivery: "d2"), .init(.arrive, at: minute(33), delivery: "d3"),
      .init(.deliver, at: minute(41), delivery: "d1"), .init(.cancel, at: minute(50), delivery: "d3"),
      .init(.deliver, at: minute(52), delivery: "d2"), .init(.accept, at: minute(60), delivery: "d4"),
      .init(.arrive, at: minute(100), delivery: "d4"), .init(.pickup, at: minute(106), delivery: "d4"),
      .init(.deliver, at: minute(125), delivery: "d4"),
    ]

    let twelveHourName = "Twelve-hour delivery shift (synthetic, invented place)"
    return [
      SampleRoute(
        fileName: "clean-2h-drive.gpx",
        summary: "A clean two-hour drive: one capture session, open sky, no gaps, no faults.",
        drive: clean,
        format: .gpx(GPXWriterOptions(name: "Clean two-hour drive (synthetic, invented place)"))),
      SampleRoute(
        fileName: "shift-12h-gaps.gpx",
        summary: "A twelve-hour shift with two capture gaps, a parked lunch, a paused break and a relaunch.",
        drive: twelveHours,
        format: .gpx(GPXWriterOptions(name: twelveHourName))),
      SampleRoute(
        fileName: "shift-12h-gaps.nmea",
        summary: "The same twelve-hour shift as NMEA 0183 (RMC, GGA, GST).",
        drive: twelveHours,
        format: .nmea(NMEAWriterOptions(talker: .gps, includesGSA: false, includesGST: true))),
      SampleRoute(
        fileName: "legacy-no-session.csv",
        summary: "A legacy CSV export with no session column and one capture gap.",
        drive: legacy,
        format: .csv(.legacy)),
      SampleRoute(
        fileName: "fix-loss-midnight.nmea",
        summary: "An NMEA log across midnight (and New Year) UTC with two fix losses and one checksum error.",
        drive: midnight,
        format: .nmea(NMEAWriterOptions(talker: .multiConstellation, includesGSA: true, includesGST: true))),
      SampleRoute(
        fileName: "messy-feed.csv",
        summary: "A messy CSV: wild jumps, duplicates, out-of-order rows, accuracy spikes and a relaunch.",
        drive: messy,
        format: .csv(.canonical)),
      SampleRoute(
        fileName: "shift-timeline.csv",
        summary:
          "A three-hour shift with its timeline: a parked lunch and a paused break, fixes recorded through both.",
        drive: timed,
        format: .csv(.canonical),
        timeline: timedShift),
      SampleRoute(
        fileName: "shift-deliveries.csv",
        summary:
          "A shift with stacked deliveries: an offer of two, a third accepted while both are open and cancelled at its pickup, a stale acceptance.",
        drive: evening,
        format: .csv(.canonical),
        timeline: eveningShift,
        deliveries: eveningDeliveries),
    ]
  }
}
