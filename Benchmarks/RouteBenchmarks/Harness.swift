import RouteBenchmarkGate

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Defeats dead-code elimination: the optimiser cannot see through it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

let benchmarkClock = ContinuousClock()

/// Seconds in a `Duration`.
func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) / 1e18
}

/// Times `body` once, in seconds.
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> Double {
  let start = benchmarkClock.now
  try body()
  return seconds(benchmarkClock.now - start)
}

/// Runs `body` `warmup + repeats` times and returns the repeats' times, sorted.
func repeated(warmup: Int, repeats: Int, _ body: () throws -> Void) rethrows -> [Double] {
  for _ in 0..<warmup { try body() }
  var times: [Double] = []
  times.reserveCapacity(repeats)
  for _ in 0..<repeats { times.append(try time(body)) }
  return times.sorted()
}

/// The value at quantile `q` (0…1) of sorted values, nearest rank.
func quantile(_ sorted: [Double], _ q: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// A whole (small) text file, or nil.
func readTextFile(_ path: String) -> String? {
  guard let file = fopen(path, "r") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes.append(contentsOf: buffer[0..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Human-readable numbers without Foundation.
enum Format {
  static func fixed(_ value: Double, _ decimals: Int) -> String { BaselineGate.fixed(value, decimals) }

  /// A duration in the unit that reads best.
  static func duration(_ seconds: Double) -> String {
    if seconds < 1e-6 { return fixed(seconds * 1e9, 0) + " ns" }
    if seconds < 1e-3 { return fixed(seconds * 1e6, 2) + " µs" }
    if seconds < 1 { return fixed(seconds * 1e3, 2) + " ms" }
    return fixed(seconds, 2) + " s"
  }

  static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) + " MB" }
}
