import RouteFeeds
import RouteMileage

extension ShiftIngest {
  /// A walk of no positions yet, with this ingest's window or timeline: what the calculator
  /// starts each measurement with.
  func freshWalk() -> RouteMileageAccumulator {
    timeline.map { RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, timeline: $0) }
      ?? RouteMileageAccumulator(maximumSampleInterval: settings.maximumSampleInterval, window: window)
  }

  /// Filter off: one position (capture session minted, timeline admitted) on its way to the
  /// walk. `.time` walks it at once while positions arrive in `RouteMileageCalculator.walkOrder`
  /// and notes the first that does not (`deliveredOutOfOrder`: the caller sorts the file);
  /// `.timeSorted` hands the sorter, in walk order, only what the walk order and the walk read
  /// (the position, and its recording's index in place of the reader session, absent for the
  /// first recording), so each packed record takes 25 to 49 bytes rather than up to 81;
  /// `.arrival` keeps it.
  ///
  /// - Complexity: O(1) amortised; memory O(1) for `.time`, bounded for `.timeSorted`.
  @inline(__always)
  mutating func walkUnfiltered(_ sample: RouteSample, recording: Int) {
    switch order {
    case .time:
      guard !deliveredOutOfOrder else { return }
      let position = sample.position
      if let lastWalked, RouteMileageCalculator.walkOrder(position, lastWalked) {
        deliveredOutOfOrder = true
        return
      }
      lastWalked = position
      accumulator.append(position)
    case .timeSorted:
      sortUnfiltered(sample, recording: recording)
    case .arrival:
      unfiltered.append(sample.position)
      unfilteredRecordings.append(Int32(truncatingIfNeeded: recording))
    }
  }

  /// `walkUnfiltered` for `.timeSorted`, out of line so that the streamed case stays small
  /// where it is inlined.
  @inline(never)
  mutating func sortUnfiltered(_ sample: RouteSample, recording: Int) {
    guard sortFailure == nil else { return }
    do {
      let position = RouteSample(
        timestamp: sample.timestamp, latitude: sample.latitude, longitude: sample.longitude,
        horizontalAccuracy: sample.horizontalAccuracy, captureSession: sample.captureSession)
      try sorter?.append(TimeOrderedSample(sample: position, session: recording == 0 ? nil : recording))
    } catch {
      sortFailure = error
    }
  }

  /// Filter off, `.timeSorted`: walks the sorted positions, into one walk, or into one per
  /// recording when they are measured apart. Positions equal in walk order are equal in every
  /// field the walk reads, so this is the calculator's figure exactly.
  ///
  /// - Throws: `FeedError.temporaryStorage` when the spill file failed.
  /// - Complexity: O(*n* log *n*) with the sort; memory as `SpillingSampleSorter`.
  mutating func finishUnfiltered() throws {
    guard order == .timeSorted else { return }
    if let sortFailure { throw sortFailure }
    guard var sorter else { return }
    self.sorter = nil
    var cursor = try sorter.sorted()
    guard separatesRecordings else {
      while let item = try cursor.nextPosition() { accumulator.append(item.position) }
      return
    }
    var walks = spans.names.map { _ in freshWalk() }
    while let item = try cursor.nextPosition() { walks[item.session ?? 0].append(item.position) }
    unfilteredSeparated = walks.map(\.distance)
  }

  /// Filter off: one more position retained in recording `index` (for the list of recordings).
  mutating func countRetained(inRecording index: Int) {
    if index >= retainedByRecording.count {
      retainedByRecording.append(contentsOf: repeatElement(0, count: index + 1 - retainedByRecording.count))
    }
    retainedByRecording[index] += 1
  }
}
