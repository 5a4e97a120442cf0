/// What an open element means to one format's reader, decided once when its start tag is read
/// and kept on the element stack (one byte: each format's roles are a small `UInt8` enum).
protocol XMLRole: Equatable {
  /// The root element's role.
  static var root: Self { get }
  /// An element whose whole subtree is passed over.
  static var skipped: Self { get }
  /// Whether the element's text is one value the reader collects (at most
  /// `XMLValueBuffer.capacity` bytes) and is handed whole when the element closes.
  var isValue: Bool { get }
  /// Whether the element's text is handed to the mapper piece by piece as it is scanned
  /// (`XMLDocumentMapper.text`), for texts of any length such as KML's `<coordinates>`.
  var streamsText: Bool { get }
}

/// One XML format's meaning, on top of the shared streaming scanner (`XMLScanner`): which
/// element is what, which attribute values and texts it needs, and what each finished record
/// becomes in the sink. The scanner does the XML (well-formedness, lines, entities, CDATA,
/// chunk boundaries); a mapper only maps elements to samples and sessions.
///
/// Elements are named by the first eight bytes of their local name packed little-endian
/// (`prefix`) and the local name's length (`length`); see `XMLName`. Namespace prefixes are
/// ignored. Every method is called on the scanner's hot path: keep them O(1) and allocation-free
/// on a well-formed feed.
protocol XMLDocumentMapper {
  associatedtype Role: XMLRole

  init()

  /// The day cache the mapper reads its times through (zone-less times included).
  var timestamps: ISO8601DayCache { get set }

  /// The root element's name, for messages: "this is not a GPX document: its root element is
  /// <kml>, not <gpx>".
  static var rootName: String { get }
  /// The format's name in that message.
  static var formatName: String { get }
  /// Whether a root element with this local name is the format's.
  static func isRoot(prefix: UInt64, length: Int) -> Bool

  /// The role of an element opened directly inside `parent` (which is neither skipped nor a
  /// value); records that are counted when they open are counted here.
  mutating func role(ofChild prefix: UInt64, length: Int, in parent: Role, line: Int, into sink: inout some FeedSink)
    -> Role

  /// An element that opened with the role `.skipped` (anywhere, also inside a skipped
  /// subtree): a mapper may count one that stands where its schema has none.
  mutating func skipped(prefix: UInt64, length: Int, line: Int, into sink: inout some FeedSink)

  /// Which attribute of an element with `role` the mapper needs: 0 for none, else a number of
  /// the mapper's choosing, handed back to `attribute`.
  func attributeTarget(prefix: UInt64, length: Int, in role: Role) -> UInt8

  /// A needed attribute's value, `value` ending with `base[from..<to]` (see
  /// `XMLValueBuffer.finish`). Returns the attribute's name when it is repeated (the scanner
  /// then stops: XML forbids it), else nil.
  mutating func attribute(
    _ target: UInt8, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int
  ) -> String?

  /// The element with `role` closed; for a value role, its text is `value` ending with
  /// `base[from..<to]`.
  mutating func close(
    _ role: Role, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int,
    into sink: inout some FeedSink)

  /// A piece of the text of an element whose role `streamsText` (character data, CDATA, or one
  /// decoded reference), in document order.
  mutating func text(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int)

  /// The document broke off (malformed or truncated): count whatever record it cut off.
  mutating func abandon(into sink: inout some FeedSink)

  /// The role of the element directly inside which `readPlainRecord` is tried at each `<`;
  /// nil (the default) for a format without a fast path.
  static var plainRecordParent: Role? { get }

  /// Reads the element whose `<` is at `base[start]` whole, when it has the plain shape of
  /// the format's common record (see `XMLPlainCursor`), and hands its records to `sink`
  /// exactly as the scanner's element-by-element calls would: returns the cursor past its end
  /// tag, with the line feeds inside it. Returns nil, having changed nothing (no record, no
  /// state, not even the day cache), for any other shape; the scanner then reads it.
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor?
}

extension XMLDocumentMapper {
  func attributeTarget(prefix: UInt64, length: Int, in role: Role) -> UInt8 { 0 }
  mutating func attribute(
    _ target: UInt8, _ value: inout XMLValueBuffer, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int
  ) -> String? { nil }
  mutating func skipped(prefix: UInt64, length: Int, line: Int, into sink: inout some FeedSink) {}
  mutating func text(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {}
  static var plainRecordParent: Role? { nil }
  mutating func readPlainRecord(
    _ base: UnsafePointer<UInt8>, at start: Int, bound: Int, line: Int, into sink: inout some FeedSink
  ) -> XMLPlainCursor? { nil }
}
