/// The words for a route in a table of many routes: one status word and figures sized for a
/// column, from the same rules as `line`, so a table never says less or more than the sentence.
extension RouteQuality {
  /// What kind of figure a route has, as one word in a list of shifts.
  public enum Status: String, Sendable, Hashable, CaseIterable {
    /// A figure, not partial.
    case measured
    /// A figure with the partial marker (gaps, a window with no positions near its ends).
    case partial
    /// No figure: which kind of nothing is `line`.
    case unmeasurable
    /// Reading stopped partway (a cut-off feed, an interrupted import): the figure, if any, is
    /// what was read before the stop.
    case truncated
  }

  /// The route's status word: `truncated` first (it qualifies any figure), then `unmeasurable`,
  /// `partial` or `measured`.
  ///
  ///     RouteQuality(distance).status.rawValue   // "partial"
  ///
  /// - Complexity: O(1).
  public var status: Status {
    if distance.cutOff != nil { return .truncated }
    if !distance.isMeasured { return .unmeasurable }
    return distance.isPartial ? .partial : .measured
  }

  /// The recorded figure for a column headed "miles": one decimal, no unit (`12.4`); `<0.1`
  /// for a measured route that rounds to zero, 0 m included (as `line` says `under 0.1 mi
  /// recorded`: "0.0" would read as "nothing was recorded"); `-` when nothing was measured.
  ///
  /// - Complexity: O(1).
  public var milesColumn: String {
    distance.isMeasured ? Self.column(distance.miles, locale: locale, isSomething: true) : "-"
  }

  /// The floor for a column headed "floor mi", by the same rule as `milesColumn`: a positive
  /// floor under 0.05 mi is `<0.1`; a floor of nothing proven is `0.0`; `-` when nothing was
  /// measured.
  ///
  /// - Complexity: O(1).
  public var floorMilesColumn: String {
    distance.isMeasured ? Self.column(distance.floorMiles, locale: locale) : "-"
  }

  /// `value` to one decimal, or `<0.1` (in the locale's decimal separator) by the small-figure
  /// rule (`MileageLocale.isSmall`): a figure that rounds to zero and is more than nothing, or
  /// `isSomething` (a measured route's 0 m).
  static func column(_ value: Double, locale: MileageLocale, isSomething: Bool = false) -> String {
    guard locale.isSmall(value, isSomething: isSomething) else { return locale.formattedOneDecimal(value) }
    return "<" + locale.formattedOneDecimal(0.1)
  }
}
