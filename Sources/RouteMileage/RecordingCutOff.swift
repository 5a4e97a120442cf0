/// Where reading of a recording stopped before its end: a file cut off mid-record, a damaged
/// stretch the reader cannot get past, or an import that did not finish writing its shift.
///
/// Why it is part of the measurement: the route ends where reading stopped, and whatever was
/// recorded after that point is unknown, so the figure can only fall short of the drive. A
/// cut-off route is therefore always partial, and its words say where reading stopped — the
/// same on every surface (`measure`, `batch`, `import`, `shifts`).
public struct RecordingCutOff: Sendable, Hashable {
  /// The line of the file reading stopped at; nil for a stored shift, whose import stopped
  /// before the end of its feed (the store keeps rows, not lines).
  public var line: Int?

  public init(line: Int?) {
    self.line = line
  }
}
