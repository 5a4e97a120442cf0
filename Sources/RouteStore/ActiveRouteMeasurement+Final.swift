import RouteMileage

extension ActiveRouteMeasurement {
  /// Why a running shift's last live figure and its final figure differ, in one sentence; nil
  /// when they are identical.
  ///
  /// The final figure is one pass over the stored rows (`RouteStore.measure(shift:)`) against
  /// the finished shift's window; the live one is the walk this type extends forwards. For
  /// rows stored in time order with no window they are identical (see the type's notes), so
  /// a difference has one of three causes, named in this order and joined with "; ":
  ///
  /// - the final figure's window gaps (at its start or end), which a running shift, having no
  ///   window, cannot have;
  /// - stored positions outside the window, which the final figure does not measure;
  /// - otherwise, rows stored out of time order: the live walk extends forwards only, while
  ///   the one pass sorts every row.
  ///
  ///     ActiveRouteMeasurement.whyFinalDiffers(live: live, final: final)
  ///     // "the final figure is measured against the shift window, which adds 1 window gap a
  ///     //  running shift cannot have."
  ///
  /// - Complexity: O(*g*) in the final figure's gaps.
  public static func whyFinalDiffers(live: RouteDistance, final: RouteDistance) -> String? {
    guard live != final else { return nil }
    var reasons: [String] = []
    let windowGaps = final.gaps.filter { $0.kind == .windowStart || $0.kind == .windowEnd }.count
    if windowGaps > 0 {
      reasons.append(
        "the final figure is measured against the shift window, which adds \(MileageLocale.english.counted(windowGaps, "window gap")) "
          + "a running shift cannot have")
    }
    if final.positionsOutsideWindow > 0 {
      reasons.append(
        "\(MileageLocale.english.counted(final.positionsOutsideWindow, "stored position lies", plural: "stored positions lie")) "
          + "outside the shift window and \(MileageLocale.noun("is", count: final.positionsOutsideWindow, plural: "are")) not measured in the final figure"
      )
    }
    if reasons.isEmpty {
      reasons.append(
        "the live walk extends forwards only, while the one-pass measurement sorts every stored row; the stored rows are not in time order"
      )
    }
    return reasons.joined(separator: "; ") + "."
  }
}
