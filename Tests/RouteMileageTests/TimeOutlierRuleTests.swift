import RouteMileage
import Testing

/// The 24 h time-outlier rule over positions in time order, as the domain decides it.
@Suite struct TimeOutlierRuleTests {
  /// Runs `times` through the rule as the ingest does; returns the admitted times and the count
  /// rejected.
  static func judge(_ times: [Double], separation: Double = 86_400) -> (admitted: [Double], rejected: Int) {
    var rule = TimeOutlierRule<Double>(separation: separation)
    var admitted: [Double] = []
    var rejected = 0
    func settle(_ closed: TimeOutlierRule<Double>.ClosedSingle) {
      switch closed {
      case .none, .pending: break
      case .rejected: rejected += 1
      case .admitted(let single): admitted.append(single)
      case .released(let singles): admitted += singles
      }
    }
    for time in times {
      switch rule.take(time, at: time) {
      case .admit: admitted.append(time)
      case .admitAfterHead(let head, let rejecting):
        rejected += rejecting
        admitted += [head, time]
      case .held(let closed): settle(closed)
      }
    }
    let (closed, kept) = rule.finish()
    settle(closed)
    admitted += kept
    return (admitted, rejected)
  }

  @Test func aLonePositionADayFromTheDriveIsAnOutlierOnEitherSide() {
    let drive: [Double] = (0..<5).map { 1_000_000 + Double($0) }
    let result = Self.judge([0] + drive + [1_000_004 + 86_401])
    #expect(result.admitted == drive)
    #expect(result.rejected == 2)
  }

  @Test func aGapOfExactlyADayKeepsTheCluster() {
    let result = Self.judge([0, 86_400, 86_401])
    #expect(result.admitted == [0, 86_400, 86_401])
    #expect(result.rejected == 0)
  }

  @Test func aFileOfSinglesOnlyKeepsThemAll() {
    let singles = (0..<3).map { Double($0) * 200_000 }
    let kept = Self.judge(singles)
    #expect(kept.admitted == singles)
    #expect(kept.rejected == 0)
    // Past the pending limit they are kept as they close, in order, and stay kept.
    let many = (0..<(TimeOutlierRule<Double>.maximumPendingSingles + 5)).map { Double($0) * 200_000 }
    let result = Self.judge(many + [many.last! + 200_000, many.last! + 200_001])
    #expect(result.rejected == 0)
    #expect(result.admitted.count == many.count + 2)
  }

  @Test func offTheRuleKeepsEverything() {
    let result = Self.judge([0, 10_000_000, 10_000_001], separation: .infinity)
    #expect(result.admitted == [0, 10_000_000, 10_000_001])
  }
}
