/// Why an invocation stopped. Mapped to an exit code in one place.
enum CLIError: Error, CustomStringConvertible {
  /// The command line itself is wrong: exit 64 (EX_USAGE) with the usage line.
  case usage(String, command: String?)
  /// An input or output failed: exit 1.
  case failure(String)

  var description: String {
    switch self {
    case .usage(let message, _), .failure(let message): message
    }
  }

  var exitCode: Int32 {
    if case .usage = self { return ExitCode.usage }
    return ExitCode.failure
  }
}

/// The tool's exit codes.
enum ExitCode {
  static let success: Int32 = 0
  /// At least one input failed (unreadable, malformed, refused).
  static let failure: Int32 = 1
  /// The command line was wrong (EX_USAGE from sysexits.h).
  static let usage: Int32 = 64
  /// Stopped by Ctrl-C (128 + SIGINT), after saying what was left behind.
  static let interrupted: Int32 = 130
}
