#!/usr/bin/env bash
# Scores flyr-link against ground truth on synthetic cities, beside the naive baseline
# (containment, then the nearest building within 30 m), and on the Danish register sample.
#   benchmarks/evaluate.sh [buildings=20000] [seeds="1 2 3 4"]
# Prints one summary line per city and run, then the full evaluation of the first seed.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
seeds=${2:-"1 2 3 4"}
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
bin=.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary() {  # label, links, truth, [units]
  "$bin/flyr-synth" evaluate --links "$2" --truth "$3" ${4:+--units "$4"} --json | python3 benchmarks/summarize.py "$1"
}
first=""
for seed in $seeds; do
  city="$work/city-$seed"
  "$bin/flyr-synth" generate --buildings "$n" --seed "$seed" --out "$city" >/dev/null
  "$bin/flyr-link" run --buildings "$city/buildings.geojson" --addresses "$city/addresses.geojson" --out "$work/flyr-$seed" --quiet >/dev/null
  "$bin/flyr-link" run --buildings "$city/buildings.geojson" --addresses "$city/addresses.geojson" --out "$work/naive-$seed" \
    --matcher naive --max-distance 30 --units none --quiet >/dev/null
  summary "seed $seed flyr-link" "$work/flyr-$seed/links.csv" "$city/truth.csv" "$work/flyr-$seed/units.geojson"
  summary "seed $seed naive baseline" "$work/naive-$seed/links.csv" "$city/truth.csv"
  [ -n "$first" ] || first=$seed
done
echo
"$bin/flyr-synth" evaluate --links "$work/flyr-$first/links.csv" --truth "$work/city-$first/truth.csv" --units "$work/flyr-$first/units.geojson"
dk=../shared/data/dk
if [ -d "$dk" ]; then
  "$bin/flyr-link" run --buildings "$dk/buildings.geojson" --addresses "$dk/addresses_with_truth.geojson" --out "$work/dk" \
    --address-field id=husnummer_id --building-field id=ID_LOKALID --quiet >/dev/null
  python3 - "$dk/addresses_with_truth.geojson" "$work/dk/links.csv" <<'PY'
import csv, json, sys
truth = {f["properties"]["husnummer_id"]: f["properties"]["truth_bygning_id"] for f in json.load(open(sys.argv[1]))["features"]}
links = {r["address_id"]: r["building_id"] for r in csv.DictReader(open(sys.argv[2]))}
ok = sum(1 for a, b in truth.items() if links.get(a) == b)
print(f"\nDanish register sample: {ok} of {len(truth)} addresses linked to their true building ({ok / len(truth):.2%})")
PY
fi
