import Foundation
import Testing

/// The system's `sha256sum` over `paths`: each file's hex digest, in order. The tests compare
/// the project's own digest and the fixture manifest with it, an implementation they do not share.
///
/// - Complexity: O(*n*) in the bytes of the files.
func systemSHA256(of paths: [String]) throws -> [String] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["sha256sum"] + paths
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  #expect(process.terminationStatus == 0)
  return String(decoding: data, as: UTF8.self).split(separator: "\n").map { String($0.prefix(64)) }
}
