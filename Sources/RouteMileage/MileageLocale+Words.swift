/// The two rules every sentence the tool writes follows, whatever command writes it: one plural
/// rule for a count and its noun, and one small-figure rule for a distance too small for one
/// decimal. Kept beside the number formats because both depend on how a number is written.
///
///     locale.counted(1, "position")                          // "1 position"
///     locale.counted(4_067, "position")                      // "4,067 positions"
///     locale.counted(2, "batch")                             // "2 batches"
///     locale.formattedMiles(11.94, unit: "mi", qualifier: "At least")   // "At least 11.9 mi"
///     locale.formattedMiles(0.01, unit: "mi", qualifier: "At least")    // "Under 0.1 mi"
extension MileageLocale {
  /// A count grouped by this locale, then its noun: singular for exactly one, plural for every
  /// other count, none included (`0 gaps`, `1 gap`, `2 gaps`, `1,234 gaps`).
  ///
  /// - Parameters:
  ///   - singular: the noun for one, in English.
  ///   - plural: the noun for any other count, when it is not `singular`'s regular plural
  ///     (`regularPlural(_:)`).
  /// - Complexity: O(*n*) in the length of the text.
  public func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    formattedCount(count) + " " + Self.noun(singular, count: count, plural: plural)
  }

  /// The noun for `count` by the one plural rule: `singular` for exactly one, else `plural`
  /// (by default `singular`'s regular plural). For a noun apart from its count (`1 of 3
  /// positions`, `CRCs do`).
  ///
  /// - Complexity: O(*n*) in the length of the noun.
  public static func noun(_ singular: String, count: Int, plural: String? = nil) -> String {
    count == 1 ? singular : plural ?? regularPlural(singular)
  }

  /// English's regular plural, made at the end of the noun: `batch` → `batches`, `entry` →
  /// `entries`, `position` → `positions`. Pass `plural:` to `counted` or `noun` for a noun
  /// whose plural is irregular or not at its end (`gap in capture` → `gaps in capture`).
  ///
  /// - Complexity: O(*n*) in the length of the noun.
  public static func regularPlural(_ singular: String) -> String {
    guard let last = singular.last else { return singular }
    for ending in ["s", "x", "z", "ch", "sh"] where singular.hasSuffix(ending) { return singular + "es" }
    if last == "y", let before = singular.dropLast().last, !"aeiou".contains(before) {
      return singular.dropLast() + "ies"
    }
    return singular + "s"
  }

  /// The one small-figure rule, for a distance in a sentence: `value` to one decimal place with
  /// its `unit`, after `qualifier` when there is one (`at least 11.9 mi`, `about 0.2 mi`). A
  /// figure that is more than nothing but rounds to zero is `under 0.1 mi` whatever the
  /// qualifier, because "under" already says how the figure relates to 0.1, and "at least
  /// under 0.1 mi" or "about under 0.1 mi" say nothing; `Under` when the qualifier is
  /// capitalised (it starts a sentence). Nothing at all (0) is written `0.0 mi`: saying what
  /// nothing means is the sentence's business.
  ///
  /// - Parameters:
  ///   - isSomething: whether a figure of exactly 0 still stands for something (a measured
  ///     route whose positions did not move apart): then it too reads `under 0.1 mi`, never
  ///     `0.0 mi`, which would read as "nothing was recorded".
  /// - Complexity: O(1) but for the digits.
  public func formattedMiles(_ value: Double, unit: String, qualifier: String? = nil, isSomething: Bool = false)
    -> String
  {
    if isSmall(value, isSomething: isSomething) {
      let under = qualifier?.first?.isUppercase == true ? "Under" : "under"
      return "\(under) 0\(decimalSeparator)1 \(unit)"
    }
    let figure = "\(formattedOneDecimal(value)) \(unit)"
    return qualifier.map { "\($0) \(figure)" } ?? figure
  }

  /// Whether `value` is written by the small-figure rule: more than nothing (or exactly nothing
  /// that `isSomething`), and rounding to zero at one decimal.
  ///
  /// - Complexity: O(1).
  public func isSmall(_ value: Double, isSomething: Bool = false) -> Bool {
    (value > 0 || (isSomething && value == 0)) && (value * 10).rounded(.toNearestOrAwayFromZero) == 0
  }
}
