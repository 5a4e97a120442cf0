import RouteMileage
import Testing

/// RouteQuality's words for a table of routes: the status word and the miles columns
/// (issue 17, item 2: the batch table says what the sentence says).
@Suite("RouteQuality: status and columns")
struct RouteQualityStatusTests {
  typealias Q = RouteQualityTests

  @Test func theStatusWordOfEachKindOfRoute() {
    #expect(RouteQuality(Q.distance(miles: 12.4)).status == .measured)
    #expect(RouteQuality(Q.distance(miles: 12.4, gaps: [.silence])).status == .partial)
    #expect(RouteQuality(RouteDistance()).status == .unmeasurable)
    var cut = Q.distance(miles: 12.4)
    cut.cutOff = RecordingCutOff(line: 40)
    #expect(RouteQuality(cut).status == .truncated)
    var cutEmpty = RouteDistance()
    cutEmpty.cutOff = RecordingCutOff(line: 2)
    #expect(RouteQuality(cutEmpty).status == .truncated)
    #expect(RouteQuality.Status.allCases.map(\.rawValue) == ["measured", "partial", "unmeasurable", "truncated"])
  }

  @Test func aMeasuredRouteThatRoundsToZeroIsUnderATenthInItsColumnAsInItsLine() {
    let short = RouteQuality(Q.distance(miles: 0.03))
    #expect(short.line == "under 0.1 mi recorded")
    #expect(short.milesColumn == "<0.1")
    #expect(RouteQuality(Q.distance(miles: 0.03), locale: Q.german).milesColumn == "<0,1")
    #expect(RouteQuality(Q.distance(miles: 0.05)).milesColumn == "0.1")
    #expect(RouteQuality(Q.distance(miles: 12.44)).milesColumn == "12.4")
    #expect(RouteQuality(Q.distance(miles: 1_234.5)).milesColumn == "1,234.5")
    #expect(RouteQuality(RouteDistance()).milesColumn == "-")
  }

  @Test func theFloorColumnFollowsTheSameRule() {
    var d = Q.distance(miles: 1)
    d.floorMeters = 0
    #expect(RouteQuality(d).floorMilesColumn == "0.0", "nothing proven is zero, not under a tenth")
    d.floorMeters = 40
    #expect(RouteQuality(d).floorMilesColumn == "<0.1")
    d.floorMeters = 0.9 * metersPerMile
    #expect(RouteQuality(d).floorMilesColumn == "0.9")
    #expect(RouteQuality(RouteDistance()).floorMilesColumn == "-")
  }
}
