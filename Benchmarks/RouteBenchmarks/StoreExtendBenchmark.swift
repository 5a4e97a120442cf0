import RouteMileage
import RouteStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scenario 2: the live path against SQLite. A shift's store is filled to its length (1 h and
/// 24 h at 1 Hz), then 2 rows are committed per refresh, as a capture service writes them, and
/// each refresh is timed: `ActiveRouteMeasurement` (probe, then fetch after the last row) against
/// fetching and measuring every row (`RouteStore.measure`). Inserts are not timed.
enum StoreExtendBenchmark {
  static let name = "store-extend"

  static func run(quick: Bool, report: inout BenchmarkReport) throws {
    report.say("\n== 2. store extend (SQLite file, WAL; 2 rows committed per refresh)")
    let refreshes = quick ? 400 : 600
    let fullRefreshes = quick ? 5 : 20
    var extendP50: [Int: Double] = [:]
    report.say("  shift   live refresh p50   p99        fetch-all p50")
    for hour in [1, 24] {
      let path = "/tmp/routemiles-bench-\(getpid())-\(hour).sqlite"
      defer {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
      }
      let store = try RouteStore(path: path)
      let samples = BenchmarkRoute.samples(seconds: hour * 3600 + 2 * refreshes)
      let prefill = hour * 3600
      let shift = try store.createShift(
        start: samples[0].timestamp, end: nil, source: "bench", importedAt: 0, status: .running)
      try store.appendSamples(samples[0..<prefill], to: shift)
      var live = ActiveRouteMeasurement(shift: shift)
      try live.refresh(from: store)
      var times: [Double] = []
      var index = prefill
      for _ in 0..<refreshes {
        try store.appendSamples(samples[index..<(index + 2)], to: shift)
        index += 2
        times.append(try time { blackHole(try live.refresh(from: store)) })
      }
      var fetchAll: [Double] = []
      for _ in 0..<fullRefreshes {
        fetchAll.append(try time { blackHole(try store.measure(shift: shift)) })
      }
      times.sort()
      fetchAll.sort()
      let expected = try store.measure(shift: shift)
      precondition(live.distance == expected, "the live figure must equal the one-pass figure")
      extendP50[hour] = quantile(times, 0.5)
      report.say(
        "  \(pad("\(hour) h", 5))   \(pad(Format.duration(quantile(times, 0.5)), 14))   \(pad(Format.duration(quantile(times, 0.99)), 9))  \(pad(Format.duration(quantile(fetchAll, 0.5)), 12))"
      )
      report.record(name, "live refresh p50 \(hour)h seconds", quantile(times, 0.5), higherIsBetter: false)
      report.record(name, "fetch-all p50 \(hour)h seconds", quantile(fetchAll, 0.5), higherIsBetter: false)
    }
    let flatness = extendP50[24]! / extendP50[1]!
    report.record(name, "live refresh p50 24h/1h", flatness, higherIsBetter: false, scaleFree: true)
    report.target(name, "live refresh p50 at 24 h within 2× of 1 h (\(Format.fixed(flatness, 2))×)", met: flatness <= 2)
  }
}
