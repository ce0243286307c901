#!/usr/bin/env bash
# A virtual environment with moto's S3 server (pinned, from PyPI) for the remote GeoParquet tests:
# Tests/Support/.venv-moto, made on first use. Prints the environment's python.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv="$here/.venv-moto"
if ! "$venv/bin/python" -c "import moto.server, boto3" 2>/dev/null; then
  python3 -c "import ensurepip, venv" 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "moto[server]==5.2.5" >&2
fi
echo "$venv/bin/python"
