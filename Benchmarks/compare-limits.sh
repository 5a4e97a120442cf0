#!/usr/bin/env bash
# routemiles against the lean C limits (Benchmarks/c-limits/) on one generated drive written in four
# layouts: canonical CSV, phone-export CSV, GPX and NMEA (GenerateSampleRoutes --drive, seed 99,
# ~500,000 positions by default). For each layout it
#   1. checks the C scan and `routemiles measure --no-filter` print the same metres (to 0.5 m),
#   2. times the C scan and `routemiles measure --threads 1` (floor on), CPU time user + system of
#      the process alone, runs interleaved, minimum of RUNS,
#   3. prints C CPU ÷ routemiles CPU: the fraction of the limit routemiles reaches; the target is
#      ≥ 0.5, printed as met or NOT met.
# With --peers it also times GPSBabel on the GPX and NMEA files (xcsv with PATH_DISTANCE_METERS:
# the cumulative distance across every gap, no gap or session rule) and prints its ratio the same
# way (GPSBabel CPU ÷ routemiles CPU, > 1 means routemiles is faster).
# Needs only swift, cc and python3 (and gpsbabel for --peers). Exit status 1 if the metres disagree;
# a missed target is printed, not an error.
#
#   Benchmarks/compare-limits.sh [--runs N] [--seconds S] [--peers] [--install] [--no-build] [--keep DIR]
#
# --runs N      runs of each program per layout (default 5); the minimum CPU time counts
# --seconds S   length of the generated drive (default 500000: 1 Hz, about 500,000 positions)
# --peers       also time GPSBabel (listed as not installed if it is missing, never skipped silently)
# --install     install GPSBabel with apt-get first (Debian/Ubuntu; implies --peers)
# --no-build    use the existing .build/release binaries
# --keep DIR    write the generated files and C binaries to DIR and keep them
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
seconds=500000
peers=0
install=0
build=1
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --peers) peers=1 ;;
    --install) install=1; peers=1 ;;
    --no-build) build=0 ;;
    --keep) keep="$2"; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done

if [ "$install" = 1 ] && ! command -v gpsbabel >/dev/null; then
  SUDO=; if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gpsbabel >/dev/null
fi
if [ "$build" = 1 ]; then
  swift build -c release --product routemiles >/dev/null
  swift build -c release --product GenerateSampleRoutes >/dev/null
fi

if [ -n "$keep" ]; then
  mkdir -p "$keep"; work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d /tmp/routemiles-limits.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
for scan in csvhav csvhav_phone gpxhav nmeahav; do
  cc -O2 -w -o "$work/$scan" "Benchmarks/c-limits/$scan.c" -lm  # -w: their warnings are theirs
done
for layout in csv phone-csv gpx nmea; do
  [ -s "$work/$layout.${layout#phone-}" ] || .build/release/GenerateSampleRoutes --drive "$layout" "$seconds" "$work/$layout.${layout#phone-}" 2>/dev/null
done
# csvhav.c reads the canonical columns without altitude and with a numbered session: the same
# rows, rewritten once (not timed) as timestamp,latitude,longitude,horizontal_accuracy,speed,course,session_id.
[ -s "$work/canonical.csv" ] || awk -F, -v OFS=, '
  NR == 1 { print "timestamp,latitude,longitude,horizontal_accuracy,speed,course,session_id"; next }
  { if (!($8 in session)) session[$8] = ++sessions; print $1, $2, $3, $4, $5, $6, session[$8] }' \
  "$work/csv.csv" > "$work/canonical.csv"
gpsbabel_bin=
if [ "$peers" = 1 ]; then gpsbabel_bin=$(command -v gpsbabel || true); fi
cat > "$work/distance.style" <<'STYLE'
FIELD_DELIMITER COMMA
RECORD_DELIMITER NEWLINE
OFIELD PATH_DISTANCE_METERS,"","%.3f"
STYLE

WORK="$work" RUNS="$runs" PEERS="$peers" GPSBABEL="$gpsbabel_bin" python3 - <<'PY'
import json, os, re, subprocess, sys

work, runs = os.environ["WORK"], int(os.environ["RUNS"])
peers, gpsbabel = os.environ["PEERS"] == "1", os.environ["GPSBABEL"]
routemiles = os.path.abspath(".build/release/routemiles")
layouts = [  # label, file, C scan, GPSBabel input format (None: not timed)
    ("canonical CSV", "canonical.csv", "csvhav", None),
    ("phone CSV", "phone-csv.csv", "csvhav_phone", None),
    ("GPX", "gpx.gpx", "gpxhav", "gpx"),
    ("NMEA", "nmea.nmea", "nmeahav", "nmea"),
]

def cpu(command, output=subprocess.DEVNULL):
    """CPU seconds (user + system) of one run of `command` alone, and its standard output."""
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed (exit {process.returncode}): {process.stderr.read().decode(errors='replace')[-300:]}")
    return usage.ru_utime + usage.ru_stime

def run_text(command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout

def routemiles_metres(path):
    return float(json.loads(run_text([routemiles, "measure", "--json", "--no-filter", path]))["meters"])

def c_metres(scan, path):
    text = run_text([os.path.join(work, scan), path])
    return float(re.search(r"(?:total_m|meters)=([0-9.]+)", text).group(1)), text.strip()

print(f"load average {' '.join(open('/proc/loadavg').read().split()[:3])}; {os.cpu_count()} cores; CPU time user+sys, one thread, interleaved, min of {runs}\n")
disagree = False
for label, name, scan, _ in layouts:
    path = os.path.join(work, name)
    c, text = c_metres(scan, path)
    r = routemiles_metres(path)
    agree = abs(c - r) <= 0.5
    disagree |= not agree
    print(f"{label:<14} {os.path.getsize(path):>12,} bytes  C {c:,.3f} m  routemiles --no-filter {r:,.3f} m  {'agree' if agree else 'DISAGREE'}")
if disagree:
    sys.exit("the C limit and routemiles disagree on the distance: the comparison is void")

tools = {label: {} for label, *_ in layouts}
for _ in range(runs):
    for label, name, scan, babel in layouts:
        path = os.path.join(work, name)
        times = tools[label]
        for tool, command, output in [
            ("C", [os.path.join(work, scan), path], subprocess.DEVNULL),
            ("routemiles", [routemiles, "measure", "--threads", "1", path], subprocess.DEVNULL),
        ] + ([("GPSBabel", [gpsbabel, "-i", babel, "-f", path, "-o", f"xcsv,style={work}/distance.style", "-F", f"{work}/babel.csv"], subprocess.DEVNULL)] if peers and gpsbabel and babel else []):
            seconds = cpu(command, output)
            times[tool] = min(times.get(tool, seconds), seconds)

print(f"\n{'layout':<14} {'C s':>8} {'routemiles s':>13} {'C ÷ routemiles':>15}  target ≥ 0.5")
missed = []
for label, *_ in layouts:
    t = tools[label]
    ratio = t["C"] / t["routemiles"]
    verdict = "met" if ratio >= 0.5 else "NOT met"
    if ratio < 0.5: missed.append(label)
    print(f"{label:<14} {t['C']:>8.3f} {t['routemiles']:>13.3f} {ratio:>14.2f}×  {verdict}")
if peers:
    print()
    if not gpsbabel:
        print("GPSBabel       not installed (run with --install, or apt-get install gpsbabel)")
    else:
        version = run_text([gpsbabel, "-V"]).split()[-1]
        for label, name, _, babel in layouts:
            if not babel: continue
            t = tools[label]
            print(f"GPSBabel {version} {label:<5} {t['GPSBabel']:>7.3f} s  GPSBabel ÷ routemiles {t['GPSBabel'] / t['routemiles']:.1f}×  (xcsv PATH_DISTANCE_METERS, across every gap)")
        for label, name, _, babel in layouts:
            if not babel: continue
            subprocess.run([gpsbabel, "-i", babel, "-f", os.path.join(work, name), "-o", f"xcsv,style={work}/distance.style", "-F", f"{work}/babel.csv"], check=True)
            total = open(os.path.join(work, "babel.csv")).read().split()[-1]
            print(f"GPSBabel {label:<5} reports {float(total):,.3f} m (every gap included; routemiles and C join fixes at most 120 s apart)")
print("\nall targets met" if not missed else f"\ntargets NOT met: {', '.join(missed)} (C ÷ routemiles < 0.5)")
PY
