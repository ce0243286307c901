#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
log=$(mktemp)
status=0
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log" || status=$?
python3 benchmarks/run_benchmarks.py --smoke --configuration debug --scratch-path .build || { echo "benchmark harness smoke test (benchmarks/run_benchmarks.py --smoke): FAILED"; status=1; }
# XCTest's closing "Executed N tests, with F failures", restated as the plain closing line.
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1 || true)
rm -f "$log"
if [ -n "$summary" ]; then
  total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
  failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
  echo "tests: $((total - failed)) passed, $failed failed"
fi
exit $status
