import RouteMileage

/// A one-line progress bar on standard error: files done of total, positions per second, ETA.
/// Redrawn at most ten times a second; cleared when done.
final class ProgressBar {
  private let console: Console
  private let total: Int
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  private var lastDrawn: ContinuousClock.Instant?
  private var drewSomething = false

  init(console: Console, total: Int) {
    self.console = console
    self.total = total
    started = clock.now
  }

  func update(done: Int, positions: Int, force: Bool = false) {
    let now = clock.now
    if !force, let lastDrawn, now - lastDrawn < .milliseconds(100) { return }
    lastDrawn = now
    let elapsed = Self.seconds(now - started)
    let rate = elapsed > 0 ? Double(positions) / elapsed : 0
    let width = 24
    let filled = total > 0 ? width * done / total : width
    let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
    var eta = DurationWords.clock(.infinity)
    if done > 0, done < total {
      let remaining = elapsed / Double(done) * Double(total - done)
      eta = DurationWords.clock(remaining)
    } else if done == total {
      eta = DurationWords.clock(0)
    }
    console.err(
      "\r[\(bar)] \(done)/\(total) files · \(MileageLocale.english.formattedCount(Int(rate))) positions/s · ETA \(eta) "
    )
    drewSomething = true
  }

  /// Clears the bar; the next `update` draws it again.
  func finish() {
    if drewSomething { console.err("\r" + String(repeating: " ", count: 78) + "\r") }
    drewSomething = false
    lastDrawn = nil
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
