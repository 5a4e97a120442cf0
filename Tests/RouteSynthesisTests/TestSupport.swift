import Foundation
import RouteSynthesis

/// Helpers shared by the RouteSynthesis tests.
enum SynthesisTestSupport {
  /// The package root, from this file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  static func bytes(_ fixes: some Sequence<SyntheticFix>, as format: SyntheticFeedFormat) -> [UInt8] {
    var sink = ByteArraySink()
    _ = try? FeedWriter.write(fixes, as: format, into: &sink)
    return sink.bytes
  }

  /// Lines without their terminators (CR LF or LF).
  static func lines(_ bytes: [UInt8]) -> [String] {
    // Split bytes, not Characters: Swift reads CR LF as one Character.
    bytes.split(separator: 0x0A).map { line in
      String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
    }
  }

  /// Whether an NMEA sentence's checksum matches its body.
  static func checksumIsValid(_ sentence: String) -> Bool {
    guard sentence.first == "$", let star = sentence.lastIndex(of: "*") else { return false }
    let body = sentence[sentence.index(after: sentence.startIndex)..<star]
    let checksum = body.utf8.reduce(UInt8(0), ^)
    return String(sentence[sentence.index(after: star)...]) == String(format: "%02X", checksum)
  }
}
