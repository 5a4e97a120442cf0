import RouteMileage

extension RouteStore {
  /// Writes one batch of samples to a shift, lets `whileStored` look at the store with the
  /// batch in it, then rolls the batch back: a batch measured and then lost, as a crash
  /// between a write and its commit would lose it (`replay --discard-batches`).
  ///
  /// The batch and whatever `whileStored` writes through this connection are discarded
  /// together; readers on other connections never see them (WAL). A batch to keep is written
  /// with `appendSamples(_:to:)`, its own transaction.
  ///
  /// - Throws: `StoreError` from the write or the rollback; what `whileStored` throws (after
  ///   the rollback).
  /// - Complexity: O(*k* log *N*) for *k* samples in a store of *N* rows, plus `whileStored`.
  public func appendSamplesThenRollBack(
    _ samples: some Collection<RouteSample>, to shift: ShiftID, whileStored: () throws -> Void
  ) throws {
    try database.beginImmediate()
    do {
      try appendSamples(samples, to: shift)
      try whileStored()
    } catch {
      if database.isInTransaction { try? database.rollback() }
      throw error
    }
    try database.rollback()
  }
}
