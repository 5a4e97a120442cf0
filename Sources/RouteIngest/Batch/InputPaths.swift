#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Expands batch operands into feed files: files as given, directories recursively, and glob
/// patterns (for shells that did not expand them). The order is deterministic: operands in the
/// order given, each directory's and pattern's matches sorted by path.
public enum InputPaths {
  /// File name extensions a directory walk picks up (case-insensitive). `gz` takes in any
  /// gzipped feed (`x.gpx.gz`, `x.fit.gz`): what is inside is detected after decompression.
  public static let feedExtensions: Set<String> = [
    "gpx", "nmea", "nma", "txt", "log", "csv", "tsv", "tcx", "kml", "kmz", "geojson", "fit", "json", "rec", "gz",
  ]

  /// One file to measure, and whether a directory walk found it (rather than the user naming
  /// it, or a pattern matching it).
  public struct Found: Equatable, Sendable {
    public var path: String
    public var inDirectory: Bool
  }

  /// Opens a directory for reading: its handle, or nil and the `errno` that refused it.
  public typealias DirectoryOpener = (String) -> (handle: OpaquePointer?, error: Int32)

  /// `opendir(3)`.
  public static func openDirectory(_ path: String) -> (handle: OpaquePointer?, error: Int32) {
    let handle = opendir(path)
    return (handle, handle == nil ? errno : 0)
  }

  /// An empty directory and a pattern that matches nothing are the same problem (nothing to
  /// measure where the user pointed), reported alike; so is a directory that cannot be read
  /// (permission denied), named with the reason. The batch exits 1 for any of them.
  ///
  /// - Parameter open: how directories are opened (`opendir`; a test gives one that refuses).
  public static func expand(_ operands: [String], open: DirectoryOpener = openDirectory) -> (
    paths: [Found], problems: [String]
  ) {
    var paths: [Found] = []
    var problems: [String] = []
    func walked(_ directory: String, named operand: String) {
      let (files, unreadable) = walk(directory, open: open)
      for (folder, error) in unreadable {
        problems.append(
          "\(folder): cannot read this folder (\(String(cString: strerror(error)))); no file in it was measured")
      }
      if files.isEmpty, !unreadable.contains(where: { $0.path == directory }) {
        problems.append("\(operand): no feed file here (looked for \(extensionList) files)")
      }
      paths.append(contentsOf: files.map { Found(path: $0, inDirectory: true) })
    }
    for operand in operands {
      if operand == "-" {
        paths.append(Found(path: operand, inDirectory: false))
      } else if isDirectory(operand) {
        walked(operand, named: operand)
      } else if operand.contains(where: { "*?[".contains($0) }) && !exists(operand) {
        let matches = glob(operand)
        if matches.isEmpty { problems.append("\(operand): no feed file here (no file matches this pattern)") }
        for match in matches {
          if isDirectory(match) {
            walked(match, named: match)
          } else {
            paths.append(Found(path: match, inDirectory: false))
          }
        }
      } else {
        paths.append(Found(path: operand, inDirectory: false))
      }
    }
    return (paths, problems)
  }

  static var extensionList: String { feedExtensions.sorted().map { "." + $0 }.joined(separator: " ") }

  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// Regular feed files under `directory`, recursively, sorted; hidden entries are skipped.
  /// The directories that could not be read come back with their `errno`, sorted, never
  /// silently left out.
  static func walk(
    _ directory: String, open: DirectoryOpener = openDirectory
  ) -> (files: [String], unreadable: [(path: String, error: Int32)]) {
    var found: [String] = []
    var unreadable: [(path: String, error: Int32)] = []
    var pending = [directory]
    while let current = pending.popLast() {
      let (opened, error) = open(current)
      guard let handle = opened else {
        unreadable.append((current, error))
        continue
      }
      defer { closedir(handle) }
      while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasPrefix(".") { continue }
        let path = current.hasSuffix("/") ? current + name : current + "/" + name
        if isDirectory(path) {
          pending.append(path)
        } else if let dot = name.lastIndex(of: "."),
          feedExtensions.contains(String(name[name.index(after: dot)...]).lowercased())
        {
          found.append(path)
        }
      }
    }
    return (found.sorted(), unreadable.sorted { $0.path < $1.path })
  }

  static func glob(_ pattern: String) -> [String] {
    var result = glob_t()
    defer { globfree(&result) }
    guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
    var matches: [String] = []
    for index in 0..<Int(result.gl_pathc) {
      if let path = result.gl_pathv[index] { matches.append(String(cString: path)) }
    }
    return matches.sorted()
  }
}
