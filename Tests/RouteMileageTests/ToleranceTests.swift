import RouteTestSupport
import Testing

/// The shared tolerances accept what their doc comments allow and no more.
@Suite struct ToleranceTests {
  @Test func constructedMetresAllowAMicrometre() {
    #expect(Tolerance.constructedMeters.accepts(500 + 1e-7, 500))
    #expect(Tolerance.constructedMeters.accepts(500 - 1e-6, 500))
    #expect(!Tolerance.constructedMeters.accepts(500 + 1e-5, 500))
    // A step too many or too few fails by whole metres, at any length.
    #expect(!Tolerance.constructedMeters.accepts(10_001, 10_000))
  }

  @Test func pinnedFiguresAllowOnePartPerMillion() {
    // 2.3 cm on the longest acceptance route; 3 cm is out.
    #expect(Tolerance.pinnedFigure.accepts(22_606.779237 + 0.022, 22_606.779237))
    #expect(!Tolerance.pinnedFigure.accepts(22_606.779237 + 0.03, 22_606.779237))
    // Never less than a micrometre: the rounding of six printed decimals near zero.
    #expect(Tolerance.pinnedFigure.accepts(0.000_000_5, 0))
    #expect(!Tolerance.pinnedFigure.accepts(0.000_002, 0))
  }

  @Test func nonFiniteFiguresMustBeEqual() {
    #expect(Tolerance.constructedMeters.accepts(.nan, .nan))
    #expect(Tolerance.constructedMeters.accepts(.infinity, .infinity))
    #expect(!Tolerance.constructedMeters.accepts(.nan, 0))
    #expect(!Tolerance.pinnedFigure.accepts(.infinity, 1e300))
  }
}
