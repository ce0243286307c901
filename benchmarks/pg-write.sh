#!/usr/bin/env bash
# Benchmark: the same run written to files and into PostgreSQL/PostGIS (issue 7's bar: the database
# run takes at most twice the file run).
#
#   benchmarks/pg-write.sh [N_BUILDINGS] [SEED]        (default 1000000 1)
#
# The synthetic city comes from `flyr-synth generate --buildings N --seed S --out DIR` ($FLYR_SYNTH,
# else this package's flyr-synth product, else flyr-synth on the PATH); it is generated once into
# $FLYR_BENCH_DIR (default /tmp/flyr-bench). The database is $FLYR_BENCH_PG, else a throwaway server
# from scripts/pg-test-server.sh (default durability settings: fsync on). flyr-link is built in
# release mode (scratch path $FLYR_SCRATCH_PATH if set). Each variant runs once, in this order:
#   files       --out DIR (all seven files, renamed into place)
#   db-fresh    --out postgresql://… into empty tables
#   db-rerun    the same campaign again: DELETE its rows and COPY them anew, one transaction
# and prints wall times, the ratio to the file run, the table sizes, the RPC's time, and whether the
# RPC's FeatureCollection equals the file run's features.geojson (benchmarks/compare-features.py).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
seed=${2:-1}
work=${FLYR_BENCH_DIR:-/tmp/flyr-bench}
mkdir -p "$work"
scratch=()
[ -z "${FLYR_SCRATCH_PATH:-}" ] || scratch=(--scratch-path "$FLYR_SCRATCH_PATH")

swift build -c release "${scratch[@]}" --product flyr-link >/dev/null
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
synth=${FLYR_SYNTH:-}
if [ -z "$synth" ] && grep -q '"flyr-synth"' Package.swift; then
  swift build -c release "${scratch[@]}" --product flyr-synth >/dev/null
  synth="$bin/flyr-synth"
fi
synth=${synth:-$(command -v flyr-synth || true)}
city="$work/city-$n-$seed"
if [ ! -f "$city/buildings.geojson" ]; then
  [ -n "$synth" ] || { echo "no flyr-synth: set FLYR_SYNTH to its binary" >&2; exit 1; }
  "$synth" generate --buildings "$n" --seed "$seed" --out "$city" >&2
fi

db=${FLYR_BENCH_PG:-}
if [ -z "$db" ]; then
  pgdir=$(mktemp -d "${TMPDIR:-/tmp}/flyr-pg-bench.XXXXXX")
  trap 'scripts/pg-test-server.sh stop "$pgdir"' EXIT
  db=$(scripts/pg-test-server.sh start "$pgdir")
fi
campaign=7e57be7c-0000-5000-8000-000000000001
common=(run --buildings "$city/buildings.geojson" --addresses "$city/addresses.geojson" --campaign "$campaign" --quiet)

seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }'
}

files=$(seconds "$bin/flyr-link" "${common[@]}" --out "$work/out-$n")
fresh=$(seconds "$bin/flyr-link" "${common[@]}" --out "$db")
rerun=$(seconds "$bin/flyr-link" "${common[@]}" --out "$db")
sizes=$(psql -X -At "$db" -c "SELECT string_agg(format('%s %s rows %s', c.relname, c.reltuples::bigint, pg_size_pretty(pg_total_relation_size(c.oid))), '; ' ORDER BY c.relname)
  FROM pg_class c WHERE c.relname IN ('ref_buildings_gold','campaign_buildings','campaign_addresses','building_address_links','building_units')
  AND c.relnamespace = current_schema()::regnamespace")

echo "flyr-link write benchmark: $n buildings (seed $seed), $(nproc) cores, $(psql -X -At "$db" -c 'SHOW server_version')"
printf '%-10s %8s %8s\n' variant seconds ratio
printf '%-10s %8s %8s\n' files "$files" 1.00
printf '%-10s %8s %8s\n' db-fresh "$fresh" "$(awk -v a="$fresh" -v b="$files" 'BEGIN { printf "%.2f", a / b }')"
printf '%-10s %8s %8s\n' db-rerun "$rerun" "$(awk -v a="$rerun" -v b="$files" 'BEGIN { printf "%.2f", a / b }')"
echo "tables: $sizes"
# The same campaign through the RPC: its time, and equality with the file run's features.geojson.
t0=$(date +%s.%N)
psql -X -At "$db" -c "SELECT json_array_elements(rpc_get_campaign_full_features('$campaign') -> 'features')" >"$work/rpc-$n.lines"
t1=$(date +%s.%N)
echo "rpc_get_campaign_full_features: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
python3 benchmarks/compare-features.py "$work/rpc-$n.lines" "$work/out-$n/features.geojson"
rm -f "$work/rpc-$n.lines"
