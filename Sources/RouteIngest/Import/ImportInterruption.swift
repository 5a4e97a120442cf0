import RouteStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The message Ctrl-C prints while an import is writing, prepared before it is needed: a signal
/// handler may only call async-signal-safe functions (`write`, `_exit`), so it cannot format.
/// Written by `arm`/`disarm` on the importing thread while the handler is not installed.
nonisolated(unsafe) private var interruptionMessage: UnsafeMutableBufferPointer<UInt8>?

/// Ctrl-C during `import`: the shift being written is left as an interrupted import (its
/// committed batches stay; SQLite discards the open one), and the user is told which shift that
/// is and what to do, instead of the process vanishing silently.
enum ImportInterruption {
  /// Installs the SIGINT handler for the shift now being imported.
  static func arm(shift: ShiftID, source: String, storePath: String) {
    disarm()
    let text =
      "\nroutemiles: interrupted: \(shift) (\(source)) was left as an interrupted import; its committed batches are kept. "
      + "Delete it with `routemiles shifts --store \(storePath) --delete \(shift.rawValue)`, or import the file again.\n"
    let bytes = Array(text.utf8)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = buffer.initialize(from: bytes)
    interruptionMessage = buffer
    // A parent may have started us with SIGINT blocked (a test runner's thread does): unblock it,
    // or Ctrl-C would wait forever behind a read of standard input.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGINT) { _ in
      if let message = interruptionMessage {
        _ = write(2, message.baseAddress, message.count)
      }
      _exit(130)
    }
  }

  /// Restores the default SIGINT action, then releases the message.
  static func disarm() {
    signal(SIGINT, SIG_DFL)
    interruptionMessage?.deallocate()
    interruptionMessage = nil
  }
}
