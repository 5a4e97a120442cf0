/// Metres per international mile. The only conversion constant in the package.
public let metersPerMile: Double = 1_609.344

extension RouteDistance {
  /// The measured distance in miles.
  public var miles: Double { RouteLength(meters: meters).miles }

  /// The floor (`floorMeters`) in miles.
  public var floorMiles: Double { RouteLength(meters: floorMeters).miles }

  /// The figure to one decimal place, such as `12.4 mi` or `12,4 mi`; nil when nothing was
  /// measured, so an unmeasured route can never be shown as `0.0 mi`.
  ///
  /// One decimal is what the measurement supports: positions carry error radii of up to 100 m
  /// and gaps are unmeasured. A measured route that rounds to zero, 0 m included, reads
  /// `under 0.1 mi` (the small-figure rule): something was measured, and "0.0" would read as
  /// "nothing was recorded".
  public func formattedMiles(locale: MileageLocale = .english) -> String? {
    guard isMeasured else { return nil }
    return locale.formattedMiles(miles, unit: "mi", isSomething: true)
  }

  /// The same figure with the unit spelled out, for speech: `12.4 miles`.
  public func spokenMiles(locale: MileageLocale = .english) -> String? {
    guard isMeasured else { return nil }
    return locale.formattedMiles(miles, unit: "miles", isSomething: true)
  }
}
