#!/usr/bin/env bash
# Times the tools users would otherwise reach for against routemiles, on the same generated
# feeds: gpxpy (GPX), pynmea2 (NMEA), pandas (CSV) from PyPI, Python's own
# xml.etree.ElementTree.iterparse (GPX, TCX, KML: Benchmarks/peers/iterparse_positions.py) and
# json.load plus a loop over the positions (GeoJSON: Benchmarks/peers/json_load_positions.py), and
# GPSBabel from Debian. Prints seconds, MB/s, peak memory and the distance each reports.
#
#   Benchmarks/compare-peers.sh [--install] [--megabytes N]
#
# --install installs the peers first (pip for the Python ones, apt-get for gpsbabel). Peers that
# are not installed are listed as missing, never silently skipped. GPSBabel has no distance
# output, so it is timed converting the feed to CSV (parse + write), which is less work than
# measuring.
set -euo pipefail
cd "$(dirname "$0")/.."

megabytes=50
install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=1 ;;
    --megabytes) megabytes="$2"; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done

if [ "$install" = 1 ]; then
  SUDO=; if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi
  python3 -m pip install --quiet --disable-pip-version-check gpxpy pynmea2 pandas
  command -v gpsbabel >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq gpsbabel; }
fi

swift build -c release --product routemiles --product GenerateSampleRoutes >/dev/null 2>&1 \
  || swift build -c release
work=$(mktemp -d /tmp/routemiles-peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
for format in gpx tcx kml nmea csv geojson; do
  .build/release/GenerateSampleRoutes --large "$format" "$megabytes" "$work/feed.$format" 2>/dev/null
done

cat > "$work/gpxpy_length.py" <<'PY'
import sys, gpxpy
with open(sys.argv[1]) as f:
    gpx = gpxpy.parse(f)
print(f"{gpx.length_2d():.1f} m (gpxpy length_2d, across every gap)")
PY
cat > "$work/pynmea2_length.py" <<'PY'
import sys, math, pynmea2
R = 6371008.8
total, last = 0.0, None
with open(sys.argv[1], errors="replace") as f:
    for line in f:
        try:
            msg = pynmea2.parse(line.strip())
        except pynmea2.ParseError:
            continue
        if isinstance(msg, pynmea2.types.talker.RMC) and msg.status == "A":
            lat, lon = math.radians(msg.latitude), math.radians(msg.longitude)
            if last:
                a = math.sin((lat - last[0]) / 2) ** 2 + math.cos(lat) * math.cos(last[0]) * math.sin((lon - last[1]) / 2) ** 2
                total += 2 * R * math.asin(min(1, math.sqrt(a)))
            last = (lat, lon)
print(f"{total:.1f} m (pynmea2 RMC positions, haversine across every gap)")
PY
cat > "$work/pandas_length.py" <<'PY'
import sys, numpy as np, pandas as pd
R = 6371008.8
df = pd.read_csv(sys.argv[1], usecols=["timestamp", "latitude", "longitude"])
lat, lon = np.radians(df.latitude.to_numpy()), np.radians(df.longitude.to_numpy())
a = np.sin(np.diff(lat) / 2) ** 2 + np.cos(lat[1:]) * np.cos(lat[:-1]) * np.sin(np.diff(lon) / 2) ** 2
print(f"{(2 * R * np.arcsin(np.sqrt(np.minimum(a, 1)))).sum():.1f} m (pandas + numpy haversine, across every gap)")
PY

printf '\nPeers on generated %s MB feeds (%s, %s cores)\n\n' "$megabytes" "$(uname -m)" "$(nproc)"
printf '%-34s %-5s %9s %9s %10s  %s\n' tool feed seconds "MB/s" "peak RSS" "what it reports"
run() {  # label format command...
  local label="$1" format="$2"; shift 2
  local file="$work/feed.$format" size seconds kilobytes report
  size=$(stat -c %s "$file")
  if ! /usr/bin/time -o "$work/time" -f '%e %M' "$@" > "$work/out" 2> "$work/err"; then
    printf '%-34s %-5s %9s\n' "$label" "$format" "failed: $(tail -c 200 "$work/err" | tr '\n' ' ')"
    return
  fi
  read -r seconds kilobytes < "$work/time"
  report=$(head -c 300 "$work/out" | tr '\n' ' ')
  printf '%-34s %-5s %9s %9.0f %7.0f MB  %s\n' "$label" "$format" "$seconds" \
    "$(awk -v s="$size" -v t="$seconds" 'BEGIN { print s / 1048576 / (t > 0 ? t : 0.005) }')" \
    "$(awk -v k="$kilobytes" 'BEGIN { print k / 1024 }')" "${report:0:90}"
}
missing() { printf '%-34s %-5s %9s\n' "$1" "$2" "not installed (run with --install)"; }

for format in gpx tcx kml nmea csv geojson; do
  file="$work/feed.$format"
  run "routemiles measure" "$format" sh -c ".build/release/routemiles measure --json '$file' | sed -E 's/.*\"summary\":\"([^\"]*)\".*/\\1/'"
  run "routemiles measure --no-filter" "$format" sh -c ".build/release/routemiles measure --json --no-filter '$file' | sed -E 's/.*\"summary\":\"([^\"]*)\".*/\\1/'"
  case "$format" in
    gpx)  python3 -c "import gpxpy" 2>/dev/null && run "gpxpy $(python3 -c 'import gpxpy;print(gpxpy.__version__)')" gpx python3 "$work/gpxpy_length.py" "$file" || missing gpxpy gpx ;;
    nmea) python3 -c "import pynmea2" 2>/dev/null && run "pynmea2 $(python3 -c 'import pynmea2;print(pynmea2.__version__)')" nmea python3 "$work/pynmea2_length.py" "$file" || missing pynmea2 nmea ;;
    csv)  python3 -c "import pandas" 2>/dev/null && run "pandas $(python3 -c 'import pandas;print(pandas.__version__)')" csv python3 "$work/pandas_length.py" "$file" || missing pandas csv ;;
    geojson) run "python $(python3 -c 'import platform;print(platform.python_version())') json.load + loop" geojson python3 Benchmarks/peers/json_load_positions.py "$file"; continue ;;
  esac
  case "$format" in
    gpx|tcx|kml) run "ElementTree.iterparse + loop" "$format" python3 Benchmarks/peers/iterparse_positions.py "$file" ;;
  esac
  if command -v gpsbabel >/dev/null; then
    in=$format; [ "$format" = csv ] && in=unicsv; [ "$format" = tcx ] && in=gtrnctr
    run "gpsbabel $(gpsbabel -V 2>/dev/null | awk '/Version/{print $3}') (convert only)" "$format" gpsbabel -i "$in" -f "$file" -o unicsv -F /dev/null
  else
    missing gpsbabel "$format"
  fi
done
