import RouteFeeds
import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--time-zone NAME`: the named zone's compiled file from the system's time zone database —
/// `$TZDIR/NAME` when `TZDIR` is set, else `/usr/share/zoneinfo/NAME` — read by `TZifParser`.
public enum ZoneInfo {
  /// Why a zone could not be loaded, in words a person can act on.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  static let defaultDirectory = "/usr/share/zoneinfo"

  public static func load(_ name: String) throws(Failure) -> ZoneRules {
    // A zone name is a relative path of names (Europe/London, America/Argentina/Salta, UTC).
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
      throw Failure(description: "option '--time-zone' needs an IANA zone name such as Europe/London, not '\(name)'")
    }
    let directory = getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? defaultDirectory
    let path = directory + "/" + name
    var bytes: [UInt8] = []
    do {
      let source = try FileByteSource(path: path)
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
      defer { buffer.deallocate() }
      while true {
        let count = try source.read(into: buffer)
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
        guard bytes.count <= 1 << 20 else { throw FeedError.unreadableInput(detail: "larger than 1 MiB") }
      }
    } catch {
      throw Failure(
        description:
          "unknown time zone '\(name)': \(path) cannot be read (\(error)); give an IANA name such as Europe/London, and install the time zone database (tzdata) or set TZDIR"
      )
    }
    do {
      return try TZifParser.parse(bytes, name: name)
    } catch {
      throw Failure(description: "option '--time-zone': \(path) is not a time zone: \(error)")
    }
  }
}
