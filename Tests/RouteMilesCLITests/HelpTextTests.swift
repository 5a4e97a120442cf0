import RouteFeeds
import RouteMilesCLI
import Testing

/// The help pages, word for word: their defaults and format names are read from the rules they
/// describe (`RouteSampleFilter`, `RouteContinuity`, `ShiftImportWriter`, `FeedFormat`), and a
/// change to one of those shows here as a change to what a person reads.
@Suite struct HelpTextTests {
  @Test func helpListsTheCommands() {
    let help = CLITestSupport.run(["--help"])
    #expect(help.status == 0)
    #expect(
      help.output == #"""
        USAGE: routemiles <command> [options] [arguments]

        Commands:
          measure   Measure recorded feeds (GPX, NMEA, CSV, TCX, KML/KMZ, GeoJSON, FIT, Takeout, OwnTracks;
                    gzipped or not), each as one shift.
          batch     Measure many historical shifts (files, directories, globs, or a store) in parallel.
          import    Import feeds as shifts into a SQLite store.
          shifts    List (or delete) the store's shifts, each measured from its rows.
          export    Write the store's deliveries, one record each, as CSV or JSON Lines.
          places    List the store's pickup places; a place's wait history; rename or merge one.
          delivery  Correct one stored delivery: reopen, cancel-correct, correct-times, grouping,
                    its pickup place, what it paid.
          replay    Play a feed back as a simulated live shift, measured as it grows.
          pipe      Measure shift records streamed as JSON lines (for Spark and Hadoop Streaming).

        Options:
          --help, -h     Show help (also after a command: routemiles measure --help).
          --version      Show the version.

        Exit status: 0 success, 1 an input failed, 64 usage error.

        """#)
  }

  @Test func helpOfMeasureIsPinned() {
    let help = CLITestSupport.run(["measure", "--help"])
    #expect(help.status == 0)
    #expect(
      help.output == #"""
        USAGE: routemiles measure [options] FILE... | -

        Measures each feed (GPX, NMEA 0183, CSV, TCX, KML/KMZ, GeoJSON, FIT, Google Takeout, OwnTracks;
        gzipped or not; the format is detected from content) as one shift, with the capture filter on, and prints what the route supports: the recorded figure,
        the sentences that qualify it, and an account of every record read. `-` reads standard input.

        Output:
          --json                  One JSON object per input, one per line (fields in README.md).
          --explain               Also list the segments and gaps with times and durations.
          --geojson FILE          Write the route as GeoJSON (segments and gaps as LineStrings).
          --svg FILE              Write a picture: segments solid, gaps dashed, a scale bar.
                                  Coordinates appear only in these two files. With several inputs,
                                  FILE may contain {n} (1, 2, …) or {name}; otherwise the last wins.
                                  FILE - writes to standard output; the report then goes to
                                  standard error, so standard output holds only the document.
          --threads 1|2           Read and measure each feed on one thread, or parse a feed past
                                  its first MiB on one thread and measure it on a second. Default:
                                  2 when the machine has a core to spare (2+ cores, load average
                                  under twice the cores), else 1. The result is the same.

        Reading feeds:
          --input-format FORMAT   gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks:
                                  skip format detection (gzip and zip are still recognised).
          --date YYYY-MM-DD       UTC date an NMEA log starts on; needed for GGA-only logs, and
                                  overrides the dates in the log (midnight rollover still applies).
          --columns SPEC          CSV column mapping, e.g. 'timestamp=Time,latitude=3,longitude=4'
                                  (see docs/formats/csv.md).
          --track N               Measure only track N (GPX, TCX, KML; 1-based in file order).
          --device ID             Measure only device ID (Takeout deviceTag, OwnTracks tracker).
                                  Without either, recordings that overlap in time are measured
                                  apart and the one covering the most time is the figure.
          --time-zone NAME        IANA zone (Europe/London) that times written without a zone are
                                  local time in; read from $TZDIR or /usr/share/zoneinfo.

        Measuring:
          --no-filter             Measure rows as stored: no capture filter, only the calculator's
                                  sort, tie-break and collapse (how a historical shift is measured).
          --max-interval SECONDS  Longest silence still continuous (default 120, inclusive).
          --shift-start ISO8601   The shift's window; with --shift-end, late starts and early ends
          --shift-end ISO8601     count as gaps and positions outside it are not measured.
          --locale ID             Number format of the words (default en; e.g. de_DE → 12,4 mi).

        Capture filter thresholds (defaults in brackets):
          --max-accuracy METERS   Reject a larger horizontal accuracy radius [100].
          --max-fix-age SECONDS   Reject a fix this much older than its arrival time [10].
          --max-speed M/S         Reject a faster implied speed within a session [70].
          --min-movement METERS   Drop movement under this within a session [5].
          --reanchor-after N      Consecutive agreeing speed rejections that re-anchor a session
                                  [3]; 0 turns re-anchoring off.
          --keep-null-island      Do not reject (0, 0).

        Shift timeline:
          --timeline FILE         The shift's timeline, JSON Lines: {"at": "2025-11-04T08:00:00Z",
                                  "event": "start"} with events start, pause, resume, park, drive,
                                  end. The window is [start, end]; pauses and parks are gaps.
                                  Deliveries: accept, arrive, pickup, deliver, cancel with
                                  "delivery": "d1" (and "offer": "o1" on accept).
          --no-timeline           Do not pick up a feed's sidecar timeline (drive.csv →
                                  drive.timeline.jsonl), which is otherwise used automatically.

        Exit status: 0 when every input was measured, 1 when one could not be read (the others are
        still measured), 64 for a usage error.

        """#)
  }

  @Test func helpOfImportIsPinned() {
    let help = CLITestSupport.run(["import", "--help"])
    #expect(help.status == 0)
    #expect(
      help.output == #"""
        USAGE: routemiles import [options] --store PATH FILE... | -

        Imports each feed as one shift in the SQLite store at PATH (created if missing), with the
        capture filter applied, and prints the shift's figure measured from the stored rows in one
        pass. Samples are written in batches, one transaction each; the shift is marked complete in
        the same transaction as its last batch. An import stopped by an error, Ctrl-C or kill -9
        leaves whole batches under a shift marked as an interrupted import (see `shifts`), never a
        shift that looks complete; Ctrl-C says which shift. A feed cut off or damaged partway keeps
        the rows read before reading stopped and finishes as a truncated shift recording where and
        why reading stopped: the partial figure, marker and "Reading stopped at …" sentence that
        `measure` gives the file, and exit 1. A file of which nothing can be read (not a feed,
        unmappable columns, every record unreadable), or that gives no position to keep (an empty
        file, a GGA-only NMEA log without --date), stores nothing and exits 1.

        Importing a file again after its import was interrupted replaces the interrupted shift when
        its rows are the first rows of the new one (same path; not standard input, not with
        --allow-duplicate), in the transaction that finishes the new shift, and says so.

        Without --shift-start/--shift-end the shift has no window: it starts at its first retained
        sample, its end is unknown, and no window gaps are counted.

        A file whose content (SHA-256, taken while the feed is read) is already stored as a finished
        import (truncated ones included) is not kept again: the import says which shift holds it,
        and whether it is truncated (then it exits 1), and removes its own.

        Options:
          --store PATH            The store (required).
          --json                  One JSON object per input (the measure fields plus "shift").
          --batch-size N          Samples per transaction (default 4096).
          --allow-duplicate       Import a file even when its content is already stored.

        Reading feeds:
          --input-format FORMAT   gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks:
                                  skip format detection (gzip and zip are still recognised).
          --date YYYY-MM-DD       UTC date an NMEA log starts on; needed for GGA-only logs, and
                                  overrides the dates in the log (midnight rollover still applies).
          --columns SPEC          CSV column mapping, e.g. 'timestamp=Time,latitude=3,longitude=4'
                                  (see docs/formats/csv.md).
          --track N               Measure only track N (GPX, TCX, KML; 1-based in file order).
          --device ID             Measure only device ID (Takeout deviceTag, OwnTracks tracker).
                                  Without either, recordings that overlap in time are measured
                                  apart and the one covering the most time is the figure.
          --time-zone NAME        IANA zone (Europe/London) that times written without a zone are
                                  local time in; read from $TZDIR or /usr/share/zoneinfo.

        Measuring:
          --no-filter             Measure rows as stored: no capture filter, only the calculator's
                                  sort, tie-break and collapse (how a historical shift is measured).
          --max-interval SECONDS  Longest silence still continuous (default 120, inclusive).
          --shift-start ISO8601   The shift's window; with --shift-end, late starts and early ends
          --shift-end ISO8601     count as gaps and positions outside it are not measured.
          --locale ID             Number format of the words (default en; e.g. de_DE → 12,4 mi).

        Capture filter thresholds (defaults in brackets):
          --max-accuracy METERS   Reject a larger horizontal accuracy radius [100].
          --max-fix-age SECONDS   Reject a fix this much older than its arrival time [10].
          --max-speed M/S         Reject a faster implied speed within a session [70].
          --min-movement METERS   Drop movement under this within a session [5].
          --reanchor-after N      Consecutive agreeing speed rejections that re-anchor a session
                                  [3]; 0 turns re-anchoring off.
          --keep-null-island      Do not reject (0, 0).

        Shift timeline:
          --timeline FILE         The shift's timeline, JSON Lines: {"at": "2025-11-04T08:00:00Z",
                                  "event": "start"} with events start, pause, resume, park, drive,
                                  end. The window is [start, end]; pauses and parks are gaps.
                                  Deliveries: accept, arrive, pickup, deliver, cancel with
                                  "delivery": "d1" (and "offer": "o1" on accept).
          --no-timeline           Do not pick up a feed's sidecar timeline (drive.csv →
                                  drive.timeline.jsonl), which is otherwise used automatically.

        """#)
  }

  @Test func helpOfShiftsIsPinned() {
    let help = CLITestSupport.run(["shifts", "--help"])
    #expect(help.status == 0)
    #expect(
      help.output == #"""
        USAGE: routemiles shifts --store PATH [--json] [--delete ID]

        Lists the shifts in the store with their figures, each measured from the stored rows in one
        pass every time it is asked (nothing derived is stored). A shift whose import was interrupted
        (Ctrl-C, kill, an error) is listed as interrupted; one whose feed was cut off mid-record as
        truncated, with the figure and "Reading stopped at line N" sentence `measure` gives the file;
        both with the partial figure of the rows kept. Listing never writes to the store and leaves
        no file beside it. Status: ended (a window from a timeline or --shift-start/--shift-end),
        no window (a finished import with neither), truncated, interrupted, or running; "working" is
        working time (elapsed less paused). A shift whose timeline recorded deliveries has a second
        line: its deliveries by outcome, its offers, delivery active and non-delivery time (--json:
        the "deliveries" object `measure --json` gives; `export` writes each delivery).
        A store that does not exist is an error, never created, for a listing and for --delete alike.

        Options:
          --store PATH            The store (required).
          --json                  One JSON object per shift.
          --delete ID             Delete shift ID and all its rows, then list what remains.
          --max-interval SECONDS  Continuity interval for the figures (default 120).
          --locale ID             Number format of the words.

        """#)
  }

  @Test func helpOfPipeIsPinned() {
    let help = CLITestSupport.run(["pipe", "--help"])
    #expect(help.status == 0)
    #expect(
      help.output == #"""
        USAGE: routemiles pipe [options] < records.jsonl

        Reads one JSON object per line on standard input and writes one result line per record on
        standard output, in the same order, flushed after each record. A record is
          {"id": …, "shiftStart": ISO8601|epoch?, "shiftEnd": ISO8601|epoch?,
           "samples": [{"t": ISO8601|epoch seconds, "lat": …, "lon": …, "acc": …?, "session": …?}, …]}
        or, instead of "samples", "path": a feed file (any format measure reads; gzipped or not) the executor can read.
        The result is the `measure --json` object with "id" first. Rows from a warehouse are
        historical, so the capture filter is off unless --filter is given. A bad record gives a
        result line with an "error" field and the tool carries on.

        Options:
          --filter                Apply the capture filter (thresholds as in measure).
          --strict                Stop with exit status 1 at the first bad record instead.
          --max-record-bytes N    Longest record line accepted (default 268435456); a longer one
                                  is a bad record, skipped without being held in memory.

        Reading feeds:
          --input-format FORMAT   gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks:
                                  skip format detection (gzip and zip are still recognised).
          --date YYYY-MM-DD       UTC date an NMEA log starts on; needed for GGA-only logs, and
                                  overrides the dates in the log (midnight rollover still applies).
          --columns SPEC          CSV column mapping, e.g. 'timestamp=Time,latitude=3,longitude=4'
                                  (see docs/formats/csv.md).
          --track N               Measure only track N (GPX, TCX, KML; 1-based in file order).
          --device ID             Measure only device ID (Takeout deviceTag, OwnTracks tracker).
                                  Without either, recordings that overlap in time are measured
                                  apart and the one covering the most time is the figure.
          --time-zone NAME        IANA zone (Europe/London) that times written without a zone are
                                  local time in; read from $TZDIR or /usr/share/zoneinfo.

        Measuring:
          --no-filter             Measure rows as stored: no capture filter, only the calculator's
                                  sort, tie-break and collapse (how a historical shift is measured).
          --max-interval SECONDS  Longest silence still continuous (default 120, inclusive).
          --shift-start ISO8601   The shift's window; with --shift-end, late starts and early ends
          --shift-end ISO8601     count as gaps and positions outside it are not measured.
          --locale ID             Number format of the words (default en; e.g. de_DE → 12,4 mi).

        Capture filter thresholds (defaults in brackets):
          --max-accuracy METERS   Reject a larger horizontal accuracy radius [100].
          --max-fix-age SECONDS   Reject a fix this much older than its arrival time [10].
          --max-speed M/S         Reject a faster implied speed within a session [70].
          --min-movement METERS   Drop movement under this within a session [5].
          --reanchor-after N      Consecutive agreeing speed rejections that re-anchor a session
                                  [3]; 0 turns re-anchoring off.
          --keep-null-island      Do not reject (0, 0).

        """#)
  }

  /// The two summaries name the formats in prose (`KML/KMZ`, `Google Takeout`); a new format
  /// must be named there too.
  @Test func everyFormatIsNamedWhereTheHelpListsFormats() {
    let top = CLITestSupport.run(["--help"]).output
    let measure = CLITestSupport.run(["measure", "--help"]).output
    for format in FeedFormat.allCases {
      #expect(top.contains(format.displayName), "routemiles --help names \(format)")
      #expect(measure.contains(format.displayName), "measure --help names \(format)")
    }
  }

  @Test func anUnknownFormatIsAnsweredWithEveryFormat() {
    let result = CLITestSupport.run(["measure", "--input-format", "shp", "x.shp"])
    #expect(result.status == 64)
    #expect(
      result.error.hasPrefix(
        "routemiles: unknown input format 'shp': use gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks\n"))
  }
}
