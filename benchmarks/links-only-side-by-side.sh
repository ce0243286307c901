#!/usr/bin/env bash
# Links-only runs of several flyr-link builds taking turns (on a shared machine only their ratio
# means something): wall, CPU (user + sys) and peak resident memory of each run.
#   benchmarks/links-only-side-by-side.sh BUILDINGS ADDRESSES ROUNDS BINARY...
# e.g. the rules' build (d4cc5d6, in a worktree) against this one, on the 1M synthetic city as
# FlatGeobuf (flyr-synth generate --buildings 1000000 --seed 1, then ogr2ogr -f FlatGeobuf):
#   benchmarks/links-only-side-by-side.sh b.fgb a.fgb 3 ../wt-base/.build/release/flyr-link .build/release/flyr-link
set -euo pipefail
buildings=$1 addresses=$2 rounds=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
  for bin in "$@"; do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" run --buildings "$buildings" --addresses "$addresses" \
      --only links --out "$out/run" --quiet >/dev/null 2>&1
    read -r wall user sys kb < "$out/time"
    printf "round %d  %-50s wall %6.2f s  CPU %6.2f s  peak %4d MB\n" "$r" "$bin" "$wall" "$(echo "$user + $sys" | bc)" $((kb / 1024))
  done
done
