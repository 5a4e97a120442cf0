/// The markup of the last plain `Trackpoint` the fast path read element by element
/// (`TCXPlainPoint`), kept so the next points of the same shape are checked a word at a time
/// against it instead of tag by tag.
///
/// A device writes every point of a track with the same tags and indentation; only the texts
/// differ. The shape is the point's bytes cut at its leaf texts (the text of an element whose
/// next tag is its own end tag: the four values the reader reads, and the texts of skipped
/// fields such as `DistanceMeters`); every other byte, tags and the whitespace between them,
/// is markup, kept here with the lines it holds. A point whose markup is byte for byte the
/// shape's, and whose leaf texts pass as the element-by-element path passes them (`passText`:
/// no `&` in a value, no `<`, nothing cut by the chunk), is one that path accepts with the same
/// values, lines and fields, since what it decides depends only on the markup; so the point is
/// finished from here without asking it. Anything else falls back to it.
///
/// The bytes live in storage that is never written after it is made, so copies of a reader may
/// share it.
///
/// - Complexity: matching is O(*n*) in the point's length, eight bytes a compare; building is
///   O(*n*) and happens once per change of shape.
struct TCXPointShape {
  /// One run of markup and the text that follows it.
  struct Segment {
    /// Bytes of markup.
    var length: Int32
    /// Line breaks in them, counted as the scanner counts them.
    var lines: Int32
    /// What follows: a value role's index (`TCXRole.time` … `altitude`, from 0), `skippedText`,
    /// or `end` for the last run (which ends with `</Trackpoint>`).
    var text: UInt8
  }

  static let skippedText: UInt8 = 4
  static let end: UInt8 = 5
  /// The most markup bytes and runs a shape holds; a point with more is not kept.
  static let byteLimit = 1_024
  static let segmentLimit = 32

  private final class Storage {
    let bytes: UnsafeMutablePointer<UInt8>
    let segments: UnsafeMutablePointer<Segment>

    init(bytes: [UInt8], segments: [Segment]) {
      // Eight bytes of padding, so a word load at any markup offset stays inside.
      self.bytes = .allocate(capacity: bytes.count + 8)
      self.bytes.initialize(repeating: 0, count: bytes.count + 8)
      self.bytes.update(from: bytes, count: bytes.count)
      self.segments = .allocate(capacity: segments.count)
      self.segments.initialize(from: segments, count: segments.count)
    }

    deinit {
      bytes.deallocate()
      segments.deallocate()
    }
  }

  private var storage: Storage?
  // The storage's pointers, copied out so a match reads them without touching the object.
  private var bytes: UnsafePointer<UInt8>?
  private var segments: UnsafePointer<Segment>?
  private var segmentCount = 0
  /// The value roles present (a bit each, as the fast path's `fields`).
  private(set) var fields: UInt8 = 0
  private(set) var hasPosition = false
  /// Points in a row the shape did not match; a new shape is only taken after `patience` of
  /// them, so points of two shapes that alternate do not rebuild it every time.
  private var misses = 0
  /// Misses that make a new shape: 1 for the first, then 2, doubled (up to 256) each time a
  /// shape is replaced without having matched once (or was too long to keep), so a track whose
  /// markup never repeats rarely pays for one.
  private var patience = 1
  private var hasMatched = false

  var isEmpty: Bool { storage == nil }

  /// Whether `count` bytes at `a` and at `b` are equal; both must have eight bytes readable
  /// from the last compared one.
  @inline(__always)
  static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    @inline(__always) func word(_ p: UnsafePointer<UInt8>, _ k: Int) -> UInt64 {
      UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
    }
    var k = 0
    while k &+ 16 <= count {
      guard (word(a, k) ^ word(b, k)) | (word(a, k &+ 8) ^ word(b, k &+ 8)) == 0 else { return false }
      k &+= 16
    }
    if k &+ 8 <= count {
      guard word(a, k) == word(b, k) else { return false }
      k &+= 8
    }
    guard k < count else { return true }
    let mask: UInt64 = (1 << (UInt64(count &- k) &* 8)) &- 1
    return UInt64(littleEndian: word(a, k) ^ word(b, k)) & mask == 0
  }

  /// Matches the point whose `<` is at `c.index` against the shape: the cursor past its
  /// `</Trackpoint>` and its values in `values`, or false, the cursor anywhere, when it
  /// differs. A value that is exactly a plain number, or a `Z` time on the day `cache` holds, is
  /// read as it is passed (`ByteNumberParser.plainNumber`, `ISO8601DayCache.cachedDayZulu`: what
  /// `XMLFieldParser` reads for those bytes, and neither changes anything); any other is only
  /// found, and read once the point has matched. Requires a shape.
  ///
  /// - Complexity: O(*n*) in the point's length.
  @inline(__always)
  func match(_ c: inout XMLPlainCursor, cache: inout ISO8601DayCache, values: inout TCXPlainValues) -> Bool {
    guard let bytes, let segments else { return false }
    var markup = bytes
    values.read = 0
    for s in 0..<segmentCount {
      let segment = segments[s]
      let length = Int(segment.length)
      guard c.index &+ length &+ 8 <= c.bound, Self.same(c.base + c.index, markup, count: length) else {
        return false
      }
      c.index &+= length
      c.lines &+= Int(segment.lines)
      markup += length
      let text = segment.text
      if text == Self.end { return true }
      let start = c.index
      if text == 0 {
        if start &+ 24 <= c.bound, let (seconds, end) = cache.cachedDayZulu(c.base, at: start),
          c.base[end] == .asciiLess
        {
          values.time = seconds
          values.read |= 1
          values.ranges.0 = start..<end
          c.index = end
          continue
        }
      } else if text < Self.skippedText {
        var end = start
        if let number = ByteNumberParser.plainNumber(c.base, &end, bound: c.bound), end < c.bound,
          c.base[end] == .asciiLess
        {
          switch text {
          case 1: values.numbers.0 = number
          case 2: values.numbers.1 = number
          default: values.numbers.2 = number
          }
          values.read |= 1 << text
          c.index = end
          continue
        }
      }
      guard c.passText(ampersand: text != Self.skippedText) else { return false }
      switch text {
      case 0: values.ranges.0 = start..<c.index
      case 1: values.ranges.1 = start..<c.index
      case 2: values.ranges.2 = start..<c.index
      case 3: values.ranges.3 = start..<c.index
      default: continue
      }
      guard c.index &- start <= XMLValueBuffer.capacity else { return false }
    }
    return false
  }

  /// Counts a miss; whether the shape should be rebuilt from the next point the element-by-
  /// element path accepts.
  @inline(__always) mutating func missed() -> Bool {
    misses &+= 1
    return misses >= patience
  }

  @inline(__always) mutating func matched() {
    misses = 0
    hasMatched = true
  }

  /// Line breaks in `base[range]` as the scanner counts them: a line feed, a carriage return
  /// and a carriage return followed by a line feed are one each. The range must not start with
  /// a line feed that follows a carriage return outside it.
  static func lines(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int {
    var count = 0
    for index in range {
      let byte = base[index]
      if byte == .asciiReturn
        || (byte == .asciiNewline && (index == range.lowerBound || base[index - 1] != .asciiReturn))
      {
        count += 1
      }
    }
    return count
  }

  /// Takes the shape of the point at `base[range]`, which the element-by-element path has just
  /// accepted with `values` (by role index, those whose bit is set in `fields`). Leaves the
  /// shape empty for a point too long to keep.
  ///
  /// - Complexity: O(*n*) in the point's length.
  mutating func build(
    _ base: UnsafePointer<UInt8>, _ range: Range<Int>,
    values: (Range<Int>, Range<Int>, Range<Int>, Range<Int>), fields: UInt8, hasPosition: Bool
  ) {
    let patience = hasMatched ? 2 : min(self.patience * 2, 256)
    self = TCXPointShape()
    self.patience = patience
    var markup: [UInt8] = []
    var runs: [Segment] = []
    var runStart = range.lowerBound
    var index = range.lowerBound
    func run(to end: Int, text: UInt8) {
      markup.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: end - runStart))
      runs.append(Segment(length: Int32(end - runStart), lines: Int32(Self.lines(base, runStart..<end)), text: text))
    }
    // Elements open, the point's own included: texts directly in the point and in its
    // `Position` are whitespace the element-by-element path passes as such, so they stay markup.
    var depth = 0
    // Every `<` of an accepted point begins a tag without attributes, and no tag holds `>`.
    while index < range.upperBound {
      let tag = index
      let isEndTag = base[index + 1] == .asciiSlash
      depth += isEndTag ? -1 : 1
      while base[index] != .asciiGreater { index += 1 }
      index += 1
      guard index < range.upperBound else { break }
      var next = index
      while base[next] != .asciiLess { next += 1 }
      let isPosition =
        index - tag == 10
        && UnsafeRawPointer(base + tag).loadUnaligned(as: UInt64.self) == TCXTrackBuilder.PlainTag.position.0
      if !isEndTag, depth >= 2, !isPosition, base[next + 1] == .asciiSlash {
        var text = Self.skippedText
        for role in 0..<4 where fields & (1 << role) != 0 {
          let value = role == 0 ? values.0 : role == 1 ? values.1 : role == 2 ? values.2 : values.3
          if value.lowerBound == index { text = UInt8(role) }
        }
        run(to: index, text: text)
        runStart = next
      }
      index = next
    }
    run(to: range.upperBound, text: Self.end)
    guard markup.count <= Self.byteLimit, runs.count <= Self.segmentLimit else { return }
    let storage = Storage(bytes: markup, segments: runs)
    self.storage = storage
    bytes = UnsafePointer(storage.bytes)
    segments = UnsafePointer(storage.segments)
    segmentCount = runs.count
    self.fields = fields
    self.hasPosition = hasPosition
  }
}

/// The values of a point matched against a `TCXPointShape`: those read as they were passed
/// (a bit each in `read`, by role index) and the ranges of the rest.
struct TCXPlainValues {
  var ranges = (0..<0, 0..<0, 0..<0, 0..<0)
  var time = 0.0
  /// Latitude, longitude and altitude.
  var numbers = (0.0, 0.0, 0.0)
  var read: UInt8 = 0
}
