extension FeedReason {
  // A FIT `record` without a valid position (absent or 0x7FFFFFFF) is `missingPosition`, the
  // reason TCX declares for a Trackpoint without one (Sources/RouteFeeds/TCX/TCXReader.swift).
  /// A FIT `record` whose timestamp is below 0x10000000: seconds since the device powered on,
  /// not a date, so it cannot be placed on the shift's clock. Counted under `rejected`.
  public static let deviceRelativeTime = FeedReason("deviceRelativeTime")
  /// A FIT `record` whose timestamp or position field has a size its type cannot have (not 4
  /// bytes): its value cannot be read. Counted under `errors`, at the message's byte offset.
  public static let badFieldSize = FeedReason("badFieldSize")
  /// A FIT `record` message the file ends inside of (cut off). Counted under `errors`.
  public static let unfinishedRecord = FeedReason("unfinishedRecord")
  /// A FIT header or file whose CRC-16 does not match its bytes: the file was changed or damaged
  /// after it was written. Every record is read all the same; reported under `notes`, at the
  /// CRC's byte offset.
  public static let crcMismatch = FeedReason("crcMismatch")
  /// A FIT data message that is not a `record` (file_id, event, lap, session, device_info, hr,
  /// developer data, …): not a position. Counted under `ignored`.
  public static let nonRecordMessage = FeedReason("nonRecordMessage")
}
