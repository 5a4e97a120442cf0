import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

/// `routemiles delivery`: one correction to one stored delivery (seed 000), each its own
/// bounded decision and one write. The rules live in `ShiftLedger+Corrections`; this parses,
/// applies through the ledger, saves, and says what it did.
enum DeliveryCommand {
  static let name = "delivery"
  static let usage = "routemiles delivery --store PATH --shift ID --delivery N [--dry-run] ACTION"
  static let help = """
    USAGE: \(usage)

    Actions:
      reopen                  Remove the delivered time of a delivery marked delivered by
                              mistake (a running shift only); its state follows from what remains.
      cancel-correct          On an ended shift: the delivered time becomes the cancellation.
      correct-times [--accepted T] [--arrived T] [--picked-up T] [--delivered T] [--cancelled T]
                              On an ended shift, move instants the delivery records (ISO 8601);
                              judged whole: accepted ≤ arrived ≤ picked up ≤ terminal, inside the
                              shift. Nothing cascades.
      move --offer M          Record it under offer M of the same shift.
      new-offer               Take it out of the offer it shares.
      combine --into M        Move every delivery of its offer into offer M.
      separate                Its offer's first delivery stays; each other one gets its own.
      place NAME              Name its pickup place (filed by key; the first spelling wins).
      amount X                What it paid (finished deliveries only), e.g. 12.34.
      tip X                   Its tips (finished deliveries only).
      expect X                What it is expected to pay (in progress only); never earnings.

    --dry-run says what would be done and writes nothing. A refusal exits 1 with the rule.
    No correction moves a route sample: the shift's route figure is unchanged.
    """

  static let timeOptions: [(option: String, kind: DeliveryEvent.Kind)] = [
    ("accepted", .accept), ("arrived", .arrive), ("picked-up", .pickup), ("delivered", .deliver),
    ("cancelled", .cancel),
  ]

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name, options: Set(["store", "shift", "delivery", "offer", "into"] + timeOptions.map(\.option)),
      flags: ["help", "dry-run"])
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    guard let storePath = arguments.value("store") else { throw .usage("delivery needs --store PATH", command: name) }
    guard let shiftText = arguments.value("shift"), let shiftNumber = Int64(shiftText) else {
      throw .usage("delivery needs --shift ID (a number)", command: name)
    }
    guard let number = try arguments.integer("delivery", minimum: 1) else {
      throw .usage("delivery needs --delivery N (its number on the shift)", command: name)
    }
    guard let action = arguments.operands.first else { throw .usage("delivery needs an action", command: name) }
    let values = Array(arguments.operands.dropFirst())
    let takesValue = ["place", "amount", "tip", "expect"].contains(action)
    guard values.count == (takesValue ? 1 : 0) else {
      throw .usage(takesValue ? "\(action) needs one value" : "unexpected argument '\(values[0])'", command: name)
    }
    for (option, _) in timeOptions where arguments.value(option) != nil && action != "correct-times" {
      throw .usage("--\(option) goes with correct-times", command: name)
    }
    if arguments.value("offer") != nil && action != "move" { throw .usage("--offer goes with move", command: name) }
    if arguments.value("into") != nil && action != "combine" { throw .usage("--into goes with combine", command: name) }
    func money(_ text: String) throws(CLIError) -> Money {
      do {
        return try Money(parsing: text)
      } catch {
        throw .usage("\(action): \(error)", command: name)
      }
    }
    var proposal: [DeliveryEvent.Kind: Double] = [:]
    for (option, kind) in timeOptions {
      guard let text = arguments.value(option) else { continue }
      guard let instant = ISO8601Parser.timestamp(text) else {
        throw .usage("--\(option) must be an ISO 8601 time such as 2025-11-04T08:00:00Z", command: name)
      }
      proposal[kind] = instant
    }

    let actions = [
      "reopen", "cancel-correct", "correct-times", "move", "new-offer", "combine", "separate", "place", "amount", "tip",
      "expect",
    ]
    guard actions.contains(action) else {
      throw .usage("unknown action '\(action)': use \(actions.joined(separator: ", "))", command: name)
    }
    if action == "correct-times" && proposal.isEmpty {
      throw .usage(
        "correct-times needs at least one of --accepted, --arrived, --picked-up, --delivered, --cancelled",
        command: name)
    }
    var offerArgument = 0
    if action == "move" || action == "combine" {
      let option = action == "move" ? "offer" : "into"
      guard let text = arguments.value(option), let parsed = Int(text), parsed >= 1 else {
        throw .usage("\(action) needs --\(option) M (an offer's number on the shift)", command: name)
      }
      offerArgument = parsed
    }
    var place: PickupPlaceName?
    if action == "place" {
      do {
        place = try PickupPlaceName(values[0])
      } catch {
        throw .usage("place: \(error)", command: name)
      }
    }
    let amount = takesValue && action != "place" ? try money(values[0]) : nil

    let dryRun = arguments.has("dry-run")
    let shift = ShiftID(shiftNumber)
    let store = try openStore(storePath, readOnly: dryRun)
    var ledger: ShiftLedger
    do {
      guard let record = try store.shift(shift) else {
        throw CLIError.failure("\(storePath): there is no shift \(shiftNumber)")
      }
      guard let stored = record.ledger else {
        throw CLIError.failure("\(storePath): shift \(shiftNumber) records no delivery")
      }
      ledger = stored
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("\(error)")
    }
    guard ledger.deliveries.indices.contains(number - 1) else {
      throw .failure("\(storePath): shift \(shiftNumber) has no delivery \(number) (it has \(ledger.deliveries.count))")
    }
    let correction: DeliveryCorrection =
      switch action {
      case "reopen": .reopen
      case "cancel-correct": .cancelCorrect
      case "correct-times": .correctTimes(proposal)
      case "move": .move(toOffer: offerArgument)
      case "new-offer": .newOffer
      case "combine": .combine(into: offerArgument)
      case "separate": .separate
      case "place": .place(place)
      case "amount": .amount(amount)
      case "tip": .tip(amount)
      default: .expect(amount)
      }
    let sentence: (done: String, wouldDo: String)
    do throws(CorrectionRefusal) {
      sentence = try correction.apply(to: &ledger, number: number, places: store)
    } catch {
      throw .failure(
        "\(storePath): shift \(shiftNumber): \(action) refused: \(error)"
          + (error.collidesAt.map { " (\(CivilTime.iso8601($0)))" } ?? ""))
    }
    if dryRun {
      console.out(sentence.wouldDo + "\n")
      return ExitCode.success
    }
    do {
      try store.saveDeliveries(ledger, of: shift)
    } catch {
      throw .failure("\(error)")
    }
    console.out(sentence.done + "\n")
    return ExitCode.success
  }
}
