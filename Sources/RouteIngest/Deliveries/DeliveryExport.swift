import RouteMileage
import RouteStore
import ShiftWork

/// One exported delivery: its fields in column order, written as a CSV row or a JSON object.
public struct DeliveryExport: Sendable {
  public enum Value: Sendable {
    case integer(Int)
    case text(String)
    /// A duration in seconds; nil when an end is missing.
    case seconds(Double?)
    /// An instant; nil when the event was not recorded.
    case instant(Double?)
    /// Text that may be absent (a place, an amount written exactly).
    case optionalText(String?)
  }

  /// The column names, the JSON keys too.
  public static let columns = [
    "shift", "number", "label", "offer", "state", "acceptedAt", "arrivedAtPickupAt", "pickedUpAt", "deliveredAt",
    "cancelledAt", "waitedAtPickupSeconds", "acceptedToDeliveredSeconds", "place", "amount", "tips",
  ]

  /// The keys the JSON adds after `columns`: expected pay, which the CSV never carries.
  public static let jsonOnlyColumns = ["expectedAmount"]

  public var values: [Value]
  /// The values of `jsonOnlyColumns`.
  public var jsonOnlyValues: [Value] = []

  /// The shift's deliveries in number order.
  ///
  /// - Complexity: O(*n*).
  public static func records(of ledger: ShiftLedger, shift: ShiftID) -> [DeliveryExport] {
    zip(ledger.deliveries, ledger.offerNumbers).enumerated().map { index, pair in
      let (delivery, offer) = pair
      return DeliveryExport(
        values: [
          .integer(Int(shift.rawValue)), .integer(index + 1), .text(delivery.label), .integer(offer),
          .text(delivery.state.rawValue), .instant(delivery.acceptedAt), .instant(delivery.arrivedAtPickupAt),
          .instant(delivery.pickedUpAt), .instant(delivery.deliveredAt), .instant(delivery.cancelledAt),
          .seconds(delivery.waitedAtPickupSeconds), .seconds(delivery.acceptedToDeliveredSeconds),
          .optionalText(delivery.place?.display), .optionalText(delivery.amount?.description),
          .optionalText(delivery.tips?.description),
        ], jsonOnlyValues: [.optionalText(delivery.expectedAmount?.description)])
    }
  }
}
