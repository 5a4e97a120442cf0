import Foundation
import RouteMileage
import RouteStore
import RouteTestSupport
import ShiftWork
import Testing

/// `routemiles export`: one record per delivery, the CSV and JSON Lines pinned byte for byte.
@Suite("export")
struct ExportCommandTests {
  typealias E = ShiftTimeline.Event
  static let t0 = 1_762_243_200.0  // 2025-11-04T08:00:00Z
  static let oddLabel = "Sushi, \"late\"\nrun"

  /// Shift 1, still running: an offer of two (one delivered, one cancelled after its pickup) and
  /// a third, labelled with a comma, quotes and a line break, waiting at its pickup. Shift 2: no
  /// delivery. Shift 3: one delivered.
  static func makeStore(at path: String) throws {
    let store = try RouteStore(path: path)
    func d(_ kind: DeliveryEvent.Kind, _ minutes: Double, _ label: String, offer: String? = nil) -> ShiftWorkEvent {
      .delivery(DeliveryEvent(kind, at: t0 + minutes * 60, delivery: label, offer: offer))
    }
    var first = ShiftLedger()
    for event in [
      .shift(E(.start, at: t0)), d(.accept, 10, "d1", offer: "o1"), d(.accept, 10, "d2", offer: "o1"),
      d(.arrive, 15, "d1"),
      d(.arrive, 16, "d2"), d(.pickup, 24, "d1"), d(.pickup, 25, "d2"), d(.deliver, 43, "d1"), d(.accept, 50, oddLabel),
      d(.cancel, 52, "d2"), d(.arrive, 60.5 + 1 / 120, oddLabel),
    ] as [ShiftWorkEvent] {
      try first.apply(event)
    }
    var third = ShiftLedger()
    for event in [
      .shift(E(.start, at: t0 + 7200)), d(.accept, 125, "x"), d(.arrive, 126, "x"), d(.pickup, 127, "x"),
      d(.deliver, 150, "x"), .shift(E(.end, at: t0 + 10_800)),
    ] as [ShiftWorkEvent] {
      try third.apply(event)
    }
    let empty = try ShiftTimeline([E(.start, at: t0 + 3600), E(.end, at: t0 + 5400)])
    for (ledger, timeline) in [(first, first.timeline), (nil, empty), (third, third.timeline)] {
      var writer = try store.beginImport(
        source: "feed.csv", timeline: timeline, ledger: ledger, window: nil, contentHash: nil, importedAt: t0)
      try writer.finish()
    }
  }

  static let csv =
    "shift,number,label,offer,state,acceptedAt,arrivedAtPickupAt,pickedUpAt,deliveredAt,cancelledAt,waitedAtPickupSeconds,acceptedToDeliveredSeconds,place,amount,tips\r\n"
    + "1,1,d1,1,delivered,2025-11-04T08:10:00Z,2025-11-04T08:15:00Z,2025-11-04T08:24:00Z,2025-11-04T08:43:00Z,,540,1980,,,\r\n"
    + "1,2,d2,1,cancelled,2025-11-04T08:10:00Z,2025-11-04T08:16:00Z,2025-11-04T08:25:00Z,,2025-11-04T08:52:00Z,540,,,,\r\n"
    + "1,3,\"Sushi, \"\"late\"\"\nrun\",2,arrivedAtPickup,2025-11-04T08:50:00Z,2025-11-04T09:00:30.500Z,,,,,,,,\r\n"
    + "3,1,x,1,delivered,2025-11-04T10:05:00Z,2025-11-04T10:06:00Z,2025-11-04T10:07:00Z,2025-11-04T10:30:00Z,,60,1500,,,\r\n"

  static let json = """
    {"shift":1,"number":1,"label":"d1","offer":1,"state":"delivered","acceptedAt":"2025-11-04T08:10:00Z","arrivedAtPickupAt":"2025-11-04T08:15:00Z","pickedUpAt":"2025-11-04T08:24:00Z","deliveredAt":"2025-11-04T08:43:00Z","cancelledAt":null,"waitedAtPickupSeconds":540,"acceptedToDeliveredSeconds":1980,"place":null,"amount":null,"tips":null,"expectedAmount":null}
    {"shift":1,"number":2,"label":"d2","offer":1,"state":"cancelled","acceptedAt":"2025-11-04T08:10:00Z","arrivedAtPickupAt":"2025-11-04T08:16:00Z","pickedUpAt":"2025-11-04T08:25:00Z","deliveredAt":null,"cancelledAt":"2025-11-04T08:52:00Z","waitedAtPickupSeconds":540,"acceptedToDeliveredSeconds":null,"place":null,"amount":null,"tips":null,"expectedAmount":null}
    {"shift":1,"number":3,"label":"Sushi, \\"late\\"\\nrun","offer":2,"state":"arrivedAtPickup","acceptedAt":"2025-11-04T08:50:00Z","arrivedAtPickupAt":"2025-11-04T09:00:30.500Z","pickedUpAt":null,"deliveredAt":null,"cancelledAt":null,"waitedAtPickupSeconds":null,"acceptedToDeliveredSeconds":null,"place":null,"amount":null,"tips":null,"expectedAmount":null}
    {"shift":3,"number":1,"label":"x","offer":1,"state":"delivered","acceptedAt":"2025-11-04T10:05:00Z","arrivedAtPickupAt":"2025-11-04T10:06:00Z","pickedUpAt":"2025-11-04T10:07:00Z","deliveredAt":"2025-11-04T10:30:00Z","cancelledAt":null,"waitedAtPickupSeconds":60,"acceptedToDeliveredSeconds":1500,"place":null,"amount":null,"tips":null,"expectedAmount":null}

    """

  static func withStore(_ body: (String, URL) throws -> Void) throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("shifts.sqlite").path
    try makeStore(at: path)
    try body(path, directory)
  }

  @Test func csvIsOneRFC4180RowPerDeliveryUnderAHeader() throws {
    try Self.withStore { path, _ in
      let result = CLITestSupport.run(["export", "--store", path, "--format", "csv"])
      #expect(result.status == 0)
      #expect(result.error == "")
      #expect(result.output == Self.csv)
    }
  }

  @Test func jsonIsOneObjectPerLineWithTheSameFields() throws {
    try Self.withStore { path, _ in
      let result = CLITestSupport.run(["export", "--store", path, "--format", "json"])
      #expect(result.status == 0)
      #expect(result.output == Self.json)
      let objects = try CLITestSupport.jsonLines(result.output)
      #expect(objects.count == 4)
      #expect(objects[2]["label"] as? String == Self.oddLabel)
      let header = Self.csv.prefix { $0 != "\r\n" }.split(separator: ",").map(String.init)
      // The JSON adds expected pay; the CSV never carries it.
      for object in objects { #expect(Set(object.keys) == Set(header + ["expectedAmount"])) }
      #expect(!header.contains("expectedAmount"))
    }
  }

  @Test func noCoordinateNoDistanceNoRateInAnyRecord() throws {
    try Self.withStore { path, _ in
      let header = try #require(
        CLITestSupport.run(["export", "--store", path, "--format", "csv"]).output.split(separator: "\r\n").first)
      let keys = try CLITestSupport.jsonLines(
        CLITestSupport.run(["export", "--store", path, "--format", "json"]).output
      )
      .flatMap(\.keys)
      for name in header.split(separator: ",").map(String.init) + keys {
        for forbidden in ["lat", "lon", "coord", "meter", "metre", "mile", "distance", "km", "cost", "rate", "per"] {
          #expect(!name.lowercased().contains(forbidden), "\(name)")
        }
      }
    }
  }

  @Test func shiftLimitsTheRecordsAndAnUnknownShiftIsAnError() throws {
    try Self.withStore { path, _ in
      let third = CLITestSupport.run(["export", "--store", path, "--format", "csv", "--shift", "3"])
      #expect(third.status == 0)
      let lines = Self.csv.components(separatedBy: "\r\n")
      #expect(third.output == lines[0] + "\r\n" + lines[4] + "\r\n")
      let none = CLITestSupport.run(["export", "--store", path, "--format", "json", "--shift", "2"])
      #expect(none.status == 0 && none.output == "")
      let missing = CLITestSupport.run(["export", "--store", path, "--format", "csv", "--shift", "9"])
      #expect(missing.status == 1)
      #expect(missing.output == "")
      #expect(missing.error == "routemiles: \(path): there is no shift 9\n")
    }
  }

  @Test func usageErrorsExit64() {
    #expect(CLITestSupport.run(["export", "--format", "csv"]).status == 64)
    #expect(
      CLITestSupport.run(["export", "--store", "x.sqlite"]).error.contains("export needs --format csv or --format json")
    )
    let bad = CLITestSupport.run(["export", "--store", "x.sqlite", "--format", "xlsx"])
    #expect(bad.status == 64)
    #expect(bad.error.contains("--format must be csv or json, not 'xlsx'"))
    #expect(CLITestSupport.run(["export", "--store", "x.sqlite", "--format", "csv", "--shift", "one"]).status == 64)
    #expect(CLITestSupport.run(["--help"]).output.contains("export    Write the store's deliveries"))
  }

  @Test func exportReadsAReadOnlyStoreAndWritesNothing() throws {
    try Self.withStore { path, directory in
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(CLITestSupport.run(["export", "--store", path, "--format", "csv"]).output == Self.csv)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["shifts.sqlite"])
    }
  }

  @Test func aStoreOfAnEarlierVersionIsReadAsItIsWithoutDeliveries() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("v2.sqlite").path
    try FileManager.default.copyItem(atPath: try Fixtures.path("store/version2.sqlite"), toPath: path)
    let result = CLITestSupport.run(["export", "--store", path, "--format", "csv"])
    #expect(result.status == 0)
    #expect(result.output == Self.csv.prefix { $0 != "\r\n" } + "\r\n")
    #expect(try RouteStore(path: path, access: .readOnly).openedSchemaVersion == 2, "reading never migrates")
  }
}
