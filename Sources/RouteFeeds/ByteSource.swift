#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a feed's bytes come from: a file, standard input, or memory.
public protocol ByteSource {
  /// Fills the start of `buffer` and returns how many bytes were written; 0 at the end.
  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int
  /// Whether `rewind()` can start the bytes over (a regular file, memory; not a pipe).
  var isRewindable: Bool { get }
  /// Starts the bytes over from where they began, so the feed can be read a second time.
  mutating func rewind() throws(FeedError)
}

extension ByteSource {
  public var isRewindable: Bool { false }
  public mutating func rewind() throws(FeedError) {
    throw .unreadableInput(detail: "it cannot be read a second time")
  }
}

/// A file or standard input, read with `read(2)` into the caller's buffer: no mapping, no
/// whole-file copy, so memory stays bounded whatever the feed's size.
public final class FileByteSource: ByteSource {
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// Where the bytes began, for `rewind()`; nil when the descriptor cannot seek back to it.
  private let startOffset: off_t?
  /// The name errors use: the path, or `-` for standard input.
  public let name: String

  /// Opens `path`, or standard input for `-`.
  public init(path: String) throws(FeedError) {
    name = path
    if path == "-" {
      descriptor = 0
      ownsDescriptor = false
      startOffset = Self.seekableStart(0)
      return
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw .unreadableInput(detail: Self.describe(errno)) }
    var status = stat()
    if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw .unreadableInput(detail: "it is a directory")
    }
    descriptor = fd
    ownsDescriptor = true
    startOffset = Self.seekableStart(fd)
  }

  /// The current offset of a regular file; nil for a pipe, a terminal or a device.
  private static func seekableStart(_ fd: Int32) -> off_t? {
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    let offset = lseek(fd, 0, SEEK_CUR)
    return offset >= 0 ? offset : nil
  }

  public var isRewindable: Bool { startOffset != nil }

  public func rewind() throws(FeedError) {
    guard let startOffset else { throw .unreadableInput(detail: "it cannot be read a second time") }
    guard lseek(descriptor, startOffset, SEEK_SET) >= 0 else { throw .unreadableInput(detail: Self.describe(errno)) }
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      #if canImport(Darwin)
        let count = Darwin.read(descriptor, base, buffer.count)
      #elseif canImport(Musl)
        let count = Musl.read(descriptor, base, buffer.count)
      #else
        let count = Glibc.read(descriptor, base, buffer.count)
      #endif
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw .unreadableInput(detail: Self.describe(errno))
    }
  }

  static func describe(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file"
    case EACCES: "permission denied"
    case EISDIR: "it is a directory"
    default: String(cString: strerror(code))
    }
  }
}

/// Bytes already in memory, handed out in chunks of a fixed size (tests use it to prove chunk
/// boundaries do not matter).
public struct MemoryByteSource: ByteSource {
  public let bytes: [UInt8]
  public let chunkSize: Int
  private var offset = 0

  public init(_ bytes: [UInt8], chunkSize: Int = 1 << 20) {
    self.bytes = bytes
    self.chunkSize = max(1, chunkSize)
  }

  public init(_ text: String, chunkSize: Int = 1 << 20) {
    self.init(Array(text.utf8), chunkSize: chunkSize)
  }

  public var isRewindable: Bool { true }

  public mutating func rewind() throws(FeedError) { offset = 0 }

  public mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(FeedError) -> Int {
    let count = min(chunkSize, buffer.count, bytes.count - offset)
    guard count > 0 else { return 0 }
    for index in 0..<count { buffer[index] = bytes[offset + index] }
    offset += count
    return count
  }
}
