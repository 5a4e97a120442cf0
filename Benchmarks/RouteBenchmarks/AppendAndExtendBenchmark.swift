import RouteMileage

/// Scenario 1, the seed's reason for the accumulator: a shift at 1 Hz refreshed every 2 s of
/// shift time, measured (a) by extending the accumulator with the new positions, and (b) by
/// re-walking the whole route so far (`RouteMileageCalculator`, one pass) at every refresh.
///
/// (a) is timed at every refresh. (b) grows with the route, so it is timed at every `stride`-th
/// refresh and its whole-shift total is that sum times `stride` (the cost is smooth in the route
/// length, so the sample is faithful; the stride is printed).
enum AppendAndExtendBenchmark {
  static let name = "append-and-extend"

  static func run(quick: Bool, report: inout BenchmarkReport) {
    report.say("\n== 1. append-and-extend (1 Hz, refresh every 2 s of shift time)")
    let hours = [1, 4, 12, 24]
    let stride = quick ? 400 : 25
    var extendP50: [Int: Double] = [:]
    var totals: [Int: (extend: Double, rewalk: Double)] = [:]
    let calculator = RouteMileageCalculator()
    let route = BenchmarkRoute.positions(seconds: 24 * 3600)
    report.say("  shift   (a) extend p50   p99        total      (b) re-walk p50   p99        total (stride \(stride))")
    for hour in hours {
      let count = hour * 3600
      let positions = Array(route[0..<count])
      var walk = RouteMileageAccumulator()
      var extendTimes: [Double] = []
      extendTimes.reserveCapacity(count / 2)
      var rewalkTimes: [Double] = []
      var index = 0
      var refresh = 0
      while index < count {
        let end = min(index + 2, count)
        let newPositions = positions[index..<end]
        let extend = time {
          walk.append(contentsOf: newPositions)
          blackHole(walk.distance)
        }
        extendTimes.append(extend)
        index = end
        if refresh % stride == 0 {
          let prefix = positions[0..<index]
          rewalkTimes.append(time { blackHole(calculator.distance(of: prefix)) })
        }
        refresh += 1
      }
      let extendTotal = extendTimes.reduce(0, +)
      let rewalkTotal = rewalkTimes.reduce(0, +) * Double(stride)
      extendTimes.sort()
      rewalkTimes.sort()
      extendP50[hour] = quantile(extendTimes, 0.5)
      totals[hour] = (extendTotal, rewalkTotal)
      report.say(
        "  \(pad("\(hour) h", 5))   \(pad(Format.duration(quantile(extendTimes, 0.5)), 12))   \(pad(Format.duration(quantile(extendTimes, 0.99)), 9))  \(pad(Format.duration(extendTotal), 9))"
          + "    \(pad(Format.duration(quantile(rewalkTimes, 0.5)), 12))   \(pad(Format.duration(quantile(rewalkTimes, 0.99)), 9))  \(pad(Format.duration(rewalkTotal), 9))"
      )
      report.record(name, "extend p50 \(hour)h seconds", quantile(extendTimes, 0.5), higherIsBetter: false)
      report.record(name, "rewalk p50 \(hour)h seconds", quantile(rewalkTimes, 0.5), higherIsBetter: false)
    }
    let flatness = extendP50[24]! / extendP50[1]!
    let ratio12 = totals[12]!.rewalk / totals[12]!.extend
    report.say(
      "  (a) p50 at 24 h / p50 at 1 h = \(Format.fixed(flatness, 2))×; over 12 h, (b) costs \(Format.fixed(ratio12, 0))× (a)"
    )
    report.record(name, "extend p50 24h/1h", flatness, higherIsBetter: false, scaleFree: true)
    report.record(name, "rewalk/extend total 12h", ratio12, higherIsBetter: true, scaleFree: true)
    report.target(
      name, "(a) is flat: p50 at 24 h within 1.5× of p50 at 1 h (\(Format.fixed(flatness, 2))×)", met: flatness <= 1.5)
    report.target(
      name, "(a) costs at least 1,000× less than (b) over 12 h (\(Format.fixed(ratio12, 0))×)", met: ratio12 >= 1000)
  }
}

func pad(_ text: String, _ width: Int) -> String {
  String(repeating: " ", count: max(0, width - text.count)) + text
}
