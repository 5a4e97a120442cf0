import RouteFeeds

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many threads `measure` reads and measures one feed on (`--threads 1|2`).
///
/// Two threads (parse on one, measure on the other; `IngestPipelining.automatic`) shorten the
/// wall time only when a second core is free. On a machine whose cores are all busy they cost a
/// few per cent (measured 5–15 % slower at a load average of 5–7 on 2 cores: the two threads
/// share one core's worth of time and the hand-over is extra work). So by default `measure`
/// pipelines when the machine has two or more cores and its 1-minute load average is below twice
/// the core count (an idle machine running `measure` back to back stays well under that);
/// `--threads 1` or `2` decides. The figure is the same either way; only the time differs.
public enum MeasureThreads {
  public static func pipelining(requested: Int?, processors: Int, loadAverage: Double?) -> IngestPipelining {
    switch requested {
    case 1?: return .off
    case _?: return .automatic
    case nil:
      guard processors >= 2 else { return .off }
      if let loadAverage, loadAverage >= 2 * Double(processors) { return .off }
      return .automatic
    }
  }

  /// The 1-minute load average, when the system reports one.
  public static func loadAverage() -> Double? {
    var averages = [0.0, 0.0, 0.0]
    return getloadavg(&averages, 1) == 1 ? averages[0] : nil
  }
}
