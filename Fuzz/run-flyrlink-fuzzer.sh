#!/bin/sh
# Builds and runs a libFuzzer target for one of flyr-link's own readers:
#   Fuzz/run-flyrlink-fuzzer.sh TARGET [seconds=60] [extra libFuzzer flags...]
# TARGET: geojson (GeoJSON scanner/reader), flatgeobuf (FlatGeobuf reader), wkb (WKB reader),
# pipeline (pipeline-file TOML parsers). The FlyrLink library and its dependencies are built by
# SwiftPM with -sanitize=fuzzer,address (and -enable-testing, so the targets reach the readers'
# entry points) into .build/fuzz-spm (swiftc keeps only the last -sanitize flag, so the
# combined one is passed again: with SwiftPM's two flags alone, Swift code got no coverage); Fuzz/Fuzz<Target>.swift is linked against them.
# Runs on Fuzz/corpus-TARGET; new interesting inputs go to .build/fuzz-corpus-TARGET (the
# committed corpus is not modified); crashes are written to .build/fuzz-artifacts-TARGET/.
# FUZZ_SKIP_BUILD=1 reuses the built library. Merging a run's finds into the corpus: docs/fuzzing.md.
set -eu
cd "$(dirname "$0")/.."
TARGET="${1:?target: geojson, flatgeobuf, wkb or pipeline}"
shift
SECONDS_TO_RUN="${1:-60}"
[ $# -gt 0 ] && shift
case "$TARGET" in
    geojson) SRC=FuzzGeoJSON.swift; MAXLEN=65536 ;;
    flatgeobuf) SRC=FuzzFlatGeobuf.swift; MAXLEN=65536 ;;
    wkb) SRC=FuzzWKB.swift; MAXLEN=16384 ;;
    # Leaks are not checked here: TOMLKit's TOMLTable.keys leaks the C array it reads the keys
    # from, and this Foundation's String(contentsOfFile:) its 4 KB read buffer, on every call.
    # Those leaks (about 0.5 KB an input) also grow the process past 2 GB in 10 minutes: 4 GB here.
    pipeline) SRC=FuzzPipelineFile.swift; MAXLEN=16384; set -- "$@" -detect_leaks=0; RSS_LIMIT_MB="${RSS_LIMIT_MB:-4096}"
        export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" ;;
    *) echo "unknown target $TARGET" >&2; exit 2 ;;
esac
SCRATCH=.build/fuzz-spm
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --scratch-path "$SCRATCH" --sanitize=fuzzer --sanitize=address \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -g --target FlyrLink >&2
fi
B="$SCRATCH/release"
OUT=.build/fuzz
mkdir -p "$OUT" ".build/fuzz-corpus-$TARGET" ".build/fuzz-artifacts-$TARGET" "Fuzz/corpus-$TARGET"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name Fuzz$TARGET \
    -I "$B/Modules" -Xcc -fmodule-map-file="$B/CTOML.build/module.modulemap" \
    -Xcc -fmodule-map-file="$B/CLateBound.build/module.modulemap" \
    -I Sources/CGEOS -I Sources/CSnappy -I Sources/CZstd -I Sources/CZlib -I Sources/CBrotli -I Sources/CLZ4 -I Sources/CCrypto -I Sources/CDeflate \
    Fuzz/FuzzSupport.swift "Fuzz/$SRC" \
    $(find "$B/FlyrLink.build" "$B/GeoParquet.build" "$B/TOMLKit.build" "$B/CTOML.build" "$B/CLateBound.build" -name '*.o') \
    -lgeos_c -lsnappy -lzstd -lz -ldeflate -lbrotlidec -llz4 -lcrypto -ldl -lstdc++ \
    -o "$OUT/fuzz-$TARGET"
exec "$OUT/fuzz-$TARGET" ".build/fuzz-corpus-$TARGET" "Fuzz/corpus-$TARGET" \
    -max_total_time="$SECONDS_TO_RUN" -max_len="$MAXLEN" -rss_limit_mb="${RSS_LIMIT_MB:-2048}" -timeout=10 \
    -artifact_prefix=".build/fuzz-artifacts-$TARGET/" -print_final_stats=1 "$@"
