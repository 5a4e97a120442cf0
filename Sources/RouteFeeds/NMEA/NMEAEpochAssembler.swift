import RouteMileage

/// Gathers read sentences into epochs and delivers one record per epoch.
///
/// A fix sentence (RMC, GGA, GNS, GLL, GST) with the time of day of the open epoch joins it;
/// one with another time closes it and opens the next. Sentences whose time field is empty
/// cannot be placed by time: consecutive ones form one epoch until a sentence type repeats
/// (a receiver's cycle of `GGA, GLL, RMC` without times is one epoch). A closed epoch is a
/// position, `noFix` (no sentence claimed a fix), or `missingTime` (a fix without a time).
///
/// GSA carries no time: it belongs to the epoch open when it arrives (or the next, at the start
/// of a feed), and an epoch without an HDOP of its own takes the latest GSA's.
///
/// Until the feed gives a date, positions wait in a bounded buffer (`maximumUndatedEpochs`),
/// then are delivered in order with the right dates; a feed that never gives one, or fills the
/// buffer, throws `needsDate`. With the date known, memory is O(1).
struct NMEAEpochAssembler {
  /// How many positions may wait for a date (≈ 28 hours at 1 Hz, about 15 MB).
  static let maximumUndatedEpochs = 100_000

  struct UndatedPosition {
    var sample: RouteSample
    var placement: NMEAClock.Placement
    var line: Int
  }

  var clock: NMEAClock
  var epoch = NMEAEpoch(timeOfDay: nil, line: 0)
  var isOpen = false
  /// The latest GSA's HDOP since the last epoch closed.
  var gsaHDOP: Double?
  /// GSA lines seen while no epoch was open, with the line of the first.
  var pendingSupportLines = 0
  var pendingSupportLine = 0
  var undated: [UndatedPosition] = []

  init(options: FeedOptions) {
    clock = NMEAClock(maximumSampleInterval: options.maximumSampleInterval, date: options.date)
  }

  mutating func fix(_ fix: NMEAFix, line: Int, into sink: inout some FeedSink) throws(FeedError) {
    if let time = fix.timeOfDay {
      if isOpen, epoch.timeOfDay == time {
        epoch.merge(fix)
        return
      }
      try close(into: &sink)
      open(timeOfDay: time, line: line)
    } else {
      if fix.kind == .gst {
        sink.ignored(.unpairedSentence, line: line)
        return
      }
      if isOpen, epoch.timeOfDay == nil, epoch.kinds & fix.kind.rawValue == 0 {
        epoch.merge(fix)
        return
      }
      try close(into: &sink)
      open(timeOfDay: nil, line: line)
    }
    epoch.merge(fix)
  }

  private mutating func open(timeOfDay: Int64?, line: Int) {
    epoch = NMEAEpoch(timeOfDay: timeOfDay, line: line)
    epoch.supportLines = pendingSupportLines
    pendingSupportLines = 0
    isOpen = true
  }

  /// Whether a GSA arriving now could give an accuracy: not when the open epoch already has
  /// an HDOP of its own (GGA/GNS), which it keeps over any GSA's until it closes (and closing
  /// forgets the GSA's). A GSA that cannot matter is still framed and checksummed, and counts
  /// as a support line, but its fields are not read.
  var needsGSAHDOP: Bool { !(isOpen && epoch.details.hdop != nil) }

  mutating func gsa(hdop: Double?, line: Int) {
    gsaHDOP = hdop
    if isOpen {
      epoch.supportLines += 1
    } else {
      if pendingSupportLines == 0 { pendingSupportLine = line }
      pendingSupportLines += 1
    }
  }

  mutating func zda(timeOfDay: Int64?, date: Int?, line: Int, into sink: inout some FeedSink) throws(FeedError) {
    sink.ignored(.dateSentence, line: line)
    guard let timeOfDay, let date else { return }
    if clock.observe(day: date, timeOfDay: timeOfDay) { flushUndated(into: &sink) }
  }

  /// Closes the open epoch and delivers its record.
  mutating func close(into sink: inout some FeedSink) throws(FeedError) {
    guard isOpen else { return }
    isOpen = false
    let hdop = gsaHDOP
    gsaHDOP = nil
    guard let time = epoch.timeOfDay else {
      sink.rejected(epoch.hasPosition ? .missingTime : .noFix, line: epoch.line)
      return
    }
    let (placement, datedNow) = clock.place(timeOfDay: time, date: epoch.details.date)
    if datedNow { flushUndated(into: &sink) }
    guard epoch.hasPositionSentence else {
      for _ in 0..<epoch.supportLines { sink.ignored(.unpairedSentence, line: epoch.line) }
      return
    }
    guard epoch.hasPosition else {
      sink.rejected(.noFix, line: epoch.line)
      return
    }
    if let timestamp = clock.timestamp(placement) {
      sink.position(epoch.sample(timestamp: timestamp, gsaHDOP: hdop), session: placement.session, line: epoch.line)
      return
    }
    guard undated.count < Self.maximumUndatedEpochs else {
      throw .needsDate(line: undated.first?.line ?? epoch.line)
    }
    undated.append(
      UndatedPosition(sample: epoch.sample(timestamp: 0, gsaHDOP: hdop), placement: placement, line: epoch.line))
  }

  /// Delivers the positions that waited for the date, in order.
  private mutating func flushUndated(into sink: inout some FeedSink) {
    for var waiting in undated {
      guard let timestamp = clock.timestamp(waiting.placement) else { return }
      waiting.sample.timestamp = timestamp
      sink.position(waiting.sample, session: waiting.placement.session, line: waiting.line)
    }
    undated = []
  }

  /// Ends the feed: closes the last epoch; throws `needsDate` if positions still wait for one.
  mutating func finish(into sink: inout some FeedSink) throws(FeedError) {
    try close(into: &sink)
    for _ in 0..<pendingSupportLines { sink.ignored(.unpairedSentence, line: pendingSupportLine) }
    pendingSupportLines = 0
    if let first = undated.first { throw .needsDate(line: first.line) }
  }
}
