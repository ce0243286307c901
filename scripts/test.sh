#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# FLYR_SCRATCH_PATH: build somewhere other than .build (e.g. a second checkout sharing the machine).
scratch=()
[ -z "${FLYR_SCRATCH_PATH:-}" ] || scratch=(--scratch-path "$FLYR_SCRATCH_PATH")
swift build "${scratch[@]}" --build-tests
# The PostgreSQL tests need a server: a throwaway one on a loopback port unless FLYR_TEST_PG names one.
if [ -z "${FLYR_TEST_PG:-}" ]; then
  pgdir=$(mktemp -d "${TMPDIR:-/tmp}/flyr-pg.XXXXXX")
  trap 'scripts/pg-test-server.sh stop "$pgdir"' EXIT
  FLYR_TEST_PG=$(scripts/pg-test-server.sh start "$pgdir")
  export FLYR_TEST_PG
fi
# The XCTest cases in two processes at once (each test makes its own directories and database
# schemas); their counts from the xUnit report.
xunit=$(mktemp --suffix=.xml)
status=0
swift test "${scratch[@]}" --skip-build --disable-swift-testing --parallel --num-workers 2 --xunit-output "$xunit" "$@" || status=$?
# The Python package (python/test.sh: pytest on Helsinki and la_dev, its venv made on first use)
# over the debug build's binary.
python_log=$(mktemp)
python/test.sh "$(swift build "${scratch[@]}" --show-bin-path)/flyr-link" 2>&1 | tee "$python_log" || status=1
# The benchmark harness, as a smoke test (10k buildings, every tool; no timing assertion).
python3 benchmarks/run_benchmarks.py --smoke --configuration debug --scratch-path "${FLYR_SCRATCH_PATH:-.build}" || { echo "benchmark harness smoke test (benchmarks/run_benchmarks.py --smoke): FAILED"; status=1; }
# The distributed run on a real Spark standalone cluster (distributed/test-cluster.sh: a master and
# two workers on 127.0.0.1, started and stopped there; a release build and PySpark from PyPI).
cluster_log=$(mktemp)
distributed/test-cluster.sh 2>&1 | tee "$cluster_log" || status=1
# Every link as before: links.csv's digests on the real sets and flyr-synth's three profiles at 100k
# (benchmarks/links-digests.txt), with the release build the cluster test made.
release_bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
swift build -c release "${scratch[@]}" --product flyr-synth >/dev/null
benchmarks/links-digests.sh "$release_bin" || { echo "links digests (benchmarks/links-digests.sh): FAILED"; status=1; }
# XCTest's counts (tests, failures and errors of the xUnit report), restated as the plain closing
# line with the distributed checks' and pytest's.
summary=$(grep -oE '<testsuite [^>]*>' "$xunit" | head -1 || true)
cluster=$(grep -E "^distributed: [0-9]+ passed, [0-9]+ failed" "$cluster_log" | tail -1 || true)
pytest_summary=$(grep -E "^[0-9]+ (passed|failed|errors?|skipped)[a-z0-9, ]* in [0-9.]+s" "$python_log" | tail -1 || true)
pytest_count() { grep -oE "[0-9]+ $1" <<<"$pytest_summary" | grep -oE "^[0-9]+" || echo 0; }
rm -f "$xunit" "$cluster_log" "$python_log"
if [ -n "$summary" ]; then
  xunit_count() { sed -E "s/.* $1=\"([0-9]+)\".*/\1/" <<<"$summary"; }
  total=$(xunit_count tests)
  failed=$(($(xunit_count failures) + $(xunit_count errors)))
  if [ -n "$cluster" ]; then
    total=$((total + $(sed -E 's/^distributed: ([0-9]+) passed, ([0-9]+) failed/\1 + \2/' <<<"$cluster")))
    failed=$((failed + $(sed -E 's/^distributed: ([0-9]+) passed, ([0-9]+) failed/\2/' <<<"$cluster")))
  else
    failed=$((failed + 1)); total=$((total + 1))
  fi
  if [ -n "$pytest_summary" ]; then
    py_failed=$(($(pytest_count failed) + $(pytest_count "errors?")))
    total=$((total + $(pytest_count passed) + py_failed)); failed=$((failed + py_failed))
  else
    failed=$((failed + 1)); total=$((total + 1))
  fi
  echo "tests: $((total - failed)) passed, $failed failed"
fi
exit $status
