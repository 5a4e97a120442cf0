/// The words for a measured route: one tested type, so every surface says the same thing.
///
/// A recorded route is a floor on the distance driven, and almost every natural phrase for it
/// claims more, so only what the stored data supports is stated: recorded mileage, how many
/// unbroken stretches of capture contributed, how many gaps were left out, whether the route is
/// partial, whether continuity was inferred. There is no coverage percentage (its denominator
/// would be the distance actually driven, which nobody has), and none of the words total,
/// complete, tax or deductible. An unmeasured route says which kind of nothing it is and is
/// never shown as `0.0 mi`.
///
///     RouteQuality(distance).line      // "12.4 mi recorded · partial route"
///     RouteQuality(distance).spoken    // "12.4 miles recorded. Partial route: …"
public struct RouteQuality: Sendable, Hashable {
  public let distance: RouteDistance
  public let locale: MileageLocale

  public init(_ distance: RouteDistance, locale: MileageLocale = .english) {
    self.distance = distance
    self.locale = locale
  }

  /// The two-word marker that travels beside a partial figure.
  public static let partialMarker = "partial route"

  /// The figure alone, `12.4 mi recorded`; nil when nothing was measured.
  public var figure: String? {
    distance.formattedMiles(locale: locale).map { "\($0) recorded" }
  }

  /// The short line for a list or a card: `12.4 mi recorded`, `12.4 mi recorded · partial
  /// route`, or what kind of nothing an unmeasured route is.
  public var line: String {
    guard let figure else { return unmeasuredLine }
    return distance.isPartial ? "\(figure) · \(Self.partialMarker)" : figure
  }

  /// The sentences that qualify the figure on a detail screen, in reading order.
  public var detailSentences: [String] {
    let cutOff = cutOffSentence.map { [$0] } ?? []
    let untimed = withoutTimeSentence.map { [$0] } ?? []
    switch distance.unmeasurable {
    case .noUsablePosition? where distance.positionsOutsideWindow > 0:
      return ["No usable position was recorded during the shift, so no distance could be measured."] + untimed + cutOff
    case .noUsablePosition?:
      return ["No usable position was recorded, so no distance could be measured."] + untimed + cutOff
    case .noTwoContinuousPositions?:
      return [
        "Positions were recorded, but no two of them were captured continuously, so no distance could be measured."
      ] + untimed + cutOff
    case nil:
      break
    }
    var sentences: [String] = []
    let stretches = locale.counted(distance.contributingSegmentCount, "unbroken stretch", plural: "unbroken stretches")
    sentences.append("Measured from \(stretches) of capture.")
    let gaps = distance.gapCount
    if gaps == 0 {
      sentences.append("No capture gaps detected.")
    } else {
      let left = locale.counted(gaps, "gap in capture was", plural: "gaps in capture were")
      sentences.append(
        "\(left) left out; no distance is counted across \(MileageLocale.noun("it", count: gaps, plural: "them")).")
    }
    if let stops = stopSentence { sentences.append(stops) }
    sentences.append(contentsOf: untimed)
    if distance.usesInferredContinuity {
      sentences.append(Self.inferredSentence)
    }
    sentences.append(contentsOf: cutOff)
    if distance.isPartial {
      sentences.append(Self.partialSentence)
    }
    return sentences
  }

  /// What a screen reader says for the figure: miles spelled out, and partiality as a full
  /// claim, because the two-word marker is unintelligible on its own.
  public var spoken: String {
    guard let bare = bareSpoken else { return detailSentences.joined(separator: " ") }
    return distance.isPartial ? "\(bare). \(Self.partialSentence)" : "\(bare)."
  }

  /// The spoken figure without caveats, `12.4 miles recorded`, for a screen that reads the
  /// detail sentences separately (otherwise the partial sentence is spoken twice). Nil when
  /// nothing was measured.
  public var bareSpoken: String? {
    distance.spokenMiles(locale: locale).map { "\($0) recorded" }
  }

  /// What the floor says, in one sentence: the distance the positions prove (`floorMeters`),
  /// what it rests on (the assumption, and lengths on the WGS84 ellipsoid), where nothing could
  /// be proven (`positionsWithheld`), and — when it is under 90 percent of the
  /// recorded figure — why. Nil when nothing was measured. It may say "at least"; it never
  /// claims more.
  ///
  ///     "At least 11.9 mi of it is proven by the positions (each taken to lie within 1.35 × its
  ///      reported accuracy; lengths on the WGS84 ellipsoid)."
  public var floorSentence: String? {
    guard distance.isMeasured else { return nil }
    let factor = locale.formattedFactor(RouteFloorAssumption.standard.radiusFactor)
    var basis = "each taken to lie within \(factor) × its reported accuracy"
    if distance.positionsWithoutAccuracy > 0 {
      let assumed = locale.formattedOneDecimal(RouteFloorAssumption.standard.assumedAccuracy)
      basis += ", or \(assumed) m where it reports none"
    }
    basis += "; lengths on the WGS84 ellipsoid"
    let proven =
      distance.floorMeters > 0
      ? "\(locale.formattedMiles(distance.floorMiles, unit: "mi", qualifier: "At least")) of it is proven by the positions (\(basis))"
      : "The positions prove no distance beyond their own error (\(basis))"
    if distance.positionsWithheld > 0 {
      // Not jitter: the floor was withheld there.
      return proven
        + "; nothing is proven at \(distance.positionsWithheld) of \(distance.usablePositionCount) positions, "
        + "which lie too near a pole (within 0.01° of latitude) or too far apart or too imprecise for a bound to hold."
    }
    guard distance.floorMeters < Self.floorShareExplained * distance.meters else { return proven + "." }
    let rest = distance.floorMeters > 0 ? "the rest" : "all of it"
    return proven + "; \(rest) may be jitter, because " + floorReasons.joined(separator: " and ") + "."
  }

  /// How much of the recorded figure may be jitter: an estimate (the metres gathered in steps
  /// slower than 1 m/s, standing or crawling) and the bound (the recorded figure less the
  /// floor). Nil when nothing was measured.
  public var jitterSentence: String? {
    guard distance.isMeasured, distance.meters > 0 else { return nil }
    let excess = max(0, distance.meters - distance.floorMeters)
    let estimate = min(excess, distance.creepingMeters)
    // Miles, not a percentage: RouteQuality states no share of anything.
    let why = "the recorded figure less what the positions prove"
    guard estimate > 0 else {
      return
        "\(locale.formattedMiles(RouteLength(meters: excess).miles, unit: "mi", qualifier: "At most")) of the recorded figure can be jitter: \(why)."
    }
    let about = locale.formattedMiles(RouteLength(meters: estimate).miles, unit: "mi", qualifier: "About")
    let bound = locale.formattedMiles(RouteLength(meters: excess).miles, unit: "mi", qualifier: "at most")
    return
      "\(about) of the recorded figure was gathered while standing or crawling and is likely jitter; \(bound) can be: \(why)."
  }

  /// Below this share of the recorded figure, the floor sentence says why.
  public static let floorShareExplained = 0.9

  /// Why the floor is far below the recorded figure, in words; never empty.
  var floorReasons: [String] {
    var reasons: [String] = []
    let positions = max(1, distance.usablePositionCount)
    if distance.positionsWithoutAccuracy * 2 >= positions {
      reasons.append("most positions report no accuracy")
    }
    let poor = distance.positionsWithPoorAccuracy
    if poor * 10 >= positions {
      let of = "\(locale.formattedCount(poor)) of \(locale.counted(positions, "position"))"
      reasons.append(
        "\(of) \(MileageLocale.noun("reports", count: poor, plural: "report")) an accuracy worse than \(Int(RouteDistance.poorAccuracy)) m"
      )
    }
    let measured = distance.measuredSeconds
    if measured > 0, distance.creepingSeconds >= 0.25 * measured {
      let (creeping, whole, unit) =
        measured >= 120
        ? (Int((distance.creepingSeconds / 60).rounded()), Int((measured / 60).rounded()), "minute")
        : (Int(distance.creepingSeconds.rounded()), Int(measured.rounded()), "second")
      reasons.append(
        "positions crept a few metres at a time (standing or crawling) for \(locale.formattedCount(creeping)) of the "
          + "\(locale.counted(whole, unit)) measured")
    }
    if reasons.isEmpty {
      reasons.append("the positions stray from one another by more than their accuracy proves")
    }
    return reasons
  }

  static let inferredSentence =
    "Continuity was inferred from timestamps rather than recorded capture sessions, so gaps in capture may not be visible."
  static let partialSentence =
    "Partial route: any driving outside the recorded stretches is not included."

  /// The stops the route runs through (`RouteDistance.stops`), which are not gaps; nil when
  /// there are none.
  ///
  ///     "1 stop of 5m 01s: positions kept arriving while the vehicle stood, so it is not a gap in capture."
  public var stopSentence: String? {
    let stops = distance.stops
    guard let first = stops.first else { return nil }
    let arriving = "positions kept arriving while the vehicle stood"
    if stops.count == 1 {
      return "1 stop of \(DurationWords.short(first.duration)): \(arriving), so it is not a gap in capture."
    }
    let seconds = stops.reduce(0) { $0 + $1.duration }
    return
      "\(locale.formattedCount(stops.count)) stops (\(DurationWords.short(seconds)) in all): \(arriving), so they are not gaps in capture."
  }

  /// How many positions the recording holds without a time, which can be neither ordered nor
  /// measured: `291 positions have no time and cannot be measured.`; nil when there are none.
  public var withoutTimeSentence: String? {
    let count = distance.positionsWithoutTime
    guard count > 0 else { return nil }
    return "\(locale.counted(count, "position has", plural: "positions have")) no time and cannot be measured."
  }

  /// Where reading stopped, for a cut-off recording.
  public var cutOffSentence: String? {
    guard let cutOff = distance.cutOff else { return nil }
    if let line = cutOff.line {
      return
        "Reading stopped at line \(line): the recording ends there or cannot be read past it, so anything recorded after it is not included."
    }
    if let byte = cutOff.byteOffset {
      return
        "Reading stopped at byte \(byte): the recording ends there or cannot be read past it, so anything recorded after it is not included."
    }
    return
      "This shift's import stopped before the end of its feed, so anything recorded after its last stored position is not included."
  }

  private var unmeasuredLine: String {
    distance.unmeasurable == .noUsablePosition ? "No route recorded" : "No distance measured"
  }
}
