import RouteMileage

/// Every word the live card says, in one place: the card (`ShiftCard`), `replay`'s card lines
/// and its JSON stream, and the tests read them here. A driver's card names no other product:
/// a step is recorded against its own delivery wherever the driver records it.
public enum ShiftCardWords {
  /// The state line while running or parked (a parked shift keeps running).
  public static let inProgress = "Shift in Progress"
  public static let paused = "Shift Paused"
  public static let ended = "Shift Ended"
  /// The line shown only while parked.
  public static let parked = "Parked · route not recording"
  /// Said instead of a step when two or more deliveries are open (seed 001).
  public static let severalDeliveries = "Several deliveries are in progress. Record each step against its own delivery."
  /// Said with every reminder: the card observes nothing.
  public static let reminderNote =
    "routemiles cannot tell where you are. This is a reminder from your own recorded times, not something it observed."

  /// `2 in progress · 5 delivered`.
  public static func deliveryCounts(inProgress: Int, delivered: Int, locale: MileageLocale) -> String {
    "\(locale.formattedCount(inProgress)) in progress · \(locale.formattedCount(delivered)) delivered"
  }

  /// `Delivery 1 · At pickup · 18:04`.
  public static func deliveryLine(number: Int, stage: String, clock: String) -> String {
    "Delivery \(number) · \(stage) · \(clock)"
  }

  /// `1 more also active`, past the deliveries the card lists.
  public static func moreDeliveries(_ count: Int) -> String { "\(count) more also active" }

  /// The reminder for a delivery at its pickup with no pickup recorded.
  public static func pickupReminder(delivery: Int, minutes: Int) -> String {
    "Already picked this order up? Delivery \(delivery) · at the pickup \(minutes) min ago · no pickup recorded."
  }

  /// The reminder for an accepted delivery with no arrival recorded.
  public static func arrivalReminder(delivery: Int, minutes: Int) -> String {
    "Already at the pickup? Delivery \(delivery) · accepted \(minutes) min ago · no arrival recorded."
  }

  /// `replay`'s line of counts: `Samples: 1,204 captured · 3 rejected · 1 batch (1 discarded)`.
  public static func samples(captured: Int, rejected: Int, batches: Int, discarded: Int, locale: MileageLocale)
    -> String
  {
    let count = locale.formattedCount
    return "Samples: \(count(captured)) captured · \(count(rejected)) rejected · \(locale.counted(batches, "batch"))"
      + (discarded > 0 ? " (\(count(discarded)) discarded)" : "")
  }

  /// `replay`'s line of segments and gaps: `3 segments · 1 gap`.
  public static func segments(_ segments: Int, gaps: Int, locale: MileageLocale) -> String {
    "\(locale.counted(segments, "segment")) · \(locale.counted(gaps, "gap"))"
  }

  /// Capture killed by `--interrupt-at`: when, what was lost, and when it resumes (or resumed).
  public static func captureInterrupted(at: String, lost: Int, resumesAt: String, resumed: Bool, locale: MileageLocale)
    -> String
  {
    "Capture interrupted at \(at) · \(locale.counted(lost, "unsaved sample")) lost · "
      + (resumed ? "resumed at \(resumesAt) as a new capture session" : "resumes at \(resumesAt)")
  }

  /// A replay stopped with Ctrl-C: what became of its shift (`kept` names a stored shift).
  public static func stoppedWithCtrlC(at: String, kept: String?) -> String {
    "Replay stopped with Ctrl-C at \(at): "
      + (kept.map { "\($0) is kept in the store as interrupted, its figure partial" } ?? "the shift ended there")
  }

  /// The replay stream's word for a state: `inProgress` (running), `paused`, `parked`, `ended`.
  public static func stateWord(_ state: ShiftTimeline.State) -> String {
    switch state {
    case .running, .notStarted: "inProgress"
    case .paused: "paused"
    case .parked: "parked"
    case .ended: "ended"
    }
  }
}
