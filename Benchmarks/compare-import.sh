#!/usr/bin/env bash
# `routemiles import` against the `sqlite3` shell's `.import` of the same rows into a typed table.
#
# 1. Imports the CSV once into a scratch store and writes the rows it stored (309,086 of the
#    50 MB generated file) to rows.csv: shift_id, timestamp, latitude, longitude, accuracy,
#    speed, course, altitude, capture_session, in rowid order, no header.
# 2. Times, interleaved, RUNS rounds of (each into a new file, CPU time user + system of the
#    process alone):
#      shell   sqlite3 NEW.db  PRAGMA journal_mode=WAL; CREATE TABLE t(shift_id INTEGER NOT NULL,
#              timestamp REAL NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
#              accuracy REAL, speed REAL, course REAL, altitude REAL, capture_session INTEGER);
#              .import --csv rows.csv t
#      routemiles  routemiles import --store NEW.db FILE  (parse, filter, hash, write with both
#              indexes)
# 3. Prints the minimum of each and shell CPU ÷ routemiles CPU; the target is ≥ 0.8, printed as
#    met or NOT met (a missed target is printed, not an error).
# With --callgrind it instead counts the instructions of one run of each (valgrind, whole process)
# and prints their ratio, which does not depend on the machine's load.
# Needs swift, python3 and the sqlite3 shell (and valgrind for --callgrind).
#
#   Benchmarks/compare-import.sh [--runs N] [--callgrind] [--no-build] [--routemiles BIN] [--compare BIN] [FILE.csv]
#
# FILE.csv      the feed (default: GenerateSampleRoutes --large csv 50, written to a scratch folder)
# --runs N      interleaved rounds (default 5); the minimum CPU time of each counts
# --callgrind   instruction counts instead of CPU time
# --no-build    use the existing .build/release binaries
# --routemiles BIN  time this routemiles binary
# --compare BIN     also time this second routemiles binary (another build) in the same rounds
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
build=1
callgrind=0
routemiles=.build/release/routemiles
compare=
feed=
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --callgrind) callgrind=1 ;;
    --no-build) build=0 ;;
    --routemiles) routemiles="$2"; shift ;;
    --compare) compare="$2"; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "unknown argument $1" >&2; exit 64 ;;
    *) feed="$1" ;;
  esac
  shift
done

if [ "$build" = 1 ]; then
  swift build -c release --product routemiles >/dev/null
  [ -n "$feed" ] || swift build -c release --product GenerateSampleRoutes >/dev/null
fi
work=$(mktemp -d /tmp/routemiles-import.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -z "$feed" ]; then
  feed="$work/csv.csv"
  .build/release/GenerateSampleRoutes --large csv 50 "$feed" >/dev/null 2>&1
fi

"$routemiles" import --store "$work/rows.db" "$feed" >/dev/null
sqlite3 -csv "$work/rows.db" \
  "SELECT shift_id, timestamp, latitude, longitude, accuracy, speed, course, altitude, capture_session FROM route_samples ORDER BY id" \
  >"$work/rows.csv"
cat >"$work/shell.sql" <<SQL
PRAGMA journal_mode=WAL;
CREATE TABLE t(shift_id INTEGER NOT NULL, timestamp REAL NOT NULL, latitude REAL NOT NULL,
  longitude REAL NOT NULL, accuracy REAL, speed REAL, course REAL, altitude REAL, capture_session INTEGER);
.import --csv $work/rows.csv t
SQL

absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
WORK="$work" RUNS="$runs" COMPARE="${compare:+$(absolute "$compare")}" CALLGRIND="$callgrind" ROUTEMILES="$(absolute "$routemiles")" FEED="$feed" python3 - <<'PY'
import os, re, subprocess, sys

work, runs, feed, routemiles = os.environ["WORK"], int(os.environ["RUNS"]), os.environ["FEED"], os.environ["ROUTEMILES"]
compare = os.environ["COMPARE"]
rows = sum(1 for _ in open(os.path.join(work, "rows.csv")))

def fresh(name):
    path = os.path.join(work, name)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix): os.remove(path + suffix)
    return path

def commands():
    return [
        ("shell", ["sqlite3", fresh("shell.db")], open(os.path.join(work, "shell.sql"))),
        ("routemiles", [routemiles, "import", "--store", fresh("routemiles.db"), feed], subprocess.DEVNULL),
    ] + ([("compared", [compare, "import", "--store", fresh("compared.db"), feed], subprocess.DEVNULL)] if compare else [])

def cpu(command, stdin):
    """CPU seconds (user + system) of one run of `command` alone."""
    process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed: {process.stderr.read().decode(errors='replace')[-300:]}")
    return usage.ru_utime + usage.ru_stime

def instructions(command, stdin):
    out = os.path.join(work, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                   stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    summary = next(line for line in open(out) if line.startswith("summary:") or line.startswith("totals:"))
    return int(summary.split()[1])

print(f"{os.path.getsize(feed):,} bytes, {rows:,} rows stored; load average {' '.join(open('/proc/loadavg').read().split()[:3])}; {os.cpu_count()} cores")
if os.environ["CALLGRIND"] == "1":
    counts = {tool: instructions(command, stdin) for tool, command, stdin in commands()}
    for tool in [t for t in counts if t != "shell"]:
        ratio = counts["shell"] / counts[tool]
        print(f"instructions: shell {counts['shell'] / 1e6:,.1f} M, {tool} {counts[tool] / 1e6:,.1f} M; shell ÷ {tool} {ratio:.3f}×  {'met' if ratio >= 0.8 else 'NOT met'} (target ≥ 0.8)")
    sys.exit(0)
times = {}
for _ in range(runs):
    for tool, command, stdin in commands():
        times.setdefault(tool, []).append(cpu(command, stdin))
for tool, seconds in times.items():
    print(f"{tool:<11} CPU user+sys {min(seconds):.3f}–{max(seconds):.3f} s  ({', '.join(f'{s:.3f}' for s in seconds)})")
for tool in [t for t in times if t != "shell"]:
    ratio = min(times["shell"]) / min(times[tool])
    print(f"shell ÷ {tool} (minimum of {runs} interleaved): {ratio:.3f}×  {'met' if ratio >= 0.8 else 'NOT met'} (target ≥ 0.8)")
if compare: print(f"compared: {compare}")
print(f"load average after {' '.join(open('/proc/loadavg').read().split()[:3])}")
PY
