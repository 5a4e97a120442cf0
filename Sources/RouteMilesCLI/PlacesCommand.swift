import RouteMileage
import RouteStore
import ShiftWork

/// `routemiles places`: the store's pickup-place catalogue (seed 003). Lists, shows one place's
/// wait history, renames and merges; the rules live in `PickupPlaceName` and the store.
enum PlacesCommand {
  static let name = "places"
  static let usage =
    "routemiles places --store PATH [--json] [--alphabetical] [--history NAME] [--rename OLD --to NEW] [--merge SOURCE --into DEST]"
  static let help = """
    USAGE: \(usage)

    Lists the store's pickup places, recent first (latest use first, then the order the
    catalogue was built in; places no delivery names last), one a line. A name is found by its
    key: case, apostrophes and whitespace do not matter, punctuation and accents do.

    Options:
      --store PATH            The store (required).
      --json                  One JSON object a line: {"name","recent"} (recent: among the five
                              latest used); with --history, {"name","waits":{"count",
                              "medianSeconds","shortestSeconds","longestSeconds"}}.
      --alphabetical          List by name instead.
      --history NAME          The waits recorded at NAME (picked up − arrived, both recorded):
                              count, median (an even count: the mean of the two middle waits),
                              shortest, longest.
      --rename OLD --to NEW   Respell a place; refused, naming the other place, when another
                              place holds NEW's key.
      --merge SOURCE --into DEST
                              Move every delivery of SOURCE to DEST and remove SOURCE, in one
                              transaction; DEST keeps its name.
    """

  static func run(_ argv: [String], console: Console) throws(CLIError) -> Int32 {
    let arguments = try Arguments(
      argv, command: name, options: ["store", "history", "rename", "to", "merge", "into"],
      flags: ["help", "json", "alphabetical"])
    if arguments.has("help") {
      console.out(help + "\n")
      return ExitCode.success
    }
    guard let storePath = arguments.value("store") else { throw .usage("places needs --store PATH", command: name) }
    guard arguments.operands.isEmpty else {
      throw .usage("unexpected argument '\(arguments.operands[0])'", command: name)
    }
    let actions = ["history", "rename", "merge"].filter { arguments.value($0) != nil }
    guard actions.count <= 1 else { throw .usage("give one of --history, --rename and --merge", command: name) }
    if arguments.value("to") != nil && arguments.value("rename") == nil {
      throw .usage("--to goes with --rename", command: name)
    }
    if arguments.value("into") != nil && arguments.value("merge") == nil {
      throw .usage("--into goes with --merge", command: name)
    }
    let json = arguments.has("json")
    func placeName(_ text: String, _ option: String) throws(CLIError) -> PickupPlaceName {
      do {
        return try PickupPlaceName(text)
      } catch {
        throw .usage("--\(option): \(error)", command: name)
      }
    }
    let history = try arguments.value("history").map { (text) throws(CLIError) in try placeName(text, "history") }
    let rename = try arguments.value("rename").map { (text) throws(CLIError) in try placeName(text, "rename") }
    let merge = try arguments.value("merge").map { (text) throws(CLIError) in try placeName(text, "merge") }
    let to = try arguments.value("to").map { (text) throws(CLIError) in try placeName(text, "to") }
    let into = try arguments.value("into").map { (text) throws(CLIError) in try placeName(text, "into") }
    if rename != nil && to == nil { throw .usage("--rename needs --to NEW", command: name) }
    if merge != nil && into == nil { throw .usage("--merge needs --into DEST", command: name) }

    let store = try openStore(storePath, readOnly: rename == nil && merge == nil)
    do {
      func find(_ wanted: PickupPlaceName) throws -> StoredPlace {
        guard let place = try store.place(named: wanted) else {
          throw CLIError.failure("\(storePath): \(PlaceRefusal.noSuchPlace(wanted.display))")
        }
        return place
      }
      if let history {
        let place = try find(history)
        let waits = try store.waitHistory(of: place.id)
        if json {
          var object = JSONObject()
          object.set("name", place.name)
          var figures = JSONObject()
          figures.set("count", waits.count)
          figures.set("medianSeconds", waits.medianSeconds)
          figures.set("shortestSeconds", waits.shortestSeconds)
          figures.set("longestSeconds", waits.longestSeconds)
          object.set("waits", figures)
          console.out(object.text + "\n")
        } else if let median = waits.medianSeconds, let shortest = waits.shortestSeconds,
          let longest = waits.longestSeconds
        {
          console.out(
            "\(place.name): \(waits.count) \(waits.count == 1 ? "wait" : "waits") recorded; median \(DurationWords.short(median)), "
              + "shortest \(DurationWords.short(shortest)), longest \(DurationWords.short(longest)).\n")
        } else {
          console.out("\(place.name): no wait recorded (a wait needs both an arrival and a pickup).\n")
        }
      } else if let rename, let to {
        let place = try find(rename)
        do {
          try store.rename(place.id, to: to)
        } catch let refusal as PlaceRefusal {
          throw CLIError.failure("\(storePath): rename refused: \(refusal)")
        }
        console.out("Renamed \"\(place.name)\" to \"\(to.display)\".\n")
      } else if let merge, let into {
        let source = try find(merge)
        let destination = try find(into)
        do {
          try store.merge(source.id, into: destination.id, sourceName: source.name, destinationName: destination.name)
        } catch let refusal as PlaceRefusal {
          throw CLIError.failure("\(storePath): merge refused: \(refusal)")
        }
        console.out(
          "Merged \"\(source.name)\" into \"\(destination.name)\": its deliveries now name \(destination.name), keeping their "
            + "recorded times, and \(source.name) is removed.\n")
      } else {
        let recent = Set(try store.recentPlaces().map(\.id))
        let places = try store.places(alphabetical: arguments.has("alphabetical"))
        // Said on standard error, so standard output still lists exactly the places: none.
        if places.isEmpty { console.err("\(storePath): no pickup place is recorded in this store.\n") }
        for place in places {
          if json {
            var object = JSONObject()
            object.set("name", place.name)
            object.set("recent", recent.contains(place.id))
            console.out(object.text + "\n")
          } else {
            console.out(place.name + "\n")
          }
        }
      }
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("\(error)")
    }
    return ExitCode.success
  }
}
