import RouteFeeds
import RouteMileage

/// `pipe`'s samples: the top-level `"samples"` array of one record (one JSON line), read on the
/// JSON tokenizer straight into the ingest stage, without building a `JSONValue` per sample.
///
/// A sample is `{"t": ISO 8601 or epoch seconds, "lat": …, "lon": …, "acc": …?, "session": …?}`.
/// The first problem decides a bad sample's reason, counted with its 1-based index as the
/// "line": not an object (`badNumber`), `t` missing or unreadable (`badTime`), `lat`/`lon` not
/// numbers (`badNumber`), `acc` neither a number nor null (`badNumber`), `session` neither a
/// string, a number nor null (`badNumber`). A repeated member keeps its last value, as in the DOM.
///
/// Sessions are minted in the sorted order of their keys (strings as they are, numbers in their
/// JSON form), not in order of appearance, so any permutation of a shift's rows (a warehouse
/// returns them in no order) mints the same IDs and gives a bit-identical result. That needs
/// every key before the first sample, hence two passes over the record's bytes.
///
/// - Complexity: O(*n*) in the record's length (two tokenizer passes), plus O(*k* log *k*) for
///   *k* session keys.
package enum PipeSampleReader {
  /// Measures the record's samples (the last top-level `"samples"` member, when it is an
  /// array). Call it on a record `JSONParser.parse` accepted: its syntax is then known good.
  /// Returns the measurement, and why the ingest could not finish (nothing readable), if so.
  /// - Parameter timeZone: the zone a `t` written without one is local time in (`--time-zone`);
  ///   a repeated local hour is resolved in the samples' order as given.
  package static func measure(
    record: UnsafeBufferPointer<UInt8>, settings: IngestSettings, timeZone: ZoneRules? = nil
  ) -> (FeedMeasurement, (any Error)?) {
    // A record's samples are a recorded shift, judged in time order however the warehouse
    // returned them (with --filter; without it the calculator sorts them anyway).
    // A record's samples are one recording (`--track`/`--device` choose within a `path`'s feed).
    var settings = settings
    settings.recordingChoice = nil
    var ingest = ShiftIngest(settings: settings, retained: DiscardRetainedSamples(), order: .timeSorted)
    let (keys, samplesOffset) = sessionKeys(record)
    var sessions: [String: Int] = [:]
    for (ordinal, key) in keys.sorted().enumerated() {
      sessions[key] = ordinal
      ingest.registerSession(ordinal)
    }
    if let samplesOffset {
      deliver(
        record, samplesAt: samplesOffset, sessions: sessions, timestamps: ISO8601DayCache(zone: timeZone), into: &ingest
      )
    }
    var failure: (any Error)?
    do {
      try ingest.finish()
    } catch {
      failure = error
    }
    // `pipe` labels the result "samples"; the format here is only a placeholder.
    return (ingest.measurement(format: .csv), failure)
  }

  /// A session value as a key: a string as it is, a number as the JSON writer prints it (an
  /// integer below 10^15 without a fraction, otherwise Swift's shortest form), so `"7"` and `7`
  /// are one session.
  static func sessionKey(_ token: JSONToken) -> String? {
    switch token.kind {
    case .string: return token.text
    case .number:
      guard let value = token.double, value.isFinite else { return nil }
      if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
      return "\(value)"
    default: return nil
    }
  }

  /// Pass 1: the session keys of the last top-level `"samples"` array, and where it starts.
  static func sessionKeys(_ record: UnsafeBufferPointer<UInt8>) -> (Set<String>, Int?) {
    var tokenizer = JSONTokenizer(maximumDepth: JSONParser.maximumDepth, maximumTokenLength: max(record.count, 1))
    var keys = Set<String>()
    var offset: Int?
    var inSamples = false
    var nextIsSamples = false
    var nextIsSession = false
    var sampleKey: String?
    do throws(JSONSyntaxError) {
      while let token = try tokenizer.next(in: record) {
        switch (token.kind, token.depth) {
        case (.key, 1):
          nextIsSamples = token.matches("samples")
          inSamples = false
          continue
        case (.beginArray, 1) where nextIsSamples:
          keys.removeAll()
          offset = token.offset
          inSamples = true
        case (.endArray, 1):
          inSamples = false
        case (.beginObject, 2) where inSamples:
          sampleKey = nil
        case (.endObject, 2) where inSamples:
          if let sampleKey { keys.insert(sampleKey) }
        case (.key, 3) where inSamples:
          nextIsSession = token.matches("session")
          continue
        case (_, 3) where inSamples && nextIsSession:
          sampleKey = sessionKey(token)
        default:
          break
        }
        if token.depth <= 1 { nextIsSamples = false }
        if token.depth <= 3 { nextIsSession = false }
      }
    } catch {
      return (keys, offset)
    }
    return (keys, offset)
  }

  /// One sample's members as read so far (the last occurrence of each wins).
  struct Fields {
    enum Time {
      case absent, unreadable
      case seconds(Double)
    }
    enum Number {
      case absent, null
      case number(Double)
      case other
    }
    var t = Time.absent
    var latitude = Number.absent
    var longitude = Number.absent
    var accuracy = Number.absent
    var session = Number.absent
    var sessionOrdinal: Int?
  }

  /// Pass 2: each element of the samples array starting at `samplesAt`, into the ingest.
  static func deliver<Retained: RetainedSampleSink>(
    _ record: UnsafeBufferPointer<UInt8>, samplesAt: Int, sessions: [String: Int], timestamps: ISO8601DayCache,
    into ingest: inout ShiftIngest<Retained>
  ) {
    var timestamps = timestamps
    var tokenizer = JSONTokenizer(maximumDepth: JSONParser.maximumDepth, maximumTokenLength: max(record.count, 1))
    var inSamples = false
    var index = 0
    var fields = Fields()
    var member = 0  // 0: other, 1: t, 2: lat, 3: lon, 4: acc, 5: session
    do throws(JSONSyntaxError) {
      while let token = try tokenizer.next(in: record) {
        if !inSamples {
          if token.kind == .beginArray, token.offset == samplesAt { inSamples = true }
          continue
        }
        switch (token.kind, token.depth) {
        case (.endArray, 1):
          return
        case (.beginObject, 2):
          fields = Fields()
          member = 0
        case (.endObject, 2):
          index += 1
          deliver(fields, line: index, into: &ingest)
        case (_, 2):
          // Not an object: a scalar, or an array (whose contents follow at depth 3 and deeper).
          guard token.kind != .endArray else { continue }
          index += 1
          ingest.unreadable(.badNumber, line: index)
        case (.key, 3):
          member =
            token.matches("t")
            ? 1
            : token.matches("lat")
              ? 2 : token.matches("lon") ? 3 : token.matches("acc") ? 4 : token.matches("session") ? 5 : 0
        case (_, 3):
          guard member != 0 else { continue }
          take(token, member: member, sessions: sessions, timestamps: &timestamps, into: &fields)
        default:
          break
        }
      }
    } catch {
      return
    }
  }

  static func take(
    _ token: JSONToken, member: Int, sessions: [String: Int], timestamps: inout ISO8601DayCache,
    into fields: inout Fields
  ) {
    let number: Fields.Number
    switch token.kind {
    case .number: number = token.double.map { .number($0) } ?? .other
    case .null: number = .null
    default: number = .other
    }
    switch member {
    case 1:
      switch token.kind {
      case .number:
        if let seconds = token.double, CivilTime.supportedTimestamps.contains(seconds) {
          fields.t = .seconds(seconds)
        } else {
          fields.t = .unreadable
        }
      case .string: fields.t = timestamps.instant(token.bytes).map { .seconds($0) } ?? .unreadable
      default: fields.t = .unreadable
      }
    case 2: fields.latitude = number
    case 3: fields.longitude = number
    case 4: fields.accuracy = number
    default:
      if token.kind == .string {
        fields.session = .number(0)
        fields.sessionOrdinal = sessionKey(token).flatMap { sessions[$0] }
      } else {
        fields.session = number
        fields.sessionOrdinal = number == .null ? nil : sessionKey(token).flatMap { sessions[$0] }
      }
    }
  }

  static func deliver<Retained: RetainedSampleSink>(
    _ fields: Fields, line: Int, into ingest: inout ShiftIngest<Retained>
  ) {
    guard case .seconds(let timestamp) = fields.t else { return ingest.unreadable(.badTime, line: line) }
    guard case .number(let latitude) = fields.latitude, case .number(let longitude) = fields.longitude else {
      return ingest.unreadable(.badNumber, line: line)
    }
    var accuracy: Double?
    switch fields.accuracy {
    case .number(let value): accuracy = value
    case .absent, .null: accuracy = nil
    case .other: return ingest.unreadable(.badNumber, line: line)
    }
    if case .other = fields.session { return ingest.unreadable(.badNumber, line: line) }
    ingest.position(
      RouteSample(timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy),
      session: fields.sessionOrdinal, line: line)
  }
}

extension PipeSampleReader.Fields.Number: Equatable {}
