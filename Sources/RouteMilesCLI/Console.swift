#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the tool writes: results to standard output, diagnostics and progress to standard
/// error. Tests pass a capturing console and run the tool in process.
public protocol Console: AnyObject {
  func out(_ text: String)
  func err(_ text: String)
  /// Whether standard error is a terminal (progress bars, redrawn cards).
  var errorIsTerminal: Bool { get }
  /// Whether standard output is a terminal.
  var outputIsTerminal: Bool { get }
  /// Pushes buffered output out (after each result line of a streaming command).
  func flush()
}

/// The process's own standard output and error, through C stdio buffers.
public final class StandardConsole: Console {
  public init() {}
  public func out(_ text: String) { fputs(text, stdout) }
  public func err(_ text: String) {
    fflush(stdout)
    fputs(text, stderr)
  }
  public var errorIsTerminal: Bool { isatty(2) == 1 }
  public var outputIsTerminal: Bool { isatty(1) == 1 }
  public func flush() { fflush(stdout) }
}

/// Collects everything written, for tests.
public final class CapturingConsole: Console, @unchecked Sendable {
  public private(set) var output = ""
  public private(set) var error = ""
  public var errorIsTerminal: Bool
  public var outputIsTerminal = false
  public init(errorIsTerminal: Bool = false) { self.errorIsTerminal = errorIsTerminal }
  public func out(_ text: String) { output += text }
  public func err(_ text: String) { error += text }
  public func flush() {}
}
