/// How readers turn a dilution of precision into a horizontal accuracy when a feed reports none.
///
/// A receiver's horizontal error is roughly its HDOP (a unitless geometry factor) times the
/// user-equivalent range error, the error of one satellite range measurement. For a civilian
/// single-frequency receiver that range error is about 4–6 m (1σ), so 5 m is the usual middle
/// figure: HDOP 1 reads as ±5 m, and the capture filter's 100 m accuracy limit rejects fixes
/// with HDOP above 20. It is an estimate, never a measurement, so every sample that carries one
/// is marked `horizontalAccuracyIsEstimated` and counted in the ingest report. GPX `<hdop>` and
/// NMEA GGA/GSA HDOP use the same constant, so one drive reads the same from either format.
public enum AccuracyEstimate {
  /// Metres of estimated horizontal accuracy per unit of HDOP.
  public static let metersPerHDOP: Double = 5.0
}
