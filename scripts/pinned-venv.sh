#!/usr/bin/env bash
# A git-ignored Python virtual environment with pinned packages from PyPI, made on first use:
#   scripts/pinned-venv.sh VENV_DIR "import a, b" PIP_INSTALL_ARGS...
# Prints the environment's python. Remade when the check import fails (a fresh machine, a
# changed requirements file); installs python3-venv from Debian when the system lacks it.
set -euo pipefail
venv=$1 check=$2
shift 2
if ! "$venv/bin/python" -c "$check" 2>/dev/null; then
  python3 -c "import ensurepip, venv" 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$@" >&2
fi
echo "$venv/bin/python"
