#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each for a given time.
#
#   Tests/Fuzz/run-fuzzers.sh [SECONDS_PER_HARNESS] [HARNESS...]
#
# HARNESS is gpx, nmea, csv, columns, tcx, kml, fit, gzip, kmz, owntracks, geojson, json or takeout (default: all thirteen, one after another; run two copies of
# the script with different harnesses to use two cores). SECONDS defaults to 60.
#
# Build: RouteMileage and RouteFeeds are compiled as static libraries with
# `swiftc -sanitize=fuzzer,address -O` (coverage instrumentation + AddressSanitizer), then each
# harness (Tests/Fuzz/Fuzz<Name>.swift + FuzzSupport.swift + the invariant checks in
# Tests/RouteFeedsTests/FeedInvariants.swift) is linked against them with libFuzzer's main.
#
# Everything it writes is under Tests/Fuzz/.work/ (gitignored):
#   build/            the libraries and the fuzz-<harness> binaries
#   seeds/<harness>/  rebuilt on every run from SampleRoutes/, Tests/Fixtures/realdata,
#                     Tests/Fixtures/acceptance and the committed regression corpus (read-only input)
#   corpus/<harness>/ the working corpus libFuzzer adds to; kept between runs
#   crashers/<harness>/ crash-*, timeout-*, oom-* inputs; kept until you delete them
#   logs/<harness>.log  libFuzzer's output
# Realdata is only ever copied into .work/, never into the tracked tree.
#
# A crasher is an input that broke an invariant (or crashed): reproduce it with
#   Tests/Fuzz/.work/build/fuzz-<harness> Tests/Fuzz/.work/crashers/<harness>/crash-…
# minimise it with `-minimize_crash=1 -runs=10000`, and once the bug is fixed copy it into
# Tests/Fuzz/RegressionCorpus/<harness>/ so `swift test` replays it forever.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
seconds="${1:-60}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(gpx nmea csv columns tcx kml fit gzip kmz owntracks geojson json takeout)
for harness in "${harnesses[@]}"; do
  case "$harness" in gpx | nmea | csv | columns | tcx | kml | fit | gzip | kmz | owntracks | geojson | json | takeout) ;; *) echo "unknown harness: $harness (gpx, nmea, csv, columns, tcx, kml, fit, gzip, kmz, owntracks, geojson, json, takeout)" >&2; exit 2 ;; esac
done

work="Tests/Fuzz/.work"
build="$work/build"
fixtures="$root/Tests/Fixtures"
mkdir -p "$build" "$work/logs"
# The Swift runtime's crash backtracer would keep libFuzzer's pipes open after a trap.
export SWIFT_BACKTRACE=enable=no
# Report traps (SIGILL from a Swift precondition) through ASan too; keep leak checking off
# (the harness exits by trapping); a small quarantine keeps the per-input 1 MiB buffers cheap.
export ASAN_OPTIONS="${ASAN_OPTIONS:-handle_sigill=1:detect_leaks=0:quarantine_size_mb=8:malloc_context_size=2}"

# Sources/CZlib holds the module map of the system zlib (RouteFeeds reads gzip through it).
flags=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name routemileage -I Sources/CZlib)

# --- build (only what changed) ---------------------------------------------------------------
newer() { # newer TARGET SOURCES...: true when TARGET is missing or older than a source
  local target="$1"; shift
  [ -e "$target" ] || return 0
  for source in "$@"; do [ "$source" -nt "$target" ] && return 0; done
  return 1
}
library() { # library MODULE
  local module="$1"
  local sources
  mapfile -t sources < <(find Sources/"$module" -name '*.swift' | sort)
  if newer "$build/lib$module.a" "${sources[@]}" "$0"; then
    echo "build: $module"
    swiftc "${flags[@]}" -I "$build" -module-name "$module" -emit-module \
      -emit-module-path "$build/$module.swiftmodule" -emit-library -static \
      -o "$build/lib$module.a" "${sources[@]}" 2>&1 | grep -v 'ld.gold: warning' || true
    [ -e "$build/lib$module.a" ] || { echo "build of $module failed" >&2; exit 1; }
  fi
}
# One build at a time: two copies of the script (one per core) share the build folder.
exec 9>"$build/.lock"
flock 9
library RouteMileage
library RouteFeeds
name_of() { case "$1" in gpx) echo GPX ;; nmea) echo NMEA ;; csv) echo CSV ;; columns) echo Columns ;; tcx) echo TCX ;; kml) echo KML ;; fit) echo FIT ;; gzip) echo Gzip ;; kmz) echo KMZ ;; owntracks) echo OwnTracks ;; geojson) echo GeoJSON ;; json) echo JSON ;; takeout) echo Takeout ;; esac; }
for harness in "${harnesses[@]}"; do
  name="$(name_of "$harness")"
  sources=(Tests/Fuzz/Fuzz"$name".swift Tests/Fuzz/FuzzSupport.swift Tests/RouteFeedsTests/FeedInvariants.swift)
  binary="$build/fuzz-$harness"
  if newer "$binary" "${sources[@]}" "$build/libRouteFeeds.a" "$build/libRouteMileage.a"; then
    echo "build: fuzz-$harness"
    rm -f "$binary"
    swiftc "${flags[@]}" -I "$build" -L "$build" -lRouteFeeds -lRouteMileage -lz -module-name "Fuzz$name" \
      "${sources[@]}" -o "$binary" 2>&1 | grep -v 'ld.gold: warning' || true
    [ -x "$binary" ] || { echo "build of fuzz-$harness failed" >&2; exit 1; }
  fi
done
flock -u 9

# --- seeds -------------------------------------------------------------------------------------
# Real files are cut into pieces of at most 4 KB at line ends (the first few pieces of each), so
# the fuzzer starts from small, structured inputs; the regression corpus goes in whole.
add_pieces() { # add_pieces DIR PREFIX FILE
  local dir="$1" prefix="$2" file="$3"
  [ -f "$file" ] || return 0
  split -C 4096 -d -a 3 "$file" "$dir/$prefix-" 2>/dev/null || true
  find "$dir" -name "$prefix-*" | sort | tail -n +7 | xargs -r rm -f
}
mappings=(
  'timestamp=GPS Time,latitude=3,longitude=4'
  'header=no,timestamp=1,timestamp_format=epoch-ms,latitude=2,longitude=3'
  'date=Datum,time=Zeit,date_format=dmy,lat=Breite,lon=Länge'
  'delimiter=semicolon,timestamp=1,lat=2,lon=3,session=4'
  'header=no,timestamp=1,latitude=3,longitude=4,status=2'
  'timestamp_format=iso8601,horizontal_accuracy=4,received_at=6'
  'date=DATE,time=TIME,latitude=LATITUDE,longitude=LONGITUDE,ns=N/S,ew=E/W'
)
seed_harness() { # seed_harness HARNESS
  local harness="$1" dir="$work/seeds/$1" ext
  rm -rf "$dir"
  mkdir -p "$dir" "$work/corpus/$harness" "$work/crashers/$harness"
  case "$harness" in gpx) ext=gpx ;; nmea) ext=nmea ;; tcx) ext=tcx ;; kml | kmz) ext=kml ;; fit) ext=fit ;; owntracks) ext=rec ;; geojson | json | takeout) ext=json ;; *) ext=csv ;; esac
  local files=()
  for file in SampleRoutes/*."$ext" "$fixtures/realdata/$ext"/*."$ext" "$fixtures/realdata/$harness"/*."$ext" "$fixtures/$harness"/*."$ext" "$fixtures/acceptance"/*."$ext"; do
    [ -f "$file" ] && files+=("$file")
  done
  if [ "$harness" = geojson ] || [ "$harness" = json ]; then
    # GeoJSON files end .geojson or .json.
    for file in "$fixtures"/realdata/geojson/*; do [ -f "$file" ] && files+=("$file"); done
  fi
  if [ "$harness" = gzip ]; then
    # The first 2 KB of each text feed gzipped whole, in two members, and cut short.
    local i=0
    for file in SampleRoutes/*.* "$fixtures"/realdata/{gpx,nmea,csv}/*.* "$fixtures/acceptance"/*.csv; do
      [ -f "$file" ] || continue
      i=$((i + 1))
      [ $i -le 24 ] || break
      # Through a 2 KB piece, so no pipe is closed early (pipefail).
      head -c 2048 "$file" >"$dir/.piece"
      gzip -9 <"$dir/.piece" >"$dir/seed-$i"
      { head -c 1024 "$dir/.piece" | gzip -1; tail -c +1025 "$dir/.piece" | gzip -6; } >"$dir/seed-$i-members"
      head -c 300 "$dir/seed-$i" >"$dir/seed-$i-cut"
    done
    rm -f "$dir/.piece"
  elif [ "$harness" = kmz ]; then
    # The first 4 KB of each KML file zipped as doc.kml, deflated and stored (with `zip`, when
    # installed; the committed regression corpus adds data descriptors, zip64 and damage).
    local i=0
    if command -v zip >/dev/null; then
      for file in "${files[@]}"; do
        i=$((i + 1))
        mkdir -p "$dir/.z"
        head -c 4096 "$file" >"$dir/.z/doc.kml"
        (cd "$dir/.z" && zip -q -X -9 "../seed-$i-deflated" doc.kml && zip -q -X -0 "../seed-$i-stored" doc.kml)
        rm -rf "$dir/.z"
      done
    fi
  elif [ "$harness" = fit ]; then
    # Binary: the first 2, 4 and 8 KB of each file (its header, definitions and first records),
    # one of them gzipped.
    local i=0
    for file in "${files[@]}"; do
      i=$((i + 1))
      for size in 2048 4096 8192; do head -c "$size" "$file" >"$dir/seed-$i-$size"; done
      head -c 4096 "$file" | gzip -9 >"$dir/seed-$i-gz"
    done
  elif [ "$harness" = columns ]; then
    local i=0
    for file in "${files[@]}"; do
      for mapping in "${mappings[@]}"; do
        i=$((i + 1))
        { printf '%s\n' "$mapping"; head -c 2048 "$file"; } >"$dir/seed-$i"
      done
    done
  else
    local i=0
    for file in "${files[@]}"; do
      i=$((i + 1))
      add_pieces "$dir" "seed-$i" "$file"
    done
  fi
  local regression="Tests/Fuzz/RegressionCorpus/$harness"
  [ -d "$regression" ] && cp "$regression"/* "$dir"/ 2>/dev/null || true
}

# --- run ---------------------------------------------------------------------------------------
summary=()
for harness in "${harnesses[@]}"; do
  seed_harness "$harness"
  dict="Tests/Fuzz/$harness.dict"
  [ "$harness" = columns ] && dict="Tests/Fuzz/csv.dict"
  log="$work/logs/$harness.log"
  crashers="$work/crashers/$harness"
  before=$(find "$crashers" -type f | wc -l)
  echo "run: fuzz-$harness for ${seconds}s ($(find "$work/seeds/$harness" -type f | wc -l) seeds, $(find "$work/corpus/$harness" -type f | wc -l) in the working corpus)"
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: ASan's shadow included.
  set +e
  "$build/fuzz-$harness" "$work/corpus/$harness" "$work/seeds/$harness" \
    -dict="$dict" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$crashers/" >"$log" 2>&1
  status=$?
  set -e
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  execs=$(grep -E 'stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  per_second=$(grep -E 'stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)
  corpus=$(echo "$done_line" | sed -nE 's/.*corp: ([0-9]+)\/([^ ]+).*/\1 inputs, \2/p')
  cover=$(echo "$done_line" | sed -nE 's/.*cov: ([0-9]+).*ft: ([0-9]+).*/cov \1, ft \2/p')
  after=$(find "$crashers" -type f | wc -l)
  line="$harness: ${execs:-?} runs in ${seconds}s, ${per_second:-?} exec/s, corpus ${corpus:-?}, ${cover:-?}, new crashers: $((after - before)), exit $status"
  echo "$line"
  summary+=("$line")
  if [ "$after" -gt "$before" ]; then
    grep -A12 -E 'invariant broken|ERROR: AddressSanitizer|ERROR: libFuzzer|Fatal error' "$log" | head -40 >&2 || true
    find "$crashers" -type f -newer "$build/fuzz-$harness" | head -5 >&2
  fi
done
echo
echo "summary ($(date -u +%Y-%m-%d), $(nproc) cores):"
printf '  %s\n' "${summary[@]}"
