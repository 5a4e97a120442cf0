import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteStore
import Testing

@Suite("RouteStore transactions and imports")
struct RouteStoreTransactionTests {
  @Test("A reader on another connection never sees half a batch")
  func readerSeesWholeBatches() throws {
    try withTemporaryStore { writer, path in
      let reader = try RouteStore(path: path)
      var shift = try writer.startLiveShift(count: 400, seed: 11, stored: 100, reader: reader)
      let id = shift.id

      try writer.appendUncommitted(shift.route[100..<250], to: id)
      #expect(try writer.sampleCount(of: id) == 250)
      #expect(try reader.sampleCount(of: id) == 100)
      #expect(try reader.shifts().map(\.sampleCount) == [100])
      #expect(try shift.live.refresh(from: reader).usablePositionCount == 100)
      try writer.appendSamples(shift.route[250..<400], to: id)
      #expect(try reader.sampleCount(of: id) == 100)
      try writer.database.commit()

      #expect(try reader.sampleCount(of: id) == 400)
      #expect(storeTestIdentical(try shift.live.refresh(from: reader), try reader.measure(shift: id)))
      #expect(shift.live.counters.freshMeasurements == 0)
    }
  }

  @Test("A batch that fails is written not at all")
  func failedBatchWritesNothing() throws {
    let store = try RouteStore.inMemory()
    let id = try store.makeRunningShift()
    var route = storeTestRoute(count: 10, seed: 12)
    route[7].latitude = .nan
    #expect(throws: StoreError(.unstorableSample(index: 7), path: ":memory:")) {
      try store.appendSamples(route, to: id)
    }
    #expect(try store.sampleCount(of: id) == 0)
    // Inside a caller's transaction the failed batch is a savepoint: only it is undone.
    try store.database.beginImmediate()
    try store.appendSamples(route[0..<5], to: id)
    #expect(throws: StoreError.self) { try store.appendSamples(route[0..<3], to: ShiftID(404)) }
    try store.database.commit()
    #expect(try store.sampleCount(of: id) == 5)
    #expect(try store.totalRowCount() == 5)
  }

  @Test("An import writes whole batches and says complete only in its last transaction")
  func importMarksCompleteLast() throws {
    try withTemporaryStore { store, _ in
      let route = storeTestRoute(count: 1_000, seed: 13)
      var writer = try store.beginImport(source: "drive.csv", window: nil, importedAt: 5, batchSize: 300)
      let id = writer.shift
      #expect(try store.shift(id)?.status == .importing)
      #expect(try store.shift(id)?.start == 5)
      for (index, sample) in route.enumerated() {
        writer.retain(sample)
        if index % 100 == 99 { try writer.chunkFinished() }
      }
      #expect(writer.samplesWritten == 900)
      #expect(writer.batchesCommitted == 3)
      #expect(writer.pendingCount == 100)
      let interrupted = try #require(try store.shift(id))
      #expect(interrupted.status == .importing)
      #expect(interrupted.isInterrupted)
      #expect(interrupted.sampleCount == 900)
      #expect(interrupted.start == route[0].timestamp)
      #expect(interrupted.end == nil)

      try writer.finish()
      let finished = try #require(try store.shift(id))
      #expect(finished.status == .complete)
      #expect(finished.sampleCount == 1_000)
      #expect(finished.window == nil)
      #expect(writer.batchesCommitted == 4)
      #expect(try store.integrityCheck())
    }
  }

  @Test("An import that stops without finishing leaves a consistent store and an importing shift")
  func abandonedImport() throws {
    try withTemporaryStorePath { path in
      do {
        let store = try RouteStore(path: path)
        var writer = try store.beginImport(
          source: "cut.gpx", window: ShiftWindow(start: 1_699_999_000, end: 1_700_090_000), importedAt: 7, batchSize: 64
        )
        for sample in storeTestRoute(count: 200, seed: 14) { writer.retain(sample) }
        try writer.chunkFinished()
        for sample in storeTestRoute(count: 50, seed: 15, start: 1_700_080_000) { writer.retain(sample) }
        // The process stops here: the writer is dropped with 50 samples unwritten.
      }
      let store = try RouteStore(path: path)
      #expect(try store.integrityCheck())
      let shift = try #require(try store.shifts().first)
      #expect(shift.status == .importing)
      #expect(shift.sampleCount == 200)
      #expect(shift.window == ShiftWindow(start: 1_699_999_000, end: 1_700_090_000))
    }
  }

  @Test("A shift imported through the ingest stage measures, from the store, exactly what ingest measured")
  func ingestToStore() throws {
    let store = try RouteStore.inMemory()
    var route = storeTestRoute(count: 3_000, seed: 16)
    // Some positions the capture filter rejects.
    route[10].horizontalAccuracy = 500
    route[20].latitude = 0
    route[20].longitude = 0
    route[30].timestamp = route[29].timestamp
    let window = ShiftWindow(start: route[0].timestamp - 600, end: route[2_999].timestamp + 30)
    for settingsWindow in [window, nil] {
      let writer = try store.beginImport(source: "feed", window: settingsWindow, importedAt: 1, batchSize: 500)
      var ingest = ShiftIngest(settings: IngestSettings(window: settingsWindow), retained: writer)
      for (index, sample) in route.enumerated() {
        ingest.position(sample, session: Int(sample.captureSession!.rawValue), line: index + 1)
        if index % 256 == 255 { try ingest.retainedSink.chunkFinished() }
      }
      try ingest.retainedSink.finish()
      let measured = ingest.measurement(format: .csv)
      let id = ingest.retainedSink.shift
      let record = try #require(try store.shift(id))
      #expect(record.status == .complete)
      #expect(record.sampleCount == measured.report.retained)
      #expect(record.sampleCount < route.count)
      #expect(record.window == settingsWindow)
      // The store holds the stop fixes but not that they were: the same positions, segments and
      // figure, without the list of stops.
      var expected = measured.distance
      expected.stops = []
      #expect(storeTestIdentical(try store.measure(shift: id), expected))
    }
  }

  @Test(
    "A feed found out of time order after batches were committed is written again, in time order, with nothing left over"
  )
  func importRestartsInTimeOrder() throws {
    let store = try RouteStore.inMemory()
    let route = storeTestRoute(count: 600, seed: 17)
    func csv(_ samples: [RouteSample]) -> String {
      "timestamp,latitude,longitude,accuracy\n"
        + samples.map { "\($0.timestamp),\($0.latitude),\($0.longitude),\($0.horizontalAccuracy ?? 5)\n" }.joined()
    }
    var late = route
    late.swapAt(580, 590)  // out of order only near the end, long after the first batches
    func imported(_ text: String) throws -> (shift: ShiftID, batches: Int) {
      var writer = try store.beginImport(source: "feed", window: nil, importedAt: 1, batchSize: 16)
      // 256-byte reads: a batch is committed every few chunks before the late row is met.
      var source = MemoryByteSource(text, chunkSize: 256)
      let measured = try FeedIngest.measure(&source, format: .csv, retained: &writer)
      try writer.finish()
      #expect(try store.sampleCount(of: writer.shift) == measured.report.retained)
      return (writer.shift, writer.batchesCommitted)
    }
    let inOrder = try imported(csv(route))
    let restarted = try imported(csv(late))
    // The first pass committed batches before it met the late row (the sorted pass writes its
    // rows when the file has been read: one batch here); the restart deleted them.
    #expect(inOrder.batches > 20)
    #expect(restarted.batches > 20)
    #expect(
      try store.positions(of: restarted.shift).map(\.timestamp) == store.positions(of: inOrder.shift).map(\.timestamp))
    #expect(storeTestIdentical(try store.measure(shift: restarted.shift), try store.measure(shift: inOrder.shift)))
    let record = try #require(try store.shift(restarted.shift))
    #expect(record.start == route[0].timestamp)
  }
}
