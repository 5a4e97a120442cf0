/// One acceptance holding one or more deliveries (seed 000), derived from the deliveries that
/// name it. It holds no money, no time figure and no distance; its status is derived.
public struct Offer: Sendable, Hashable {
  public enum Status: String, Sendable, Hashable {
    /// At least one of its deliveries is still in progress.
    case inProgress
    /// Every delivery was delivered.
    case completed
    /// Every delivery was cancelled.
    case cancelled
    /// Some delivered, some cancelled: neither a completed offer nor a cancelled one.
    case partlyCompleted

    /// The status of an offer whose deliveries are in `states`.
    ///
    /// - Complexity: O(*n*).
    public init(of states: some Sequence<DeliveryState>) {
      var delivered = false
      var cancelled = false
      for state in states {
        switch state {
        case .delivered: delivered = true
        case .cancelled: cancelled = true
        case .accepted, .arrivedAtPickup, .pickedUp:
          self = .inProgress
          return
        }
      }
      self = delivered && cancelled ? .partlyCompleted : cancelled ? .cancelled : .completed
    }

    /// The status in words (seed 000's wording).
    public var words: String {
      switch self {
      case .inProgress: "in progress"
      case .completed: "completed"
      case .cancelled: "all deliveries cancelled"
      case .partlyCompleted: "partly completed, partly cancelled"
      }
    }
  }

  /// Offer 1, 2, … in the order of their first delivery's number (so by acceptance time).
  public var number: Int
  /// The file's label for it; nil for an offer of one recorded without a label.
  public var label: String?
  /// The earliest acceptance among its deliveries.
  public var acceptedAt: Double
  /// Its deliveries' numbers, ascending.
  public var deliveries: [Int]
  public var status: Status

  public init(number: Int, label: String?, acceptedAt: Double, deliveries: [Int], status: Status) {
    self.number = number
    self.label = label
    self.acceptedAt = acceptedAt
    self.deliveries = deliveries
    self.status = status
  }
}
