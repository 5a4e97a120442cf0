import RouteIngest
import RouteMileage
import RouteStore
import ShiftWork

/// `routemiles export --store PATH --format csv|json [--shift ID]`: the store's deliveries, one
/// record per delivery, for a spreadsheet or a script.
///
/// A record is what the delivery recorded and the two intervals derived from it; never a
/// coordinate, a distance or a figure per mile: route distance belongs to the shift.
enum ExportCommand {
  static let name = "export"
  static let usage = "routemiles export --store PATH --format csv|json [--shift ID]"
  static let help = """
    USAGE: \(usage)

    Writes every delivery in the store, one record each, shifts in ID order and each shift's
    deliveries in number order (by acceptance). Reading never writes to the store.

    Fields, in this order (CSV columns and JSON keys alike):
      shift, number, label, offer, state, acceptedAt, arrivedAtPickupAt, pickedUpAt,
      deliveredAt, cancelledAt, waitedAtPickupSeconds, acceptedToDeliveredSeconds, place,
      amount, tips
    and, in JSON only, expectedAmount (expected pay is never in the CSV: it is not earnings).
    number and offer are the delivery's and its offer's numbers on the shift; label is the
    timeline file's own label; state is accepted, arrivedAtPickup, pickedUp, delivered or
    cancelled; place is the pickup place's name; amount, tips and expectedAmount are exact
    decimals (JSON strings such as "12.34"); instants are ISO 8601 UTC; an instant or interval that does not exist is empty
    (CSV) or null (JSON). No coordinate, distance or per-mile figure is exported: route distance
    is measured for the shift, never for a delivery.

    Options:
      --store PATH            The store (required).
      --format csv|json       csv: RFC 4180, a header row, CRLF line ends, a field holding a
                              comma, quote or line break quoted ("" for a quote). json: JSON
                              Lines, one object per delivery (required).
      --shift ID              Only the deliveries of shift ID.
    """

  enum Format: String {
    case csv
    case json
  }

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(argv, command: name, options: ["store", "format", "shift"], flags: ["help"])
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    guard let storePath = arguments.value("store") else {
      throw .usage("export needs --store PATH", command: name)
    }
    guard let formatName = arguments.value("format") else {
      throw .usage("export needs --format csv or --format json", command: name)
    }
    guard let format = Format(rawValue: formatName) else {
      throw .usage("--format must be csv or json, not '\(formatName)'", command: name)
    }
    guard arguments.operands.isEmpty else {
      throw .usage("unexpected argument '\(arguments.operands[0])'", command: name)
    }
    let selected = try arguments.value("shift").map { (text) throws(CLIError) -> ShiftID in
      guard let id = Int64(text) else { throw .usage("--shift needs a shift ID, not '\(text)'", command: name) }
      return ShiftID(id)
    }
    let store = try openStore(storePath, readOnly: true)
    do {
      var records = try store.shifts()
      if let selected {
        records = records.filter { $0.id == selected }
        guard !records.isEmpty else { throw CLIError.failure("\(storePath): there is no shift \(selected.rawValue)") }
      }
      if format == .csv { console.out(DeliveryExport.csvHeader) }
      for record in records {
        guard let ledger = record.ledger else { continue }
        for line in DeliveryExport.records(of: ledger, shift: record.id) {
          console.out(format == .csv ? line.csv : line.json)
        }
        console.flush()
      }
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("\(error)")
    }
    return ExitCode.success
  }
}

extension DeliveryExport {
  static var csvHeader: String { columns.joined(separator: ",") + "\r\n" }

  /// The RFC 4180 row, CRLF-terminated.
  var csv: String {
    values.map { value in
      switch value {
      case .integer(let number): String(number)
      case .text(let text): Self.csvField(text)
      case .seconds(let seconds): seconds.map(JSONObject.number) ?? ""
      case .instant(let instant): instant.map(CivilTime.iso8601) ?? ""
      case .optionalText(let text): text.map(Self.csvField) ?? ""
      }
    }.joined(separator: ",") + "\r\n"
  }

  /// One JSON Lines object, newline-terminated.
  var json: String {
    var object = JSONObject()
    for (key, value) in zip(Self.columns + Self.jsonOnlyColumns, values + jsonOnlyValues) {
      switch value {
      case .integer(let number): object.set(key, number)
      case .text(let text): object.set(key, text)
      case .seconds(let seconds): object.set(key, seconds)
      case .instant(let instant): object.set(key, instant.map(CivilTime.iso8601))
      case .optionalText(let text): object.set(key, text)
      }
    }
    return object.text + "\n"
  }

  /// A CSV field: quoted, with each quote doubled, when it holds a comma, a quote or a line
  /// break (RFC 4180); as it is otherwise.
  ///
  /// - Complexity: O(*n*) in the field's bytes.
  static func csvField(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 })
    else { return text }
    var quoted = "\""
    for character in text.unicodeScalars {
      if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
    }
    return quoted + "\""
  }
}
