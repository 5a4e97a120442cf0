import ShiftWork
import Testing

/// Seed 003's one naming policy: display form (NFC, whitespace collapsed) and key (apostrophes
/// unified, locale-independent case folding). Every name is invented.
@Suite("PickupPlaceName")
struct PickupPlaceNameTests {
  /// Typed text, the display form it must give, and the key it must give (escapes spell every
  /// code point, so a composed and a decomposed accent are visibly different inputs).
  static let table: [(typed: String, display: String, key: String)] = [
    // Composed and decomposed accents: one text.
    ("Caf\u{E9} Rio", "Caf\u{E9} Rio", "caf\u{E9} rio"),
    ("Cafe\u{301} Rio", "Caf\u{E9} Rio", "caf\u{E9} rio"),
    ("CAFE\u{301} RIO", "CAF\u{C9} RIO", "caf\u{E9} rio"),
    // Diacritics kept: Cafe Rio is another place.
    ("Cafe Rio", "Cafe Rio", "cafe rio"),
    // Angstrom sign and A + ring: singleton and composition.
    ("\u{212B}ngstr\u{F6}m Bakery", "\u{C5}ngstr\u{F6}m Bakery", "\u{E5}ngstr\u{F6}m bakery"),
    ("A\u{30A}ngstro\u{308}m Bakery", "\u{C5}ngstr\u{F6}m Bakery", "\u{E5}ngstr\u{F6}m bakery"),
    // Every apostrophe: the display keeps the spelling, the key unifies.
    ("Nowhere's Noodles", "Nowhere's Noodles", "nowhere's noodles"),
    ("Nowhere\u{2019}s Noodles", "Nowhere\u{2019}s Noodles", "nowhere's noodles"),
    ("Nowhere\u{2BC}s Noodles", "Nowhere\u{2BC}s Noodles", "nowhere's noodles"),
    ("Nowhere\u{2018}s Noodles", "Nowhere\u{2018}s Noodles", "nowhere's noodles"),
    ("Nowhere\u{B4}s Noodles", "Nowhere\u{B4}s Noodles", "nowhere's noodles"),
    ("Nowhere`s Noodles", "Nowhere`s Noodles", "nowhere's noodles"),
    // Punctuation kept.
    ("Nowheres Noodles", "Nowheres Noodles", "nowheres noodles"),
    ("A&B Grill", "A&B Grill", "a&b grill"),
    // Whitespace runs of any kind become one space; ends trimmed.
    ("  Example\tDiner \n", "Example Diner", "example diner"),
    ("Example\r\n\r\nDiner", "Example Diner", "example diner"),
    ("Example\u{A0}\u{2003} Diner", "Example Diner", "example diner"),
    ("\tExample \u{2028}Diner\u{3000}", "Example Diner", "example diner"),
    // Scripts other than Latin.
    (
      "\u{39A}\u{3B1}\u{3C6}\u{3AD} \u{39F}\u{394}\u{39F}\u{3A3}",
      "\u{39A}\u{3B1}\u{3C6}\u{3AD} \u{39F}\u{394}\u{39F}\u{3A3}",
      "\u{3BA}\u{3B1}\u{3C6}\u{3AD} \u{3BF}\u{3B4}\u{3BF}\u{3C3}"
    ),
    (
      "\u{3BA}\u{3B1}\u{3C6}\u{3B5}\u{301} \u{3BF}\u{3B4}\u{3BF}\u{3C2}",
      "\u{3BA}\u{3B1}\u{3C6}\u{3AD} \u{3BF}\u{3B4}\u{3BF}\u{3C2}",
      "\u{3BA}\u{3B1}\u{3C6}\u{3AD} \u{3BF}\u{3B4}\u{3BF}\u{3C3}"
    ),
    (
      "\u{41F}\u{415}\u{41A}\u{410}\u{420}\u{41D}\u{42F} \u{401}\u{416}",
      "\u{41F}\u{415}\u{41A}\u{410}\u{420}\u{41D}\u{42F} \u{401}\u{416}",
      "\u{43F}\u{435}\u{43A}\u{430}\u{440}\u{43D}\u{44F} \u{451}\u{436}"
    ),
    ("\u{415}\u{308}\u{416}", "\u{401}\u{416}", "\u{451}\u{436}"),
    (
      "\u{7A7A}\u{60F3}\u{30E9}\u{30FC}\u{30E1}\u{30F3}", "\u{7A7A}\u{60F3}\u{30E9}\u{30FC}\u{30E1}\u{30F3}",
      "\u{7A7A}\u{60F3}\u{30E9}\u{30FC}\u{30E1}\u{30F3}"
    ),
    ("\u{1100}\u{1161}\u{11A8} \u{C2DD}\u{B2F9}", "\u{AC01} \u{C2DD}\u{B2F9}", "\u{AC01} \u{C2DD}\u{B2F9}"),
    (
      "\u{645}\u{637}\u{639}\u{645}  \u{627}\u{644}\u{62E}\u{64A}\u{627}\u{644}",
      "\u{645}\u{637}\u{639}\u{645} \u{627}\u{644}\u{62E}\u{64A}\u{627}\u{644}",
      "\u{645}\u{637}\u{639}\u{645} \u{627}\u{644}\u{62E}\u{64A}\u{627}\u{644}"
    ),
    // Locale-independent folding: I is i everywhere; dotted İ keeps its dot; dotless ı stays.
    ("ISTANBUL KEBAB", "ISTANBUL KEBAB", "istanbul kebab"),
    ("\u{130}STANBUL KEBAB", "\u{130}STANBUL KEBAB", "i\u{307}stanbul kebab"),
    ("\u{131}stanbul Kebab", "\u{131}stanbul Kebab", "\u{131}stanbul kebab"),
    // Full folding, not lowercasing: ß and SS, ẞ, the ligature.
    ("STRASSE CAF\u{C9}", "STRASSE CAF\u{C9}", "strasse caf\u{E9}"),
    ("Stra\u{DF}e Caf\u{E9}", "Stra\u{DF}e Caf\u{E9}", "strasse caf\u{E9}"),
    ("STRA\u{1E9E}E CAF\u{C9}", "STRA\u{1E9E}E CAF\u{C9}", "strasse caf\u{E9}"),
    ("\u{FB01}sh Shack", "\u{FB01}sh Shack", "fish shack"),
  ]

  @Test(arguments: table)
  func normalisesDisplayAndKey(typed: String, display: String, key: String) throws {
    let name = try PickupPlaceName(typed)
    // Compare scalars: `String ==` is canonical equivalence and would hide a missing composition.
    #expect(Array(name.display.unicodeScalars) == Array(display.unicodeScalars))
    #expect(Array(name.key.unicodeScalars) == Array(key.unicodeScalars))
    #expect(name.description == name.display)
  }

  @Test func keysDecideIdentityAndKeepDistinctionsApart() throws {
    func key(_ text: String) throws -> String { try PickupPlaceName(text).key }
    #expect(try key("McDonald\u{2019}s") == key("mcdonald's"))
    #expect(try key("McDonald's") != key("McDonalds"))
    #expect(try key("Caf\u{E9} Rio") != key("Cafe Rio"))
    #expect(try key("Nowhere Noodle") != key("Nowhere Noodles"))
    #expect(try key("St Example Diner") != key("Street Example Diner"))
    #expect(try key("\u{130}stanbul") != key("Istanbul"))
    #expect(try key("\u{131}stanbul") != key("istanbul"))
  }

  @Test(arguments: ["", " ", "\t\n", "\u{A0}\u{3000}\r\n"])
  func refusesAnEmptyName(typed: String) {
    #expect(throws: PickupPlaceName.Refusal.empty) { try PickupPlaceName(typed) }
  }

  @Test func theLengthLimitIsOneHundredCharactersAfterTheCleanup() throws {
    let hundred = String(repeating: "x", count: 100)
    #expect(try PickupPlaceName(hundred).display.count == 100)
    // Decomposed accents count as the characters they compose; whitespace runs as one space.
    let accented = String(repeating: "e\u{301}", count: 100)
    #expect(try PickupPlaceName(accented).display.unicodeScalars.count == 100)
    let spaced = String(repeating: "x", count: 50) + "\n\t  " + String(repeating: "y", count: 49)
    #expect(try PickupPlaceName("   " + spaced + "   ").display.count == 100)
    #expect(throws: PickupPlaceName.Refusal.tooLong(characters: 101)) { try PickupPlaceName(hundred + "x") }
    #expect(throws: PickupPlaceName.Refusal.tooLong(characters: 101)) { try PickupPlaceName(accented + "e\u{301}") }
    #expect(
      PickupPlaceName.Refusal.tooLong(characters: 101).description
        == "a pickup place name is at most 100 characters; this one has 101")
    #expect(PickupPlaceName.Refusal.empty.description == "a pickup place name cannot be empty")
  }
}
