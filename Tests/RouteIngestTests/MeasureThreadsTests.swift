import RouteFeeds
import RouteIngest
import Testing

/// How many threads `measure` reads and measures one feed on.
@Suite("MeasureThreads")
struct MeasureThreadsTests {
  @Test func twoThreadsByDefaultOnlyWhenACoreLooksFree() {
    #expect(MeasureThreads.pipelining(requested: nil, processors: 2, loadAverage: 0.3) == .automatic)
    #expect(MeasureThreads.pipelining(requested: nil, processors: 2, loadAverage: 3.9) == .automatic)
    #expect(MeasureThreads.pipelining(requested: nil, processors: 2, loadAverage: 4.0) == .off)
    #expect(MeasureThreads.pipelining(requested: nil, processors: 2, loadAverage: nil) == .automatic)
    #expect(MeasureThreads.pipelining(requested: nil, processors: 1, loadAverage: 0) == .off)
    #expect(MeasureThreads.pipelining(requested: 2, processors: 2, loadAverage: 12) == .automatic)
    #expect(MeasureThreads.pipelining(requested: 1, processors: 8, loadAverage: 0) == .off)
  }
}
