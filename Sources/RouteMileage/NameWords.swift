/// A stable camelCase name (a JSON key, a reason, a gap kind) written as words for a sentence,
/// so a report never shows a program's identifier where a person reads: `badTime` → `bad time`,
/// `negligibleMovement` → `negligible movement`, `badJSON` → `bad JSON`, `notASentence` → `not a
/// sentence`. The names themselves stay as they are wherever a program reads them (JSON keys).
public enum NameWords {
  /// The words of `name`: a new word starts at an uppercase letter after a lowercase one, and at
  /// the last uppercase letter of a run followed by a lowercase one (`JSONKey` → `JSON key`);
  /// a run of two or more uppercase letters is an acronym and keeps its case, every other word
  /// is lowercased.
  ///
  /// - Complexity: O(*n*) in the length of `name`.
  public static func words(_ name: String) -> String {
    let characters = Array(name)
    var words: [String] = []
    var current = ""
    for (index, character) in characters.enumerated() {
      let previous = index > 0 ? characters[index - 1] : nil
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      if character.isUppercase, !current.isEmpty,
        previous?.isLowercase == true || previous?.isNumber == true
          || (previous?.isUppercase == true && next?.isLowercase == true)
      {
        words.append(current)
        current = ""
      }
      current.append(character)
    }
    if !current.isEmpty { words.append(current) }
    return words.map { word in
      word.count > 1 && word.allSatisfy({ $0.isUppercase || $0.isNumber }) ? word : word.lowercased()
    }.joined(separator: " ")
  }
}

extension RouteGap.Kind {
  /// The kind in words for a sentence or a label: `session change`, `window start`.
  public var words: String { NameWords.words(rawValue) }
}
