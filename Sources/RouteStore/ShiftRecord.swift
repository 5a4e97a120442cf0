import RouteMileage
import ShiftWork

/// A shift's row ID in the store.
public struct ShiftID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  public init(_ rawValue: Int64) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "shift \(rawValue)" }
}

/// Where a shift's rows stand. Stored as text so the file explains itself.
public enum ShiftStatus: String, Sendable, Hashable, CaseIterable {
  /// An import is writing (or was writing when it was interrupted) the shift's samples. Its
  /// rows are whole batches, but not necessarily all of the feed: never report it as finished.
  case importing
  /// Every retained sample of the feed was written; marked in the import's last transaction.
  case complete
  /// A live (replayed) shift that is still being recorded.
  case running
}

/// One shift as listed. Counts are read from the rows each time; nothing derived is stored.
public struct ShiftRecord: Sendable, Hashable {
  public var id: ShiftID
  /// Seconds since 1970-01-01T00:00:00Z: the window's start when one was given, otherwise the
  /// first retained sample's time (or `importedAt` when there was none).
  public var start: Double
  /// The window's end, or nil when the shift has no window.
  public var end: Double?
  /// Where the rows came from (a feed's file name), as the importer recorded it.
  public var source: String
  /// When the import (or the live shift) began, seconds since 1970-01-01T00:00:00Z.
  public var importedAt: Double
  public var status: ShiftStatus
  /// How many route rows the shift holds now.
  public var sampleCount: Int
  /// The shift's timeline, when one was recorded (schema version 2).
  public var timeline: ShiftTimeline?
  /// SHA-256 of the feed file the shift was imported from, when known (schema version 2).
  public var contentHash: String?
  /// Where and why reading stopped, for a finished import of a feed cut off mid-record
  /// ("line 812: the feed ends early: …", the reader's words; never a coordinate); nil for a
  /// feed read to its end (schema version 2).
  public var stoppedReading: String?
  /// The shift's deliveries and offers as its ledger (with its timeline and clamps), when it
  /// recorded any (schema version 3). Every figure about them is derived from it.
  public var ledger: ShiftLedger?

  public init(
    id: ShiftID, start: Double, end: Double?, source: String, importedAt: Double,
    status: ShiftStatus, sampleCount: Int, timeline: ShiftTimeline? = nil, contentHash: String? = nil,
    stoppedReading: String? = nil, ledger: ShiftLedger? = nil
  ) {
    self.ledger = ledger
    self.stoppedReading = stoppedReading
    self.timeline = timeline
    self.contentHash = contentHash
    self.id = id
    self.start = start
    self.end = end
    self.source = source
    self.importedAt = importedAt
    self.status = status
    self.sampleCount = sampleCount
  }

  /// The window [start, end] a finished shift is measured against; nil when `end` is nil
  /// (an import without a window, or a running shift).
  public var window: ShiftWindow? { end.flatMap { ShiftWindow(start: start, end: $0) } }

  /// Whether the shift is over with a known window: its timeline ended, or it was imported
  /// with `--shift-start/--shift-end`. A finished import with neither has no window and is never
  /// called complete (it is listed as having no window).
  public var hasEnded: Bool { status == .complete && window != nil }

  /// True when an import stopped before marking the shift complete.
  public var isInterrupted: Bool { status == .importing }

  /// Where reading of the shift's feed stopped before its end, if it did: an interrupted import
  /// (no line: the store keeps rows, not lines), or a finished import of a feed cut off
  /// mid-record (the line it was cut off at, as `measure` says of the same file). This is what
  /// makes its figure partial and its status `interrupted` or `truncated`.
  public var cutOff: RecordingCutOff? {
    if isInterrupted { return RecordingCutOff(line: nil) }
    return stoppedReading.map { RecordingCutOff(line: Self.line(ofStoppedReading: $0)) }
  }

  /// True for a finished import of a feed cut off mid-record (status word `truncated`).
  public var isTruncated: Bool { status == .complete && stoppedReading != nil }

  /// The text stored in `stopped_reading`: "line N: why", or "why" when there is no line.
  public static func stoppedReading(line: Int?, why: String) -> String {
    line.map { "line \($0): \(why)" } ?? why
  }

  /// The line of a `stopped_reading` text, the inverse of `stoppedReading(line:why:)`.
  ///
  /// - Complexity: O(length of the text).
  static func line(ofStoppedReading text: String) -> Int? {
    guard text.hasPrefix("line ") else { return nil }
    let digits = text.dropFirst(5).prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, text.dropFirst(5 + digits.count).hasPrefix(":") else { return nil }
    return Int(digits)
  }
}
