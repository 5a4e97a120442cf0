import RouteFeeds

/// Reads newline-terminated records from a byte source, one at a time, with a cap on a record's
/// length: a longer record is reported as too long and skipped without being held.
public struct LineReader<Source: ByteSource> {
  public enum Line {
    case record(UnsafeBufferPointer<UInt8>)
    case tooLong
  }

  private var source: Source
  private let maximumLength: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var ended = false
  private var skipping = false
  private let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)

  public init(_ source: Source, maximumLength: Int) {
    self.source = source
    self.maximumLength = maximumLength
  }

  /// Releases the read buffer.
  public func close() { chunk.deallocate() }

  /// Calls `body` with the next record (without its newline and a trailing CR); false at the end.
  public mutating func next<R>(_ body: (Line) throws -> R) throws -> R? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: .newline) {
        let lineStart = start
        start = newline + 1
        scanned = start
        if skipping || newline - lineStart > maximumLength {
          skipping = false
          compact()
          return try body(.tooLong)
        }
        var end = newline
        if end > lineStart, buffer[end - 1] == 0x0D { end -= 1 }
        let result = try buffer.withUnsafeBufferPointer {
          try body(.record(UnsafeBufferPointer(rebasing: $0[lineStart..<end])))
        }
        return result
      }
      scanned = buffer.count
      if buffer.count - start > maximumLength {
        skipping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
      }
      if ended {
        if skipping {
          skipping = false
          return try body(.tooLong)
        }
        guard start < buffer.count else { return nil }
        let lineStart = start
        start = buffer.count
        scanned = start
        var end = buffer.count
        if end > lineStart, buffer[end - 1] == 0x0D { end -= 1 }
        return try buffer.withUnsafeBufferPointer {
          try body(.record(UnsafeBufferPointer(rebasing: $0[lineStart..<end])))
        }
      }
      compact()
      let count = try source.read(into: chunk)
      if count == 0 {
        ended = true
      } else {
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<count]))
      }
    }
  }

  private mutating func compact() {
    if start > 0 {
      buffer.removeFirst(start)
      scanned -= start
      start = 0
    }
  }
}

extension UInt8 {
  fileprivate static let newline: UInt8 = 0x0A
}

/// Holds a record cut at a chunk's end and the chunk buffer it owns: one thread reads it.
@available(*, unavailable) extension LineReader: Sendable {}
