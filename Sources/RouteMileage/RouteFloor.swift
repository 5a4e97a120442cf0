#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The assumption the floor rests on: how far from a fix the vehicle can truly have been.
///
/// Each walked position is taken to lie within `radiusFactor` × its horizontal accuracy of
/// the truth (accuracy below `smallestAccuracy` counts as `smallestAccuracy`); a position with
/// no accuracy, or an invalid (negative) one, gets `assumedAccuracy`. Accuracies estimated from
/// HDOP are used exactly like reported ones (the store does not keep the difference), which is
/// why docs/truth.md and `--explain` say when a floor rests on estimates.
public struct RouteFloorAssumption: Sendable, Hashable {
  /// How many accuracy radii the truth may be from the fix.
  public var radiusFactor: Double
  /// Metres; a smaller reported accuracy counts as this.
  public var smallestAccuracy: Double
  /// Metres; the accuracy of a position that carries none.
  public var assumedAccuracy: Double
  /// m/s; two consecutive fixes whose discs lie further apart than this allows do not
  /// corroborate each other (see `RouteFloorWalk`).
  public var maximumSpeed: Double

  public init(
    radiusFactor: Double = 1.35, smallestAccuracy: Double = 5, assumedAccuracy: Double = 15,
    maximumSpeed: Double = 50
  ) {
    self.radiusFactor = radiusFactor
    self.smallestAccuracy = smallestAccuracy
    self.assumedAccuracy = assumedAccuracy
    self.maximumSpeed = maximumSpeed
  }

  public static let standard = RouteFloorAssumption()

  /// The radius, in metres, the truth is assumed to lie within around a fix.
  @inlinable
  public func radius(accuracy: Double?) -> Double {
    let reported: Double
    // Finite and not negative (NaN fails both), as two plain comparisons: the walk asks this
    // for every position it does not skip.
    if let accuracy, accuracy >= 0, accuracy <= .greatestFiniteMagnitude {
      reported = max(accuracy, smallestAccuracy)
    } else {
      reported = assumedAccuracy
    }
    return radiusFactor * reported
  }
}

/// The floor of one segment, extended one position at a time: a distance the positions prove
/// was driven, under `RouteFloorAssumption`.
///
/// Why it is a floor. Let cⱼ be the fixes and pⱼ the true positions, |pⱼ − cⱼ| ≤ rⱼ. For any
/// vectors uⱼ with |uⱼ| ≤ 1 (one per step, u before the first and after the last being 0), the
/// true path is at least Σ uⱼ·(pⱼ₊₁ − pⱼ) = Σⱼ pⱼ·gⱼ with gⱼ = uⱼ₋₁ − uⱼ, and pⱼ·gⱼ ≥ cⱼ·gⱼ − rⱼ|gⱼ|.
/// So Σ uⱼ·(cⱼ₊₁ − cⱼ) − Σ rⱼ|uⱼ − uⱼ₋₁| never exceeds the true path length, whatever u is.
/// The walk chooses u piecewise constant: the unit direction of a chord between two anchors
/// (the chord then counts in full), or 0 (nothing counts, as while standing). It pays rⱼ × the
/// change of direction at each anchor, so a straight road costs almost nothing however many
/// anchors it has, a corner costs about 1.4 r, and a stop costs r going in and r coming out.
///
/// Which anchors: dynamic programming over a bounded ring of recent anchors. For each new
/// position j and each anchor i in the ring it takes the better of continuing i's best chain
/// through i (paying rᵢ|d − dᵢ|) or starting a chain at i (paying rᵢ) after the best chain closed
/// so far, and keeps the best as j's chain and direction. Closing j's chain costs rⱼ; the
/// segment's floor is the best closed chain (rᵢ here is the fix's reach, below). A position within the radius of the
/// last one walked
/// is skipped (any subset of positions gives a valid floor), and one joins the ring only when it
/// lies at least its radius from the newest ring anchor, so a stop's jitter does not flush the
/// ring. A position counts (closes a chain, becomes an anchor) only when the next one
/// corroborates it and it corroborated the one before: their discs reachable from each other at
/// `maximumSpeed`. A wild fix is never corroborated.
///
/// Lengths are on the WGS84 ellipsoid, never the package's sphere. Each chord is measured in
/// the frame of its first anchor A: east = Δλ × A's parallel radius N cos φ, north = Δφ × A's
/// meridional radius M (`WGS84`). It then claims that length less σ × (length + both anchors'
/// reach), where σ grows with the chord's length, its anchors' reach and tan φ: it bounds how
/// much the ellipsoid's radii can shrink anywhere a path proving this chord could go. A chord
/// for which σ ≥ ½ (too long, too near a pole, discs too wide) is refused; a position above
/// `poleLatitude` (north or south) or whose disc reaches a pole is withheld, and so, in effect, is
/// one whose every chord is refused (`positionsWithheld` counts them). A fix's reach is its radius widened by the
/// most its disc's latitude and longitude can
/// stretch against the fix's own frame. docs/truth.md proves that every closed chain is at
/// most the WGS84 length of any path passing within each anchor's radius, with no final margin.
///
/// The ring lives inline in a tuple of four slots rather than in an `Array`: no heap buffer, no
/// bounds or uniqueness checks on the walk's hottest loop. Slots are visited in slot order, as
/// the array's indices were, so ties between anchors resolve exactly as before.
///
/// - Complexity: O(`capacity`) = O(1) time per position; O(`capacity`) memory, no allocation.
public struct RouteFloorWalk: Sendable, Hashable {
  /// Anchors kept for the dynamic programme.
  public static let capacity = 4

  @usableFromInline struct Anchor: Sendable, Hashable {
    /// Radians.
    var latitude: Double
    var longitude: Double
    /// N cos φ and M here, metres per radian of longitude and of latitude: the fix's frame.
    var parallel: Double
    var meridional: Double
    /// The assumption's radius, metres: what the skip, ring and corroboration tests use.
    var radius: Double
    /// The radius widened to cover the disc's stretch against this fix's frame, metres; what
    /// the dynamic programme pays at this anchor.
    var reach: Double
    /// 2 tan |φ| + `meridionalSpread`: how fast a chord from here loses length per radian of
    /// latitude its path could reach (see `chordCharge`).
    var spread: Double
    /// 0.79 cos φ: the widest band of latitude (radians) a chord from here may claim before a
    /// path winding round the pole could be shorter (see `chordCharge`).
    var windingLimit: Double
    var timestamp: Double
    /// Whether the position walked before this one corroborates it (true for a segment's first).
    var backed: Bool
    /// The best chain ending here (its last chord ends at this anchor), or −∞.
    var chain: Double
    var directionEast: Double
    var directionNorth: Double
    /// What a chain starting here carries before its first chord: the best closed chain when
    /// this anchor was walked, less `reach`.
    var opening: Double

    /// What an empty slot holds, so two walks with the same anchors compare equal. No chain
    /// and nothing to open one with (−∞ both), so a chord from it is never chosen and every
    /// slot can be measured whether it holds an anchor or not (see `measureChord`).
    static let empty = Anchor(
      latitude: 0, longitude: 0, parallel: 0, meridional: 0, radius: 0, reach: 0, spread: 0, windingLimit: 0,
      timestamp: 0, backed: false, chain: -.infinity, directionEast: 0, directionNorth: 0, opening: -.infinity)
  }

  /// The chords into the position being walked, before their charge: what each measured, in
  /// lanes by the order considered (the four ring slots, then `pending`), and which carries the
  /// best chain.
  ///
  /// The best is tracked as a number and an index (compiled to a maximum and an integer
  /// conditional move), and the winner's fields are read from their lanes once every chord is
  /// measured. Which of four near-equal chains wins is data; choosing each chord's eight fields
  /// as doubles on that condition compiled to jumps (a `Double` chosen on a condition is a branch
  /// on x86-64 without AVX, and the anchor's fields are loads the compiler sinks into it), which
  /// cachegrind's branch simulation showed missing about 30 % of the time: 2.7 ms of CPU on the
  /// 500,000-position CSV drive.
  @usableFromInline struct Candidate {
    /// The best chain so far, −∞ when no chord is eligible.
    var chain = -Double.infinity
    /// The lane of the chord that carries `chain`.
    var index = 0
    // Eight lanes: the ring's `capacity` slots and `pending` use the first five.
    var eastLanes = SIMD8<Double>()
    var northLanes = SIMD8<Double>()
    var lengthLanes = SIMD8<Double>()
    var anchorLatitudeLanes = SIMD8<Double>()
    var anchorReachLanes = SIMD8<Double>()
    var anchorSpreadLanes = SIMD8<Double>()
    var anchorWindingLimitLanes = SIMD8<Double>()

    /// Makes the chord in lane `order`, whose chain is `value`, the best if it beats the best so
    /// far (strictly: on a tie the earlier stays). One comparison of doubles decides both the
    /// index and the chain, with no `&&` to make a jump.
    @inline(__always) mutating func choose(_ value: Double, _ order: Int) {
      let better = value > chain
      index = better ? order : index
      chain = better ? value : chain
    }

    var east: Double { eastLanes[index] }
    var north: Double { northLanes[index] }
    var length: Double { lengthLanes[index] }
    var anchorLatitude: Double { anchorLatitudeLanes[index] }
    var anchorReach: Double { anchorReachLanes[index] }
    var anchorSpread: Double { anchorSpreadLanes[index] }
    var anchorWindingLimit: Double { anchorWindingLimitLanes[index] }
  }

  @usableFromInline let assumption: RouteFloorAssumption
  /// The ring's slots; the first `ringCount` hold anchors, the rest `Anchor.empty`. A tuple of
  /// one type is laid out as an array is, so a new anchor is stored at its slot's address
  /// (`commitPendingIfFar`) rather than by a switch on which slot is next, a jump that
  /// cachegrind's branch simulation showed missing three times in four.
  @usableFromInline var ring: (Anchor, Anchor, Anchor, Anchor) = (.empty, .empty, .empty, .empty)
  @usableFromInline var ringCount = 0
  /// Index of the oldest anchor once the ring is full.
  @usableFromInline var oldest = 0
  /// The newest position walked (valid when `hasPending`); it joins the ring only if far
  /// enough from the newest anchor. Kept in place, not as an optional, so reading a field does
  /// not copy the anchor.
  @usableFromInline var pending = Anchor.empty
  @usableFromInline var hasPending = false
  /// Where the newest anchor in the ring lies (valid when `hasNewest`): all `commitPendingIfFar` needs.
  @usableFromInline var newestLatitude = 0.0
  @usableFromInline var newestLongitude = 0.0
  @usableFromInline var hasNewest = false
  /// The best closed chain of the segment, in metres.
  @usableFromInline var best: Double = 0
  /// Positions walked (every segment's) where the floor proves nothing because no bound holds:
  /// above `poleLatitude`, a disc reaching a pole, or every chord into the position refused.
  public private(set) var positionsWithheld = 0

  /// Degrees: a position above this latitude, north or south (within about 1.1 km of a pole),
  /// is withheld from the floor. A chord there loses most of its length to the bound anyway.
  public static let poleLatitude = 89.99
  /// 2 × `WGS84.meridionalRadiusSlope` ÷ `WGS84.smallestMeridionalRadius` (0.020267), rounded up.
  @usableFromInline static let meridionalSpread = 0.0203
  /// π a ÷ (4 M₀) = 0.7906, rounded down: see `chordCharge`.
  @usableFromInline static let windingFactor = 0.79
  /// Added to every chord's σ: far more than the floating-point rounding of a chord and of
  /// summing a shift's chords (parts in 10¹²).
  @usableFromInline static let roundingShare = 1e-9

  public init(assumption: RouteFloorAssumption = .standard) {
    self.assumption = assumption
  }

  /// The segment's floor so far, in metres on the WGS84 ellipsoid.
  public var meters: Double { best }

  /// Starts a new segment at `position`.
  public mutating func start(_ position: RoutePosition) {
    start(position, cosineOfLatitude: nil)
  }

  /// Starts a new segment at `position`, whose `GeographicDistance.cosineOfLatitude` the
  /// caller has already computed (nil: not known).
  @usableFromInline
  package mutating func start(_ position: RoutePosition, cosineOfLatitude: Double?) {
    if ringCount > 0 {
      ring = (.empty, .empty, .empty, .empty)
    }
    ringCount = 0
    oldest = 0
    newestLatitude = 0
    newestLongitude = 0
    hasNewest = false
    best = 0
    pending = .empty
    hasPending = false
    extend(position, cosineOfLatitude: cosineOfLatitude)
  }

  /// Walks one more position of the open segment.
  ///
  /// - Complexity: O(`capacity`).
  public mutating func extend(_ position: RoutePosition) {
    extend(position, cosineOfLatitude: nil)
  }

  /// Walks one more position whose `GeographicDistance.cosineOfLatitude` the caller has
  /// already computed (the capture filter computes it for every sample it retains), so the
  /// walk does not compute the same cosine again; nil computes it here. Bit-identical either
  /// way: it is the same `cos(latitude × π/180)`.
  ///
  /// - Complexity: O(`capacity`).
  @inlinable
  package mutating func extend(_ position: RoutePosition, cosineOfLatitude knownCosine: Double?) {
    walk(
      timestamp: position.timestamp, latitude: position.latitude, longitude: position.longitude,
      accuracy: position.horizontalAccuracy, cosineOfLatitude: knownCosine)
  }

  /// `extend(_:cosineOfLatitude:)` with the position's fields as numbers, which reach the walk in
  /// registers: read from the caller's position in memory, latitude and longitude were one wide
  /// load across two narrower stores the caller had just made, which cannot be forwarded from
  /// the store buffer and waited for them (5 % of the walk's samples in `perf`; 3.5 ms of CPU on
  /// the 500,000-position CSV drive).
  ///
  /// - Complexity: O(`capacity`).
  @usableFromInline
  mutating func walk(
    timestamp: Double, latitude degreesLatitude: Double, longitude degreesLongitude: Double, accuracy: Double?,
    cosineOfLatitude knownCosine: Double?
  ) {
    let latitude = degreesLatitude * (Double.pi / 180)
    let longitude = degreesLongitude * (Double.pi / 180)
    // A position within the last one's radius adds nothing a later one cannot: skip it (any
    // subset of the positions gives a valid floor). This halves the work at speed and drops
    // most of a stop's jitter. The test, in the last position's frame, only decides.
    let fromPendingSquared = hasPending ? pending.metersSquared(toLatitude: latitude, longitude: longitude) : 0
    if hasPending, fromPendingSquared < pending.radius * pending.radius {
      return
    }
    guard abs(degreesLatitude) <= Self.poleLatitude else {
      positionsWithheld += 1
      return
    }
    let radius = assumption.radius(accuracy: accuracy)
    let cosine = knownCosine ?? GeographicDistance.cosineOfLatitude(degreesLatitude)
    // The fix's frame on the ellipsoid, with no trigonometric call: sin² from the cosine,
    // tan |φ| rounded up. A cosine (from `cos`) is at most 1, so 1 − cos² is never negative.
    let sineSquared = (1 - cosine * cosine) + 1e-15
    let (meridional, primeVertical) = WGS84.radii(sineSquared: sineSquared)
    let tangent = sineSquared.squareRoot() / cosine
    // Its disc spans at most `disc` radians of latitude; across it N cos φ can shrink by the
    // factor 1 − disc(disc/2 + tan φ) and M by 1 − disc × slope/M₀. A disc reaching a pole
    // (the factor ≤ 0) cannot be bounded: the position is withheld.
    let disc = radius * (1 / WGS84.smallestMeridionalRadius)
    let shrink = 1 - disc * max(0.5 * disc + tangent, WGS84.meridionalRadiusSlope / WGS84.smallestMeridionalRadius)
    guard shrink > 0 else {
      positionsWithheld += 1
      return
    }
    let parallel = primeVertical * cosine
    let reach = radius / shrink
    // The previous position counts (closes a chain, becomes an anchor) only once this one
    // corroborates it: their discs must be reachable from each other within the speed limit.
    // A wild fix the filter let through is never corroborated, so it never reaches the floor.
    // Whether `pending` stays outside the ring yet counts as an anchor for this position.
    var backed = true
    var uncommitted = false
    if hasPending {
      let gap = fromPendingSquared.squareRoot() - radius - pending.radius
      backed = gap <= assumption.maximumSpeed * (timestamp - pending.timestamp)
      if backed, pending.backed {
        if pending.chain - pending.reach > best { best = pending.chain - pending.reach }
        uncommitted = !commitPendingIfFar()
      }
    }
    let opening = best - reach
    // Choose the best chord on its length, then charge that one chord (`chordCharge`): any
    // chain, charged, is a valid floor. Should the charge refuse it, choose again charging each.
    // The candidate keeps the four fields of each chord's anchor the charge reads. Every slot is
    // measured, held or empty (an empty one is never chosen): no branch between the chords.
    var candidate = Candidate()
    // `pending`, when it counts, is measured first but chosen last, as the order requires (on a
    // tie the earlier chord stays): its test is then not a jump between the ring's choices.
    var pendingValue = -Double.infinity
    if uncommitted {
      pendingValue = measureChord(from: pending, order: 4, toLatitude: latitude, longitude: longitude, into: &candidate)
    }
    candidate.choose(
      measureChord(from: ring.0, order: 0, toLatitude: latitude, longitude: longitude, into: &candidate), 0)
    candidate.choose(
      measureChord(from: ring.1, order: 1, toLatitude: latitude, longitude: longitude, into: &candidate), 1)
    candidate.choose(
      measureChord(from: ring.2, order: 2, toLatitude: latitude, longitude: longitude, into: &candidate), 2)
    candidate.choose(
      measureChord(from: ring.3, order: 3, toLatitude: latitude, longitude: longitude, into: &candidate), 3)
    candidate.choose(pendingValue, 4)
    var chain = -Double.infinity
    var directionEast = 0.0
    var directionNorth = 0.0
    if candidate.chain > -Double.infinity {
      if let charge = chordCharge(candidate, toLatitude: latitude, reach: reach) {
        chain = candidate.chain - charge
        directionEast = candidate.east
        directionNorth = candidate.north
      } else {
        (chain, directionEast, directionNorth) = chargeEachChord(
          toLatitude: latitude, longitude: longitude, reach: reach, uncommitted: uncommitted)
      }
    }
    pending = Anchor(
      latitude: latitude, longitude: longitude, parallel: parallel, meridional: meridional, radius: radius,
      reach: reach, spread: 2 * tangent + Self.meridionalSpread, windingLimit: Self.windingFactor * cosine,
      timestamp: timestamp, backed: backed, chain: chain, directionEast: directionEast,
      directionNorth: directionNorth, opening: opening)
    hasPending = true
  }

  /// The best chain into the point at `latitude`, `longitude` (of reach `reach`) with every
  /// chord charged, and its direction; −∞ (and counted as withheld) when every chord is refused.
  /// Kept out of line: it runs only when the best uncharged chord is refused.
  @inline(never)
  mutating func chargeEachChord(
    toLatitude latitude: Double, longitude: Double, reach: Double, uncommitted: Bool
  ) -> (chain: Double, east: Double, north: Double) {
    var here = Anchor.empty
    here.latitude = latitude
    here.longitude = longitude
    here.reach = reach
    here.chain = -Double.infinity
    forEachAnchor(uncommitted: uncommitted) { considerChargedChain(from: $0, to: &here) }
    if here.chain == -Double.infinity { positionsWithheld += 1 }
    return (here.chain, here.directionEast, here.directionNorth)
  }

  /// Calls `body` with each anchor of the ring, in slot order, then `pending` if it counts as
  /// an anchor without being in the ring.
  @inline(__always)
  func forEachAnchor(uncommitted: Bool, _ body: (Anchor) -> Void) {
    if ringCount > 0 {
      body(ring.0)
      if ringCount > 1 {
        body(ring.1)
        if ringCount > 2 {
          body(ring.2)
          if ringCount > 3 { body(ring.3) }
        }
      }
    }
    if uncommitted { body(pending) }
  }

  /// The chord from `anchor` to `here` in `anchor`'s frame: east Δλ × N cos φ, north Δφ × M.
  @inline(__always)
  static func chord(
    from anchor: Anchor, toLatitude latitude: Double, longitude: Double
  ) -> (dx: Double, dy: Double, latitudeSpan: Double) {
    var deltaLongitude = longitude - anchor.longitude
    if abs(deltaLongitude) > Double.pi {
      deltaLongitude -= deltaLongitude > 0 ? 2 * Double.pi : -2 * Double.pi
    }
    let deltaLatitude = latitude - anchor.latitude
    return (deltaLongitude * anchor.parallel, deltaLatitude * anchor.meridional, abs(deltaLatitude))
  }

  /// What a chord of `length` metres from an anchor (its reach, spread and winding limit) to a
  /// fix of reach `reach` must give up, in metres; nil when it cannot be bounded (refused).
  ///
  /// span = length + 2 r′_A + r′_B bounds what a path proving the chord can be credited, plus
  /// A's reach; a path leaving the band of latitude `span`/M₀ beyond both ends is at least that
  /// long. Across the band (δ = span/M₀ + |Δφ| either side of A) N cos φ and M stay within a
  /// factor 1 − σ of A's and B's, σ = δ(2 tan φ_A + 0.0203 + δ/2), so the chord claims
  /// length − σ(length + r′_A + r′_B). σ < ½ and δ < 0.79 cos φ_A also keep a path winding round
  /// the pole inside the band longer than the claim. docs/truth.md has the proof.
  @inline(__always)
  static func chordCharge(
    length: Double, latitudeSpan: Double, anchorReach: Double, anchorSpread: Double, anchorWindingLimit: Double,
    reach: Double
  ) -> Double? {
    let span = length + 2 * anchorReach + reach
    let band = span * (1 / WGS84.smallestMeridionalRadius) + latitudeSpan
    let sigma = band * (anchorSpread + 0.5 * band) + roundingShare
    guard sigma < 0.5, band < anchorWindingLimit else { return nil }
    return sigma * (span - anchorReach)
  }

  /// `chordCharge` of the best candidate, into the point at `latitude` (of reach `reach`), with
  /// what the candidate carries of its anchor: the latitude span is taken here, once, not per chord.
  @inline(__always)
  func chordCharge(_ candidate: Candidate, toLatitude latitude: Double, reach: Double) -> Double? {
    Self.chordCharge(
      length: candidate.length, latitudeSpan: abs(latitude - candidate.anchorLatitude),
      anchorReach: candidate.anchorReach, anchorSpread: candidate.anchorSpread,
      anchorWindingLimit: candidate.anchorWindingLimit, reach: reach)
  }

  /// The better of continuing `anchor`'s chain, or starting one there, with the uncharged chord
  /// to the point at `latitude`, `longitude`: its value, −∞ for a chord of no length (never
  /// chosen), with the chord's fields written to lane `order` of `candidate` for
  /// `Candidate.choose` to pick.
  ///
  /// Every chord is measured, with no test on which wins: which of four near-equal chains wins
  /// is data, so a branch on it missed about a quarter of the time in cachegrind's branch
  /// simulation, and each miss threw away the next chords' square roots in flight. The skip this
  /// replaced (an anchor whose max(opening, chain) + length cannot beat the candidate) never
  /// changed the choice: each way through adds the length to a number at most that maximum, the
  /// turn's charge only lowering one, and rounding is monotone.
  @inline(__always)
  func measureChord(
    from anchor: Anchor, order: Int, toLatitude latitude: Double, longitude: Double, into candidate: inout Candidate
  ) -> Double {
    let (dx, dy, _) = Self.chord(from: anchor, toLatitude: latitude, longitude: longitude)
    let length = (dx * dx + dy * dy).squareRoot()
    let inverse = 1 / length
    let ux = dx * inverse
    let uy = dy * inverse
    let opened = anchor.opening + length
    // An anchor with no chain (−∞) gives −∞ here, which never wins: no test needed.
    let tx = ux - anchor.directionEast
    let ty = uy - anchor.directionNorth
    let through = anchor.chain - anchor.reach * (tx * tx + ty * ty).squareRoot() + length
    let value = through > opened ? through : opened
    candidate.eastLanes[order] = ux
    candidate.northLanes[order] = uy
    candidate.lengthLanes[order] = length
    candidate.anchorLatitudeLanes[order] = anchor.latitude
    candidate.anchorReachLanes[order] = anchor.reach
    candidate.anchorSpreadLanes[order] = anchor.spread
    candidate.anchorWindingLimitLanes[order] = anchor.windingLimit
    // A chord of no length never wins: −∞ beats nothing.
    return length > 0 ? value : -Double.infinity
  }

  /// `measureChord` with every chord charged and refused chords skipped: the fallback when the
  /// best uncharged chord is refused (discs of tens of kilometres, or near a pole).
  func considerChargedChain(from anchor: Anchor, to here: inout Anchor) {
    let (dx, dy, latitudeSpan) = Self.chord(from: anchor, toLatitude: here.latitude, longitude: here.longitude)
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0,
      let charge = Self.chordCharge(
        length: length, latitudeSpan: latitudeSpan, anchorReach: anchor.reach, anchorSpread: anchor.spread,
        anchorWindingLimit: anchor.windingLimit, reach: here.reach)
    else { return }
    let chord = length - charge
    let ux = dx / length
    let uy = dy / length
    var value = anchor.opening + chord
    if anchor.chain > -Double.infinity {
      let tx = ux - anchor.directionEast
      let ty = uy - anchor.directionNorth
      value = max(value, anchor.chain - anchor.reach * (tx * tx + ty * ty).squareRoot() + chord)
    }
    if value > here.chain {
      here.chain = value
      here.directionEast = ux
      here.directionNorth = uy
    }
  }

  /// Puts `pending` in the ring when it lies at least its radius from the newest anchor, and
  /// says whether it did.
  @inline(__always)
  mutating func commitPendingIfFar() -> Bool {
    if hasNewest,
      pending.metersSquared(toLatitude: newestLatitude, longitude: newestLongitude) < pending.radius * pending.radius
    {
      return false
    }
    let slot: Int
    if ringCount < Self.capacity {
      slot = ringCount
      ringCount += 1
    } else {
      slot = oldest
      // `capacity` is a power of two: the wrap is a mask, not a branch on which slot is next.
      oldest = (oldest + 1) & (Self.capacity - 1)
    }
    let anchor = pending
    withUnsafeMutablePointer(to: &ring) {
      $0.withMemoryRebound(to: Anchor.self, capacity: Self.capacity) { $0[slot] = anchor }
    }
    newestLatitude = pending.latitude
    newestLongitude = pending.longitude
    hasNewest = true
    return true
  }
}

extension RouteFloorWalk {
  // The ring is a tuple, which is neither Equatable nor Hashable: compared and hashed here,
  // field by field, as the synthesised conformance would.
  public static func == (a: Self, b: Self) -> Bool {
    a.assumption == b.assumption && a.ring.0 == b.ring.0 && a.ring.1 == b.ring.1 && a.ring.2 == b.ring.2
      && a.ring.3 == b.ring.3 && a.ringCount == b.ringCount && a.oldest == b.oldest && a.pending == b.pending
      && a.hasPending == b.hasPending && a.newestLatitude == b.newestLatitude
      && a.newestLongitude == b.newestLongitude && a.hasNewest == b.hasNewest && a.best == b.best
      && a.positionsWithheld == b.positionsWithheld
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(assumption)
    hasher.combine(ring.0)
    hasher.combine(ring.1)
    hasher.combine(ring.2)
    hasher.combine(ring.3)
    hasher.combine(ringCount)
    hasher.combine(oldest)
    hasher.combine(pending)
    hasher.combine(hasPending)
    hasher.combine(newestLatitude)
    hasher.combine(newestLongitude)
    hasher.combine(hasNewest)
    hasher.combine(best)
    hasher.combine(positionsWithheld)
  }
}

extension RouteFloorWalk.Anchor {
  /// Squared metres to a point, in this anchor's frame: for the walk's decisions only.
  @inline(__always)
  func metersSquared(toLatitude latitude: Double, longitude: Double) -> Double {
    var deltaLongitude = longitude - self.longitude
    if abs(deltaLongitude) > Double.pi {
      deltaLongitude -= deltaLongitude > 0 ? 2 * Double.pi : -2 * Double.pi
    }
    let dx = deltaLongitude * parallel
    let dy = (latitude - self.latitude) * meridional
    return dx * dx + dy * dy
  }
}
