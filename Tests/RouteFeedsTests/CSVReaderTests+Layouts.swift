import Foundation
import RouteFeeds
import RouteIngest
import RouteMileage
import RouteTestSupport
import Testing

/// Headers, aliases, device layouts, time forms and the explicit mapping.
extension CSVReaderTests {
  // MARK: Delimiters, quoting, line endings

  @Test(arguments: [",", ";", "\t"])
  func delimiterIsDetectedFromTheHeader(_ delimiter: String) {
    let text =
      ["timestamp", "latitude", "longitude"].joined(separator: delimiter) + "\n"
      + ["2025-11-29T08:00:00Z", "37.5", "-122.25"].joined(separator: delimiter) + "\n"
    let read = CSVTestSupport.read(text)
    #expect(read.error == nil)
    #expect(read.sink.samples.map(\.latitude) == [37.5])
    #expect(read.sink.samples.map(\.longitude) == [-122.25])
  }

  @Test func quotedFieldsHoldDelimitersQuotesAndLineFeeds() {
    let text = #"""
      "timestamp","latitude","longitude","session"
      "2025-11-29T08:00:00Z","37.5","-122.25","drive, morning"
      "2025-11-29T08:00:01Z","37.6","-122.26","say ""hi"""
      "2025-11-29T08:00:02Z","37.7","-122.27","two
      lines"
      "2025-11-29T08:00:03Z","37.8","-122.28","drive, morning"
      2025-11-29T08:00:04Z,bad,-122.29,x

      """#
    let read = CSVTestSupport.read(text)
    #expect(read.sink.events.map(\.line) == [2, 3, 4, 6, 7])
    #expect(read.sink.sessions == [0, 1, 2, 0])
    #expect(read.sink.unreadable == [.unreadable(.badNumber, line: 7)])
  }

  @Test func crlfBomAndBlankLines() {
    let text =
      "\u{FEFF}timestamp,latitude,longitude\r\n\r\n2025-11-29T08:00:00Z,37.5,-122.25\r\n   \r\n\r\n2025-11-29T08:00:01Z,37.6,-122.26\r\n"
    let read = CSVTestSupport.read(text)
    #expect(read.error == nil)
    #expect(read.sink.events.map(\.line) == [3, 6])
    #expect(read.sink.samples.map(\.longitude) == [-122.25, -122.26])
  }

  @Test func excelSepLineNamesTheDelimiter() {
    let read = CSVTestSupport.read("sep=;\r\ntimestamp;lat;lon;note\r\n2025-11-29T08:00:00Z;1,5;2,5;a, b, c\r\n")
    #expect(read.sink.events.map(\.description) == ["3: position t=1764403200.0 session=nil"])
    #expect(read.sink.samples.first?.latitude == 1.5)
  }

  @Test func utf16FilesAreNamed() {
    let bytes: [UInt8] =
      [0xFF, 0xFE] + Array("timestamp,lat,lon\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    #expect(
      CSVTestSupport.read(bytes).error
        == .unmappedColumns(
          line: 1,
          detail: "the file looks like UTF-16 text (every other byte is zero); save it as UTF-8 and read it again"))
  }

  @Test func semicolonFilesMayUseDecimalCommas() {
    let read = CSVTestSupport.read("timestamp;breite;länge;lat;lon\n2025-11-29T08:00:00Z;x;y;48,1374;11,5755\n")
    #expect(read.sink.samples.map(\.latitude) == [48.1374])
    #expect(read.sink.samples.map(\.longitude) == [11.5755])
    // A comma file cannot: there the comma separates fields.
    let comma = CSVTestSupport.read("timestamp,lat,lon\n2025-11-29T08:00:00Z,\"48,1374\",11.5\n")
    #expect(comma.sink.unreadable == [.unreadable(.badNumber, line: 2)])
  }

  @Test func commentLinesAreCountedAndSkipped() {
    let text = "# recorded by test\n#timestamp,x\ntimestamp,lat,lon\n# mid\n2025-11-29T08:00:00Z,1.5,2.5\n"
    let read = CSVTestSupport.read(text)
    #expect(
      read.sink.events.map(\.description) == [
        "1: ignored comment", "2: ignored comment", "4: ignored comment", "5: position t=1764403200.0 session=nil",
      ])
  }

  // MARK: Header names

  @Test(arguments: [
    "time,lat,lon,accuracy,session_id,elevation,heading,velocity",
    "DateTime,Lat,Lng,HAcc,Session,Ele,Bearing,Speed",
    "utc, latitude ,long,h_acc,capture_session,alt,course,spd",
    "Timestamp (UTC),LATITUDE,LONGITUDE,horizontal accuracy,Capture Session ID,Altitude (m),Course,Speed (m/s)",
  ])
  func aliasesAreMatched(_ header: String) {
    let read = CSVTestSupport.read(header + "\n2025-11-29T08:00:00Z,37.5,-122.25,8.5,s1,12,90,3.5\n")
    #expect(read.error == nil)
    let sample = read.sink.samples.first
    #expect(sample?.timestamp == 1_764_403_200)
    #expect(sample?.latitude == 37.5)
    #expect(sample?.longitude == -122.25)
    #expect(sample?.horizontalAccuracy == 8.5)
    #expect(sample?.altitude == 12)
    #expect(sample?.course == 90)
    #expect(sample?.speed == 3.5)
    #expect(read.sink.sessions == [0])
  }

  @Test func canonicalNamesWinOverAliasesAndTheLeftmostAliasWins() {
    let read = CSVTestSupport.read(
      "lat,latitude,lon,lng,long,time,timestamp\n1,2,3,4,5,2025-11-29T08:00:00Z,2025-11-29T09:00:00Z\n")
    let sample = read.sink.samples.first
    #expect(sample?.latitude == 2)
    #expect(sample?.longitude == 3)
    #expect(sample?.timestamp == 1_764_406_800)
  }

  @Test func unitsInHeaderNamesAreConverted() {
    let read = CSVTestSupport.read(
      "timestamp,lat,lon,speed_kmh,altitude_ft,accuracy (ft)\n2025-11-29T08:00:00Z,1,2,36,1000,10\n")
    let sample = read.sink.samples.first
    #expect(abs((sample?.speed ?? 0) - 10) < 1e-12)
    #expect(abs((sample?.altitude ?? 0) - 304.8) < 1e-9)
    #expect(abs((sample?.horizontalAccuracy ?? 0) - 3.048) < 1e-12)
    // A unit in the cell replaces the column's.
    let both = CSVTestSupport.read("timestamp,lat,lon,speed_kmh,altitude_ft\n2025-11-29T08:00:00Z,1,2,5 m/s,3 m\n")
    #expect(both.sink.samples.first?.speed == 5)
    #expect(both.sink.samples.first?.altitude == 3)
  }

  @Test func unitsInCellsAreConvertedForKnownFields() {
    let text =
      "timestamp,lat,lon,speed,altitude,accuracy,course\n"
      + "2025-11-29T08:00:00Z,1,2,0.865 km/h,374.812 m,12 m,90 deg\n"
      + "2025-11-29T08:00:01Z,1,2,3 furlongs,12 parsecs,5,x\n"
      + "2025-11-29T08:00:02Z,1,2,,,12 parsecs,\n"
    let read = CSVTestSupport.read(text)
    let samples = read.sink.samples
    #expect(samples.count == 2)
    #expect(abs((samples[0].speed ?? 0) - 0.865 / 3.6) < 1e-12)
    #expect(samples[0].altitude == 374.812)
    #expect(samples[0].horizontalAccuracy == 12)
    #expect(samples[0].course == 90)
    // Carried-along fields with an unknown unit are dropped, the position kept…
    #expect(samples[1].speed == nil && samples[1].altitude == nil && samples[1].course == nil)
    #expect(samples[1].horizontalAccuracy == 5)
    // …but the capture filter reads accuracy, so an unreadable one makes the row unreadable.
    #expect(read.sink.unreadable == [.unreadable(.badNumber, line: 4)])
  }

  // MARK: Time forms

  @Test func epochSecondsAndMillisecondsAreToldApartByMagnitude() {
    let text =
      "unix_time,lat,lon\n1764403200,1,2\n1764403201500,1,2\n1764403202.25,1,2\n1764403203000000,1,2\n99999999999,1,2\n100000000000,1,2\n"
    let read = CSVTestSupport.read(text)
    #expect(
      read.sink.samples.map(\.timestamp) == [
        1_764_403_200, 1_764_403_201.5, 1_764_403_202.25, 1_764_403_203, 99_999_999_999, 100_000_000,
      ])
  }

  @Test func columnNamesAndTheMappingCanForceTheEpochUnit() throws {
    let named = CSVTestSupport.read("time_ms,lat,lon\n1500,1,2\n")
    #expect(named.sink.samples.map(\.timestamp) == [1.5])
    let mapped = CSVTestSupport.read(
      "t,lat,lon\n1500,1,2\n", mapping: try CSVColumnMapping(parsing: "timestamp=t,timestamp_format=epoch-ms"))
    #expect(mapped.sink.samples.map(\.timestamp) == [1.5])
    // Forced seconds: 2e11 is read as seconds (the year 8307), where `auto` would take
    // milliseconds; a number of seconds past the year 9999 is no time at all.
    let seconds = CSVTestSupport.read(
      "t,lat,lon\n200000000000,1,2\n1764403201500,1,2\n",
      mapping: try CSVColumnMapping(parsing: "timestamp=t,timestamp_format=epoch-s"))
    #expect(seconds.sink.samples.map(\.timestamp) == [200_000_000_000])
    #expect(seconds.sink.unreadable == [.unreadable(.badTime, line: 3)])
  }

  @Test func iso8601OffsetsFractionsAndSpaces() {
    let text = """
      timestamp,lat,lon
      2025-11-29T10:00:00+02:00,1,2
      2025-11-29T03:00:00.250-0500,1,2
      2025-11-29 08:00:00.5Z,1,2
      2025-11-29T08:00:01,1,2
      2025-11-29T08:00:02.125Z,1,2
      2025/11/29 08:00:03,1,2
      29.11.2025 08:00:04,1,2

      """
    let read = CSVTestSupport.read(text)
    let base = 1_764_403_200.0
    #expect(read.sink.samples.map { $0.timestamp - base } == [0, 0.25, 0.5, 1, 2.125, 3, 4])
  }

  @Test func separateDateAndTimeColumnsWithAUTCOffsetColumn() {
    let text = """
      Lcl Date, Lcl Time, UTCOfst, Latitude, Longitude
      2014-03-29, 16:50:22,  -06:00, 40.2, -111.7
      2014-03-29, 17:50:23,  -0500, 40.3, -111.8
      2014-03-29, 22:50:24,  Z, 40.4, -111.9
      2014-03-29, 22:50:25,  , 40.5, -112.0

      """
    let read = CSVTestSupport.read(text)
    let base = 1_396_133_422.0  // 2014-03-29T22:50:22Z
    #expect(read.sink.samples.map { $0.timestamp - base } == [0, 1, 2])
    #expect(read.sink.unreadable == [.unreadable(.badTime, line: 5)])
  }

  @Test func localTimeWithoutAnOffsetColumnAsksForOne() {
    let read = CSVTestSupport.read("Lcl Date,Lcl Time,Latitude,Longitude\n2014-03-29,16:50:22,40.2,-111.7\n")
    #expect(
      read.error
        == .unmappedColumns(
          line: 1,
          detail:
            "the columns 'Lcl Date' and 'Lcl Time' hold local time and the header has no UTC offset column; pass --columns utc_offset=<column> naming the column with the offset, or --columns 'date=Lcl Date,time=Lcl Time' if the times are in fact UTC"
        ))
    let asUTC = CSVTestSupport.read(
      "Lcl Date,Lcl Time,Latitude,Longitude\n2014-03-29,16:50:22,40.2,-111.7\n",
      mapping: try? CSVColumnMapping(parsing: "date=Lcl Date,time=Lcl Time"))
    #expect(asUTC.sink.samples.map(\.timestamp) == [1_396_111_822])
  }

  @Test func dateFormsAndTheTwoDigitYearPivot() throws {
    let text = """
      date,time,lat,lon
      2005/05/01,10:12:47,1,2
      20050501,101248,1,2
      050501,10:12:49.5,1,2
      01.05.2005,10:12:50,1,2
      800501,10:12:51,1,2
      2005-02-30,10:12:52,1,2

      """
    let read = CSVTestSupport.read(text)
    let base = 1_114_942_367.0  // 2005-05-01T10:12:47Z
    let nineteenEighty = 326_023_971.0 - base  // 1980-05-01T10:12:51Z
    #expect(read.sink.samples.map { $0.timestamp - base } == [0, 1, 2.5, 3, nineteenEighty])
    #expect(read.sink.unreadable == [.unreadable(.badTime, line: 7)])
  }

  @Test func ambiguousDatesStopAndAskForTheOrder() throws {
    let text = "# log\ndate,time,lat,lon\n05/01/2005,10:12:47,1,2\n05/01/2005,10:12:48,1,2\n"
    let read = CSVTestSupport.read(text)
    #expect(read.sink.events == [.ignored(FeedReason("comment"), line: 1)])
    #expect(
      read.error
        == .unmappedColumns(
          line: 3,
          detail:
            "column 'date' holds dates with the year last (like 11/05/2025), which could be day-first or month-first; pass --columns date_format=dmy (day first) or date_format=mdy (month first)"
        ))
    let monthFirst = CSVTestSupport.read(text, mapping: try CSVColumnMapping(parsing: "date_format=mdy"))
    #expect(monthFirst.error == nil)
    #expect(monthFirst.sink.samples.map(\.timestamp) == [1_114_942_367, 1_114_942_368])
    let dayFirst = CSVTestSupport.read(text, mapping: try CSVColumnMapping(parsing: "date_format=dmy"))
    #expect(dayFirst.sink.samples.last?.timestamp == 1_104_919_968)  // 2005-01-05T10:12:48Z
    // After a readable date, an ambiguous one is a single bad row.
    let later = CSVTestSupport.read("date,time,lat,lon\n2005/05/01,10:12:47,1,2\n05/01/2005,10:12:48,1,2\n")
    #expect(later.error == nil)
    #expect(later.sink.unreadable == [.unreadable(.badTime, line: 3)])
  }

  // MARK: Coordinates

  @Test func hemisphereColumnsAndLetters() {
    let text = """
      time,lat,n/s,lon,e/w
      2025-11-29T08:00:00Z,51.5,N,0.12,W
      2025-11-29T08:00:01Z,33.9,S,151.2,E
      2025-11-29T08:00:02Z,33.9,south,151.2,East
      2025-11-29T08:00:03Z,33.9,X,151.2,E
      2025-11-29T08:00:04Z,-33.9,S,151.2,E

      """
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.map(\.latitude) == [51.5, -33.9, -33.9])
    #expect(read.sink.samples.map(\.longitude) == [-0.12, 151.2, 151.2])
    #expect(read.sink.unreadable == [.unreadable(.badNumber, line: 5), .unreadable(.badNumber, line: 6)])
  }

  @Test func hemisphereLettersInsideTheValue() {
    let text = """
      TIME,LATITUDE N/S,LONGITUDE E/W
      2025-11-29T08:00:00Z,31.769598N,035.208829E
      2025-11-29T08:00:01Z,31.5S,W 0.25
      2025-11-29T08:00:02Z,-31.5S,1E
      2025-11-29T08:00:03Z,31.5E,1N

      """
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.map(\.latitude) == [31.769598, -31.5])
    #expect(read.sink.samples.map(\.longitude) == [35.208829, -0.25])
    #expect(read.sink.unreadable.map(\.line) == [4, 5])
  }

  @Test func outOfRangeCoordinatesArePassedToTheFilter() {
    let text = "timestamp,lat,lon\n2025-11-29T08:00:00Z,95,200\n2025-11-29T08:00:01Z,-91,-181\n"
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.map(\.latitude) == [95, -91])
    let measured = CSVTestSupport.measure(text)
    #expect(measured.report.rejected[FeedReason("invalidCoordinate")] == 2)
    #expect(measured.report.isBalanced)
  }

  // MARK: Status, sessions, arrival times

  @Test func noFixStatusRowsAreRejectedBeforeTheirNumbersAreRead() {
    let text = """
      time,status,lat,lon,valid
      2025-11-29T08:00:00Z,A,1,2,SPS
      2025-11-29T08:00:01Z,V,0,nan,SPS
      2025-11-29T08:00:02Z,A,1,2,No fix
      2025-11-29T08:00:03Z,,1,2,
      0,V, 0.000000,      nan,

      """
    let read = CSVTestSupport.read(text)
    #expect(
      read.sink.events.map(\.description) == [
        "2: position t=1764403200.0 session=nil", "3: rejected noFix", "4: rejected noFix",
        "5: position t=1764403203.0 session=nil", "6: rejected noFix",
      ])
  }

  @Test func sessionsAreOrdinalsInOrderOfFirstAppearanceAndEmptyCellsAreLegacy() {
    let text = """
      timestamp,lat,lon,capture_session_id
      2025-11-29T08:00:00Z,1,2,b
      2025-11-29T08:00:01Z,1,2,b
      2025-11-29T08:00:02Z,1,2,
      2025-11-29T08:00:03Z,1,2,a
      2025-11-29T08:00:04Z,1,2,b
      2025-11-29T08:00:05Z,1,2," a "

      """
    #expect(CSVTestSupport.read(text).sink.sessions == [0, 0, nil, 1, 0, 1])
    let measured = CSVTestSupport.measure(text, settings: IngestSettings(filter: nil))
    #expect(measured.report.sessions == 2)
    #expect(measured.report.legacyPositions == 1)
  }

  @Test func withoutASessionColumnEveryRowIsLegacy() {
    let measured = CSVTestSupport.measure(
      "timestamp,lat,lon\n2025-11-29T08:00:00Z,37.0,-122.0\n2025-11-29T08:00:10Z,37.001,-122.0\n",
      settings: IngestSettings(filter: nil))
    #expect(measured.report.legacyPositions == 2)
    #expect(measured.distance.usesInferredContinuity)
    #expect(measured.distance.isPartial)
  }

  @Test func receivedAtFeedsTheStaleFixRule() {
    let text = """
      timestamp,lat,lon,received_at
      2025-11-29T08:00:00Z,37.0,-122.0,2025-11-29T08:00:01Z
      2025-11-29T08:00:10Z,37.001,-122.0,2025-11-29T08:00:30Z
      2025-11-29T08:00:20Z,37.002,-122.0,
      2025-11-29T08:00:30Z,37.003,-122.0,soon

      """
    let read = CSVTestSupport.read(text)
    #expect(read.sink.samples.map(\.receivedAt) == [1_764_403_201, 1_764_403_230, nil])
    #expect(read.sink.unreadable == [.unreadable(.badTime, line: 5)])
    let measured = CSVTestSupport.measure(text)
    #expect(measured.report.rejected[FeedReason("stale")] == 1)
  }

  // MARK: Explicit mapping

  @Test func explicitMappingByNameAndByNumber() throws {
    let text = "GPS Time;Breite;Länge;Genauigkeit;Fahrt\n2025-11-29T08:00:00Z;48,1;11,5;7;f1\n"
    let byName = CSVTestSupport.read(
      text,
      mapping: try CSVColumnMapping(
        parsing: "timestamp=gps time, latitude = Breite,longitude=Länge,accuracy=Genauigkeit,session=Fahrt"))
    let byNumber = CSVTestSupport.read(
      text,
      mapping: try CSVColumnMapping(
        parsing: "timestamp=1,latitude=2,longitude=3,horizontal_accuracy=4,capture_session_id=5"))
    #expect(byName.error == nil)
    #expect(byName == byNumber)
    let sample = byName.sink.samples.first
    #expect(sample?.latitude == 48.1)
    #expect(sample?.horizontalAccuracy == 7)
    #expect(byName.sink.sessions == [0])
  }

  @Test func mappingFillsOnlyWhatTheHeaderMissed() throws {
    let text = "when,lat,lon\n2025-11-29T08:00:00Z,1,2\n"
    #expect(CSVTestSupport.read(text).error?.line == 1)
    let mapped = CSVTestSupport.read(text, mapping: try CSVColumnMapping(parsing: "timestamp=when"))
    #expect(mapped.sink.samples.map(\.latitude) == [1])
  }

  @Test func headerlessFilesNeedColumnNumbers() throws {
    let text = "1764403200;37.5;-122.25\n1764403201;37.6;-122.26\n"
    let read = CSVTestSupport.read(
      text, mapping: try CSVColumnMapping(parsing: "header=no,timestamp=1,latitude=2,longitude=3"))
    #expect(read.sink.events.map(\.line) == [1, 2])
    #expect(read.sink.samples.map(\.longitude) == [-122.25, -122.26])
    let missing = CSVTestSupport.read(text, mapping: try CSVColumnMapping(parsing: "header=no,timestamp=1"))
    #expect(
      missing.error
        == .unmappedColumns(
          line: 1,
          detail:
            "with header=no, --columns must give the timestamp (or date and time), latitude and longitude column numbers, e.g. --columns header=no,timestamp=1,latitude=2,longitude=3"
        ))
  }

  @Test func theMappingCanForceTheDelimiter() throws {
    let text = "timestamp|lat|lon\n2025-11-29T08:00:00Z|1|2\n"
    let read = CSVTestSupport.read(text, mapping: try CSVColumnMapping(parsing: "delimiter=pipe"))
    #expect(read.sink.samples.map(\.longitude) == [2])
  }

  @Test func mappingSyntaxAndItsErrors() throws {
    let mapping = try CSVColumnMapping(
      parsing: " Lat = 3 , timestamp=GPS Time,lon=4,header=yes,timestamp_format=epoch-ms,date_format=dmy,delimiter=;")
    #expect(mapping.columns == [.latitude: .number(3), .timestamp: .name("GPS Time"), .longitude: .number(4)])
    #expect(mapping.timestampFormat == .epochMilliseconds)
    #expect(mapping.dateOrder == .dmy)
    #expect(mapping.delimiter == .semicolon)
    #expect(
      mapping.description
        == "delimiter=semicolon,timestamp=GPS Time,latitude=3,longitude=4,timestamp_format=epoch-ms,date_format=dmy")
    #expect(try CSVColumnMapping(parsing: mapping.description) == mapping)

    let cases: [(String, String)] = [
      (
        "",
        "--columns: the mapping is empty; write field=column pairs separated by commas, e.g. --columns timestamp=time,latitude=3,longitude=4"
      ),
      (
        "latitude",
        "--columns: 'latitude' is not key=value; write field=column pairs separated by commas, e.g. --columns timestamp=time,latitude=3,longitude=4"
      ),
      ("latitude=", "--columns: 'latitude=' needs a value"),
      ("latitude=0", "--columns: latitude=0: columns are numbered from 1 to 4096"),
      ("lat=1,latitude=2", "--columns: latitude is given twice"),
      (
        "lattitude=1",
        "--columns: 'lattitude' is not a field or option; fields are timestamp, date, time, utc_offset, latitude, longitude, latitude_hemisphere, longitude_hemisphere, horizontal_accuracy, speed, course, altitude, capture_session_id, received_at, status; options are header, delimiter, timestamp_format, date_format"
      ),
      ("timestamp_format=weeks", "--columns: timestamp_format=weeks: use auto, iso8601, epoch-s or epoch-ms"),
      (
        "header=no,latitude=lat",
        "--columns: with header=no there are no header names: give latitude a column number, not 'lat'"
      ),
      (
        "latitude=1,,longitude=2",
        "--columns: an entry is empty (two commas in a row?); write field=column pairs separated by commas, e.g. --columns timestamp=time,latitude=3,longitude=4"
      ),
    ]
    for (spec, detail) in cases {
      #expect(throws: FeedError.unmappedColumns(line: 0, detail: detail), "\(spec)") {
        try CSVColumnMapping(parsing: spec)
      }
    }
  }

  @Test func mappingNamesThatTheHeaderLacksAreReported() throws {
    let read = CSVTestSupport.read(
      "time,lat,lon\n2025-11-29T08:00:00Z,1,2\n", mapping: try CSVColumnMapping(parsing: "latitude=Breite"))
    #expect(
      read.error
        == .unmappedColumns(
          line: 1,
          detail:
            "--columns names 'Breite' for latitude, but the header has no such column; the columns are: time, lat, lon")
    )
    let beyond = CSVTestSupport.read(
      "time,lat,lon\n2025-11-29T08:00:00Z,1,2\n", mapping: try CSVColumnMapping(parsing: "latitude=9"))
    #expect(
      beyond.error
        == .unmappedColumns(
          line: 1, detail: "--columns gives latitude column 9, but the header has 3 columns: time, lat, lon"))
  }

  // MARK: Unmappable headers

  @Test func anUnmappableHeaderListsItsColumnsAndTheMappingToPass() {
    let read = CSVTestSupport.read("# export\nINDEX,RCR,WHEN,Y,X\n1,T,2025-11-29T08:00:00Z,1,2\n")
    #expect(
      read.error
        == .unmappedColumns(
          line: 2,
          detail:
            "found no timestamp, latitude or longitude column among the 5 columns of the header (INDEX, RCR, WHEN, Y, X); name them with --columns, for example --columns 'timestamp=<column>,latitude=<column>,longitude=<column>', where a column is a header name or a 1-based number (date and time columns, epoch milliseconds and hemisphere columns are described in docs/formats/csv.md)"
        ))
    #expect(read.error.map { "\($0)" }?.hasPrefix("cannot map the CSV columns: found no timestamp") == true)
    let partly = CSVTestSupport.read("Zeit,lat,X\n2025-11-29T08:00:00Z,1,2\n")
    #expect(
      partly.error
        == .unmappedColumns(
          line: 1,
          detail:
            "found no timestamp or longitude column among the 3 columns of the header (Zeit, lat, X); name them with --columns, for example --columns 'timestamp=<column>,latitude=lat,longitude=<column>', where a column is a header name or a 1-based number (date and time columns, epoch milliseconds and hemisphere columns are described in docs/formats/csv.md)"
        ))
  }

  @Test func aFirstLineOfDataIsNotEchoedAndHeaderNoIsSuggested() {
    let read = CSVTestSupport.read("2025-11-29T08:00:00Z,37.7749,-122.4194,s1\n")
    #expect(
      read.error
        == .unmappedColumns(
          line: 1,
          detail:
            "the first line holds values, not column names (#1 (a value), #2 (a value), #3 (a value), s1); if the file has no header line, pass --columns header=no,timestamp=1,latitude=2,longitude=3 with the right column numbers"
        ))
    #expect(read.error.map { "\($0)" }?.contains("37.77") == false)
  }

  @Test func classicMacLineEndingsAreNamed() {
    let read = CSVTestSupport.read("timestamp,lat,lon\r2025-11-29T08:00:00Z,1,2\r")
    #expect(
      read.error
        == .unmappedColumns(
          line: 1,
          detail: "the lines end with a lone carriage return (classic Mac OS); convert the line endings to LF or CRLF"))
  }

  // MARK: 70mai dash cam

  @Test func dashcamRecordingsAreSessions() {
    let text = """
      $V02
      1740170756,A,46.840330,29.463088,32500,777,-65,5,44,NO20250222-064554-000000F.MP4,0,0,0
      1740170757,A,46.840393,29.463026,32600,888,-81,3,62,NO20250222-064554-000000F.MP4,0,0,0
      0,V, 0.000000,      nan,-1,45,0,0,0,0,0,0,0
      $V02
      1740170800,A,46.840539,29.462876,32500,1055,-75,2,42,NO20250222-064554-000000F.MP4,0,0,0

      """
    let read = CSVTestSupport.read(text)
    #expect(
      read.sink.events.map(\.description) == [
        "2: position t=1740170756.0 session=0", "3: position t=1740170757.0 session=0", "4: rejected noFix",
        "6: position t=1740170800.0 session=1",
      ])
  }
}

/// The `--columns` parser and header resolution under random input: every spec either parses
/// (and prints back to itself) or throws a command-line error; every header either maps or
/// throws `unmappedColumns` on its line.
extension CSVReaderTests {
  @Test func randomMappingSpecsParseOrThrowAndRoundTrip() {
    var random = SeededRandom(seed: 0x3A9)
    let pieces = [
      "timestamp", "lat", "latitude", "lon", "date", "time", "utc_offset", "ns", "ew", "session", "status",
      "header", "no", "yes", "delimiter", "tab", "semicolon", "timestamp_format", "epoch-ms", "date_format", "dmy",
      "=", "=", ",", ",", " ", "1", "2", "12", "0", "4097", "GPS Time", "Länge", "ü", "\"", "\t", "\u{0}", "==",
    ]
    for _ in 0..<3000 {
      let count = Int.random(in: 0..<9, using: &random)
      let spec = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
      do {
        let mapping = try CSVColumnMapping(parsing: spec)
        #expect(try CSVColumnMapping(parsing: mapping.description) == mapping, "\(spec)")
        // Whatever it says, reading a small file with it never crashes and stays balanced.
        let text = "timestamp,lat,lon,GPS Time,Länge\n2025-11-29T08:00:00Z,1,2,3,4\n"
        let read = CSVTestSupport.read(text, mapping: mapping)
        if let error = read.error {
          guard case .unmappedColumns(let line, _) = error else {
            Issue.record("unexpected error \(error) for \(spec)")
            continue
          }
          #expect(line == 1 || line == 2)
        }
      } catch {
        guard case .unmappedColumns(0, let detail) = error else {
          Issue.record("unexpected error \(error) for \(spec)")
          continue
        }
        #expect(detail.hasPrefix("--columns: "))
      }
    }
  }

  @Test func randomHeadersMapOrThrowOnTheirLine() {
    var random = SeededRandom(seed: 0x4EAD)
    let names = [
      "time", "date", "Lcl Time", "Lcl Date", "UTCOfst", "lat", "lon", "N/S", "E/W", "speed (km/h)", "alt_ft",
      "session", "status", "x", "", "12.5", "timestamp", "received_at", "\"q,uoted\"", "time_ms", "acc [ft]",
    ]
    for _ in 0..<800 {
      let header = (0..<Int.random(in: 1..<8, using: &random)).map { _ in
        names[Int.random(in: 0..<names.count, using: &random)]
      }
      let row = header.indices.map { _ in
        ["1", "2025-11-29T08:00:00Z", "12:00:00", "2025-11-29", "+01:00", "N", "", "x"][
          Int.random(in: 0..<8, using: &random)]
      }
      let text = "# c\n" + header.joined(separator: ",") + "\n" + row.joined(separator: ",") + "\n"
      let read = CSVTestSupport.read(text)
      if let error = read.error {
        guard case .unmappedColumns(let line, _) = error else {
          Issue.record("unexpected error \(error)")
          continue
        }
        #expect(line == 2 || line == 3)
      }
      #expect(CSVTestSupport.read(text, chunkSize: 3) == read)
    }
  }
}
