#!/usr/bin/env bash
# A snapshot against a run over the same territory (benchmarks/README.md, "Snapshot against run,
# same territory"): the west half of a 300k-building synthetic city; `run`, `snapshot` v1 (no
# previous version) and v2 (changed inputs, v1 as the previous version), interleaved, REPS times
# each; prints every run's wall and CPU seconds (/usr/bin/time) and each kind's median.
# Usage: benchmarks/snapshot-vs-run.sh [WORK_DIR [REPS]]   (default /tmp/snapcity, 3)
#   WORK_DIR/ gets the city (made by flyr-synth when missing), territory-half.geojson, v2/ (the
#   changed inputs) and the outputs (out/, snaps-*/).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/snapcity} reps=${2:-3}
bin=.build/release/flyr-link synth=.build/release/flyr-synth
[ -x "$bin" ] && [ -x "$synth" ] || swift build -c release
[ -f "$work/buildings.geojson" ] || "$synth" generate --buildings 300000 --seed 1 --out "$work" >/dev/null
campaign=3f6c1a52-8d4e-5b7a-9c21-0e4f6a8b2d13

# The territory (west half of the city's bounding box) and v2's inputs: 500 buildings removed,
# 250 made 1 m taller, 300 addresses moved about 1 m east (fixed picks: the same files every time).
python3 - "$work" <<'EOF'
import json, os, random, sys
work = sys.argv[1]
w, s, e, n = json.load(open(f"{work}/city.json"))["bbox"]
mid = (w + e) / 2
ring = [[w, s], [mid, s], [mid, n], [w, n], [w, s]]
with open(f"{work}/territory-half.geojson", "w") as f:
    json.dump({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
               "geometry": {"type": "Polygon", "coordinates": [ring]}}]}, f)
os.makedirs(f"{work}/v2", exist_ok=True)
if not os.path.exists(f"{work}/v2/addresses.geojson"):
    rng = random.Random(26)
    b = json.load(open(f"{work}/buildings.geojson"))
    picks = rng.sample(range(len(b["features"])), 750)
    removed, changed = set(picks[:500]), picks[500:]
    for i in changed:
        p = b["features"][i]["properties"]
        p["height"] = (p.get("height") or 0) + 1
    b["features"] = [f for i, f in enumerate(b["features"]) if i not in removed]
    a = json.load(open(f"{work}/addresses.geojson"))
    for i in rng.sample(range(len(a["features"])), 300):
        c = a["features"][i]["geometry"]["coordinates"]
        c[0] += 0.00002
    # Written as flyr-synth writes them (compact, a feature a line): the same bytes to read and hash as v1's.
    for name, layer in (("buildings", b), ("addresses", a)):
        with open(f"{work}/v2/{name}.geojson", "w") as f:
            f.write('{"type":"FeatureCollection","features":[\n')
            f.write(",\n".join(json.dumps(x, separators=(",", ":")) for x in layer["features"]))
            f.write("\n]}\n")
EOF

terr="$work/territory-half.geojson"
snap=("$bin" snapshot --campaign $campaign --territory "$terr" --quiet)
v1=(--buildings "$work/buildings.geojson" --addresses "$work/addresses.geojson")
v2=(--buildings "$work/v2/buildings.geojson" --addresses "$work/v2/addresses.geojson")
# v1 once, untimed: the previous version of every timed v2.
rm -rf "$work/snaps-base"; "${snap[@]}" "${v1[@]}" --root "$work/snaps-base" >/dev/null

timed() {  # timed KIND COMMAND…: appends "KIND wall cpu" to $results
  local log; log=$(mktemp)
  /usr/bin/time -f '%e %U %S' -o "$log" "${@:2}" >/dev/null
  read -r wall user sys <"$log"; rm -f "$log"
  echo "$1 $wall $(echo "$user + $sys" | bc)" | tee -a "$results"
}
results=$(mktemp)
for r in $(seq "$reps"); do
  timed run "$bin" run "${v1[@]}" --territory "$terr" --out "$work/out" --overwrite --quiet
  rm -rf "$work/snaps-v1"
  timed v1 "${snap[@]}" "${v1[@]}" --root "$work/snaps-v1"
  rm -rf "$work/snaps-v2"; cp -a "$work/snaps-base" "$work/snaps-v2"
  timed v2 "${snap[@]}" "${v2[@]}" --root "$work/snaps-v2"
done
echo "median of $reps: kind wall_s cpu_s"
for kind in run v1 v2; do
  wall=$(awk -v k=$kind '$1 == k { print $2 }' "$results" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  cpu=$(awk -v k=$kind '$1 == k { print $3 }' "$results" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "$kind $wall $cpu"
done
rm -f "$results"
