#!/usr/bin/env bash
# routemiles against a hand-written C parser on the phone-export CSV layout (issue #16 item 8):
#   time,latitude,longitude,accuracy,speed,course,session
# Generates a ~31 MB, ~500,000-row file of that layout (GenerateSampleRoutes --large phone-csv),
# compiles Benchmarks/c-baseline/phone_csv.c with `cc -O2`, then for each of RUNS runs takes the
# best wall time of BEST tries of each program (interleaved, so both see the same machine) and
# prints C seconds ÷ routemiles seconds: the fraction of C's speed routemiles reaches (target ≥ 0.6).
# routemiles runs with `--threads 2` (a feed past its first MiB parsed on one thread, measured on
# another: docs/performance.md, "Two threads"); each run also times `--threads 1` for comparison. The load average is printed
# too: on a loaded machine the second thread has no free core and wall times say little.
#
#   Benchmarks/compare-c.sh [--runs N] [--best N] [--file PATH] [--no-build]
#
# --file measures an existing CSV of that layout instead of generating one.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
best=5
file=
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --best) best="$2"; shift ;;
    --file) file="$2"; shift ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done

if [ "$build" = 1 ]; then
  swift build -c release --product routemiles >/dev/null
  swift build -c release --product GenerateSampleRoutes >/dev/null
fi
work=$(mktemp -d /tmp/routemiles-c.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/phone_csv" Benchmarks/c-baseline/phone_csv.c -lm
if [ -z "$file" ]; then
  file="$work/phone.csv"
  .build/release/GenerateSampleRoutes --large phone-csv 32.8 "$file" >/dev/null 2>&1
fi
bytes=$(wc -c < "$file")
rows=$(($(wc -l < "$file") - 1))

# Best wall time, in nanoseconds, of $best runs of the command.
best_of() {
  local fastest=0 start end elapsed
  for _ in $(seq "$best"); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    elapsed=$((end - start))
    if [ "$fastest" = 0 ] || [ "$elapsed" -lt "$fastest" ]; then fastest=$elapsed; fi
  done
  echo "$fastest"
}

echo "file: $bytes bytes, $rows rows; best of $best per run; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
"$work/phone_csv" "$file"
.build/release/routemiles measure "$file" | sed -n 2p
for run in $(seq "$runs"); do
  c=$(best_of "$work/phone_csv" "$file")
  r=$(best_of .build/release/routemiles measure --threads 2 "$file")
  s=$(best_of .build/release/routemiles measure --threads 1 "$file")
  awk -v run="$run" -v c="$c" -v r="$r" -v s="$s" -v bytes="$bytes" 'BEGIN {
    printf "run %d: C %.3f s (%.0f MB/s)   routemiles %.3f s (%.0f MB/s)   routemiles/C speed %.2f×   (--threads 1 %.3f s, %.2f×)\n",
      run, c / 1e9, bytes / 1048576 / (c / 1e9), r / 1e9, bytes / 1048576 / (r / 1e9), c / r, s / 1e9, c / s }'
done
