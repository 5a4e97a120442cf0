#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The monotonic clock and a pause, for retrying a busy store while it is being created or
/// migrated by another process. No measurement ever reads it.
enum StoreClock {
  /// Milliseconds on the monotonic clock (not wall time: a clock change cannot stretch a wait).
  static func milliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  static func sleep(milliseconds: Int64) {
    var pause = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&pause, &remaining) == -1, errno == EINTR { pause = remaining }
  }

  /// Whether a file exists at `path` (the store's `-wal` beside it).
  static func fileExists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }
}
