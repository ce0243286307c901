#!/usr/bin/env bash
# Puts flyr-link and flyr-synth on the PATH: installs the Debian packages they need
# (scripts/install-deps.sh), builds both (release) and copies them to PREFIX/bin.
#   scripts/install.sh [PREFIX]      PREFIX defaults to /usr/local (so /usr/local/bin/flyr-link)
# The binaries use the Swift runtime of the toolchain that built them (the toolchain stays installed).
# FLYR_INSTALL_FROM=DIR copies the binaries already built in DIR instead of building (the tests use it).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
if [ -n "${FLYR_INSTALL_FROM:-}" ]; then
  bin="$FLYR_INSTALL_FROM"
else
  command -v swift >/dev/null || { echo "install.sh: no swift on the PATH: install a Swift 6 toolchain first (README, Set-up)" >&2; exit 1; }
  scripts/install-deps.sh
  swift build -c release --product flyr-link
  swift build -c release --product flyr-synth
  bin=.build/release
fi
for tool in flyr-link flyr-synth; do
  [ -x "$bin/$tool" ] || { echo "install.sh: $bin/$tool is not built" >&2; exit 1; }
done
mkdir -p "$prefix/bin"
for tool in flyr-link flyr-synth; do
  # A copy beside, then renamed over the old one: a running flyr-link is never overwritten mid-read.
  install -m 755 "$bin/$tool" "$prefix/bin/.$tool.new"
  mv -f "$prefix/bin/.$tool.new" "$prefix/bin/$tool"
done
echo "installed $prefix/bin/flyr-link and $prefix/bin/flyr-synth"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "($prefix/bin is not on your PATH: add it, e.g. export PATH=\"$prefix/bin:\$PATH\")" ;; esac
