#!/usr/bin/env bash
# The Python package's tests: python/test.sh FLYR_LINK_BINARY [pytest args…]. Makes python/.venv
# (git-ignored; pinned packages from PyPI) when missing, installs ./python into it, runs pytest.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: python/test.sh FLYR_LINK_BINARY [pytest args…]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
binary=$(realpath "$1")
shift
venv=$here/.venv
if ! "$venv/bin/python" -c "import geopandas, pyogrio, pyarrow, pytest, setuptools" 2>/dev/null; then
  python3 -c "import ensurepip, venv" 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements-test.txt"
fi
# Reinstalled each time (not editable) so the tests import the package as `pip install ./python` makes it.
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps --no-build-isolation --force-reinstall "$here"
cd "$here"
FLYR_LINK=$binary exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
