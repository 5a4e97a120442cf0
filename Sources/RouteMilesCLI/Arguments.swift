/// A hand-written command-line parser with the conventions of good Unix tools.
///
/// `--name value` and `--name=value`; `--` ends options (everything after it is an operand);
/// `-` alone is an operand (standard input), at most once; `-h` means `--help`. An option the command does
/// not declare is a usage error, never silently ignored.
struct Arguments {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var operands: [String] = []
  let command: String?

  /// - Parameters:
  ///   - options: options that take a value, without the leading dashes.
  ///   - flags: options that take none.
  init(_ arguments: [String], command: String?, options: Set<String>, flags: Set<String>) throws(CLIError) {
    self.command = command
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        operands.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" {
        self.flags.insert("help")
        continue
      }
      guard argument.hasPrefix("--") else {
        throw .usage("unknown option '\(argument)'", command: command)
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if flags.contains(name) {
        guard inlineValue == nil else { throw .usage("option '--\(name)' takes no value", command: command) }
        self.flags.insert(name)
      } else if options.contains(name) {
        if let inlineValue {
          values[name, default: []].append(inlineValue)
        } else {
          guard index < arguments.count else { throw .usage("option '--\(name)' needs a value", command: command) }
          values[name, default: []].append(arguments[index])
          index += 1
        }
      } else {
        throw .usage("unknown option '--\(name)'", command: command)
      }
    }
    // Standard input can be read once: a second `-` would read it empty.
    if operands.lazy.filter({ $0 == "-" }).count > 1 {
      throw .usage("standard input ('-') is given more than once; it can be read only once", command: command)
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The option's value; the last one wins when it is given twice.
  func value(_ name: String) -> String? { values[name]?.last }

  func double(_ name: String, minimum: Double? = nil) throws(CLIError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let number = Double(text), number.isFinite else {
      throw .usage("option '--\(name)' needs a number, not '\(text)'", command: command)
    }
    if let minimum, number < minimum {
      throw .usage("option '--\(name)' must be at least \(minimum)", command: command)
    }
    return number
  }

  func integer(_ name: String, minimum: Int) throws(CLIError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), number >= minimum else {
      throw .usage("option '--\(name)' needs a whole number of at least \(minimum), not '\(text)'", command: command)
    }
    return number
  }
}
