#!/usr/bin/env bash
# Times one run per output format (dir, gpkg, fgb, parquet) on the same city and prints the wall
# time, peak memory and output size of each.
# Usage: benchmarks/output-formats.sh CITY_DIR OUT_DIR
#   CITY_DIR holds buildings.fgb and addresses.fgb, e.g. made by
#   .build/release/flyr-synth generate --buildings 1000000 --seed 1 --out CITY_DIR/city
#   then ogr2ogr -f FlatGeobuf CITY_DIR/buildings.fgb CITY_DIR/city/buildings.geojson (and the addresses).
set -euo pipefail
cd "$(dirname "$0")/.."
city=$1 out=$2
bin=.build/release/flyr-link
[ -x "$bin" ] || swift build -c release --product flyr-link
mkdir -p "$out"
printf '%-8s %10s %12s %12s\n' format seconds peak_MB output_MB
for format in dir gpkg fgb parquet; do
  target="$out/$format"; [ "$format" = gpkg ] && target="$out/campaign.gpkg"
  log=$(mktemp)
  /usr/bin/time -f '%e %M' -o "$log" "$bin" run --buildings "$city/buildings.fgb" --addresses "$city/addresses.fgb" \
    --out "$target" --format "$format" --quiet --overwrite >/dev/null
  read -r seconds kb <"$log"; rm -f "$log"
  size=$(du -sb "$target" | cut -f1)
  printf '%-8s %10s %12d %12d\n' "$format" "$seconds" $((kb / 1024)) $((size / 1000000))
done
