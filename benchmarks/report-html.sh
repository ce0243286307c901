#!/usr/bin/env bash
# report.html at scale: its size, the time it takes inside a run (the "report" stage of the
# progress lines, shown on a terminal: `script` gives the run one), and the run's time with and
# without it, in alternating rounds.
#   benchmarks/report-html.sh [buildings=1000000] [workdir=/tmp/flyr-report-bench] [rounds=3]
# Needs ogr2ogr (gdal-bin) and script (bsdutils).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
work=${2:-/tmp/flyr-report-bench}
rounds=${3:-3}
mkdir -p "$work"
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
bin=$PWD/.build/release
if [ ! -f "$work/city/buildings.geojson" ]; then
  "$bin/flyr-synth" generate --buildings "$n" --seed 1 --out "$work/city" >/dev/null
fi
[ -f "$work/buildings.fgb" ] || ogr2ogr -f FlatGeobuf "$work/buildings.fgb" "$work/city/buildings.geojson"
[ -f "$work/addresses.fgb" ] || ogr2ogr -f FlatGeobuf "$work/addresses.fgb" "$work/city/addresses.geojson"
run() {  # run OUT [extra options]: prints the progress lines (a pseudo-terminal) and the wall time
  local out=$1; shift
  local cmd="$bin/flyr-link run --buildings $work/buildings.fgb --addresses $work/addresses.fgb --out $out --overwrite $*"
  local t0 t1
  t0=$(date +%s.%N)
  script -qec "$cmd" /dev/null | tr '\r' '\n' | sed 's/\x1b\[2K//g' > "$out.log"
  t1=$(date +%s.%N)
  echo "wall $(python3 -c "print(f'{$t1 - $t0:.2f}')")" >> "$out.log"
}
for round in $(seq "$rounds"); do
  for mode in html no-html links-html links-no-html; do
    case $mode in
      html) run "$work/out-html" ;;
      no-html) run "$work/out-no-html" --no-html ;;
      links-html) run "$work/out-links-html" --only links ;;
      links-no-html) run "$work/out-links-no-html" --only links --no-html ;;
    esac
    echo "round $round, $mode: report stage $(sed -n 's/^report *\([0-9.]*s\).*/\1/p' "$work/out-$mode.log" | head -1)," \
         "write $(sed -n 's/^write *\([0-9.]*s\).*/\1/p' "$work/out-$mode.log" | head -1), $(tail -1 "$work/out-$mode.log")"
  done
done
echo "report.html: $(stat -c %s "$work/out-html/report.html") bytes (all outputs), $(stat -c %s "$work/out-links-html/report.html") bytes (--only links)"
t0=$(date +%s.%N)
"$bin/flyr-link" report "$work/out-html" >/dev/null
t1=$(date +%s.%N)
echo "flyr-link report (reading the outputs back): $(python3 -c "print(f'{$t1 - $t0:.2f}')") s"
