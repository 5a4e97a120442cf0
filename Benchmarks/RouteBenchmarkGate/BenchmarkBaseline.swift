import RouteFeeds

/// A saved baseline (`RouteBenchmarks --save-baseline`), read with the package's strict JSON
/// parser, so its formatting does not matter: one line, one metric a line or pretty-printed with
/// any indentation all read the same. Only the scale-free metrics are kept, since they are all a
/// comparison uses.
public struct BenchmarkBaseline: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var value: Double
    public var higherIsBetter: Bool

    public init(value: Double, higherIsBetter: Bool) {
      self.value = value
      self.higherIsBetter = higherIsBetter
    }
  }

  /// The mode the baseline was taken in; `full` when the document does not say (baselines
  /// saved before the mode was recorded were all full runs).
  public var mode: String
  /// `scenario/name` → value and direction, for every scale-free metric with a finite value.
  public var entries: [String: Entry]

  /// Why a baseline cannot be used. Each message names the file and what to do.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    case notJSON(path: String, reason: String)
    case wrongShape(path: String, reason: String)

    public var description: String {
      switch self {
      case .notJSON(let path, let reason):
        "baseline \(path) is not JSON (\(reason)); save one with `RouteBenchmarks --save-baseline \(path)`"
      case .wrongShape(let path, let reason):
        "baseline \(path) is not a RouteBenchmarks baseline: \(reason); save one with `RouteBenchmarks --save-baseline \(path)`"
      }
    }
  }

  /// Reads a baseline document. O(n) in its bytes.
  public static func parse(_ text: String, path: String) throws(Failure) -> BenchmarkBaseline {
    var utf8 = Array(text.utf8)
    let parsed: Result<JSONValue, JSONParser.Failure> = utf8.withUnsafeMutableBufferPointer { buffer in
      do throws(JSONParser.Failure) {
        return .success(try JSONParser.parse(UnsafeBufferPointer(buffer)))
      } catch {
        return .failure(error)
      }
    }
    let document: JSONValue
    switch parsed {
    case .success(let value): document = value
    case .failure(let failure): throw .notJSON(path: path, reason: failure.description)
    }
    guard case .object = document else { throw .wrongShape(path: path, reason: "the document is not an object") }

    var mode = "full"
    switch document["mode"] {
    case nil: break
    case .string(let text)?: mode = text
    default: throw .wrongShape(path: path, reason: "\"mode\" is not a string")
    }

    guard case .array(let metrics)? = document["metrics"] else {
      throw .wrongShape(path: path, reason: "it has no \"metrics\" array")
    }
    var entries: [String: Entry] = [:]
    for (index, metric) in metrics.enumerated() {
      guard case .string(let scenario)? = metric["scenario"], case .string(let name)? = metric["name"],
        case .bool(let higherIsBetter)? = metric["higherIsBetter"], case .bool(let scaleFree)? = metric["scaleFree"]
      else {
        throw .wrongShape(
          path: path,
          reason: "metric \(index + 1) lacks a string scenario and name or a true/false higherIsBetter and scaleFree")
      }
      guard scaleFree else { continue }
      switch metric["value"] {
      case .number(let value)?: entries["\(scenario)/\(name)"] = Entry(value: value, higherIsBetter: higherIsBetter)
      case .null?: continue  // a figure the run could not take: nothing to compare against
      default: throw .wrongShape(path: path, reason: "metric \(index + 1) (\(scenario) · \(name)) has no numeric value")
      }
    }
    return BenchmarkBaseline(mode: mode, entries: entries)
  }
}
