import RouteSynthesis

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Generated feeds for the benchmarks, written once per run into a scratch folder and removed at
/// the end. Every file comes from a fixed seed, so every run measures the same bytes.
enum BenchmarkFiles {
  static let directory: String = {
    let path = "/tmp/routemiles-bench-\(getpid())"
    mkdir(path, 0o755)
    return path
  }()

  /// Writes a drive of `positions` one-second fixes in `format`; returns the path and its size.
  static func feed(_ name: String, format: SyntheticFeedFormat, positions: Int, seed: UInt64 = 2026) throws -> (
    path: String, bytes: Int
  ) {
    let path = "\(directory)/\(name)"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw BenchmarkError("cannot write \(path)") }
    defer { close(descriptor) }
    let bytes = try FeedWriter.write(SyntheticDrive(seed: seed, duration: positions), as: format, to: descriptor)
    return (path, bytes)
  }

  /// Writes a drive in `format` of about `megabytes` (sized from a one-hour probe).
  static func feed(_ name: String, format: SyntheticFeedFormat, megabytes: Double) throws -> (path: String, bytes: Int)
  {
    var probe = CountingSink()
    _ = try FeedWriter.write(SyntheticDrive(seed: 2026, duration: 3_600), as: format, into: &probe)
    let seconds = Int((megabytes * 1_048_576 / (Double(probe.count) / 3_600)).rounded(.up))
    return try feed(name, format: format, positions: seconds)
  }

  static func remove() {
    guard let handle = opendir(directory) else { return }
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { removeTree("\(directory)/\(name)") }
    }
    closedir(handle)
    rmdir(directory)
  }

  private static func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      if let handle = opendir(path) {
        while let entry = readdir(handle) {
          let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
          }
          if name != "." && name != ".." { removeTree("\(path)/\(name)") }
        }
        closedir(handle)
      }
      rmdir(path)
    } else {
      unlink(path)
    }
  }

  /// Reads a whole file through one reused 1 MiB buffer, the way the ingest reads it, touching
  /// every byte: the read-only pass, the ceiling ingest throughput is normalised by. (Reading
  /// into one fresh array instead would time page faults on new memory, not reading.)
  static func readOnlyPass(_ path: String) -> Int {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
    defer { buffer.deallocate() }
    var total = 0
    var checksum: UInt64 = 0
    while true {
      let got = read(descriptor, buffer.baseAddress, buffer.count)
      if got <= 0 { break }
      var index = 0
      while index + 8 <= got {
        checksum &+= buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      total += got
    }
    blackHole(checksum)
    return total
  }
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
