/// The NMEA 0183 reader's own report reasons. The shared ones (`noFix`, `missingTime`,
/// `badNumber`, `badTime`, `lineTooLong`, `binary`) are in `FeedReason.swift`.
extension FeedReason {
  // Lines or sentences that could not be read (reported under `errors`).
  /// The sentence's `*hh` checksum does not match its bytes, or is not two hex digits; the
  /// bytes were damaged on the way, so nothing in it is trusted.
  public static let badChecksum = FeedReason("badChecksum")
  // Caveats on sentences read all the same (reported under `notes`).
  /// A sentence without a `*hh` checksum, read unchecked: some loggers write none.
  public static let checksumMissing = FeedReason("checksumMissing")
  /// A sentence cut off by the start of another on the same line (a packet collision), or the
  /// feed's last line ending mid-sentence.
  public static let truncatedSentence = FeedReason("truncatedSentence")
  /// Text that does not start with `$` or `!`: garbage, or the tail of a cut sentence.
  public static let notASentence = FeedReason("notASentence")
  /// A `$` sentence whose address is not a two-letter talker and a three-letter type.
  public static let badAddress = FeedReason("badAddress")
  /// A sentence the reader uses, with fewer fields than its definition.
  public static let missingFields = FeedReason("missingFields")

  // Lines that are not records (reported under `ignored`).
  /// A `#` comment line (gpsd's test logs carry a comment header).
  public static let comment = FeedReason("comment")
  /// An empty line, or one holding only spaces, tabs or NUL padding.
  public static let blankLine = FeedReason("blankLine")
  /// A manufacturer's own `$P…` sentence.
  public static let proprietary = FeedReason("proprietary")
  /// A `!` sentence: AIS (`!AIVDM`) or other encapsulated data.
  public static let ais = FeedReason("ais")
  /// A well-formed sentence from a GNSS talker that carries no position, time or accuracy the
  /// reader uses (GSV, VTG, GBS, RMB, TXT, …).
  public static let supportingSentence = FeedReason("supportingSentence")
  /// A well-formed sentence from a talker that is not a GNSS receiver (a compass's `HCHDG`, an
  /// integrated instrument's `II…`).
  public static let otherTalker = FeedReason("otherTalker")
  /// A ZDA sentence: read for its date, not a position record.
  public static let dateSentence = FeedReason("dateSentence")
  /// A GSA or GST that could not be paired with any position sentence of its epoch.
  public static let unpairedSentence = FeedReason("unpairedSentence")
}
