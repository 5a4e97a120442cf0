/// How a horizontal accuracy is estimated when a feed gives only a dilution of precision.
///
/// HDOP is unitless: it scales the receiver's ranging error into a horizontal error. A
/// consumer-grade GPS receiver's user-equivalent range error is a few metres (about 4–6 m in
/// open sky, 1σ), so HDOP × 5 m is a conventional, deliberately middling radius: HDOP 1.0 reads
/// as 5 m, and the capture filter's 100 m ceiling rejects fixes with HDOP above 20 — the
/// geometry receivers themselves flag as poor. It is an estimate, never a measurement, so every
/// sample that carries one is marked `horizontalAccuracyIsEstimated` and counted in the
/// ingest report. One constant for every format (NMEA GGA/GSA/GNS, GPX `<hdop>`).
public enum AccuracyEstimate {
  /// Metres of horizontal accuracy per unit of HDOP.
  public static let metersPerHDOP: Double = 5.0
}
