import RouteMileage
import RouteStore
import ShiftWork

/// One correction to one stored delivery: its own bounded decision, applied through the
/// ledger's rules (`ShiftLedger+Corrections`), and the sentence that says what it did.
public enum DeliveryCorrection: Sendable {
  case reopen
  case cancelCorrect
  /// New instants for the events the delivery records, judged whole.
  case correctTimes([DeliveryEvent.Kind: Double])
  case move(toOffer: Int)
  case newOffer
  case combine(into: Int)
  case separate
  case place(PickupPlaceName?)
  case amount(Money?)
  case tip(Money?)
  case expect(Money?)

  /// The event kinds a time correction names, in the order its sentence lists them.
  static let timeKinds: [DeliveryEvent.Kind] = [.accept, .arrive, .pickup, .deliver, .cancel]

  /// Applies the correction to delivery `number` (1-based) of `ledger`; nothing is saved.
  ///
  /// - Parameter places: the store whose catalogue files a pickup place's name.
  /// - Returns: what was done, and what would be done (for a dry run).
  /// - Throws: the rule that refuses it; `ledger` is then unchanged.
  /// - Complexity: O(*n*) in the shift's deliveries.
  public func apply(to ledger: inout ShiftLedger, number: Int, places: RouteStore) throws(CorrectionRefusal)
    -> (done: String, wouldDo: String)
  {
    let subject = DeliveryReference(number: number, label: ledger.deliveries[number - 1].label).description
    let sentence: (done: String, wouldDo: String)
    switch self {
    case .reopen:
      let state = try ledger.reopen(number)
      let words = state.words.prefix(1).lowercased() + state.words.dropFirst()
      sentence = (
        "Reopened \(subject): its delivered time is removed; it is \(words) again.",
        "Would reopen \(subject): its delivered time would be removed; it would be \(words) again."
      )
    case .cancelCorrect:
      let at = CivilTime.iso8601(ledger.deliveries[number - 1].deliveredAt ?? 0)
      try ledger.correctToCancelled(number)
      sentence = (
        "Corrected \(subject) to cancelled at \(at), the instant recorded as its delivery.",
        "Would correct \(subject) to cancelled at \(at), the instant recorded as its delivery."
      )
    case .correctTimes(let proposal):
      let before = ledger.deliveries[number - 1]
      try ledger.correctTimes(number, to: proposal)
      let changes = Self.timeKinds.compactMap { kind -> String? in
        guard let new = proposal[kind], let old = before.event(kind)?.at else { return nil }
        return "\(kind.stageWords) \(CivilTime.iso8601(new)) (was \(CivilTime.iso8601(old)))"
      }.joined(separator: ", ")
      sentence = (
        "Corrected the times of \(subject): \(changes).", "Would correct the times of \(subject): \(changes)."
      )
    case .move(let offer):
      try ledger.move(number, toOffer: offer)
      sentence = ("Moved \(subject) to offer \(offer).", "Would move \(subject) to offer \(offer).")
    case .newOffer:
      try ledger.newOffer(number)
      sentence = ("Put \(subject) in an offer of its own.", "Would put \(subject) in an offer of its own.")
    case .combine(let into):
      let source = ledger.offerNumbers[number - 1]
      try ledger.combine(offer: source, into: into)
      sentence = (
        "Combined offer \(source) into offer \(into); offer \(source) is removed.",
        "Would combine offer \(source) into offer \(into); offer \(source) would be removed."
      )
    case .separate:
      let offer = ledger.offerNumbers[number - 1]
      let moving = ledger.offers[offer - 1].deliveries.dropFirst()
      let others = moving.map { "Delivery \($0)" }.joined(separator: ", ")
      try ledger.separate(offer: offer)
      let (has, wouldHave) =
        moving.count == 1
        ? ("has an offer of its own", "would have an offer of its own")
        : ("each have an offer of their own", "would each have an offer of their own")
      sentence = (
        "Separated offer \(offer): \(others) \(has).", "Would separate offer \(offer): \(others) \(wouldHave)."
      )
    case .place(let place):
      try ledger.setPlace(number, to: place)
      // A name whose key the catalogue holds is filed under that place's spelling.
      let filed = place.flatMap { try? places.place(named: $0) }?.name
      let shown = filed ?? place?.display ?? ""
      sentence = ("\(subject) now names the pickup place \(shown).", "\(subject) would name the pickup place \(shown).")
    case .amount(let amount):
      try ledger.setAmount(number, to: amount)
      sentence = (
        "Recorded \(amount?.description ?? "") as what \(subject) paid.",
        "Would record \(amount?.description ?? "") as what \(subject) paid."
      )
    case .tip(let tips):
      try ledger.setTips(number, to: tips)
      sentence = (
        "Recorded \(tips?.description ?? "") in tips on \(subject).",
        "Would record \(tips?.description ?? "") in tips on \(subject)."
      )
    case .expect(let expected):
      try ledger.setExpectedAmount(number, to: expected)
      sentence = (
        "Recorded \(expected?.description ?? "") as the expected pay of \(subject) (expected pay, not what it paid).",
        "Would record \(expected?.description ?? "") as the expected pay of \(subject) (expected pay, not what it paid)."
      )
    }
    return sentence
  }
}
