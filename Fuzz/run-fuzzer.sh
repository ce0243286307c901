#!/bin/sh
# Builds the libFuzzer target (library sources + Fuzz/FuzzGeoParquet.swift, with
# -sanitize=fuzzer,address) and runs it on Fuzz/corpus for the given number of seconds.
#   Fuzz/run-fuzzer.sh [seconds=60] [extra libFuzzer flags...]
# New interesting inputs go to .build/fuzz-corpus (the committed corpus is not modified);
# crashes are written to .build/fuzz-artifacts/.
set -eu
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-60}"
[ $# -gt 0 ] && shift
SWIFTC="${SWIFTC:-swiftc}"
OUT=.build/fuzz
mkdir -p "$OUT" .build/fuzz-corpus .build/fuzz-artifacts
"$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name GeoParquet \
    -I Sources/CSnappy -I Sources/CZstd -I Sources/CZlib -I Sources/CBrotli -I Sources/CLZ4 \
    Sources/GeoParquet/*.swift Fuzz/FuzzGeoParquet.swift \
    -lsnappy -lzstd -lz -lbrotlidec -llz4 \
    -o "$OUT/fuzz-geoparquet"
exec "$OUT/fuzz-geoparquet" .build/fuzz-corpus Fuzz/corpus \
    -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -rss_limit_mb=4096 -timeout=10 \
    -artifact_prefix=.build/fuzz-artifacts/ -print_final_stats=1 "$@"
