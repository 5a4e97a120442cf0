// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "RouteMileage",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RouteMileage", targets: ["RouteMileage"]),
    .library(name: "RouteFeeds", targets: ["RouteFeeds"]),
    .library(name: "RouteStore", targets: ["RouteStore"]),
    .library(name: "ShiftWork", targets: ["ShiftWork"]),
    .executable(name: "routemiles", targets: ["routemiles"]),
    .executable(name: "RouteBenchmarks", targets: ["RouteBenchmarks"]),
  ],
  targets: [
    // MARK: Public API

    // The measurement domain: distance, filter, accumulator, calculator, floor, words, the rules
    // the ingest applies (time order and duplicates, the 24 h outlier, the timeline's placement),
    // and the RetainedSampleSink the ingest hands samples out through and the store takes them in
    // by. No I/O.
    .target(name: "RouteMileage"),
    // The shift's work beside its route: deliveries, offers, their rules and derived figures
    // (seed 000). Pure; depends on RouteMileage for ShiftTimeline. Holds no distance.
    .target(name: "ShiftWork", dependencies: ["RouteMileage"]),
    // Streaming GPX / NMEA 0183 / CSV / FIT / ... readers and gzip around any of them: bytes to
    // records (positions, rejections, sessions), format detection and the byte scanners.
    .target(name: "RouteFeeds", dependencies: ["RouteMileage", "CZlib"]),
    // SQLite shifts, their route rows and deliveries, and ActiveRouteMeasurement.
    // Independent of RouteFeeds: the import writer conforms to the domain's RetainedSampleSink.
    .target(name: "RouteStore", dependencies: ["RouteMileage", "ShiftWork", "CSQLite"]),
    // The layer between the readers and store and the tool: ShiftIngest, pipelining, the timeline
    // file, and the workflows (import, live replay and its card, batch's job, the picture).
    .target(name: "RouteIngest", dependencies: ["RouteMileage", "ShiftWork", "RouteFeeds", "RouteStore"]),

    // MARK: Implementation details

    // Debian's libsqlite3 (libsqlite3-dev), through a system-library target.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // Debian's zlib (zlib1g-dev), through a system-library target: gzip-compressed feeds.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    // The command-line tool. Its logic lives in RouteMilesCLI so tests can call it in process.
    .target(name: "RouteMilesCLI", dependencies: ["RouteMileage", "ShiftWork", "RouteFeeds", "RouteStore", "RouteIngest"]),
    // The Swift runtime linked in (`-static-stdlib`, Linux): a process starts in 2.9 ms of CPU
    // rather than 4.9 ms spent loading and relocating the runtime's ten shared libraries: about
    // 3 % of measuring a 500,000-position file (docs/performance.md). The flag is unsafe in SwiftPM's terms, so it
    // sits on this executable target alone: the library products stay usable as a versioned
    // dependency (SwiftPM refuses only products whose targets carry unsafe flags). Release only:
    // the test bundle links this target's settings too, and the toolchain has no static XCTest.
    .executableTarget(
      name: "routemiles", dependencies: ["RouteMilesCLI"],
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
    ),
    .executableTarget(
      name: "RouteBenchmarks",
      dependencies: [
        "RouteMileage", "ShiftWork", "RouteFeeds", "RouteStore", "RouteIngest", "RouteMilesCLI", "RouteSynthesis",
        "RouteBenchmarkGate",
      ],
      path: "Benchmarks/RouteBenchmarks"
    ),
    // The benchmark's CI gate as a library: a run's results (strings quoted by the tool's
    // JSONText), a saved baseline read with the JSON parser (any formatting), and the comparison
    // and its exit status, so tests reach them.
    .target(name: "RouteBenchmarkGate", dependencies: ["RouteFeeds", "RouteMilesCLI"], path: "Benchmarks/RouteBenchmarkGate"),
    // Deterministic synthetic drives and streaming GPX / NMEA / CSV writers, for the benchmarks
    // and SampleRoutes. No Foundation.
    .target(name: "RouteSynthesis", dependencies: ["RouteMileage", "ShiftWork"]),
    // Regenerates SampleRoutes/ byte for byte: `swift run -c release GenerateSampleRoutes SampleRoutes`.
    .executableTarget(
      name: "GenerateSampleRoutes",
      dependencies: ["RouteSynthesis", "RouteMileage", "ShiftWork"],
      path: "Benchmarks/GenerateSampleRoutes"
    ),

    // MARK: Tests

    // What the test targets share: the repository's own fixtures (Tests/Fixtures, failing naming a
    // missing one), gzipped in memory through CZlib for the compressed-input tests, and the one
    // seeded generator (SeededRandom, RouteMileage's SplitMix64).
    .target(name: "RouteTestSupport", dependencies: ["CZlib", "RouteSynthesis", "RouteIngest"], path: "Tests/RouteTestSupport"),
    .testTarget(name: "RouteMileageTests", dependencies: ["RouteMileage", "RouteTestSupport"]),
    .testTarget(name: "ShiftWorkTests", dependencies: ["ShiftWork", "RouteMileage", "RouteTestSupport"]),
    // Reader tests measure what they read through RouteIngest's FeedIngest, as the tool does.
    .testTarget(name: "RouteFeedsTests", dependencies: ["RouteFeeds", "RouteIngest", "RouteMileage", "ShiftWork", "RouteTestSupport"]),
    .testTarget(name: "RouteIngestTests", dependencies: ["RouteIngest", "RouteFeeds", "RouteStore", "RouteMileage", "ShiftWork", "RouteTestSupport"]),
    // `RouteBenchmarks` is a dependency so the binary exists for the gate's process tests.
    .testTarget(name: "RouteBenchmarkGateTests", dependencies: ["RouteBenchmarkGate", "RouteBenchmarks", "RouteTestSupport"]),
    .testTarget(name: "RouteSynthesisTests", dependencies: ["RouteSynthesis", "RouteMileage", "ShiftWork"]),
    .testTarget(name: "RouteStoreTests", dependencies: ["RouteStore", "RouteFeeds", "RouteIngest", "RouteMileage", "ShiftWork", "RouteTestSupport"]),
    .testTarget(
      name: "RouteMilesCLITests",
      // `routemiles` is a dependency so the binary exists for the process tests.
      dependencies: ["RouteMilesCLI", "routemiles", "RouteFeeds", "RouteIngest", "RouteStore", "RouteMileage", "ShiftWork", "RouteTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
