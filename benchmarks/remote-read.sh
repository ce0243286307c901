#!/usr/bin/env bash
# Remote GeoParquet: what a 5% territory of a 1,000,000-building city fetches over loopback HTTP,
# against the compressed bytes of the row groups it needs (from the file's metadata).
#  - the synthetic city (flyr-synth, seed 1) as GeoParquet (scripts/make-parquet-city.py: 10,000-row
#    groups in Hilbert order, a bbox covering column; buildings snappy, addresses zstd);
#  - Tests/Support/range_server.py serving it on 127.0.0.1 (Range requests, a request log);
#  - flyr-link inspect URL --territory (a square at the centre with 5% of the bbox's area), and
#    the same file read locally, for the time.
#   benchmarks/remote-read.sh [buildings=1000000] [workdir=/tmp/flyr-parquet-bench]
# Needs python3 with pyarrow (PYTHON=… to name another interpreter) and ogr2ogr.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
work=${2:-/tmp/flyr-parquet-bench}
py=${PYTHON:-python3}
mkdir -p "$work"
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
bin=.build/release
[ -f "$work/city/buildings.geojson" ] || "$bin/flyr-synth" generate --buildings "$n" --seed 1 --out "$work/city" >/dev/null
[ -f "$work/buildings.snappy.parquet" ] || "$py" scripts/make-parquet-city.py "$work/city" "$work" 10000
territory="$work/territory-5pct.geojson"
"$py" benchmarks/territory-5pct.py "$work/city/city.json" "$territory"
log="$work/requests.log"; port="$work/port"
rm -f "$log" "$port"
python3 Tests/Support/range_server.py --root "$work" --port-file "$port" --log "$log" &
server=$!
trap 'kill $server' EXIT
while [ ! -f "$port" ]; do sleep 0.1; done
base="http://127.0.0.1:$(cat "$port")"
for layer in buildings.snappy addresses.zstd; do
  role=buildings; [ "$layer" = addresses.zstd ] && role=addresses
  echo "== $layer.parquet ($role), 5% territory"
  echo "local:  $("$bin/flyr-link" inspect "$work/$layer.parquet" --role $role --territory "$territory" | grep -E '^(parquet|seconds)' | tr '\n' ' ')"
  echo "remote: $("$bin/flyr-link" inspect "$base/$layer.parquet" --role $role --territory "$territory" | grep -E '^(parquet|seconds)' | tr '\n' ' ')"
  "$py" - "$work/$layer.parquet" "$territory" "$log" "/$layer.parquet" <<'PY'
import json, sys
import pyarrow.parquet as pq
path, territory, log, name = sys.argv[1:]
ring = json.load(open(territory))["features"][0]["geometry"]["coordinates"][0]
x0, y0 = min(p[0] for p in ring), min(p[1] for p in ring)
x1, y1 = max(p[0] for p in ring), max(p[1] for p in ring)
md = pq.ParquetFile(path).metadata
names = [md.schema.column(i).path for i in range(md.num_columns)]
needed = 0; groups = 0
for g in range(md.num_row_groups):
    rg = md.row_group(g)
    st = {names[i]: rg.column(i).statistics for i in range(rg.num_columns)}
    if st["bbox.xmin"].min <= x1 and st["bbox.xmax"].max >= x0 and st["bbox.ymin"].min <= y1 and st["bbox.ymax"].max >= y0:
        groups += 1
        needed += sum(rg.column(i).total_compressed_size for i in range(rg.num_columns))
fetched = requests = 0
for line in open(log):
    f = line.split()
    if f[1] == name:
        fetched += int(f[4]); requests += 1
size = __import__("os").path.getsize(path)
print(f"row groups needed: {groups} of {md.num_row_groups}, {needed} bytes; file {size} bytes")
print(f"fetched over HTTP (server log): {fetched} bytes in {requests} requests = {fetched / needed:.3f}x the needed row groups")
PY
done
