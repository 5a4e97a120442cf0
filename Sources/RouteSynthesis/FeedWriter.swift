/// Streams synthetic fixes to GPX 1.1, NMEA 0183 or CSV.
///
/// Each writer formats into one 64 KiB buffer and hands it to the sink whenever it fills, so a
/// 1 GB feed is written in constant memory, and the bytes depend only on the fixes (the same
/// drive always writes the same file). Each returns the number of bytes written.
///
///     let drive = SyntheticDrive(seed: 7, duration: 7_200)
///     try FeedWriter.writeCSV(drive, to: STDOUT_FILENO)
///
/// - Complexity: O(*n*) in the number of fixes; O(1) memory beyond the buffer.
public enum FeedWriter {
  /// Writes to a file descriptor, which it leaves open.
  @discardableResult
  public static func writeGPX(
    _ fixes: some Sequence<SyntheticFix>, to descriptor: Int32, options: GPXWriterOptions = GPXWriterOptions()
  ) throws(SynthesisWriteError) -> Int {
    var sink = FileDescriptorSink(descriptor: descriptor)
    return try writeGPX(fixes, into: &sink, options: options)
  }

  /// Writes to a file descriptor, which it leaves open.
  @discardableResult
  public static func writeNMEA(
    _ fixes: some Sequence<SyntheticFix>, to descriptor: Int32, options: NMEAWriterOptions = NMEAWriterOptions()
  ) throws(SynthesisWriteError) -> Int {
    var sink = FileDescriptorSink(descriptor: descriptor)
    return try writeNMEA(fixes, into: &sink, options: options)
  }

  /// Writes to a file descriptor, which it leaves open.
  @discardableResult
  public static func writeCSV(
    _ fixes: some Sequence<SyntheticFix>, to descriptor: Int32, options: CSVWriterOptions = .canonical
  ) throws(SynthesisWriteError) -> Int {
    var sink = FileDescriptorSink(descriptor: descriptor)
    return try writeCSV(fixes, into: &sink, options: options)
  }

  /// Writes in `format` with default options for it.
  @discardableResult
  public static func write(
    _ fixes: some Sequence<SyntheticFix>, as format: SyntheticFeedFormat, into sink: inout some SynthesisByteSink
  ) throws(SynthesisWriteError) -> Int {
    switch format {
    case .gpx(let options): return try writeGPX(fixes, into: &sink, options: options)
    case .nmea(let options): return try writeNMEA(fixes, into: &sink, options: options)
    case .csv(let options): return try writeCSV(fixes, into: &sink, options: options)
    }
  }
}

/// A feed format with its writer options.
public enum SyntheticFeedFormat: Sendable, Hashable {
  case gpx(GPXWriterOptions)
  case nmea(NMEAWriterOptions)
  case csv(CSVWriterOptions)

  public static let gpx = SyntheticFeedFormat.gpx(GPXWriterOptions())
  public static let nmea = SyntheticFeedFormat.nmea(NMEAWriterOptions())
  public static let csv = SyntheticFeedFormat.csv(.canonical)
}
