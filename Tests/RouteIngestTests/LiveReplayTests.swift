import RouteIngest
import RouteMileage
import Testing

/// The live-shift engine's card lines.
@Suite("LiveReplay")
struct LiveReplayTests {
  static let german = MileageLocale(identifier: "de_DE")

  @Test func theReplayCardCountsBatchesByThePluralRule() {
    #expect(
      LiveReplay.samplesLine(captured: 2, rejected: 0, batches: 1, discarded: 0, locale: .english)
        == "Samples: 2 captured · 0 rejected · 1 batch")
    #expect(
      LiveReplay.samplesLine(captured: 12_345, rejected: 1, batches: 0, discarded: 0, locale: Self.german)
        == "Samples: 12.345 captured · 1 rejected · 0 batches")
    #expect(
      LiveReplay.samplesLine(captured: 40, rejected: 2, batches: 3, discarded: 1, locale: .english)
        == "Samples: 40 captured · 2 rejected · 3 batches (1 discarded)")
  }
}
