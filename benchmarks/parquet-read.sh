#!/usr/bin/env bash
# GeoParquet read speed and spatial pruning, side by side in one run:
#  - 1,000,000 synthetic buildings read from GeoParquet (snappy, 10,000-row groups, Hilbert-sorted)
#    by the project's reader, against GDAL reading the same buildings from FlatGeobuf;
#  - a territory covering 5% of the city's area: how many row groups are read.
#   benchmarks/parquet-read.sh [buildings=1000000] [workdir=/tmp/flyr-parquet-bench]
# Needs python3 with pyarrow (pip install pyarrow) and ogr2ogr.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
work=${2:-/tmp/flyr-parquet-bench}
mkdir -p "$work"
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
bin=.build/release
if [ ! -f "$work/city/buildings.geojson" ]; then
  "$bin/flyr-synth" generate --buildings "$n" --seed 1 --out "$work/city" >/dev/null
fi
[ -f "$work/buildings.fgb" ] || ogr2ogr -f FlatGeobuf "$work/buildings.fgb" "$work/city/buildings.geojson"
[ -f "$work/buildings.snappy.parquet" ] || python3 scripts/make-parquet-city.py "$work/city" "$work" 10000
seconds() { "$bin/flyr-link" inspect "$@" | sed -n 's/^seconds: *//p'; }
echo "reading $n buildings, three alternating rounds (seconds)"
pq=(); fgb=()
for round in 1 2 3; do
  pq+=("$(seconds "$work/buildings.snappy.parquet" --parquet-reader flyr)")
  fgb+=("$(seconds "$work/buildings.fgb")")
done
python3 - "${pq[@]}" "${fgb[@]}" <<'PY'
import statistics, sys
v = [float(x) for x in sys.argv[1:]]
pq, fgb = v[:3], v[3:]
print(f"GeoParquet, flyr-link reader: {' '.join(f'{x:.2f}' for x in pq)}  median {statistics.median(pq):.2f}")
print(f"FlatGeobuf, GDAL:             {' '.join(f'{x:.2f}' for x in fgb)}  median {statistics.median(fgb):.2f}")
print(f"ratio GeoParquet / FlatGeobuf: {statistics.median(pq) / statistics.median(fgb):.2f}")
PY
# A square at the city's centre with 5% of its bounding box's area.
territory="$work/territory-5pct.geojson"
python3 benchmarks/territory-5pct.py "$work/city/city.json" "$territory"
echo "territory covering 5% of the area:"
"$bin/flyr-link" inspect "$work/buildings.snappy.parquet" --parquet-reader flyr --territory "$territory" | grep -E "^(features|parquet|seconds)"
