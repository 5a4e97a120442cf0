/// The rule for whether two consecutive usable positions are one piece of route.
///
/// They are continuous when both carry the same capture session and are at most
/// `maximumSampleInterval` apart (inclusive), or when neither carries a session (legacy rows)
/// and they are at most that far apart. A session ID proves the app kept recording; the
/// interval checks that positions kept arriving. A position with a session and one without are
/// never continuous.
public struct RouteContinuity: Sendable, Hashable {
  /// The default maximum interval, in seconds: while a vehicle moves, accepted positions arrive
  /// seconds apart, so ordinary driving is never fragmented, and a longer silence means a
  /// stationary vehicle (a few metres omitted) or positions that stopped arriving (a straight
  /// line that cannot be trusted). An engineering choice, not a calibration.
  public static let defaultMaximumSampleInterval: Double = 120

  /// Seconds. Two positions exactly this far apart are still continuous.
  public var maximumSampleInterval: Double

  public init(maximumSampleInterval: Double = RouteContinuity.defaultMaximumSampleInterval) {
    self.maximumSampleInterval = maximumSampleInterval
  }

  /// Nil when `next` continues from `previous`; otherwise the kind of gap between them.
  ///
  /// `next` must be later than `previous`. A session change outranks a silence: it is the
  /// more direct evidence.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func gap(from previous: RoutePosition, to next: RoutePosition) -> RouteGap.Kind? {
    switch (previous.captureSession, next.captureSession) {
    case (let a?, let b?) where a != b: return .sessionChange
    case (nil, _?), (_?, nil): return .legacySessionBoundary
    default:
      return next.timestamp - previous.timestamp > maximumSampleInterval ? .silence : nil
    }
  }
}
