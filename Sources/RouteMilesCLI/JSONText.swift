/// JSON string literals for every JSON the package writes: the tool's `--json` output
/// (`JSONObject`, `pipe`) and the benchmark's results (`BenchmarkResults.json`).
public enum JSONText {
  /// `text` as a JSON string: `"` and `\` escaped, line feed, carriage return and tab as `\n`,
  /// `\r`, `\t`, any other control character as `\u00XX`; everything else as it is (UTF-8).
  ///
  /// - Complexity: O(*n*) in the unicode scalars of `text`.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
