#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a whole text file, replacing it; the message names the path on failure.
func writeTextFile(_ text: String, to path: String) throws(CLIError) {
  guard let file = fopen(path, "w") else {
    throw .failure("\(path): cannot write: \(String(cString: strerror(errno)))")
  }
  defer { fclose(file) }
  var text = text
  let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
  guard written == text.utf8.count, fflush(file) == 0 else {
    throw .failure("\(path): cannot write: \(String(cString: strerror(errno)))")
  }
}
