#!/usr/bin/env bash
# A virtual environment with moto's S3 server (pinned, from PyPI) for the remote GeoParquet tests:
# Tests/Support/.venv-moto, made on first use. Prints the environment's python.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../../scripts/pinned-venv.sh" "$here/.venv-moto" "import moto.server, boto3" "moto[server]==5.2.5"
