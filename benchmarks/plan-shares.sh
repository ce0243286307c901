#!/usr/bin/env bash
# The plan from shares against the plan from a whole read, on this machine, one process at a time
# (each timed by /usr/bin/time: wall, CPU, peak memory):
#   benchmarks/plan-shares.sh BUILDINGS ADDRESSES SHARES [TILES]   (GeoParquet sources)
# The shares' steps run as the launcher runs them (a share's scan and measure with --threads 1,
# each a Spark task; frame and plan on the driver); then the two plans' frame and report of the
# sources are compared.
set -euo pipefail
cd "$(dirname "$0")/.."
buildings=$1 addresses=$2 shares=$3 tiles=${4:-12}
flyr=${FLYR_LINK_BIN:-$(pwd)/.build/release/flyr-link}
work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-plan-shares.XXXXXX")
trap 'rm -rf "$work"' EXIT
sources=(--buildings "$buildings" --addresses "$addresses" --parquet-reader flyr)
timed() { /usr/bin/time -a -o "$work/steps.time" -f "%e %U %S %M $1" "${@:2}" >/dev/null; }
timed whole "$flyr" plan "${sources[@]}" --tiles "$tiles" --out "$work/whole.json"
mkdir "$work/shares"
for k in $(seq 0 $((shares - 1))); do timed scan "$flyr" plan-share scan "${sources[@]}" --share "$k/$shares" --shares "$work/shares" --threads 1; done
timed frame "$flyr" plan-share frame "${sources[@]}" --count "$shares" --shares "$work/shares"
for k in $(seq 0 $((shares - 1))); do timed measure "$flyr" plan-share measure "${sources[@]}" --share "$k/$shares" --shares "$work/shares" --threads 1; done
timed plan "$flyr" plan "${sources[@]}" --shares "$work/shares" --tiles "$tiles" --out "$work/shared.json"
python3 - "$work/steps.time" <<'PY'
import collections, sys
steps = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 5 and f[0][0].isdigit():
        steps[f[4]].append((float(f[0]), float(f[1]) + float(f[2]), int(f[3]) // 1024))
names = {"whole": "plan, whole read", "scan": "share scan", "frame": "frame (driver)", "measure": "share measure", "plan": "plan --shares (driver)"}
for key, name in names.items():
    t = steps[key]
    w = [x[0] for x in t]
    print(f"  {name:24s} processes {len(t):3d}  wall mean {sum(w) / len(w):7.2f} s  max {max(w):7.2f} s  "
          f"CPU {sum(x[1] for x in t):7.2f} s  peak {max(x[2] for x in t):5d} MB")
PY
python3 - "$work/whole.json" "$work/shared.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
same = a["frame"] == b["frame"] and a["sources"] == b["sources"] and a["addresses"] == b["addresses"] and a["buildings"] == b["buildings"]
print("plans: the same frame and report of the sources" if same else "plans: DIFFER")
sys.exit(0 if same else 1)
PY
