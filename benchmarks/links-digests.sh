#!/usr/bin/env bash
# Every link unchanged: links.csv's SHA-256 on the real sets and flyr-synth's three profiles at 100k,
# against benchmarks/links-digests.txt (written by the build the digests were taken from).
#   benchmarks/links-digests.sh BINDIR            compare (exit 1 on a difference, naming the set)
#   benchmarks/links-digests.sh BINDIR --write    write the digests file from BINDIR's build
# BINDIR holds flyr-link and flyr-synth (a release build: .build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "$1" && pwd)
mode=${2:-compare}
data=${FLYR_SHARED_DATA:-../shared/data}
work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-links-digests.XXXXXX")
trap 'rm -rf "$work"' EXIT
sets=(
  "helsinki data/helsinki/buildings.geojson data/helsinki/addresses.geojson"
  "la_dev $data/la_dev/buildings.geojson $data/la_dev/addresses.geojson"
  "dk $data/dk/buildings.geojson $data/dk/addresses_with_truth.geojson"
  "dk_roadpoints $data/dk_roadpoints/buildings.geojson $data/dk_roadpoints/addresses.geojson"
)
for profile in default hard dense; do
  "$bin/flyr-synth" generate --buildings 100000 --seed 1 --profile "$profile" --out "$work/synth-$profile" >/dev/null
  sets+=("synth-$profile-100k $work/synth-$profile/buildings.geojson $work/synth-$profile/addresses.geojson")
done
digests=$work/digests.txt
for s in "${sets[@]}"; do
  read -r name buildings addresses <<<"$s"
  # (A campaign given: the default one comes from the inputs' paths, here a new temporary directory.)
  "$bin/flyr-link" run --buildings "$buildings" --addresses "$addresses" --only links --out "$work/out-$name" --quiet \
    --campaign 5d1c0e4a-2b7f-5c3e-9a6d-8f4b2e1c7a90 >/dev/null 2>&1
  echo "$(sha256sum < "$work/out-$name/links.csv" | cut -d' ' -f1)  $name" >> "$digests"
done
if [ "$mode" = --write ]; then
  cp "$digests" benchmarks/links-digests.txt
  echo "links digests: written to benchmarks/links-digests.txt"
  exit 0
fi
if diff <(sort -k2 benchmarks/links-digests.txt) <(sort -k2 "$digests") >/dev/null; then
  echo "links digests: ${#sets[@]} sets, every links.csv as before"
else
  echo "links digests: links.csv differs on: $(join -1 2 -2 2 <(sort -k2 benchmarks/links-digests.txt) <(sort -k2 "$digests") | awk '$2 != $3 {print $1}' | tr '\n' ' ')"
  exit 1
fi
