#!/usr/bin/env bash
# Crash-safety stress: `routemiles import` killed with SIGKILL at random points must always leave
# the store consistent, and no shift marked complete unless it holds every sample.
#
#   Benchmarks/kill-import-stress.sh [--runs N] [--feed FILE] [--rows N] [--batch-size N] [--seed S]
#
#   --runs N        imports to kill (default 25)
#   --feed FILE     the feed to import (default: a generated CSV drive of --rows rows)
#   --rows N        rows of the generated feed (default 600000: 21 MB, ~2.7 s to import here)
#   --batch-size N  passed to `routemiles import` (default: its own, 4096)
#   --seed S        seeds the kill times, so a run can be repeated (default 1)
#
# It builds `routemiles` in release mode, imports the feed once in full as the reference (and
# times it), then for each run imports it into a fresh store and kills the process with SIGKILL
# after a random delay between 0 and 1.2 × the reference time. After each kill it checks, with
# the `sqlite3` shell and `routemiles shifts --json`:
#   - `PRAGMA integrity_check` is `ok`;
#   - every shift marked `complete` holds exactly the reference's rows;
#   - every other shift is `importing` (listed by `routemiles shifts` as interrupted, with no
#     figure) and holds a prefix of the reference's rows, row for row (whole batches);
#   - `routemiles shifts --json` opens the store and agrees.
# Work files go to Benchmarks/.work/kill-stress/ (gitignored). Exit status 1 if any run is
# inconsistent. Summary line: `N runs: N consistent, K interrupted mid-import, 0 inconsistent`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
runs=25
feed=""
rows=600000
batch_args=()
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --feed) feed="$2"; shift 2 ;;
    --rows) rows="$2"; shift 2 ;;
    --batch-size) batch_args=(--batch-size "$2"); shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (apt-get install sqlite3)" >&2; exit 2; }

work="Benchmarks/.work/kill-stress"
mkdir -p "$work"
echo "build: swift build -c release --product routemiles"
swift build -c release --product routemiles 2>&1 | tail -1
binary="$(swift build -c release --show-bin-path)/routemiles"

if [ -z "$feed" ]; then
  feed="$work/drive-$rows.csv"
  if [ ! -f "$feed" ]; then
    echo "generate: $rows rows → $feed"
    # 1 Hz, ~9 m per second along a slow zigzag, three capture sessions, accuracy 5 m.
    awk -v rows="$rows" 'BEGIN {
      print "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id"
      for (i = 0; i < rows; i++) {
        lat = 48.0 + (i % 20000) * 0.00008; if (int(i / 20000) % 2 == 1) lat = 48.0 + (20000 - i % 20000) * 0.00008
        printf "%d,%.6f,%.6f,5,s%d\n", 1764403200 + i, lat, 11.5 + i * 0.000001, int(i * 3 / rows)
      }
    }' >"$feed"
  fi
fi
[ -f "$feed" ] || { echo "no such feed: $feed" >&2; exit 2; }

now_ms() { date +%s%3N; }
reference="$work/reference.sqlite"
rm -f "$reference" "$reference"-wal "$reference"-shm
started=$(now_ms)
"$binary" import "${batch_args[@]}" --store "$reference" "$feed" >/dev/null
reference_ms=$(( $(now_ms) - started ))
reference_rows=$(sqlite3 "$reference" "SELECT count(*) FROM route_samples")
reference_status=$(sqlite3 "$reference" "SELECT group_concat(status) FROM shifts")
[ "$reference_status" = complete ] || { echo "the reference import did not complete ($reference_status)" >&2; exit 1; }
echo "reference: $reference_rows rows in ${reference_ms} ms; killing $runs imports at random points in 0–$(( reference_ms * 6 / 5 )) ms"

RANDOM="$seed"
consistent=0
interrupted=0
inconsistent=0
completed=0
early=0
for run in $(seq 1 "$runs"); do
  store="$work/killed.sqlite"
  rm -f "$store" "$store"-wal "$store"-shm
  delay_ms=$(( (RANDOM * 32768 + RANDOM) % (reference_ms * 6 / 5 + 1) ))
  "$binary" import "${batch_args[@]}" --store "$store" "$feed" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true

  problems=()
  outcome=""
  if [ ! -s "$store" ]; then
    outcome="killed before the store was written"
    early=$((early + 1))
  else
    integrity=$(sqlite3 "$store" "PRAGMA integrity_check" 2>&1 || true)
    [ "$integrity" = ok ] || problems+=("integrity_check: $integrity")
    has_schema=$(sqlite3 "$store" "SELECT count(*) FROM sqlite_master WHERE name = 'shifts'" 2>&1 || echo error)
    if [ "$has_schema" != 1 ]; then
      outcome="killed before the schema was committed"
      early=$((early + 1))
    else
      # One line per shift: id|status|rows|largest row id|rows that differ from the reference row
      # with the same id. A fresh store's rows are numbered from 1, so rows 1…count equal to the
      # reference's are exactly its first `count` rows.
      while IFS='|' read -r shift status count largest differing; do
        [ -n "$shift" ] || continue
        case "$status" in
          complete)
            [ "$count" = "$reference_rows" ] || problems+=("shift $shift is complete with $count of $reference_rows rows")
            outcome="completed before the kill"
            ;;
          importing)
            [ "$count" -le "$reference_rows" ] || problems+=("shift $shift holds $count rows, more than $reference_rows")
            outcome="interrupted mid-import ($count rows kept)"
            ;;
          *) problems+=("shift $shift has status $status") ;;
        esac
        [ "$differing" = 0 ] || problems+=("shift $shift: $differing rows are not the reference's")
        [ "$largest" = "$count" ] || problems+=("shift $shift: its $count rows are not rows 1…$count")
      done < <(sqlite3 "$store" "ATTACH '$reference' AS ref;
        SELECT s.id, s.status,
          (SELECT count(*) FROM route_samples r WHERE r.shift_id = s.id),
          (SELECT coalesce(max(id), 0) FROM route_samples r WHERE r.shift_id = s.id),
          (SELECT count(*) FROM route_samples r LEFT JOIN ref.route_samples b ON b.id = r.id
            WHERE r.shift_id = s.id AND (b.id IS NULL OR r.timestamp IS NOT b.timestamp
              OR r.latitude IS NOT b.latitude OR r.longitude IS NOT b.longitude
              OR r.accuracy IS NOT b.accuracy OR r.capture_session IS NOT b.capture_session))
        FROM shifts s ORDER BY s.id" 2>&1)
      [ -n "$outcome" ] || { outcome="killed before the shift was created"; early=$((early + 1)); }
      # The tool's own view: it opens the store, and an importing shift is listed as interrupted.
      if listing=$("$binary" shifts --json --store "$store" 2>&1); then
        importing=$(sqlite3 "$store" "SELECT count(*) FROM shifts WHERE status = 'importing'")
        listed=$( (grep -o '"status" *: *"interrupted"' <<<"$listing" || true) | wc -l)
        [ "$listed" = "$importing" ] || problems+=("routemiles shifts lists $listed interrupted shifts, the store has $importing importing")
      else
        problems+=("routemiles shifts failed: $listing")
      fi
    fi
  fi
  case "$outcome" in interrupted*) interrupted=$((interrupted + 1)) ;; completed*) completed=$((completed + 1)) ;; esac
  if [ ${#problems[@]} -eq 0 ]; then
    consistent=$((consistent + 1))
    printf 'run %2d: kill at %5d ms: %s: consistent\n' "$run" "$delay_ms" "$outcome"
  else
    inconsistent=$((inconsistent + 1))
    printf 'run %2d: kill at %5d ms: %s: INCONSISTENT\n' "$run" "$delay_ms" "$outcome"
    printf '    %s\n' "${problems[@]}"
    cp "$store" "$work/inconsistent-$run.sqlite" 2>/dev/null || true
  fi
done
rm -f "$work/killed.sqlite" "$work/killed.sqlite"-wal "$work/killed.sqlite"-shm
echo
echo "($completed completed before the kill, $early killed before the shift existed)"
echo "$runs runs: $consistent consistent, $interrupted interrupted mid-import, $inconsistent inconsistent"
[ "$inconsistent" = 0 ]
