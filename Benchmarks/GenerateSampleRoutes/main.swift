// Regenerates SampleRoutes/ byte for byte from SampleRouteCatalog's fixed seed, and prints what
// each file holds (the generator's ground truth).
//
//   swift run -c release GenerateSampleRoutes [DIR]        write DIR (default SampleRoutes)
//   swift run -c release GenerateSampleRoutes --check [DIR] compare DIR with a fresh generation
//   swift run -c release GenerateSampleRoutes --facts       print the facts only
//   swift run -c release GenerateSampleRoutes --speed [MB]  writer throughput, in memory
//   swift run -c release GenerateSampleRoutes --large gpx|tcx|kml|nmea|csv|phone-csv|geojson MB PATH
//                                                           write a feed of about MB megabytes
//   swift run -c release GenerateSampleRoutes --drive gpx|tcx|kml|nmea|csv|phone-csv|geojson SECONDS PATH
//                                                           write the drive of SECONDS seconds:
//                                                           the same drive in every layout

import RouteMileage
import RouteSynthesis
import ShiftWork

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

func fail(_ message: String, code: Int32 = 1) -> Never {
  var line = "GenerateSampleRoutes: \(message)\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  exit(code)
}

func seconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func readFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 { return nil }
    if count == 0 { return bytes }
    bytes.append(contentsOf: chunk[0..<count])
  }
}

func writeFile(_ path: String, _ route: SampleRoute) -> Int {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard fd >= 0 else { fail("cannot open \(path) for writing (errno \(errno))") }
  defer { close(fd) }
  var sink = FileDescriptorSink(descriptor: fd)
  do {
    return try route.write(into: &sink)
  } catch {
    fail("cannot write \(path): \(error)")
  }
}

func writeBytes(_ path: String, _ bytes: [UInt8]) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard fd >= 0 else { fail("cannot open \(path) for writing (errno \(errno))") }
  defer { close(fd) }
  let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  guard written == bytes.count else { fail("cannot write \(path) (errno \(errno))") }
}

let english = MileageLocale.english
func meters(_ value: Double) -> String { english.formattedOneDecimal(value) + " m" }
func count(_ value: Int) -> String {
  english.formattedOneDecimal(Double(value)).split(separator: ".").first.map(String.init) ?? "\(value)"
}
func clock(_ seconds: Int) -> String {
  func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
  if seconds >= 3600 { return "\(seconds / 3600)h \(two(seconds / 60 % 60))m \(two(seconds % 60))s" }
  if seconds >= 60 { return "\(seconds / 60)m \(two(seconds % 60))s" }
  return "\(seconds)s"
}

/// What the domain alone makes of the generated samples: RouteSampleFilter (defaults) then
/// RouteMileageAccumulator, as the ingest stage runs them, with each capture session minted
/// from the generator's own session ordinals (none for legacy rows) and the coordinates and
/// accuracy rounded as the file prints them. The readers must reproduce this.
struct Preview {
  var distance = RouteDistance()
  var filter = RouteSampleFilter()
  var noFix = 0
  /// Metres added by steps between two fixes taken where the vehicle stood still.
  var jitter = 0.0
  /// Wild jumps the filter retained, and the metres the steps to them added.
  var wildRetained = 0
  var wildMeters = 0.0
}

func preview(_ route: SampleRoute) -> Preview {
  var result = Preview()
  var lastTruth: (Double, Double)?
  var filter = RouteSampleFilter()
  // With a timeline (the file's sidecar), as `routemiles` measures it: positions outside capture
  // never reach the filter, and each capture interval starts new capture sessions.
  var accumulator = RouteMileageAccumulator(timeline: route.timeline)
  var sessions: [Int: CaptureSessionID] = [:]
  var captureInterval = 0
  var isNMEA = false
  var isLegacy = false
  switch route.format {
  case .nmea: isNMEA = true
  case .csv(let options): isLegacy = !options.includesSessionColumn
  case .gpx, .tcx, .kml, .geojson: break
  }
  for fix in route.drive {
    guard fix.hasFix else {
      result.noFix += 1
      continue
    }
    var sample = fix.sample
    if let timeline = route.timeline {
      guard case .capturing(let interval) = timeline.placement(of: sample.timestamp) else {
        accumulator.append(sample.position)
        continue
      }
      if interval != captureInterval { sessions.removeAll() }
      captureInterval = interval
    }
    if isLegacy || sample.captureSession == nil {
      sample.captureSession = nil
    } else if let known = sessions[fix.session] {
      sample.captureSession = known
    } else {
      let minted = filter.mintCaptureSession()
      sessions[fix.session] = minted
      sample.captureSession = minted
    }
    if isNMEA {
      func minutes(_ degrees: Double) -> Double {
        let units = (degrees.magnitude * 6_000_000).rounded(.toNearestOrAwayFromZero)
        return (degrees < 0 ? -units : units) / 6_000_000
      }
      sample.latitude = minutes(sample.latitude)
      sample.longitude = minutes(sample.longitude)
      if let accuracy = sample.horizontalAccuracy, accuracy >= 0 {
        let sigmaLatitude = (accuracy * 0.6 * 10).rounded(.toNearestOrAwayFromZero) / 10
        let sigmaLongitude = (accuracy * 0.8 * 10).rounded(.toNearestOrAwayFromZero) / 10
        sample.horizontalAccuracy = (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
      }
    }
    if case .gpx = route.format {
      sample.horizontalAccuracy = (sample.horizontalAccuracy ?? -1) >= 0 ? fix.hdop * SyntheticFix.metersPerHDOP : nil
    }
    let decision = filter.consider(sample)
    if let stopFix = filter.keptThroughStop { accumulator.append(stopFix.position) }
    if case .retained(let kept) = decision {
      let before = accumulator.distance.meters
      accumulator.append(kept.position)
      let step = accumulator.distance.meters - before
      if fix.faults.contains(.wildJump) {
        result.wildRetained += 1
        result.wildMeters += step
      } else if let last = lastTruth, last == (fix.truthLatitude, fix.truthLongitude) {
        // Jitter: both ends of the step were taken where the vehicle truly stood still.
        result.jitter += step
      }
      lastTruth = (fix.truthLatitude, fix.truthLongitude)
    }
  }
  result.distance = accumulator.distance
  result.filter = filter
  return result
}

func describe(_ route: SampleRoute, bytes: Int) -> String {
  let facts = route.drive.facts()
  let first = facts.firstTimestamp.map { SynthesisTime.iso8601(milliseconds: Int64(($0 * 1000).rounded())) } ?? "-"
  let last = facts.lastTimestamp.map { SynthesisTime.iso8601(milliseconds: Int64(($0 * 1000).rounded())) } ?? "-"
  var lines: [String] = []
  lines.append("## \(route.fileName) — \(count(bytes)) bytes")
  lines.append(route.summary)
  if let name = route.timelineFileName, let timeline = route.timeline {
    let events = timeline.events.map {
      "\($0.kind.rawValue) \(SynthesisTime.iso8601(milliseconds: Int64(($0.at * 1000).rounded())))"
    }
    lines.append("- timeline (\(name)): \(events.joined(separator: ", "))")
  }
  if !route.deliveries.isEmpty {
    let events = route.deliveries.map {
      "\($0.delivery) \($0.kind.rawValue) \(SynthesisTime.iso8601(milliseconds: Int64(($0.at * 1000).rounded())))"
    }
    lines.append("- deliveries: \(events.joined(separator: ", "))")
  }
  lines.append("- place: \(route.drive.configuration.place.name); seed \(route.drive.configuration.seed)")
  lines.append(
    "- span: \(first) → \(last) (\(clock(Int(facts.span))), fix every \(route.drive.configuration.fixInterval) s)")
  lines.append(
    "- rows: \(count(facts.records)) (positions \(count(facts.positions)), no-fix epochs \(facts.noFixEpochs)); capture sessions \(facts.sessions)"
  )
  lines.append(
    "- capture gaps \(facts.captureGaps) (\(clock(facts.captureGapSeconds))), relaunches \(facts.relaunches) (\(clock(facts.relaunchSeconds))), parks with capture paused \(facts.pausedParks) (\(clock(facts.pausedParkSeconds)))"
  )
  lines.append(
    "- parks \(facts.parks), traffic stops \(facts.trafficStops), stationary \(clock(facts.stationarySeconds)), top speed \(english.formattedOneDecimal(facts.topSpeed)) m/s, midnight crossings \(facts.midnightCrossings)"
  )
  lines.append(
    "- faults: fix-loss stretches \(facts.fixLossStretches), wild jumps \(facts.wildJumps), accuracy spikes \(facts.accuracySpikes), invalid accuracy \(facts.invalidAccuracies), (0,0) \(facts.nullIslands), duplicates \(facts.duplicates), late rows \(facts.lateArrivals), corrupted sentences \(facts.corruptedSentences)"
  )
  if !facts.wildJumpTimes.isEmpty {
    let times = facts.wildJumpTimes.map { SynthesisTime.iso8601(milliseconds: Int64(($0 * 1000).rounded())) }
    lines.append("- wild jumps at: \(times.joined(separator: ", "))")
  }
  lines.append(
    "- truth: driven \(meters(facts.drivenMeters)); while capturing \(meters(facts.capturedMeters)); not captured \(meters(facts.uncapturedMeters)); ideal receiver at the fix interval \(meters(facts.idealMeters))"
  )
  let result = preview(route)
  let (distance, filter, noFix) = (result.distance, result.filter, result.noFix)
  let rejected = filter.counts.rejectedByReason.map { "\($0.reason.rawValue) \($0.count)" }.joined(separator: ", ")
  let gapKinds = RouteGap.Kind.allCases.compactMap { kind -> String? in
    let n = distance.gaps.filter { $0.kind == kind }.count
    return n > 0 ? "\(kind.rawValue) \(n)" : nil
  }.joined(separator: ", ")
  lines.append(
    "- domain preview (filter + accumulator on the generated samples, no reader): \(meters(distance.meters)) (\(english.formattedMiles(distance.miles, unit: "mi"))), \(distance.contributingSegmentCount) segments, \(distance.gapCount) gaps\(gapKinds.isEmpty ? "" : " (\(gapKinds))"), of it \(meters(result.jitter)) jitter (steps between fixes taken where the vehicle stood still) and \(meters(result.wildMeters)) to \(result.wildRetained) retained wild jumps; inferred continuity \(distance.usesInferredContinuity); retained \(count(filter.counts.retained)), reanchored \(filter.counts.reanchored), rejected: \(rejected.isEmpty ? "none" : rejected); no-fix epochs \(noFix)"
  )
  for gap in distance.gaps {
    let from = SynthesisTime.iso8601(milliseconds: Int64((gap.start * 1000).rounded()))
    let to = SynthesisTime.iso8601(milliseconds: Int64((gap.end * 1000).rounded()))
    lines.append("  - gap (\(gap.kind.rawValue)): \(from) → \(to) (\(clock(Int(gap.duration.rounded()))))")
  }
  return lines.joined(separator: "\n")
}

func feedFormat(named format: String) -> SyntheticFeedFormat {
  switch format {
  case "gpx": return .gpx
  case "nmea": return .nmea
  case "csv": return .csv
  case "phone-csv": return .csv(.phoneExport)
  case "tcx": return .tcx
  case "kml": return .kml
  case "geojson": return .geojson
  default: fail("unknown format \(format) (gpx, tcx, kml, nmea, csv, phone-csv or geojson)", code: 64)
  }
}

func generateLarge(format: String, megabytes: Double, path: String) {
  let feedFormat = feedFormat(named: format)
  // Size the drive from a one-hour probe of the same seed and format.
  var probe = CountingSink()
  _ = try? FeedWriter.write(SyntheticDrive(seed: 99, duration: 3_600), as: feedFormat, into: &probe)
  let bytesPerSecond = Double(probe.count) / 3_600
  let duration = Int((megabytes * 1_000_000 / bytesPerSecond).rounded(.up))
  generateDrive(format: format, duration: duration, path: path)
}

/// Writes the seed-99 drive of `duration` seconds: one drive, whatever the layout, so the same
/// positions can be measured as CSV, GPX and NMEA side by side. O(duration) time, O(1) memory.
func generateDrive(format: String, duration: Int, path: String) {
  let feedFormat = feedFormat(named: format)
  let drive = SyntheticDrive(seed: 99, duration: duration)
  let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard fd >= 0 else { fail("cannot open \(path) for writing (errno \(errno))") }
  let started = seconds()
  let written: Int
  do {
    written = try FeedWriter.write(drive, as: feedFormat, to: fd)
  } catch {
    fail("cannot write \(path): \(error)")
  }
  let elapsed = seconds() - started
  if fd != 1 { close(fd) }
  let report =
    "\(format): \(count(written)) bytes, \(count(duration)) s of driving, in \(english.formattedOneDecimal(elapsed)) s (\(english.formattedOneDecimal(Double(written) / 1e6 / elapsed)) MB/s)\n"
  report.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
}

func measureSpeed(megabytes: Double) {
  print("Writer throughput, in memory (CountingSink), release build recommended:")
  for (name, format) in [("gpx", SyntheticFeedFormat.gpx), ("nmea", .nmea), ("csv", .csv)] {
    var probe = CountingSink()
    _ = try? FeedWriter.write(SyntheticDrive(seed: 5, duration: 3_600), as: format, into: &probe)
    let duration = Int(megabytes * 1_000_000 / (Double(probe.count) / 3_600))
    let drive = SyntheticDrive(seed: 5, duration: duration)
    var sink = CountingSink()
    let started = seconds()
    _ = try? FeedWriter.write(drive, as: format, into: &sink)
    let elapsed = seconds() - started
    let fixes = Double(duration + 1)
    print(
      "  \(name): \(count(sink.count)) bytes in \(english.formattedOneDecimal(elapsed * 1000)) ms — \(english.formattedOneDecimal(Double(sink.count) / 1e6 / elapsed)) MB/s, \(count(Int(fixes / elapsed))) fixes/s"
    )
  }
  var samples = 0
  let started = seconds()
  for _ in SyntheticDrive(seed: 5, duration: 2_000_000).samples { samples += 1 }
  let elapsed = seconds() - started
  print(
    "  samples only: \(count(samples)) RouteSamples in \(english.formattedOneDecimal(elapsed)) s — \(count(Int(Double(samples) / elapsed))) samples/s"
  )
}

// MARK: - Main

var arguments = Array(CommandLine.arguments.dropFirst())
var mode = "write"
if let first = arguments.first, first.hasPrefix("--") {
  mode = String(first.dropFirst(2))
  arguments.removeFirst()
}

switch mode {
case "write", "check":
  let directory = arguments.first ?? "SampleRoutes"
  var mismatches: [String] = []
  var reports: [String] = []
  for route in SampleRouteCatalog.routes() {
    let path = directory + "/" + route.fileName
    let bytes: Int
    if mode == "check" {
      let fresh = route.bytes()
      bytes = fresh.count
      if readFile(path) != fresh { mismatches.append(route.fileName) }
    } else {
      bytes = writeFile(path, route)
    }
    if let name = route.timelineFileName, let timeline = route.timelineBytes() {
      let sidecar = directory + "/" + name
      if mode == "check" {
        if readFile(sidecar) != timeline { mismatches.append(name) }
      } else {
        writeBytes(sidecar, timeline)
      }
    }
    reports.append(describe(route, bytes: bytes))
  }
  print(reports.joined(separator: "\n\n"))
  if !mismatches.isEmpty {
    fail("these files differ from a fresh generation: \(mismatches.joined(separator: ", "))")
  }
  if mode == "check" { print("\nAll \(reports.count) files match a fresh generation.") }
case "facts":
  print(SampleRouteCatalog.routes().map { describe($0, bytes: $0.bytes().count) }.joined(separator: "\n\n"))
case "speed":
  measureSpeed(megabytes: arguments.first.flatMap(Double.init) ?? 256)
case "large":
  guard arguments.count == 3, let megabytes = Double(arguments[1]) else {
    fail("usage: GenerateSampleRoutes --large gpx|tcx|kml|nmea|csv|phone-csv|geojson MEGABYTES PATH", code: 64)
  }
  generateLarge(format: arguments[0], megabytes: megabytes, path: arguments[2])
case "drive":
  guard arguments.count == 3, let duration = Int(arguments[1]), duration > 0 else {
    fail("usage: GenerateSampleRoutes --drive gpx|tcx|kml|nmea|csv|phone-csv|geojson SECONDS PATH", code: 64)
  }
  generateDrive(format: arguments[0], duration: duration, path: arguments[2])
default:
  fail("unknown option --\(mode) (use --check, --facts, --speed, --large or --drive)", code: 64)
}
