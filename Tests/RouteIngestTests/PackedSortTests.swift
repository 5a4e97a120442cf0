import RouteMileage
import RouteTestSupport
import Testing

@testable import RouteFeeds
@testable import RouteIngest

/// The sorter keeps and spills samples packed (`PackedSample`): every field must come back bit
/// for bit, and where the runs break, whether anything spilled and how the run files are read
/// back must not change the order.
@Suite("The sorter packs samples exactly and sorts them the same in memory and on disk")
struct PackedSortTests {
  /// Every field of a sample as bits, absent fields as a marker no present field has here, so
  /// two samples compare equal only when they are the same to the last bit (NaN payloads and
  /// signed zeros included), unlike `==`.
  static func bits(_ item: TimeOrderedSample) -> [UInt64] {
    let sample = item.sample
    let absent: UInt64 = 0x5A5A_5A5A_5A5A_5A5A
    return [
      sample.timestamp.bitPattern, sample.latitude.bitPattern, sample.longitude.bitPattern,
      sample.horizontalAccuracy?.bitPattern ?? absent, sample.horizontalAccuracyIsEstimated ? 1 : 0,
      sample.speed?.bitPattern ?? absent, sample.course?.bitPattern ?? absent, sample.altitude?.bitPattern ?? absent,
      sample.captureSession.map { UInt64(bitPattern: $0.rawValue) } ?? absent, sample.receivedAt?.bitPattern ?? absent,
      item.session.map { UInt64(bitPattern: Int64($0)) } ?? absent,
    ]
  }

  /// A sample with the optional fields whose bits are set in `mask` (bit 7: the accuracy is an
  /// estimate), each an awkward value: a NaN with a payload, a negative zero, an infinity, the
  /// extremes of the integers.
  static func sample(mask: Int) -> TimeOrderedSample {
    let payloadNaN = Double(nan: 0x1234, signaling: false)
    let sample = RouteSample(
      timestamp: mask % 3 == 0 ? -0.0 : 1_764_547_200.125 + Double(mask), latitude: mask % 2 == 0 ? -90 : 51.5,
      longitude: mask % 5 == 0 ? .nan : -0.125,
      horizontalAccuracy: mask & 1 != 0 ? payloadNaN : nil, horizontalAccuracyIsEstimated: mask & 128 != 0,
      speed: mask & 2 != 0 ? -0.0 : nil, course: mask & 4 != 0 ? .infinity : nil,
      altitude: mask & 8 != 0 ? -.greatestFiniteMagnitude : nil,
      captureSession: mask & 16 != 0 ? CaptureSessionID(Int64.min) : nil,
      receivedAt: mask & 32 != 0 ? .leastNonzeroMagnitude : nil)
    return TimeOrderedSample(sample: sample, session: mask & 64 != 0 ? Int.max : nil)
  }

  @Test func aSampleWithAnyOptionalFieldsPresentOrMissingComesBackBitForBit() {
    let buffer = PackedSampleBuffer(limit: 256 * PackedSample.maximumSize + 2 * PackedSample.maximumSize)
    var offsets: [Int] = []
    for mask in 0..<256 {
      #expect(buffer.hasRoom)
      offsets.append(buffer.append(Self.sample(mask: mask)))
    }
    for mask in 0..<256 {
      let expected = Self.sample(mask: mask)
      let record = buffer.record(at: offsets[mask])
      #expect(Self.bits(buffer.sample(at: offsets[mask])) == Self.bits(expected), "fields \(mask)")
      // Only the fields present take room: 25 bytes and 8 a field.
      let size = 25 + 8 * (mask & 127).nonzeroBitCount
      #expect(PackedSample.size(of: record) == size, "fields \(mask)")
      #expect(offsets[mask] + size == (mask == 255 ? buffer.count : offsets[mask + 1]))
      #expect(PackedSample.timestamp(of: record).bitPattern == expected.sample.timestamp.bitPattern)
      #expect(PackedSample.receivedAt(of: record)?.bitPattern == expected.sample.receivedAt?.bitPattern)
    }
  }

  /// The position and recording alone, bit for bit: what the filter-off walk reads of a record.
  static func positionBits(_ position: RoutePosition, session: Int?) -> [UInt64] {
    let absent: UInt64 = 0x5A5A_5A5A_5A5A_5A5A
    return [
      position.timestamp.bitPattern, position.latitude.bitPattern, position.longitude.bitPattern,
      position.captureSession.map { UInt64(bitPattern: $0.rawValue) } ?? absent,
      position.horizontalAccuracy?.bitPattern ?? absent, session.map { UInt64(bitPattern: Int64($0)) } ?? absent,
    ]
  }

  @Test func aRecordsPositionAloneComesBackBitForBitWhateverFieldsArePresent() {
    let buffer = PackedSampleBuffer(limit: 256 * PackedSample.maximumSize + 2 * PackedSample.maximumSize)
    let offsets = (0..<256).map { buffer.append(Self.sample(mask: $0)) }
    for mask in 0..<256 {
      let expected = Self.sample(mask: mask)
      let walked = PackedSample.walkedPosition(from: buffer.record(at: offsets[mask]))
      #expect(
        Self.positionBits(walked.position, session: walked.session)
          == Self.positionBits(expected.sample.position, session: expected.session), "fields \(mask)")
    }
  }

  /// Positions read from the cursor give the samples' positions in the same order, from memory
  /// and merged from spilled runs.
  @Test(arguments: [SampleSortOrder.walk, .time])
  func positionsComeOutInTheSamplesOrder(_ order: SampleSortOrder) throws {
    let items = Self.items(count: 3000, seed: 53, withNaN: false)
    let expected = Self.stableSort(items, order)
    for runLimit in [SpillingSampleSorter.defaultRunLimit, 450] {
      var sorter = SpillingSampleSorter(runLimit: runLimit, mergeReadBytes: 1000, order: order)
      for item in items { try sorter.append(item) }
      #expect(sorter.spilled == (runLimit == 450))
      var cursor = try sorter.sorted()
      var positions: [[UInt64]] = []
      while let walked = try cursor.nextPosition() {
        positions.append(Self.positionBits(walked.position, session: walked.session))
      }
      let samples = expected.map { [$0[0], $0[1], $0[2], $0[8], $0[3], $0[10]] }
      #expect(positions == samples, "run limit \(runLimit)")
    }
  }

  /// Samples with ties in every field, optional fields present or missing at random, and
  /// duplicates; times with signed zeros and a NaN now and then.
  static func items(count: Int, seed: UInt64, withNaN: Bool) -> [TimeOrderedSample] {
    var random = SeededRandom(seed: seed)
    let times: [Double] = [-1, -0.0, 0, 0.5, 1_764_547_200, 1_764_547_201]
    return (0..<count).map { index in
      let mask = Int(random.next() % 256)
      let time = withNaN && index % 11 == 5 ? Double.nan : times[Int(random.next() % UInt64(times.count))]
      let sample = RouteSample(
        timestamp: time, latitude: Double(random.next() % 3), longitude: Double(random.next() % 2),
        horizontalAccuracy: mask & 1 != 0 ? Double(random.next() % 3) : nil,
        horizontalAccuracyIsEstimated: mask & 128 != 0, speed: mask & 2 != 0 ? 3 : nil,
        course: mask & 4 != 0 ? 90 : nil, altitude: mask & 8 != 0 ? -0.0 : nil,
        captureSession: mask & 16 != 0 ? CaptureSessionID(Int64(random.next() % 2)) : nil,
        receivedAt: mask & 32 != 0 ? times[Int(random.next() % UInt64(times.count))] : nil)
      return TimeOrderedSample(sample: sample, session: mask & 64 != 0 ? Int(random.next() % 2) : nil)
    }
  }

  /// The stable sort of `items` by `order`: what the sorter must hand back.
  static func stableSort(_ items: [TimeOrderedSample], _ order: SampleSortOrder) -> [[UInt64]] {
    items.enumerated().sorted { a, b in
      if order.precedes(a.element, b.element) { return true }
      if order.precedes(b.element, a.element) { return false }
      return a.offset < b.offset
    }.map { bits($0.element) }
  }

  static func sort(
    _ items: [TimeOrderedSample], _ order: SampleSortOrder, runLimit: Int = 1 << 20, byteLimit: Int = 40 << 20,
    readBytes: Int = 32 << 20
  ) throws -> (sorted: [[UInt64]], spilled: Bool) {
    var sorter = SpillingSampleSorter(runLimit: runLimit, byteLimit: byteLimit, mergeReadBytes: readBytes, order: order)
    for item in items { try sorter.append(item) }
    let spilled = sorter.spilled
    var sorted: [[UInt64]] = []
    try sorter.drain { sorted.append(bits($0)) }
    return (sorted, spilled)
  }

  @Test(arguments: [SampleSortOrder.time, .arrival, .walk])
  func sortingInMemoryAndThroughSpilledRunsGivesTheSameOrder(_ order: SampleSortOrder) throws {
    for withNaN in [false, true] {
      let items = Self.items(count: 3000, seed: 41, withNaN: withNaN)
      let expected = Self.stableSort(items, order)
      let inMemory = try Self.sort(items, order)
      #expect(!inMemory.spilled)
      #expect(inMemory.sorted == expected, "NaN \(withNaN)")
      // 7 runs by count, then by bytes, read back through blocks of a few records.
      let byCount = try Self.sort(items, order, runLimit: 450, readBytes: 1000)
      #expect(byCount.spilled)
      #expect(byCount.sorted == expected, "NaN \(withNaN)")
      let byBytes = try Self.sort(items, order, byteLimit: 20_000, readBytes: 1)
      #expect(byBytes.spilled)
      #expect(byBytes.sorted == expected, "NaN \(withNaN)")
    }
  }

  /// Runs that end after every possible position, by count and by bytes, and read blocks that
  /// end inside records at every offset: the order is the stable sort's each time.
  @Test(arguments: [SampleSortOrder.time, .walk])
  func aRunMayEndAtAnyPosition(_ order: SampleSortOrder) throws {
    let items = Self.items(count: 40, seed: 43, withNaN: false)
    let expected = Self.stableSort(items, order)
    for runLimit in 2...41 {
      #expect(try Self.sort(items, order, runLimit: runLimit, readBytes: 1).sorted == expected, "run limit \(runLimit)")
    }
    let total = items.reduce(0) { $0 + 25 + 8 * Int(Self.flagsCount($1)) }
    for byteLimit in stride(from: 1, through: total + 1, by: 7) {
      #expect(try Self.sort(items, order, byteLimit: byteLimit).sorted == expected, "byte limit \(byteLimit)")
    }
    for readBytes in 1...PackedSample.maximumSize * 3 {
      #expect(
        try Self.sort(items, order, runLimit: 9, readBytes: readBytes * 5).sorted == expected, "read \(readBytes)")
    }
  }

  static func flagsCount(_ item: TimeOrderedSample) -> Int {
    let sample = item.sample
    return [
      sample.horizontalAccuracy != nil, sample.speed != nil, sample.course != nil, sample.altitude != nil,
      sample.captureSession != nil, sample.receivedAt != nil, item.session != nil,
    ].filter { $0 }.count
  }

  /// A file that fits the buffer is sorted with no temporary file; past its byte limit it spills.
  @Test func onlyAFeedLargerThanTheBufferSpills() throws {
    let items = Self.items(count: 500, seed: 47, withNaN: false)
    let bytes = items.reduce(0) { $0 + 25 + 8 * Self.flagsCount($1) }
    #expect(try !Self.sort(items, .time, byteLimit: bytes).spilled)
    #expect(try Self.sort(items, .time, byteLimit: bytes - 100).spilled)
  }

  /// The radix sort sorts by the bits that differ between keys, in digits of up to 11 bits: keys
  /// that differ only in low bits, only in high bits, in two far-apart bits, in every bit, or in
  /// a span of any width from 1 to 64 bits (whole-second timestamps differ in about 20), with
  /// ties, come out as the stable sort by bits.
  @Test func radixSortGivesTheStableSortByBitsWhicheverBitsDiffer() {
    var random = SeededRandom(seed: 59)
    var cases: [(String, [UInt64])] = [
      ("low bits", (0..<3000).map { _ in 0xC1D4_0000_0000_0000 | random.next() % 5000 }),
      ("high bits", (0..<3000).map { _ in (random.next() % 37) << 58 | 0x1234 }),
      ("two far bits", (0..<3000).map { _ in (random.next() % 2) << 63 | random.next() % 2 }),
      ("every bit", (0..<3000).map { _ in random.next() }),
      ("whole seconds", (0..<3000).map { _ in SortKey.orderedBits(1_764_547_200 + Double(random.next() % 600_000)) }),
    ]
    for width in 1...64 {
      let shift = random.next() % UInt64(65 - width)
      let mask: UInt64 = width == 64 ? ~0 : (1 << UInt64(width)) - 1
      let base = random.next()
      cases.append(("width \(width)", (0..<700).map { _ in base ^ ((random.next() & mask) << shift) }))
    }
    for (name, bits) in cases {
      var keys = bits.enumerated().map { SortKey(bits: $0.element, index: UInt32($0.offset)) }
      var scratch: [SortKey] = []
      SortKey.radixSort(&keys, scratch: &scratch)
      let expected = bits.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
      let inOrder = keys.map(\.bits) == expected.map(\.element)
      let stable = keys.map { Int($0.index) } == expected.map(\.offset)
      #expect(inOrder && stable, "\(name)")
    }
  }
}
