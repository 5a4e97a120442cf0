/// The one policy for a pickup place's name (seed 003): a display form that keeps the driver's
/// spelling, and a key that decides identity and is never shown.
///
/// Display form: Unicode canonical composition (NFC), then every run of whitespace (the Unicode
/// `White_Space` property: spaces, tabs, newlines, no-break spaces, …) becomes one space, and the
/// ends are trimmed. Key: the display form with the five apostrophes ’ ʼ ‘ ´ ` unified to ', then
/// locale-independent full case folding, composed again. Punctuation and diacritics are kept
/// (`A&B Grill` keys as `a&b grill`; `McDonald's` and `McDonalds`, `Café Rio` and `Cafe Rio` are
/// two places); nothing is abbreviated, expanded or matched fuzzily. Identity is equality of keys.
///
///     let a = try PickupPlaceName("Cafe\u{301}  Rio\n")   // display "Café Rio"
///     let b = try PickupPlaceName("CAFÉ RIO")
///     a.key == b.key                                      // true
///
/// NFC comes from the standard library's own normaliser (`String._nfcCodeUnits`, the one `==`
/// on strings relies on); the tests pin its behaviour on composed and decomposed pairs.
///
/// - Complexity: O(*n*) in the name's length.
public struct PickupPlaceName: Sendable, Hashable, CustomStringConvertible {
  /// The longest display form accepted, in characters (extended grapheme clusters) after the
  /// cleanup: 100, room for any real business name and a bound on what a store row holds.
  public static let maximumLength = 100

  /// Why a typed name is not a place name. The refusal never repeats the name.
  public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing but whitespace (or nothing at all).
    case empty
    /// Longer than `maximumLength` characters after the cleanup.
    case tooLong(characters: Int)

    public var description: String {
      switch self {
      case .empty: "a pickup place name cannot be empty"
      case .tooLong(let characters):
        "a pickup place name is at most \(PickupPlaceName.maximumLength) characters; this one has \(characters)"
      }
    }
  }

  /// The driver's spelling, cleaned up: what every screen shows.
  public let display: String
  /// The comparison key. Never printed, logged or exported: it exists to match names.
  public let key: String

  /// The place name `typed`, or the refusal.
  public init(_ typed: String) throws(Refusal) {
    let display = Self.displayForm(typed)
    guard !display.isEmpty else { throw .empty }
    let count = display.count
    guard count <= Self.maximumLength else { throw .tooLong(characters: count) }
    self.display = display
    self.key = Self.composed(CaseFolding.folded(Self.unifyingApostrophes(display)))
  }

  /// The display form.
  public var description: String { display }

  // MARK: The steps

  /// NFC, whitespace runs collapsed to one space, ends trimmed.
  static func displayForm(_ typed: String) -> String {
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in composed(typed).unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace {
        result.append(" ")
        pendingSpace = false
      }
      result.append(scalar)
    }
    return String(result)
  }

  /// The apostrophes a keyboard substitutes for one another: ’ (U+2019), ʼ (U+02BC), ‘ (U+2018),
  /// ´ (U+00B4) and ` (U+0060).
  static let apostrophes: Set<Unicode.Scalar> = ["\u{2019}", "\u{02BC}", "\u{2018}", "\u{00B4}", "\u{0060}"]

  static func unifyingApostrophes(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { result.append(apostrophes.contains(scalar) ? "'" : scalar) }
    return String(result)
  }

  /// Canonical composition (NFC).
  static func composed(_ text: String) -> String {
    String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }
}
