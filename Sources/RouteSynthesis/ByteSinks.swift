#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A write that failed: the `errno` of `write(2)`.
public struct SynthesisWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: Int32
  public init(code: Int32) { self.code = code }
  public var description: String { "write failed (errno \(code))" }
}

/// Where the feed writers put their bytes, 64 KiB at a time.
public protocol SynthesisByteSink {
  mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SynthesisWriteError)
}

/// An open file descriptor (a file, a pipe, standard output). The writer never closes it.
public struct FileDescriptorSink: SynthesisByteSink, Sendable {
  public let descriptor: Int32
  public init(descriptor: Int32) { self.descriptor = descriptor }

  public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SynthesisWriteError) {
    guard var base = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      #if canImport(Darwin)
        let written = Darwin.write(descriptor, base, left)
      #elseif canImport(Musl)
        let written = Musl.write(descriptor, base, left)
      #else
        let written = Glibc.write(descriptor, base, left)
      #endif
      if written < 0 {
        if errno == EINTR { continue }
        throw SynthesisWriteError(code: errno)
      }
      left -= written
      base += written
    }
  }
}

/// Collects the bytes in memory (tests, in-memory benchmarks).
public struct ByteArraySink: SynthesisByteSink, Sendable {
  public var bytes: [UInt8] = []
  public init() {}
  public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SynthesisWriteError) {
    self.bytes.append(contentsOf: bytes)
  }
}

/// Keeps only the count and a running checksum of the bytes, for measuring how fast a writer
/// runs without a disk in the way.
public struct CountingSink: SynthesisByteSink, Sendable {
  public private(set) var count = 0
  public private(set) var checksum: UInt64 = 0xCBF2_9CE4_8422_2325
  public init() {}
  public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SynthesisWriteError) {
    count += bytes.count
    // FNV-1a over every 64th byte: cheap, and still changes when the content does.
    var hash = checksum
    var index = 0
    while index < bytes.count {
      hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01B3
      index += 64
    }
    checksum = hash
  }
}
