import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import Testing

@testable import RouteMilesCLI

/// `routemiles measure` reads a feed past its first MiB on one thread and measures it on another
/// (`IngestPipelining.automatic`); `--threads 1` keeps one, `--threads 2` forces two. Both give the same output, and
/// every SampleRoute measures bit-identically pipelined and not.
@Suite("measure, pipelined and on one thread")
struct PipelinedMeasureTests {
  static let directory = CLITestSupport.packageRoot.appendingPathComponent("SampleRoutes")
  static let files = [
    "clean-2h-drive.gpx", "fix-loss-midnight.nmea", "legacy-no-session.csv", "messy-feed.csv", "shift-12h-gaps.gpx",
    "shift-12h-gaps.nmea", "shift-timeline.csv",
  ]

  @Test(arguments: files)
  func aSampleRouteMeasuresTheSamePipelined(_ file: String) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(file)))
    for filter in [true, false] {
      var settings = IngestSettings(filter: filter ? RouteSampleFilter() : nil)
      var source = MemoryByteSource(bytes)
      let one = FeedIngest.measure(&source, settings: settings)
      #expect(one.distance.isMeasured)
      for pipelining in [IngestPipelining.automatic, .always(), .always(batchCapacity: 7)] {
        for chunkSize in [FeedIngest.chunkSize, 4096] {
          settings.pipelining = pipelining
          var pipelinedSource = MemoryByteSource(bytes, chunkSize: chunkSize)
          let pipelined = FeedIngest.measure(&pipelinedSource, settings: settings)
          #expect(
            pipelined == one,
            "\(file), filter \(filter), batches of \(pipelining.batchCapacity), chunks of \(chunkSize)")
        }
      }
    }
  }

  @Test func oneAndTwoThreadsGiveTheSameOutput() throws {
    // shift-12h-gaps.nmea is 1.5 MB: past the first MiB, two threads pipeline it.
    let paths = ["shift-12h-gaps.nmea", "messy-feed.csv"].map { Self.directory.appendingPathComponent($0).path }
    let pipelined = CLITestSupport.run(["measure", "--json", "--explain", "--threads", "2"] + paths)
    let single = CLITestSupport.run(["measure", "--json", "--explain", "--threads", "1"] + paths)
    let chosen = CLITestSupport.run(["measure", "--json", "--explain"] + paths)
    #expect(pipelined.status == 0)
    #expect(single.status == 0)
    #expect(pipelined.output == single.output)
    #expect(chosen.output == single.output)
    #expect(pipelined.output.contains("\"meters\""))
    let human = CLITestSupport.run(["measure", "--threads", "2", paths[0]])
    let humanSingle = CLITestSupport.run(["measure", "--threads", "1", paths[0]])
    #expect(human.output == humanSingle.output)
    #expect(human.output.contains("mi recorded"))
  }

  @Test func threadsIsInTheHelpAndTakesOneOrTwo() {
    let help = CLITestSupport.run(["measure", "--help"])
    #expect(help.output.contains("--threads 1|2"))
    let path = Self.directory.appendingPathComponent("messy-feed.csv").path
    for bad in ["0", "3", "two"] {
      let result = CLITestSupport.run(["measure", "--threads", bad, path])
      #expect(result.status == 64, "--threads \(bad)")
      #expect(result.error.contains("--threads"), "--threads \(bad): \(result.error)")
    }
  }
}
