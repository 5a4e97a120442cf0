import Foundation
import RouteTestSupport
import Testing

/// `--time-zone NAME` as a user runs it: the zone file found under `TZDIR`, zone-less CSV times
/// across the autumn change measured as the drive, and the hint when the option is missing.
@Suite struct TimeZoneOptionTests {
  /// The drive of `LocalTimeZoneTests.autumnDrive`, written in London local time without a zone.
  static func autumnCSV() -> String {
    var text = "timestamp,latitude,longitude\n"
    let start = 1_761_438_600.0  // 2025-10-26T00:30:00Z
    for minute in 0...60 {
      let utc = start + Double(minute) * 60
      let local = utc + (utc < 1_761_440_400 ? 3600 : 0)
      let seconds = Int(local) % 86_400
      let time = String(format: "2025-10-26T%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
      text += "\(time),\(String(format: "%.4f", 51.5 + Double(minute) * 0.0005)),-0.12\n"
    }
    return text
  }

  @Test func zoneLessTimesAreReadAsLocalTimeInTheNamedZone() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    let zones = directory.appendingPathComponent("zones/Europe")
    try FileManager.default.createDirectory(at: zones, withIntermediateDirectories: true)
    try Data(TZif.london).write(to: zones.appendingPathComponent("London"))
    let csv = directory.appendingPathComponent("autumn.csv")
    try Self.autumnCSV().write(to: csv, atomically: true, encoding: .utf8)
    let environment = ["TZDIR": directory.appendingPathComponent("zones").path]

    let plain = try CLITestSupport.runProcess(["measure", csv.path], environment: environment)
    #expect(plain.status == 0)
    #expect(plain.output.contains("  4.0 mi recorded · partial route\n"))
    #expect(
      plain.output.contains(
        "Times without a zone step back by 10 minutes to 2 hours once, as a clock does when daylight saving ends; read as UTC, the repeated hour is a jump: pass --time-zone NAME (such as Europe/London) to read them as local time."
      ))

    for command in [["measure"], ["batch"]] {
      let local = try CLITestSupport.runProcess(
        command + ["--time-zone", "Europe/London", csv.path], environment: environment)
      #expect(local.status == 0, "\(command): \(local.error)")
      #expect(local.output.contains("2.1 mi"), "\(command): \(local.output)")
      #expect(!local.output.contains("step back"))
    }

    let unknown = try CLITestSupport.runProcess(
      ["measure", "--time-zone", "Europe/Nowhere", csv.path], environment: environment)
    #expect(unknown.status == 64)
    #expect(
      unknown.error.hasPrefix(
        "routemiles: unknown time zone 'Europe/Nowhere': \(environment["TZDIR"]!)/Europe/Nowhere cannot be read (cannot read the input: no such file); give an IANA name such as Europe/London, and install the time zone database (tzdata) or set TZDIR\n"
      ))
    let escaping = try CLITestSupport.runProcess(
      ["measure", "--time-zone", "../etc/passwd", csv.path], environment: environment)
    #expect(escaping.status == 64)
    #expect(
      escaping.error.hasPrefix(
        "routemiles: option '--time-zone' needs an IANA zone name such as Europe/London, not '../etc/passwd'\n"))
  }
}
